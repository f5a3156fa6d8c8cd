"""The Compiler behaviour and what every layout offers its fields: the code box, the output
text, the VM material, the screen's render texture and renderer, and `optimize` as
generated."""

from __future__ import annotations

from psl.gen.udonsharp import OPTIMIZE_DEFAULT, SUPERINSTRUCTIONS_DEFAULT
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import Wiring, add_udonsharp
from psl.gen.unity.serialization import CRT_ID, MATERIAL_ID, ref


def add_compiler(b: PrefabBuilder, assets: PrefabAssets, wiring: Wiring, compiler_go: GameObject,
                 sync_go: GameObject, input_field: int, output_text: int, renderer: int) -> int:
    """Offers the layout's objects to `wiring`, registers the Compiler and SyncCode (they
    refer to each other) and adds the Compiler; returns its UdonBehaviour's id."""
    wiring.offer(ref(input_field), "InputField")
    wiring.offer(ref(output_text), "Text")
    wiring.offer(ref(MATERIAL_ID, assets.vm_material, 2), "Material")
    wiring.offer(ref(CRT_ID, assets.crt, 2), "CustomRenderTexture", "RenderTexture", "Texture")
    wiring.offer(ref(renderer), "Renderer", "MeshRenderer")
    wiring.offer_field("optimize", int(OPTIMIZE_DEFAULT))  # Unity writes a bool as 0/1
    wiring.offer_field("superinstructions", int(SUPERINSTRUCTIONS_DEFAULT))
    wiring.register(compiler_go, "Compiler")
    wiring.register(sync_go, "SyncCode")
    _, backing = add_udonsharp(b, compiler_go, assets.classes["Compiler"], assets, wiring)
    return backing
