"""The package's own video player, built only on VRChat's components: a VRC Unity Video
Player that renders into the video render texture the VM material samples as _Video (with
_IsAVProInput 0: Unity's player, not AVPro), and plays its sound through an AudioSource of
its own, which the setup menu also hands to AudioLink when AudioLink is in the scene.

The player takes its URL from its Video URL field (set by the creator in the inspector) and
plays it on load, looped, for every player: nothing of it needs Udon. (A URL field for
players needs a behaviour that calls PlayURL; see docs/world-setup.md, "Video input".)"""

from __future__ import annotations

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.objects import AUDIO_SOURCE
from psl.gen.unity.serialization import NULL, RENDER_TEXTURE_ID, Flow, builtin_ref, ref, vec

VIDEO_PLAYER_NAME = "VideoPlayer"
#: the video render texture (PSL_Video.renderTexture): 16:9
VIDEO_WIDTH, VIDEO_HEIGHT = 1024, 576
#: VRCUnityVideoPlayer.renderMode: 0 render texture, 1 material override
RENDER_MODE_TEXTURE = 0
#: UnityEngine.Video.VideoAspectRatio.FitInside
FIT_INSIDE = 3
MAX_RESOLUTION = 720
VOLUME = 0.5


def add_video_player(b: PrefabBuilder, root: GameObject, texture_guid: str, *,
                     position: Flow | None = None) -> tuple[GameObject, int, int]:
    """<root>/VideoPlayer: AudioSource + VRCUnityVideoPlayer; returns the object, the
    AudioSource's fileID and the player's fileID."""
    go = b.add(VIDEO_PLAYER_NAME, root, rect=False, position=position or vec(0, 0, 0))
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
    return go, audio, player
