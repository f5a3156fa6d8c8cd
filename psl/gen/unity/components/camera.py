"""Camera input: the pickup with a camera rendering into the texture that camera() samples,
and the toggle that switches it."""

from __future__ import annotations

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.components.scene import (
    LAYER_DEFAULT,
    LAYER_MIRROR_REFLECTION,
    LAYER_PICKUP,
    LAYER_PLAYER,
    LAYER_PLAYER_LOCAL,
    add_box_collider,
    add_mesh_renderer,
    add_pickup_parts,
)
from psl.gen.unity.components.ugui import add_image, add_text, fill, selectable, set_active_call
from psl.gen.unity.objects import CAMERA, MESH_FILTER
from psl.gen.unity.serialization import NULL, RENDER_TEXTURE_ID, Flow, builtin_ref, color, ref, vec

# The original world feeds `camera()` from a Camera on a pickup ("CameraControl" in
# FuncWorld.unity) that renders into Camera.renderTexture (512 x 512), which VM.mat binds to
# _Camera. The pickup sits on VRChat's Pickup layer, the camera's culling mask leaves that
# layer out (so it never films its own body), and the camera starts disabled. We keep all of
# that; the switch is a uGUI Toggle whose onValueChanged calls GameObject.SetActive on the
# camera object (a UI event VRChat allows, so no Udon is needed).

#: what the original's camera renders: Default, Player, PlayerLocal and MirrorReflection
#: (263681); not Pickup, where its own body lives
CAMERA_CULLING_MASK = sum(1 << layer for layer in (
    LAYER_DEFAULT, LAYER_PLAYER, LAYER_PLAYER_LOCAL, LAYER_MIRROR_REFLECTION))
CAMERA_TEXTURE_SIZE = 512
CAMERA_INPUT_NAME = "CameraInput"
CAMERA_OBJECT_NAME = "Camera"
CAMERA_TOGGLE_NAME = "CameraToggle"
CAMERA_BODY_SIZE = vec(0.15, 0.15, 0.2)
#: where a player's hand reaches the pickup: its height above the floor (the prefab's root),
#: in metres; the original world's CameraControl sits at 1.87 m
HAND_HEIGHT = (1.2, 1.9)
#: the compact prefab's camera: beside the screen's right edge, in front of it, at 1.4 m
STANDARD_CAMERA_POSITION = (1.1, 1.4, -0.3)


def add_camera(b: PrefabBuilder, go: GameObject, target_texture: Flow) -> int:
    return b.component(go, "Camera", CAMERA, "Camera", {
        "m_Enabled": 1,
        "serializedVersion": 2,
        "m_ClearFlags": 1,  # skybox
        "m_BackGroundColor": color(0.19215687, 0.3019608, 0.4745098, 0),
        "m_projectionMatrixMode": 1,
        "m_GateFitMode": 2,
        "m_FOVAxisMode": 0,
        "m_Iso": 200,
        "m_ShutterSpeed": 0.005,
        "m_Aperture": 16,
        "m_FocusDistance": 10,
        "m_FocalLength": 50,
        "m_BladeCount": 5,
        "m_Curvature": vec(2, 11),
        "m_BarrelClipping": 0.25,
        "m_Anamorphism": 0,
        "m_SensorSize": vec(36, 24),
        "m_LensShift": vec(0, 0),
        "m_NormalizedViewPortRect": {"serializedVersion": 2, "x": 0, "y": 0, "width": 1,
                                     "height": 1},
        "near clip plane": 0.05,
        "far clip plane": 1000,
        "field of view": 60,
        "orthographic": 0,
        "orthographic size": 5,
        "m_Depth": 0,
        "m_CullingMask": {"serializedVersion": 2, "m_Bits": CAMERA_CULLING_MASK},
        "m_RenderingPath": -1,
        "m_TargetTexture": target_texture,
        "m_TargetDisplay": 0,
        "m_TargetEye": 3,
        "m_HDR": 1,
        "m_AllowMSAA": 1,
        "m_AllowDynamicResolution": 0,
        "m_ForceIntoRT": 0,
        "m_OcclusionCulling": 1,
        "m_StereoConvergence": 10,
        "m_StereoSeparation": 0.022,
    })


def add_camera_input(b: PrefabBuilder, root: GameObject, texture_guid: str, *,
                     position: Flow | None = None) -> GameObject:
    """The camera pickup (VRC Pickup + Object Sync, a small box on the Pickup layer) with a
    child camera that renders into the camera texture. It waits at hand height (HAND_HEIGHT;
    by default beside the screen, STANDARD_CAMERA_POSITION) and looks the way the screen faces
    (-Z), at the players in front of it. The camera child starts inactive, as the original's
    camera starts disabled; it is what the toggle switches."""
    body = b.add(CAMERA_INPUT_NAME, root, rect=False, layer=LAYER_PICKUP,
                 position=position or vec(*STANDARD_CAMERA_POSITION), rotation=vec(0, 1, 0, 0),
                 euler=vec(0, 180, 0))
    add_box_collider(b, body, CAMERA_BODY_SIZE, trigger=1)
    add_pickup_parts(b, body, use_text="Camera")
    # the visible box is a scaled child, so that the camera's own transform is unscaled
    box = b.add("Body", body, rect=False, layer=LAYER_PICKUP, scale=CAMERA_BODY_SIZE)
    b.component(box, "MeshFilter", MESH_FILTER, "MeshFilter",
                {"m_Mesh": builtin_ref("CubeMesh")})
    add_mesh_renderer(b, box, builtin_ref("DefaultMaterial"), lit=1)
    camera_go = b.add(CAMERA_OBJECT_NAME, body, rect=False, layer=LAYER_PICKUP, active=False)
    add_camera(b, camera_go, ref(RENDER_TEXTURE_ID, texture_guid, 2))
    return camera_go


def add_camera_toggle(b: PrefabBuilder, canvas: GameObject, camera_go: GameObject,
                   rect: dict[str, object]) -> int:
    """A uGUI Toggle (box, check mark, label) that switches the camera object on and off."""
    go = b.add(CAMERA_TOGGLE_NAME, canvas, rect=True, **rect)
    box = b.add("Background", go, rect=True, anchor_min=vec(0, 0.5), anchor_max=vec(0, 0.5),
                pivot=vec(0, 0.5), anchored=vec(0, 0), size=vec(48, 48))
    box_image = add_image(b, box, color(0.95, 0.95, 0.95, 1))
    check = b.add("Checkmark", box, rect=True, **fill(4))
    check_image = add_image(b, check, color(0.1, 0.1, 0.1, 1), "Checkmark", sliced=False)
    label = b.add("Label", go, rect=True, anchor_min=vec(0, 0), anchor_max=vec(1, 1),
                  pivot=vec(0.5, 0.5), anchored=vec(30, 0), size=vec(-60, 0))
    add_text(b, label, "Camera input", 28, color(0.9, 0.9, 0.9, 1), alignment=3)
    return b.mono(go, "Toggle", builtin_ref("Toggle"), {
        **selectable(box_image),
        "toggleTransition": 1,  # fade
        "graphic": ref(check_image),
        "m_Group": NULL,
        "onValueChanged": {"m_PersistentCalls": {"m_Calls": [set_active_call(camera_go.id)]}},
        "m_IsOn": int(camera_go.active),
    })


