"""The running program behind the code box (the original world's InputField/Quad with
ScreenFlat.mat): a quad showing the program screens' render texture under the code, a light
veil over it so the text stays readable, and a toggle that shows or hides both.

Drawing order inside the world-space canvas: the code box's background (canvas plane), the
quad (an opaque mesh LIVE_QUAD_Z canvas units towards the reader, drawn first as opaque
geometry), the veil and then the code's text, lifted further (VEIL_Z, TEXT_Z) so the depth
test keeps them in front of the quad. The quad is a program screen like the others: the
frame-rate guard and the quality buttons switch its material with theirs, so it always shows
the resolution that is updating. Its depth scale is tiny, so the relief material's height
moves its corners by at most QUAD_DEPTH canvas units."""

from __future__ import annotations

from dataclasses import dataclass

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.components.scene import add_screen
from psl.gen.unity.components.ugui import add_image, add_toggle, fill, set_active_call
from psl.gen.unity.serialization import Flow, color, vec

LIVE_COPY_NAME = "LiveCopy"
LIVE_COPY_TOGGLE = "LiveCopyToggle"
LIVE_QUAD_NAME = "Quad"
#: canvas units towards the reader (-Z) of the quad, the veil and the code's text
LIVE_QUAD_Z, VEIL_Z, TEXT_Z = -1.0, -1.5, -2.0
#: the quad's depth scale (canvas units): the relief height moves it at most this far
QUAD_DEPTH = 0.01
#: the veil: the code box's own colour, this opaque (the program shows through the rest)
VEIL_ALPHA = 0.7


@dataclass
class LiveCopy:
    """What behind_code built: the container the toggle switches, and the quad's
    MeshRenderer fileID (a program screen for the guard and the quality buttons)."""

    go: GameObject | None = None
    renderer: int = 0


def behind_code(b: PrefabBuilder, material: Flow, width: float, height: float,
                live: LiveCopy, *, on: bool = True):
    """The add_input_field `behind_text` hook: builds <code box>/LiveCopy/{Quad, Veil}."""

    def build(code: GameObject) -> None:
        go = b.add(LIVE_COPY_NAME, code, rect=True, active=on, **fill())
        _, renderer = add_screen(b, go, LIVE_QUAD_NAME, material,
                                 position=vec(0, 0, LIVE_QUAD_Z),
                                 scale=vec(width, height, QUAD_DEPTH))
        veil = b.add("Veil", go, rect=True, position=vec(0, 0, VEIL_Z), **fill())
        # no raycast: clicks reach the code box under it
        add_image(b, veil, color(0.95, 0.95, 0.95, VEIL_ALPHA), raycast=0)
        live.go, live.renderer = go, renderer

    return build


def add_live_copy_toggle(b: PrefabBuilder, canvas: GameObject, live: LiveCopy,
                         area: dict[str, object], font_size: int = 28) -> int:
    """A Toggle whose onValueChanged calls GameObject.SetActive on the live copy (a UI event
    VRChat allows: no Udon)."""
    assert live.go is not None, "build the code box with behind_code first"
    return add_toggle(b, canvas, LIVE_COPY_TOGGLE, "Program behind code", area,
                      on=live.go.active, calls=[set_active_call(live.go.id)],
                      font_size=font_size)
