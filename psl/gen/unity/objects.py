"""Unity class IDs, fileIDs and the fields every serialized object starts with, shared by the
stand-alone assets (psl.gen.unity.assets) and the prefab components."""

from __future__ import annotations

from psl.gen.unity.serialization import NULL, Flow, ref

# Unity class IDs
GAME_OBJECT, TRANSFORM, RECT_TRANSFORM = 1, 4, 224
MESH_FILTER, MESH_RENDERER, BOX_COLLIDER = 33, 23, 65
CANVAS, CANVAS_RENDERER, MONO_BEHAVIOUR = 223, 222, 114
MATERIAL, CUSTOM_RENDER_TEXTURE, RENDER_TEXTURE = 21, 86, 84
CAMERA, RIGIDBODY, AUDIO_SOURCE = 20, 54, 82

# main-object fileIDs of the scripts and shaders referenced (the native assets' own ids are
# in serialization: MATERIAL_ID, CRT_ID, MONO_ID, RENDER_TEXTURE_ID)
SCRIPT_ID, SHADER_ID = 11500000, 4800000
#: main-object fileIDs of imported text files (TextAsset) and fonts (Font)
TEXT_ASSET_ID, FONT_ID = 4900000, 12800000
#: fileID of the assembly inside an .asmdef (what U# assembly definitions point at)
ASMDEF_ASSEMBLY_ID = 5897886265953266890

# UnityEngine.Experimental.Rendering.GraphicsFormat values
R8G8B8A8_UNORM = 8
R32G32B32A32_SFLOAT = 52
D32_SFLOAT_S8_UINT = 94

COMMON = {
    "m_ObjectHideFlags": 0,
    "m_CorrespondingSourceObject": NULL,
    "m_PrefabInstance": NULL,
    "m_PrefabAsset": NULL,
}


def script_ref(guid: str) -> Flow:
    return ref(SCRIPT_ID, guid, 3)


def odin_empty() -> dict[str, object]:
    """The empty Odin serialization block of U# program assets and proxy behaviours."""
    return {
        "SerializedFormat": 2,
        "SerializedBytes": "",
        "ReferencedUnityObjects": [],
        "SerializedBytesString": "",
        "Prefab": NULL,
        "PrefabModificationsReferencedUnityObjects": [],
        "PrefabModifications": [],
        "SerializationNodes": [],
    }
