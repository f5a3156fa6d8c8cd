"""The compact prefab (Shaderception.prefab): a 2 m screen with one canvas beside it holding
the code box (with the running program behind the code), Compile, the output text, the camera
toggle, the sharing controls, the example buttons and the live-copy toggle; the camera pickup
at hand height beside the screen; the package's video player feeding video()."""

from __future__ import annotations

from psl.gen.unity.components.builder import PrefabAssets, PrefabBuilder
from psl.gen.unity.components.camera import add_camera_input, add_camera_toggle
from psl.gen.unity.components.compiler import add_compiler
from psl.gen.unity.components.examples import add_examples
from psl.gen.unity.components.guard import (
    add_frame_guard,
    also_tell_the_guard,
    register_frame_guard,
)
from psl.gen.unity.components.listing import add_listing
from psl.gen.unity.components.livecopy import (
    TEXT_Z,
    LiveCopy,
    add_live_copy_toggle,
    behind_code,
)
from psl.gen.unity.components.programs import add_programs_panel
from psl.gen.unity.components.relief import add_relief_buttons, screen_mesh, screen_scale
from psl.gen.unity.components.scene import add_screen
from psl.gen.unity.components.sharing import add_sharing_behaviours, add_sharing_controls
from psl.gen.unity.components.sliders import (
    PANEL_H,
    add_slider_panel,
    also_tell_the_sliders,
    register_sliders,
)
from psl.gen.unity.components.udon import Wiring
from psl.gen.unity.components.ugui import (
    add_button,
    add_button_click,
    add_input_field,
    add_scroll_panel,
    add_world_canvas,
    rect,
)
from psl.gen.unity.components.video import add_video_player
from psl.gen.unity.serialization import MATERIAL_ID, color, ref, vec

NAME = "Shaderception"
CANVAS_W, CANVAS_H = 1200, 1860
CODE_H = 820
CANVAS_SCALE = 0.0015
EXAMPLE_COLUMNS = 3
#: the output panel (a scrolling Text: compile results, errors) and the reference canvas
OUTPUT_PANEL, OUTPUT_NAME, REFERENCE_NAME = "OutputPanel", "Output", "ReferencePanel"


def build(assets: PrefabAssets) -> str:
    b = PrefabBuilder()
    root = b.add(NAME, None, rect=False)
    wiring = Wiring()

    # Screen: a 2 m relief grid showing the CRT through the screen material.
    screen_material = ref(MATERIAL_ID, assets.screen_material, 2)
    screen, renderer = add_screen(b, root, "Screen", screen_material,
                                  position=vec(0, 1.6, 0), scale=screen_scale(2),
                                  mesh=screen_mesh(assets))
    canvas = add_world_canvas(b, root, "Canvas", width=CANVAS_W, height=CANVAS_H,
                              position=(2.05, 1.6, 0), scale=CANVAS_SCALE,
                              background=color(0.12, 0.12, 0.14, 0.95))
    # the running program behind the code (the original's InputField/Quad)
    live = LiveCopy()
    input_field = add_input_field(b, canvas, "CodeInput", rect(20, 20, CANVAS_W - 40, CODE_H),
                                  placeholder="Type a PSL program, then press Compile...",
                                  font_size=26, character_limit=assets.source_limit,
                                  text=assets.default_program, font=assets.font,
                                  behind_text=behind_code(b, screen_material, CANVAS_W - 40,
                                                          CODE_H, live),
                                  text_z=TEXT_Z)
    compile_go, compile_image = add_button(b, canvas, "CompileButton", "Compile",
                                           rect(20, 860, 320, 80), color(0.55, 0.85, 0.55, 1))
    output_text = add_scroll_panel(b, canvas, OUTPUT_PANEL, rect(360, 860, CANVAS_W - 380, 220),
                                   text="", font_size=24, font=assets.font,
                                   content_name=OUTPUT_NAME, rich=0)

    if assets.camera_texture:
        camera_go = add_camera_input(b, root, assets.camera_texture)
        add_camera_toggle(b, canvas, camera_go, rect(20, 960, 320, 60))

    compiler_go = b.add("Compiler", root, rect=False)
    sync_go = b.add("SyncCode", root, rect=False)
    lock_go = b.add("TypingLock", root, rect=False)
    # the frame-rate guard first: every behaviour built below gets it in its `guard` field
    guard_go = register_frame_guard(b, root, wiring)
    sliders_go = register_sliders(b, root, wiring)  # SyncCode, examples, loader
    sharing = add_sharing_controls(b, canvas, wiring, sync_go, lock_go, x=20, y=1100,
                                   width=CANVAS_W - 40)
    compiler_backing = add_compiler(b, assets, wiring, compiler_go, sync_go, input_field,
                                    output_text, renderer)
    add_sharing_behaviours(b, assets, wiring, sync_go, lock_go, sharing)
    add_button_click(compile_go, compile_image, compiler_backing, assets.compile_event)
    also_tell_the_guard(compile_go, guard_go)
    also_tell_the_sliders(compile_go, sliders_go)
    # the program's sliders above the screen (hidden rows until a program names them)
    add_slider_panel(b, root, sliders_go, assets, wiring,
                     position=(0, 2.62 + PANEL_H * CANVAS_SCALE / 2, 0), scale=CANVAS_SCALE)
    # the note in front of the screen's middle, hidden until the guard pauses the screen
    add_frame_guard(b, root, guard_go, assets, wiring, [renderer, live.renderer],
                    note_position=(0, 1.6, -0.05), note_scale=0.0015)
    add_listing(b, root, canvas, assets, wiring, rect(20, 1030, 320, 60))

    # Example buttons: each loads one program into the input field and compiles it.
    add_relief_buttons(b, canvas, assets, [screen.cid("MeshFilter")], x=20, y=1310,
                       width=CANVAS_W - 40)
    add_examples(b, canvas, assets, wiring, x=20, y=1390, width=CANVAS_W - 40, height=380,
                 columns=EXAMPLE_COLUMNS)
    add_live_copy_toggle(b, canvas, live, rect(20, 1785, 460, 60))
    if assets.video_texture:
        add_video_player(b, root, assets, position=vec(0, 1.6, 0), controls=(0, -1.2, 0))

    # The language reference beside the editor (generated from the registry).
    reference = add_world_canvas(b, root, REFERENCE_NAME, width=CANVAS_W, height=CANVAS_H,
                                 position=(2.05 + CANVAS_W * CANVAS_SCALE + 0.1, 1.6, 0),
                                 scale=CANVAS_SCALE)
    add_scroll_panel(b, reference, "Reference", rect(0, 0, CANVAS_W, CANVAS_H),
                     text=assets.reference, font_size=22, font=assets.font)

    # Programs from the web, the gallery and each player's saves, left of the screen.
    add_programs_panel(b, root, assets, wiring, position=(-1.85, 1.6, 0), scale=CANVAS_SCALE)
    return b.dump()
