"""The per-player frame-rate guard in the prefab (FrameGuard, issue 37): its behaviour with
every resolution's screen material and render texture, the note in front of the screen that
says why the screens paused (hidden until then) with its "Run anyway" button, and the Compile
button's second call (a compile is a program change). The creator settings are written with
their defaults from psl.registry.FRAME_GUARD."""

from __future__ import annotations

from psl import registry
from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import Wiring, add_udonsharp, backing_id
from psl.gen.unity.components.ugui import (
    add_button,
    add_button_click,
    add_text,
    add_world_canvas,
    rect,
    send_custom_event_call,
)
from psl.gen.unity.serialization import CRT_ID, MATERIAL_ID, color, ref

GUARD_OBJECT = "FrameGuard"
NOTE_NAME = "GuardNote"  # the world canvas under the prefab's root, inactive
NOTE_TEXT, RUN_ANYWAY_NAME = "Message", "RunAnywayButton"
NOTE_W, NOTE_H = 1000, 300
NOTE_HINT = ("The screens stopped to keep your frame rate. Only you see this: "
             "others run the program on their own GPU.")

#: FrameGuard's creator settings and their values in the prefab (the registry's defaults)
SETTINGS: dict[str, object] = {
    "climbBelow": registry.FRAME_GUARD.climb_below_s,
    "dropAbove": registry.FRAME_GUARD.drop_above_s,
    "pauseAbove": registry.FRAME_GUARD.pause_above_s,
    "holdUpFrames": registry.FRAME_GUARD.hold_up_frames,
    "holdDownFrames": registry.FRAME_GUARD.hold_down_frames,
    "settleFrames": registry.FRAME_GUARD.settle_frames,
    "ceiling": registry.FRAME_GUARD.ceiling,
}


def register_frame_guard(b: PrefabBuilder, root: GameObject, wiring: Wiring) -> GameObject:
    """The guard's object, registered so that every behaviour built after this gets it in
    its `guard` field (SyncCode, ExampleButton, ProgramLoader, ScreenQuality)."""
    guard_go = b.add(GUARD_OBJECT, root, rect=False)
    wiring.register(guard_go, "FrameGuard")
    return guard_go


def add_frame_guard(b: PrefabBuilder, root: GameObject, guard_go: GameObject,
                    assets: PrefabAssets, wiring: Wiring, screens: list[int], *,
                    note_position: tuple[float, float, float], note_scale: float) -> int:
    """The FrameGuard behaviour over `screens` (MeshRenderer fileIDs) and the paused note;
    returns the guard's UdonBehaviour id. `wiring` must offer the Compiler."""
    note = add_world_canvas(b, root, NOTE_NAME, width=NOTE_W, height=NOTE_H,
                            position=note_position, scale=note_scale,
                            background=color(0.1, 0.05, 0.05, 0.92))
    note.active = False  # shown by the guard while the screens are paused
    message_go = b.add(NOTE_TEXT, note, rect=True, **rect(30, 20, NOTE_W - 60, 70))
    message = add_text(b, message_go, udonsharp.GUARD_PAUSED_MESSAGE, 34,
                       color(1, 0.8, 0.5, 1), style=1)
    hint_go = b.add("Hint", note, rect=True, **rect(30, 95, NOTE_W - 60, 90))
    add_text(b, hint_go, NOTE_HINT, 24, color(0.9, 0.9, 0.9, 1))
    button_go, image = add_button(b, note, RUN_ANYWAY_NAME, "Run anyway",
                                  rect((NOTE_W - 360) / 2, 200, 360, 80),
                                  color(0.95, 0.7, 0.5, 1))
    sizes = sorted(assets.crts)

    def fields(type_name: str, field_name: str) -> object | None:
        if field_name == "screens":
            return [ref(s) for s in screens]
        if field_name == "screenMaterials":
            return [ref(MATERIAL_ID, assets.screen_materials[s], 2) for s in sizes]
        if field_name == "buffers":
            return [ref(CRT_ID, assets.crts[s], 2) for s in sizes]
        if field_name == "sizes":
            return list(sizes)
        if field_name == "pausedNote":
            return ref(note.id)
        if field_name == "pausedText":
            return ref(message)
        if field_name in SETTINGS:
            return SETTINGS[field_name]
        if type_name == "Compiler":
            return wiring(type_name, field_name)
        return None

    _, backing = add_udonsharp(b, guard_go, assets.classes["FrameGuard"], assets, fields)
    add_button_click(button_go, image, backing, udonsharp.GUARD_RUN_ANYWAY_EVENT)
    return backing


def also_tell_the_guard(button: GameObject, guard_go: GameObject) -> None:
    """Adds FrameGuard.ProgramChanged to a button's clicks, after what it already sends (the
    Compile button: a compile is a program change, announced before its first frame)."""
    for component in button.components:
        if component.type_name == "MonoBehaviour" and "m_OnClick" in component.body:
            calls = component.body["m_OnClick"]["m_PersistentCalls"]["m_Calls"]  # type: ignore[index]
            calls.append(send_custom_event_call(backing_id(guard_go, "FrameGuard"),
                                                udonsharp.GUARD_PROGRAM_EVENT))
            return
    raise ValueError(f"{button.path} has no Button")
