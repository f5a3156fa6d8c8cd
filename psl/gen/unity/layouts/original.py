"""The original world's proportions (ShaderceptionOriginal.prefab), after FuncWorld.unity:
a 15 m screen, two screens players can pick up (2 m and 1 m), per-player quality buttons for
all of them, a 9.5 x 5 m code box in a monospace font with the output, sharing controls and
examples on one board to the screen's left, and the language reference to its right.

Seen from the players (the screens face -Z), 1 grid unit = 1 m:

     board (15 x 7.5 m)             screen (15 x 15 m, bottom 1 m up)    reference
    +-----------+--------+       +-------------------------------+      (6 x 7.5 m)
    | code box  | output |       |                               |      +-------+
    | 9.5 x 5 m |--------|       |                               |      | ABOUT |
    |           |examples|       |                               |      | SYNTAX|
    |-----------|        |       |                               |      | ...   |
    | Compile Share Load Restore Follow | quality 64..512 | camera | listing      +-------+
    +-----------+--------+       +-------------------------------+
                              [2 m pickup]   [1 m pickup]   (in front, 1.2 m up)
"""

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
from psl.gen.unity.components.mirror import add_mirror, add_mirror_toggle
from psl.gen.unity.components.programs import PANEL_H, PANEL_W, add_programs_panel
from psl.gen.unity.components.quality import add_quality_buttons
from psl.gen.unity.components.relief import add_relief_buttons, screen_mesh, screen_scale
from psl.gen.unity.components.scene import add_pickup_screen, add_screen
from psl.gen.unity.components.sharing import add_sharing_behaviours, add_sharing_controls
from psl.gen.unity.components.sliders import PANEL_H as SLIDER_H
from psl.gen.unity.components.sliders import PANEL_W as SLIDER_W
from psl.gen.unity.components.sliders import (
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
from psl.gen.unity.layouts.standard import OUTPUT_NAME, OUTPUT_PANEL, REFERENCE_NAME
from psl.gen.unity.serialization import MATERIAL_ID, color, ref, vec

NAME = "ShaderceptionOriginal"
SCREEN_SIZE = 15.0
PICKUP_SIZES = (("ScreenSmall1", 2.0, -3.0), ("ScreenSmall2", 1.0, 3.0))  # name, m, x
SCALE = 0.005  # m per canvas unit: the code box is 1900 x 1000 units = 9.5 x 5 m
BOARD_W, BOARD_H = 3000, 1500
REFERENCE_W = 1200
GAP = 0.5  # m between the screen and the panels
#: the camera pickup: the original world's CameraControl height (1.87 m), in front of the screen
CAMERA_POSITION = (0.0, 1.87, -4.0)
#: the mirror (off until a player ticks Mirror): metres wide and high, its bottom 0.3 m up
MIRROR_W, MIRROR_H = 4.0, 3.0
CODE_W, CODE_H = 1900, 1000


def build(assets: PrefabAssets) -> str:
    b = PrefabBuilder()
    root = b.add(NAME, None, rect=False)
    wiring = Wiring()
    screen_material = ref(MATERIAL_ID, assets.screen_material, 2)

    grid = screen_mesh(assets)  # every program screen is a relief, as in the original
    screen, renderer = add_screen(b, root, "Screen", screen_material,
                                  position=vec(0, 1 + SCREEN_SIZE / 2, 0),
                                  scale=screen_scale(SCREEN_SIZE), mesh=grid)
    screens = [renderer]
    filters = [screen.cid("MeshFilter")]
    for name, size, x in PICKUP_SIZES:
        body, small = add_pickup_screen(b, root, name, screen_material, size=size,
                                        position=vec(x, 1.2, -4), mesh=grid)
        screens.append(small)
        filters.append(body.children[0].cid("MeshFilter"))

    board_x = -(SCREEN_SIZE / 2 + GAP + BOARD_W * SCALE / 2)
    board = add_world_canvas(b, root, "Canvas", width=BOARD_W, height=BOARD_H,
                             position=(board_x, 0.5 + BOARD_H * SCALE / 2, 0), scale=SCALE,
                             background=color(0.12, 0.12, 0.14, 0.95))
    live = LiveCopy()  # the running program behind the code, as the original's
    input_field = add_input_field(b, board, "CodeInput", rect(20, 20, CODE_W, CODE_H),
                                  placeholder="Type a PSL program, then press Compile...",
                                  font_size=40, character_limit=assets.source_limit,
                                  text=assets.default_program, font=assets.font, margin=20,
                                  behind_text=behind_code(b, screen_material, CODE_W, CODE_H,
                                                          live),
                                  text_z=TEXT_Z)
    screens.append(live.renderer)
    compile_go, compile_image = add_button(b, board, "CompileButton", "Compile",
                                           rect(20, 1040, 300, 70), color(0.55, 0.85, 0.55, 1))
    output_text = add_scroll_panel(b, board, OUTPUT_PANEL, rect(1960, 20, 1020, 560),
                                   text="", font_size=30, font=assets.font,
                                   content_name=OUTPUT_NAME, rich=0)

    compiler_go = b.add("Compiler", root, rect=False)
    sync_go = b.add("SyncCode", root, rect=False)
    lock_go = b.add("TypingLock", root, rect=False)
    # the frame-rate guard first: every behaviour built below gets it in its `guard` field
    guard_go = register_frame_guard(b, root, wiring)
    sliders_go = register_sliders(b, root, wiring)  # SyncCode, examples, loader
    sharing = add_sharing_controls(b, board, wiring, sync_go, lock_go, x=340, y=1040,
                                   width=1580)
    compiler_backing = add_compiler(b, assets, wiring, compiler_go, sync_go, input_field,
                                    output_text, renderer)
    add_sharing_behaviours(b, assets, wiring, sync_go, lock_go, sharing)
    add_button_click(compile_go, compile_image, compiler_backing, assets.compile_event)
    also_tell_the_guard(compile_go, guard_go)
    also_tell_the_sliders(compile_go, sliders_go)
    # the program's sliders left of the board, standing on the floor beside it
    add_slider_panel(b, root, sliders_go, assets, wiring,
                     position=(board_x - BOARD_W * SCALE / 2 - GAP - SLIDER_W * SCALE / 2,
                               0.5 + SLIDER_H * SCALE / 2, 0), scale=SCALE)
    # the note in front of the big screen's middle, hidden until the guard pauses the screens
    add_frame_guard(b, root, guard_go, assets, wiring, screens,
                    note_position=(0, 1 + SCREEN_SIZE / 2, -0.1), note_scale=0.008)
    add_listing(b, root, board, assets, wiring, rect(1640, 1260, 280, 60))

    add_quality_buttons(b, board, assets, wiring, screens, x=20, y=1260, width=1180)
    add_relief_buttons(b, board, assets, filters, x=20, y=1340, width=1180)
    if assets.camera_texture:
        # at the original's 1.87 m, between the two pickup screens, where a hand reaches it
        camera_go = add_camera_input(b, root, assets.camera_texture,
                                     position=vec(*CAMERA_POSITION))
        add_camera_toggle(b, board, camera_go, rect(1220, 1260, 400, 60))
    add_live_copy_toggle(b, board, live, rect(1220, 1340, 400, 60))
    add_examples(b, board, assets, wiring, x=1960, y=600, width=1020, height=880, columns=2)

    reference = add_world_canvas(
        b, root, REFERENCE_NAME, width=REFERENCE_W, height=BOARD_H,
        position=(SCREEN_SIZE / 2 + GAP + REFERENCE_W * SCALE / 2, 0.5 + BOARD_H * SCALE / 2,
                  0), scale=SCALE)
    add_scroll_panel(b, reference, "Reference", rect(0, 0, REFERENCE_W, BOARD_H),
                     text=assets.reference, font_size=26, font=assets.font)

    # Programs from the web, the gallery and each player's saves, right of the reference.
    programs_x = SCREEN_SIZE / 2 + 2 * GAP + (REFERENCE_W + PANEL_W / 2) * SCALE
    add_programs_panel(b, root, assets, wiring, position=(programs_x, 0.5 + PANEL_H * SCALE / 2, 0),
                       scale=SCALE)
    # The mirror, right of the programs panel, and its toggle on the board.
    mirror_x = programs_x + PANEL_W * SCALE / 2 + GAP + MIRROR_W / 2
    mirror_go = add_mirror(b, root, position=vec(mirror_x, 0.3 + MIRROR_H / 2, 0),
                           scale=vec(MIRROR_W, MIRROR_H, 1))
    add_mirror_toggle(b, board, mirror_go, rect(1640, 1340, 280, 60))
    if assets.video_texture:
        add_video_player(b, root, assets, position=vec(0, 1 + SCREEN_SIZE / 2, 0),
                         controls=(0, -SCREEN_SIZE / 2 - 0.2, -0.5))
    return b.dump()
