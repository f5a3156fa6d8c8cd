"""The program's sliders (issue 42, docs/world-setup.md "Sliders"): a world-space canvas with
one row per slider index (registry SLIDERS.count), each a label and a uGUI Slider, all hidden
until a program names them; the ProgramSliders behaviour that reads the running program's
`//@slider` lines, sets the rows and writes the values into the VM material; and the Compile
button's third call (a compile of the code box is a new program for the sliders too).

The canvas is an ordinary world canvas of the layout (VRC UiShape, trigger collider, Default
layer) so VRChat's pointer moves the sliders in VR and on desktop; rows are tall and the
handle wide so a laser can grab them. Every screen of a prefab shows the one VM material,
so one panel serves them all."""

from __future__ import annotations

from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import Wiring, add_udonsharp, backing_id
from psl.gen.unity.components.ugui import (
    NO_CALLS,
    add_image,
    add_text,
    add_world_canvas,
    rect,
    selectable,
    send_custom_event_call,
)
from psl.gen.unity.serialization import MATERIAL_ID, builtin_ref, color, ref, vec
from psl.registry import SLIDERS

SLIDERS_CLASS = "ProgramSliders"
SLIDERS_OBJECT = "ProgramSliders"  # the behaviour's object under the prefab's root
SLIDER_PANEL = "SliderPanel"  # the world canvas under the prefab's root
ROW_PREFIX = "SliderRow_"  # SliderRow_0 .. SliderRow_7 under the panel
LABEL_NAME, SLIDER_NAME = "Label", "Slider"  # under each row
TITLE = ("Sliders: named by the program's //@slider lines. Only you see your changes; "
         "Share sends them with the program.")
COLUMNS = 2
ROW_W, ROW_H, GAP, TITLE_H = 640, 100, 20, 60
LABEL_H = 40
ROWS = -(-SLIDERS.count // COLUMNS)
PANEL_W = COLUMNS * ROW_W + (COLUMNS + 1) * GAP
PANEL_H = TITLE_H + ROWS * (ROW_H + GAP // 2) + GAP
HANDLE_W = 56  # canvas units: a wide target for VR pointers


def row_path(k: int) -> str:
    """A row's path under the prefab's root."""
    return f"{SLIDER_PANEL}/{ROW_PREFIX}{k}"


def register_sliders(b: PrefabBuilder, root: GameObject, wiring: Wiring) -> GameObject:
    """The behaviour's object, registered so that every behaviour built after this gets it in
    its `sliders` field (SyncCode, ExampleButton, ProgramLoader)."""
    go = b.add(SLIDERS_OBJECT, root, rect=False)
    wiring.register(go, SLIDERS_CLASS)
    return go


def add_slider(b: PrefabBuilder, parent: GameObject, name: str, area: dict[str, object],
               calls: list[dict[str, object]]) -> int:
    """A horizontal uGUI Slider (background, fill, handle) whose onValueChanged makes the
    given persistent calls (send_custom_event_call: the behaviour then reads `value`);
    returns the Slider's fileID. Range 0..1 until a behaviour sets it."""
    go = b.add(name, parent, rect=True, **area)
    track = b.add("Background", go, rect=True, anchor_min=vec(0, 0.3), anchor_max=vec(1, 0.7),
                  pivot=vec(0.5, 0.5), anchored=vec(0, 0), size=vec(0, 0))
    add_image(b, track, color(0.3, 0.3, 0.34, 1))
    fill_area = b.add("Fill Area", go, rect=True, anchor_min=vec(0, 0.3), anchor_max=vec(1, 0.7),
                      pivot=vec(0.5, 0.5), anchored=vec(0, 0), size=vec(-HANDLE_W, 0))
    fill = b.add("Fill", fill_area, rect=True, anchor_min=vec(0, 0), anchor_max=vec(0, 1),
                 pivot=vec(0.5, 0.5), anchored=vec(0, 0), size=vec(HANDLE_W / 2, 0))
    add_image(b, fill, color(0.45, 0.7, 0.95, 1))
    slide_area = b.add("Handle Slide Area", go, rect=True, anchor_min=vec(0, 0),
                       anchor_max=vec(1, 1), pivot=vec(0.5, 0.5), anchored=vec(0, 0),
                       size=vec(-HANDLE_W, 0))
    handle = b.add("Handle", slide_area, rect=True, anchor_min=vec(0, 0), anchor_max=vec(0, 1),
                   pivot=vec(0.5, 0.5), anchored=vec(0, 0), size=vec(HANDLE_W, 0))
    handle_image = add_image(b, handle, color(0.95, 0.95, 0.95, 1))
    return b.mono(go, "Slider", builtin_ref("Slider"), {
        **selectable(handle_image),
        "m_FillRect": ref(fill.transform_id),
        "m_HandleRect": ref(handle.transform_id),
        "m_Direction": 0,  # left to right
        "m_MinValue": SLIDERS.low,
        "m_MaxValue": SLIDERS.high,
        "m_WholeNumbers": 0,
        "m_Value": SLIDERS.low,
        "m_OnValueChanged": {"m_PersistentCalls": {"m_Calls": calls}} if calls else NO_CALLS,
    })


def add_slider_panel(b: PrefabBuilder, root: GameObject, sliders_go: GameObject,
                     assets: PrefabAssets, wiring: Wiring, *,
                     position: tuple[float, float, float], scale: float) -> int:
    """The panel at `position` (its centre; `scale` metres per canvas unit) and the
    ProgramSliders behaviour on `sliders_go` (see register_sliders); returns the behaviour's
    UdonBehaviour id. `wiring` must already offer the code box and the Compiler."""
    panel = add_world_canvas(b, root, SLIDER_PANEL, width=PANEL_W, height=PANEL_H,
                             position=position, scale=scale,
                             background=color(0.12, 0.12, 0.14, 0.95))
    title = b.add("Title", panel, rect=True, **rect(GAP, 10, PANEL_W - 2 * GAP, TITLE_H - 10))
    add_text(b, title, TITLE, 24, color(0.85, 0.85, 0.85, 1))
    moved = [send_custom_event_call(backing_id(sliders_go, SLIDERS_CLASS),
                                    udonsharp.SLIDER_MOVED_EVENT)]
    rows: list[GameObject] = []
    labels: list[int] = []
    sliders: list[int] = []
    for k in range(SLIDERS.count):
        line, column = divmod(k, COLUMNS)
        x = GAP + column * (ROW_W + GAP)
        y = TITLE_H + line * (ROW_H + GAP // 2)
        # hidden until the running program names slider k (ProgramSliders shows it)
        row = b.add(f"{ROW_PREFIX}{k}", panel, rect=True, active=False,
                    **rect(x, y, ROW_W, ROW_H))
        label_go = b.add(LABEL_NAME, row, rect=True, **rect(0, 0, ROW_W, LABEL_H))
        labels.append(add_text(b, label_go, f"slider {k}", 28, color(0.9, 0.9, 0.9, 1),
                               alignment=3))
        sliders.append(add_slider(b, row, SLIDER_NAME,
                                  rect(0, LABEL_H, ROW_W, ROW_H - LABEL_H), moved))
        rows.append(row)

    def fields(type_name: str, field_name: str) -> object | None:
        if field_name == "materials":
            # the VM material every render texture of the screens runs (one per prefab)
            return [ref(MATERIAL_ID, assets.vm_material, 2)]
        if field_name == "sliders":
            return [ref(s) for s in sliders]
        if field_name == "labels":
            return [ref(t) for t in labels]
        if field_name == "rows":
            return [ref(r.id) for r in rows]
        if type_name in ("Compiler", "InputField"):
            return wiring(type_name, field_name)
        return None

    _, backing = add_udonsharp(b, sliders_go, assets.classes[SLIDERS_CLASS], assets, fields)
    return backing


def also_tell_the_sliders(button: GameObject, sliders_go: GameObject) -> None:
    """Adds ProgramSliders.ProgramChanged to a button's clicks, after what it already sends
    (the Compile button: its compile of the code box is a new program for the sliders)."""
    for component in button.components:
        if component.type_name == "MonoBehaviour" and "m_OnClick" in component.body:
            calls = component.body["m_OnClick"]["m_PersistentCalls"]["m_Calls"]  # type: ignore[index]
            calls.append(send_custom_event_call(backing_id(sliders_go, SLIDERS_CLASS),
                                                udonsharp.SLIDERS_PROGRAM_EVENT))
            return
    raise ValueError(f"{button.path} has no Button")
