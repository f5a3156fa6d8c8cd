"""The relief screen (as the original world's: alpha is the height of the screen's surface):
the screens' grid mesh, the relief materials' settings, and the relief quality buttons, one
ReliefQuality behaviour per grid resolution that puts its grid on every program screen of
the layout (the original's SetQuality: MeshFilter.mesh), for the player who pressed it."""

from __future__ import annotations

from psl import registry
from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import add_udonsharp
from psl.gen.unity.components.ugui import add_button, add_button_click, add_text, rect
from psl.gen.unity.mesh import MESH_ID
from psl.gen.unity.serialization import Flow, builtin_ref, color, ref, vec

RELIEF_CLASS = "ReliefQuality"
RELIEF_ROW_NAME = "Relief"
#: the relief materials: height from alpha on, unlit (the original's look), the registry's scale
RELIEF_KEYWORDS = ("PSL_SCREEN_HEIGHT",)


def relief_floats() -> dict[str, float]:
    return {"_Height": 1.0, "_HeightScale": registry.RELIEF.height_scale}


def screen_mesh(assets: PrefabAssets) -> Flow:
    """The program screens' mesh: the finest grid (Unity's Quad without the grid assets)."""
    if not assets.grid_meshes:
        return builtin_ref("QuadMesh")
    finest = max(assets.grid_meshes)
    return ref(MESH_ID, assets.grid_meshes[finest], 2)


def screen_scale(size: float) -> Flow:
    """A program screen `size` metres across: uniform, so the relief's height (in screen
    widths, registry.RELIEF) scales with it, as psl run --relief and psl serve show it."""
    return vec(size, size, size)


def add_relief_buttons(b: PrefabBuilder, parent: GameObject, assets: PrefabAssets,
                       filters: list[int], *, x: float, y: float, width: float,
                       height: float = 60, font_size: int = 26) -> GameObject | None:
    """A titled row of buttons "257" .. "33" at (x, y) on `parent`; `filters` are the
    screens' MeshFilter fileIDs every button switches. None without grid meshes."""
    if not assets.grid_meshes or RELIEF_CLASS not in assets.classes:
        return None
    row = b.add(RELIEF_ROW_NAME, parent, rect=True, **rect(x, y, width, height))
    label_w = min(220.0, width / 3)
    title = b.add("Title", row, rect=True, **rect(0, 0, label_w, height))
    add_text(b, title, "Relief (yours)", font_size, color(0.9, 0.9, 0.9, 1), alignment=3)
    sides = sorted(assets.grid_meshes, reverse=True)
    gap = 10.0
    w = (width - label_w - gap * len(sides)) / len(sides)
    for k, side in enumerate(sides):
        go, image = add_button(b, row, f"Relief_{side}", str(side),
                               rect(label_w + gap + k * (w + gap), 0, w, height),
                               color(0.85, 0.8, 0.95, 1))

        def fields(type_name: str, field_name: str, _side: int = side) -> object | None:
            if type_name == "Mesh":
                return ref(MESH_ID, assets.grid_meshes[_side], 2)
            if type_name == "MeshFilter[]":
                return [ref(f) for f in filters]
            return None

        _, backing = add_udonsharp(b, go, assets.classes[RELIEF_CLASS], assets, fields)
        add_button_click(go, image, backing, udonsharp.RELIEF_EVENT)
    return row
