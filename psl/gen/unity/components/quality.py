"""Quality buttons: one button per screen resolution, each with its own ScreenQuality
behaviour that shows every screen of the layout at that resolution, for the player who
pressed it (the original's quality cubes). Other resolutions' render textures stop updating
(on demand), so only the chosen one costs GPU time."""

from __future__ import annotations

from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import FieldResolver, add_udonsharp
from psl.gen.unity.components.ugui import add_button, add_button_click, add_text, rect
from psl.gen.unity.serialization import CRT_ID, MATERIAL_ID, color, ref

QUALITY_NAME = "Quality"


def add_quality_buttons(b: PrefabBuilder, parent: GameObject, assets: PrefabAssets,
                        resolve: FieldResolver, screens: list[int], *, x: float, y: float,
                        width: float, height: float = 60) -> GameObject:
    """A titled row of buttons "64" .. "512" at (x, y) on `parent`; `screens` are the
    MeshRenderer fileIDs every button switches."""
    row = b.add(QUALITY_NAME, parent, rect=True, **rect(x, y, width, height))
    label_w = 220
    title = b.add("Title", row, rect=True, **rect(0, 0, label_w, height))
    add_text(b, title, "Quality (yours)", 26, color(0.9, 0.9, 0.9, 1), alignment=3)
    sizes = sorted(assets.crts)
    w = (width - label_w - 10 * len(sizes)) / max(len(sizes), 1)
    buffers = [ref(CRT_ID, assets.crts[s], 2) for s in sizes]
    for k, size in enumerate(sizes):
        go, image = add_button(b, row, f"Quality_{size}", str(size),
                               rect(label_w + 10 + k * (w + 10), 0, w, height),
                               color(0.85, 0.85, 0.85, 1))

        def fields(type_name: str, field_name: str, _size: int = size) -> object | None:
            if field_name == "screens":
                return [ref(s) for s in screens]
            if field_name == "screenMaterial":
                return ref(MATERIAL_ID, assets.screen_materials[_size], 2)
            if field_name == "buffer":
                return ref(CRT_ID, assets.crts[_size], 2)
            if field_name == "buffers":
                return buffers
            return resolve(type_name, field_name)

        _, backing = add_udonsharp(b, go, assets.classes["ScreenQuality"], assets, fields)
        add_button_click(go, image, backing, udonsharp.QUALITY_EVENT)
    return row
