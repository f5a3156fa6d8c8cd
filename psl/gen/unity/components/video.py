"""The package's own video player, built only on VRChat's components: a VRC Unity Video
Player that renders into the video render texture the VM material samples as _Video (with
_IsAVProInput 0: Unity's player, not AVPro), and plays its sound through an AudioSource of
its own, which the setup menu also hands to AudioLink when AudioLink is in the scene.

The player takes its URL from its Video URL field (set by the creator in the inspector) and
plays it on load, looped, for every player. Players may play a URL of their own, for
themselves only: the controls canvas under the player (a VRCUrlInputField, Play and Stop
buttons and a status line) drive the VideoUrl behaviour on the player's own object (VRChat
sends the video events, OnVideoError among them, to the behaviours beside the player). The
setup menu (templates/unity/ShaderceptionSetup.cs.j2, RepairVideoPlayer) repairs the same
objects by these names."""

from __future__ import annotations

from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import add_udonsharp, backing_id
from psl.gen.unity.components.ugui import (
    add_button,
    add_button_click,
    add_text,
    add_url_field,
    add_world_canvas,
    rect,
    send_custom_event_call,
)
from psl.gen.unity.objects import AUDIO_SOURCE
from psl.gen.unity.serialization import (
    NULL,
    RENDER_TEXTURE_ID,
    Flow,
    builtin_ref,
    color,
    ref,
    vec,
)

VIDEO_PLAYER_NAME = "VideoPlayer"
#: the video render texture (PSL_Video.renderTexture): 16:9
VIDEO_WIDTH, VIDEO_HEIGHT = 1024, 576
#: VRCUnityVideoPlayer.renderMode: 0 render texture, 1 material override
RENDER_MODE_TEXTURE = 0
#: UnityEngine.Video.VideoAspectRatio.FitInside
FIT_INSIDE = 3
MAX_RESOLUTION = 720
VOLUME = 0.5
#: the players' controls: <root>/VideoPlayer/VideoControls, a world canvas (canvas units,
#: y downwards) with the URL field, Play and Stop and the status line; VideoUrl's class
VIDEO_URL_CLASS = "VideoUrl"
CONTROLS_NAME = "VideoControls"
URL_FIELD = "UrlField"
PLAY_BUTTON, STOP_BUTTON, STATUS = "PlayButton", "StopButton", "Status"
CONTROLS_W, CONTROLS_H = 1200, 200
CONTROLS_SCALE = 0.0015  # m per canvas unit: 1.8 x 0.3 m
BUTTON_W = 140


def add_video_player(b: PrefabBuilder, root: GameObject, assets: PrefabAssets, *,
                     position: Flow | None = None,
                     controls: tuple[float, float, float] = (0.0, -1.2, 0.0)
                     ) -> tuple[GameObject, int, int]:
    """<root>/VideoPlayer: AudioSource + VRCUnityVideoPlayer (into assets.video_texture), and
    with the VideoUrl behaviour its controls canvas at `controls` (metres from the player);
    returns the object, the AudioSource's fileID and the player's fileID."""
    go = b.add(VIDEO_PLAYER_NAME, root, rect=False, position=position or vec(0, 0, 0))
    texture_guid = assets.video_texture
    audio = b.component(go, "AudioSource", AUDIO_SOURCE, "AudioSource", {
        "m_Enabled": 1,
        "serializedVersion": 4,
        "OutputAudioMixerGroup": NULL,
        "m_audioClip": NULL,
        "m_PlayOnAwake": 0,
        "m_Volume": VOLUME,
        "m_Pitch": 1,
        "Loop": 0,
        "Mute": 0,
        "Spatialize": 0,
        "SpatializePostEffects": 0,
        "Priority": 128,
        "DopplerLevel": 0,
        "MinDistance": 1,
        "MaxDistance": 500,
        "Pan2D": 0,
        "rolloffMode": 0,
        "BypassEffects": 0,
        "BypassListenerEffects": 0,
        "BypassReverbZones": 0,
    })
    player = b.mono(go, "VRCUnityVideoPlayer", builtin_ref("VRCUnityVideoPlayer"), {
        "EnableAutomaticResync": 1,
        "videoURL": {"url": ""},
        "autoPlay": 1,
        "loop": 1,
        "renderMode": RENDER_MODE_TEXTURE,
        "targetTexture": ref(RENDER_TEXTURE_ID, texture_guid, 2),
        "targetMaterialRenderer": NULL,
        "targetMaterialProperty": "_MainTex",
        "aspectRatio": FIT_INSIDE,
        "targetAudioSources": [ref(audio)],
        "maximumResolution": MAX_RESOLUTION,
    })
    if VIDEO_URL_CLASS in assets.classes:
        _add_controls(b, go, assets, player, controls)
    return go, audio, player


def _add_controls(b: PrefabBuilder, go: GameObject, assets: PrefabAssets, player: int,
                  position: tuple[float, float, float]) -> None:
    """The controls canvas under the player and VideoUrl on the player's object: Enter in the
    URL field and the Play button send Play, the Stop button Stop."""
    backing = backing_id(go, VIDEO_URL_CLASS)
    canvas = add_world_canvas(b, go, CONTROLS_NAME, width=CONTROLS_W, height=CONTROLS_H,
                              position=position, scale=CONTROLS_SCALE,
                              background=color(0.12, 0.12, 0.14, 0.95))
    field_w = CONTROLS_W - 40 - 2 * (BUTTON_W + 10)
    url_field = add_url_field(
        b, canvas, URL_FIELD, rect(20, 20, field_w, 70),
        placeholder="Paste a video URL (YouTube, Twitch, .mp4...) and press Play",
        font=assets.font,
        end_edit=[send_custom_event_call(backing, udonsharp.VIDEO_PLAY_EVENT)])
    play_go, play_img = add_button(b, canvas, PLAY_BUTTON, "Play",
                                   rect(30 + field_w, 20, BUTTON_W, 70), color(0.55, 0.85, 0.55, 1))
    stop_go, stop_img = add_button(b, canvas, STOP_BUTTON, "Stop",
                                   rect(40 + field_w + BUTTON_W, 20, BUTTON_W, 70),
                                   color(0.85, 0.6, 0.6, 1))
    status_go = b.add(STATUS, canvas, rect=True, **rect(20, 105, CONTROLS_W - 40, 80))
    status = add_text(b, status_go, "Your video plays for you only; others keep the "
                      "world's video.", 22, color(1, 0.9, 0.6, 1), font=assets.font)

    def fields(type_name: str, field_name: str) -> object | None:
        if type_name == "BaseVRCVideoPlayer":
            return ref(player)
        if type_name == "VRCUrlInputField":
            return ref(url_field)
        if type_name == "Text":
            return ref(status)
        return None

    _, made = add_udonsharp(b, go, assets.classes[VIDEO_URL_CLASS], assets, fields)
    if made != backing:
        raise RuntimeError("the video controls do not reach the VideoUrl behaviour")
    add_button_click(play_go, play_img, backing, udonsharp.VIDEO_PLAY_EVENT)
    add_button_click(stop_go, stop_img, backing, udonsharp.VIDEO_STOP_EVENT)
