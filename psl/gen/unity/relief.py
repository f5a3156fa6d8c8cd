"""The relief screen's pieces of the package: its materials' settings and the prefab's
quality buttons (one ReliefQuality behaviour per grid resolution, as the original world's
SetQuality), added to the prefab through PrefabAssets.parts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from psl import registry
from psl.gen.unity.assets import (
    MESH_ID,
    PrefabBuilder,
    PrefabParts,
    _button,
    _button_click,
    _rect,
    _text,
    _udonsharp,
    ref,
)
from psl.gen.unity.serialization import color

RELIEF_CLASS = "ReliefQuality"
RELIEF_ROW_NAME = "Relief"
TITLE_W = 80.0
#: the relief materials: height from alpha on, unlit (the original's look), the registry's scale
RELIEF_KEYWORDS = ("PSL_SCREEN_HEIGHT",)


def relief_floats() -> dict[str, float]:
    return {"_Height": 1.0, "_HeightScale": registry.RELIEF.height_scale}


def quality_label(side: int) -> str:
    return str(side)


@dataclass(frozen=True)
class ReliefButtons:
    """A prefab part: a row of buttons under the camera toggle, one per grid mesh (side ->
    mesh guid, finest first); each puts its mesh on the screen's MeshFilter."""

    meshes: Mapping[int, str]
    event: str
    rect: tuple[float, float, float, float] = (20, 1030, 320, 50)

    def __call__(self, b: PrefabBuilder, parts: PrefabParts) -> None:
        x, y, w, h = self.rect
        row = b.add(RELIEF_ROW_NAME, parts.canvas, rect=True, **_rect(x, y, w, h))
        title = b.add("Title", row, rect=True, **_rect(0, 0, TITLE_W, h))
        _text(b, title, "Relief", 24, color(0.9, 0.9, 0.9, 1), alignment=3)
        cls = parts.assets.classes[RELIEF_CLASS]
        n = len(self.meshes)
        gap = 6.0
        bw = (w - TITLE_W - n * gap) / n
        for k, (side, guid) in enumerate(self.meshes.items()):
            go, image = _button(b, row, f"Relief_{side}", quality_label(side),
                                _rect(TITLE_W + gap + k * (bw + gap), 0, bw, h),
                                color(0.85, 0.8, 0.95, 1))
            _, backing = _udonsharp(b, go, cls, parts.assets, self._fields(parts, guid))
            _button_click(go, image, backing, self.event)

    @staticmethod
    def _fields(parts: PrefabParts, guid: str):
        def resolve(type_name: str, field_name: str) -> object | None:
            if type_name == "Mesh":
                return ref(MESH_ID, guid, 2)
            if type_name == "MeshFilter[]":
                return [ref(parts.screen_mesh_filter)]
            return None
        return resolve
