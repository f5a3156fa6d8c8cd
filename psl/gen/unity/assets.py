"""Stand-alone Unity YAML assets of the package: materials, render textures, U# assets.

Every function returns the asset's text; references to other package files are passed in as
GUIDs so this module stays independent of the package layout (see psl.gen.unity.package).
The prefab is built from psl.gen.unity.components by a layout in psl.gen.unity.layouts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from psl.gen.unity.objects import (
    ASMDEF_ASSEMBLY_ID,
    COMMON,
    CUSTOM_RENDER_TEXTURE,
    D32_SFLOAT_S8_UINT,
    MATERIAL,
    MONO_BEHAVIOUR,
    R8G8B8A8_UNORM,
    R32G32B32A32_SFLOAT,
    RENDER_TEXTURE,
    SHADER_ID,
    odin_empty,
    script_ref,
)
from psl.gen.unity.serialization import (
    CRT_ID,
    MATERIAL_ID,
    MONO_ID,
    NULL,
    RENDER_TEXTURE_ID,
    Flow,
    Raw,
    UnityObject,
    builtin_ref,
    color,
    dump_objects,
    ref,
    vec,
)


def material(name: str, shader_guid: str, textures: Mapping[str, Flow] | None = None,
             floats: Mapping[str, float] | None = None,
             keywords: Sequence[str] = ()) -> str:
    tex_envs = [
        {key: {"m_Texture": value, "m_Scale": vec(1, 1), "m_Offset": vec(0, 0)}}
        for key, value in sorted((textures or {}).items())
    ]
    body = {
        "serializedVersion": 8,
        **COMMON,
        "m_Name": name,
        "m_Shader": ref(SHADER_ID, shader_guid, 3),
        "m_Parent": NULL,
        "m_ModifiedSerializedProperties": 0,
        "m_ValidKeywords": sorted(keywords),
        "m_InvalidKeywords": [],
        "m_LightmapFlags": 4,
        "m_EnableInstancingVariants": 0,
        "m_DoubleSidedGI": 0,
        "m_CustomRenderQueue": -1,
        "stringTagMap": {},
        "disabledShaderPasses": [],
        "m_LockedProperties": "",
        "m_SavedProperties": {
            "serializedVersion": 3,
            "m_TexEnvs": tex_envs,
            "m_Ints": [],
            "m_Floats": [{k: v} for k, v in sorted((floats or {}).items())],
            "m_Colors": [],
        },
        "m_BuildTextureStacks": [],
    }
    return dump_objects([UnityObject(MATERIAL, MATERIAL_ID, "Material", body)])


#: The one update zone of every CRT, as the original world's VMCRT*.asset have it: the whole
#: texture in normalised space (centre 0.5, size 1), no rotation, the material's pass chosen by
#: m_ShaderPass (passIndex -1) and needSwap 1, which swaps the double buffer after the pass so
#: that `self()` (_SelfTexture2D) reads the previous frame.
FULL_TEXTURE_ZONE: dict[str, object] = {
    "updateZoneCenter": vec(0.5, 0.5, 0.5),
    "updateZoneSize": vec(1, 1, 1),
    "rotation": 0,
    "passIndex": -1,
    "needSwap": 1,
}
UPDATE_ZONE_SPACE_NORMALIZED = 0

#: serializedVersion Unity 2022.3 writes for RenderTexture and CustomRenderTexture (the
#: layout with m_DepthStencilFormat, m_EnableRandomWrite and m_ShadowSamplingMode)
RENDER_TEXTURE_VERSION = 5
SHADOW_SAMPLING_NONE = 2


def _texture_fields(name: str, width: int, height: int, *, color_format: int,
                    depth_stencil_format: int = 0) -> dict[str, object]:
    """The RenderTexture part shared by .renderTexture and CustomRenderTexture assets, in the
    order and serializedVersion Unity 2022.3 writes (bilinear, clamped, no mips, linear)."""
    return {
        **COMMON,
        "m_Name": name,
        "m_ImageContentsHash": {"serializedVersion": 2, "Hash": Raw("0" * 32)},
        "m_ForcedFallbackFormat": 4,
        "m_DownscaleFallback": 0,
        "m_IsAlphaChannelOptional": 0,
        "serializedVersion": RENDER_TEXTURE_VERSION,
        "m_Width": width,
        "m_Height": height,
        "m_AntiAliasing": 1,
        "m_MipCount": -1,
        "m_DepthStencilFormat": depth_stencil_format,  # GraphicsFormat; 0 = no depth buffer
        "m_ColorFormat": color_format,  # GraphicsFormat
        "m_MipMap": 0,
        "m_GenerateMips": 1,
        "m_SRGB": 0,
        "m_UseDynamicScale": 0,
        "m_BindMS": 0,
        "m_EnableCompatibleFormat": 1,
        "m_EnableRandomWrite": 0,
        "m_TextureSettings": {
            "serializedVersion": 2,
            "m_FilterMode": 1,  # bilinear
            "m_Aniso": 0,
            "m_MipBias": 0,
            "m_WrapU": 1,  # clamp
            "m_WrapV": 1,
            "m_WrapW": 1,
        },
        "m_Dimension": 2,  # 2D
        "m_VolumeDepth": 1,
        "m_ShadowSamplingMode": SHADOW_SAMPLING_NONE,
    }


#: CustomRenderTextureUpdateMode as Unity serializes it
CRT_UPDATE_REALTIME = 1
CRT_UPDATE_ON_DEMAND = 2


def custom_render_texture(name: str, size: int, material_guid: str,
                          realtime: bool = True) -> str:
    """A double-buffered RGBA float CRT initialised to zero (SPEC §8: self()), updated
    through one full-texture zone that swaps the buffers (FULL_TEXTURE_ZONE): every frame
    (`realtime`), or only on demand (a resolution no screen shows costs no GPU time until a
    quality button makes it the shown one, ScreenQuality)."""
    body = {
        **_texture_fields(name, size, size, color_format=R32G32B32A32_SFLOAT),
        "m_Material": ref(MATERIAL_ID, material_guid, 2),
        "m_InitSource": 0,  # texture and colour
        "m_InitMaterial": NULL,
        "m_InitColor": color(0, 0, 0, 0),
        "m_InitTexture": NULL,
        "m_UpdateMode": CRT_UPDATE_REALTIME if realtime else CRT_UPDATE_ON_DEMAND,
        "m_InitializationMode": 0,  # on load
        "m_UpdateZoneSpace": UPDATE_ZONE_SPACE_NORMALIZED,
        "m_CurrentUpdateZoneSpace": UPDATE_ZONE_SPACE_NORMALIZED,
        "m_UpdateZones": [dict(FULL_TEXTURE_ZONE)],
        "m_UpdatePeriod": 0,
        "m_ShaderPass": 0,
        "m_CubemapFaceMask": 4294967295,
        "m_DoubleBuffered": 1,
        "m_WrapUpdateZones": 0,
    }
    return dump_objects([UnityObject(CUSTOM_RENDER_TEXTURE, CRT_ID, "CustomRenderTexture", body)])


def render_texture(name: str, size: int, *, color_format: int = R8G8B8A8_UNORM,
                   depth_stencil_format: int = D32_SFLOAT_S8_UINT, height: int = 0) -> str:
    """A plain RenderTexture asset (a camera's or a video player's target): `size` wide and
    `height` (default: square) high, bilinear, clamped."""
    body = _texture_fields(name, size, height or size, color_format=color_format,
                           depth_stencil_format=depth_stencil_format)
    return dump_objects([UnityObject(RENDER_TEXTURE, RENDER_TEXTURE_ID, "RenderTexture", body)])


def _mono_asset(name: str, script: Flow, fields: Mapping[str, object]) -> str:
    body = {
        **COMMON,
        "m_GameObject": NULL,
        "m_Enabled": 1,
        "m_EditorHideFlags": 0,
        "m_Script": script,
        "m_Name": name,
        "m_EditorClassIdentifier": "",
        **fields,
    }
    return dump_objects([UnityObject(MONO_BEHAVIOUR, MONO_ID, "MonoBehaviour", body)])


def udonsharp_program_asset(class_name: str, cs_guid: str) -> str:
    return _mono_asset(class_name, builtin_ref("UdonSharpProgramAsset"), {
        "serializedUdonProgramAsset": NULL,
        "udonAssembly": "",
        "assemblyError": "",
        "sourceCsScript": script_ref(cs_guid),
        "scriptVersion": 2,
        "compiledVersion": 0,
        "behaviourSyncMode": 0,
        "hasInteractEvent": 0,
        "scriptID": 0,
        "serializationData": odin_empty(),
    })


def udonsharp_assembly_definition(name: str, asmdef_guid: str) -> str:
    return _mono_asset(name, builtin_ref("UdonSharpAssemblyDefinition"), {
        "sourceAssembly": ref(ASMDEF_ASSEMBLY_ID, asmdef_guid, 3),
    })


