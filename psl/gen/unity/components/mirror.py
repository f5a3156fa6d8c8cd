"""The mirror of the original layout (FuncWorld.unity has one, off until a player turns it
on): a quad with VRChat's mirror component and the SDK's mirror material, and a toggle that
shows or hides it for the player who presses it (GameObject.SetActive: a UI event VRChat
allows, so no Udon is needed)."""

from __future__ import annotations

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.components.scene import add_mesh_renderer
from psl.gen.unity.components.ugui import add_toggle, set_active_call
from psl.gen.unity.objects import MESH_FILTER
from psl.gen.unity.serialization import NULL, Flow, builtin_ref

MIRROR_NAME = "Mirror"
MIRROR_TOGGLE = "MirrorToggle"
#: the layer VRChat's own mirror prefab uses (Water), as the original world's mirror
MIRROR_LAYER = 4
#: everything (as the original's): players, their own avatar (MirrorReflection), the world
REFLECT_ALL = 4294967295


def add_mirror(b: PrefabBuilder, root: GameObject, *, position: Flow, scale: Flow) -> GameObject:
    """An inactive quad facing the players (-Z) with VRC Mirror Reflection."""
    go = b.add(MIRROR_NAME, root, rect=False, layer=MIRROR_LAYER, active=False,
               position=position, scale=scale)
    b.component(go, "MeshFilter", MESH_FILTER, "MeshFilter", {"m_Mesh": builtin_ref("QuadMesh")})
    add_mesh_renderer(b, go, builtin_ref("VRCMirrorMaterial"), lit=0)
    b.mono(go, "VRCMirrorReflection", builtin_ref("VRCMirrorReflection"), {
        "m_DisablePixelLights": 1,
        "TurnOffMirrorOcclusion": 1,
        "m_ReflectLayers": {"serializedVersion": 2, "m_Bits": REFLECT_ALL},
        "mirrorResolution": 0,  # auto
        "maximumAntialiasing": 4,
        "customShader": NULL,
    })
    return go


def add_mirror_toggle(b: PrefabBuilder, canvas: GameObject, mirror: GameObject,
                      area: dict[str, object], font_size: int = 28) -> int:
    return add_toggle(b, canvas, MIRROR_TOGGLE, "Mirror", area, on=mirror.active,
                      calls=[set_active_call(mirror.id)], font_size=font_size)
