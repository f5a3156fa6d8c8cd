"""Unity YAML assets of the package: materials, render textures, U# assets and the prefab.

Every function returns the asset's text; references to other package files are passed in as
GUIDs so this module stays independent of the package layout (see psl.gen.unity.package).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from psl.gen.unity.mesh import MESH_ID
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
    file_id_for,
    ref,
    vec,
)

# Unity class IDs
GAME_OBJECT, TRANSFORM, RECT_TRANSFORM = 1, 4, 224
MESH_FILTER, MESH_RENDERER, BOX_COLLIDER = 33, 23, 65
CANVAS, CANVAS_RENDERER, MONO_BEHAVIOUR = 223, 222, 114
MATERIAL, CUSTOM_RENDER_TEXTURE, RENDER_TEXTURE = 21, 86, 84
CAMERA, RIGIDBODY = 20, 54

# main-object fileIDs of native assets
# main-object fileIDs of the scripts and shaders referenced (the native assets' own ids are
# in serialization: MATERIAL_ID, CRT_ID, MONO_ID, RENDER_TEXTURE_ID)
SCRIPT_ID, SHADER_ID = 11500000, 4800000
#: fileID of the assembly inside an .asmdef (what U# assembly definitions point at)
ASMDEF_ASSEMBLY_ID = 5897886265953266890

# UnityEngine.Experimental.Rendering.GraphicsFormat values
R8G8B8A8_UNORM = 8
R32G32B32A32_SFLOAT = 52
D32_SFLOAT_S8_UINT = 94

_COMMON = {
    "m_ObjectHideFlags": 0,
    "m_CorrespondingSourceObject": NULL,
    "m_PrefabInstance": NULL,
    "m_PrefabAsset": NULL,
}


def script_ref(guid: str) -> Flow:
    return ref(SCRIPT_ID, guid, 3)


# --------------------------------------------------------------------------------------
# Stand-alone assets
# --------------------------------------------------------------------------------------


def material(name: str, shader_guid: str, textures: Mapping[str, Flow] | None = None,
             floats: Mapping[str, float] | None = None,
             keywords: Sequence[str] = ()) -> str:
    tex_envs = [
        {key: {"m_Texture": value, "m_Scale": vec(1, 1), "m_Offset": vec(0, 0)}}
        for key, value in sorted((textures or {}).items())
    ]
    body = {
        "serializedVersion": 8,
        **_COMMON,
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
        **_COMMON,
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


def custom_render_texture(name: str, size: int, material_guid: str) -> str:
    """A realtime, double-buffered RGBA float CRT initialised to zero (SPEC §8: self()),
    updated through one full-texture zone that swaps the buffers (FULL_TEXTURE_ZONE)."""
    body = {
        **_texture_fields(name, size, size, color_format=R32G32B32A32_SFLOAT),
        "m_Material": ref(MATERIAL_ID, material_guid, 2),
        "m_InitSource": 0,  # texture and colour
        "m_InitMaterial": NULL,
        "m_InitColor": color(0, 0, 0, 0),
        "m_InitTexture": NULL,
        "m_UpdateMode": 1,  # realtime
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
                   depth_stencil_format: int = D32_SFLOAT_S8_UINT) -> str:
    """A plain RenderTexture asset (a camera's target): square, bilinear, clamped."""
    body = _texture_fields(name, size, size, color_format=color_format,
                           depth_stencil_format=depth_stencil_format)
    return dump_objects([UnityObject(RENDER_TEXTURE, RENDER_TEXTURE_ID, "RenderTexture", body)])


def _mono_asset(name: str, script: Flow, fields: Mapping[str, object]) -> str:
    body = {
        **_COMMON,
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
        "serializationData": _odin_empty(),
    })


def udonsharp_assembly_definition(name: str, asmdef_guid: str) -> str:
    return _mono_asset(name, builtin_ref("UdonSharpAssemblyDefinition"), {
        "sourceAssembly": ref(ASMDEF_ASSEMBLY_ID, asmdef_guid, 3),
    })


def _odin_empty() -> dict[str, object]:
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


# --------------------------------------------------------------------------------------
# C# field discovery: the prefab fills a behaviour's public fields by their type
# --------------------------------------------------------------------------------------

_FIELD_RE = re.compile(
    r"^[ \t]*(?:\[[^\]\n]*\][ \t]*)*public[ \t]+(?!static\b|const\b|readonly\b|override\b"
    r"|void\b|class\b)([A-Za-z_][\w.]*(?:\[\])?)[ \t]+([A-Za-z_]\w*)[ \t]*(?:=[^;\n]*)?;",
    re.MULTILINE,
)
_METHOD_RE = re.compile(r"public[ \t]+(?:override[ \t]+)?void[ \t]+([A-Za-z_]\w*)[ \t]*\([ \t]*\)")
_SYNC_RE = re.compile(r"UdonBehaviourSyncMode\s*\(\s*BehaviourSyncMode\.(\w+)")

#: Networking.SyncType values stored in UdonBehaviour._syncMethod
SYNC_METHODS = {"None": 1, "NoVariableSync": 1, "Continuous": 2, "Manual": 3}


@dataclass(frozen=True)
class CSharpClass:
    name: str
    fields: tuple[tuple[str, str], ...]  # (type, name) of public instance fields
    methods: tuple[str, ...]  # public parameterless void methods
    sync_mode: str

    @property
    def sync_method(self) -> int:
        return SYNC_METHODS.get(self.sync_mode, 0)


def parse_csharp_class(name: str, text: str) -> CSharpClass:
    # [NonSerialized] public fields are runtime state: Unity keeps no value for them
    fields = tuple((m.group(1).rsplit(".", 1)[-1], m.group(2)) for m in _FIELD_RE.finditer(text)
                   if "NonSerialized" not in m.group(0))
    methods = tuple(dict.fromkeys(m.group(1) for m in _METHOD_RE.finditer(text)))
    sync = _SYNC_RE.search(text)
    return CSharpClass(name, fields, methods, sync.group(1) if sync else "")


# --------------------------------------------------------------------------------------
# Prefab
# --------------------------------------------------------------------------------------


@dataclass
class GameObject:
    path: str  # hierarchy path, unique within the prefab (used to derive fileIDs)
    name: str
    rect: bool
    layer: int = 0
    active: bool = True
    components: list[UnityObject] = field(default_factory=list)
    children: list[GameObject] = field(default_factory=list)
    parent: GameObject | None = None
    transform: dict[str, object] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return file_id_for(self.path, "GameObject")

    @property
    def transform_id(self) -> int:
        return file_id_for(self.path, "Transform")

    def cid(self, kind: str) -> int:
        return file_id_for(self.path, kind)


@dataclass(frozen=True)
class PrefabAssets:
    """GUIDs of the package files the prefab references."""

    screen_material: str
    vm_material: str
    crt: str
    scripts: Mapping[str, str]  # class name -> .cs guid
    programs: Mapping[str, str]  # class name -> program asset guid
    examples: Sequence[tuple[str, str, str]]  # (label, source text, TextAsset guid)
    classes: Mapping[str, CSharpClass]
    compile_event: str  # what the Compile button sends to the Compiler
    load_event: str  # what an example button sends to its ExampleButton
    source_limit: int = 0
    camera_texture: str = ""  # the camera input's RenderTexture (VM material's _Camera)
    screen_mesh: str = ""  # the screen's Mesh .asset (empty: Unity's built-in Quad)
    screen_scale: float = 2.0  # the screen's uniform scale (metres across)
    # more of the prefab, built by other modules (psl.gen.unity.relief: quality buttons)
    parts: Sequence[Callable[[PrefabBuilder, PrefabParts], None]] = ()


@dataclass(frozen=True)
class PrefabParts:
    """What a part added by PrefabAssets.parts may hook into."""

    assets: PrefabAssets
    root: GameObject
    canvas: GameObject
    screen: GameObject
    screen_mesh_filter: int


class PrefabBuilder:
    def __init__(self) -> None:
        self.objects: list[GameObject] = []

    def add(self, name: str, parent: GameObject | None, *, rect: bool, layer: int = 0,
            active: bool = True, **transform: object) -> GameObject:
        path = f"{parent.path}/{name}" if parent else name
        go = GameObject(path, name, rect, layer=layer, active=active, parent=parent,
                        transform=dict(transform))
        if parent:
            parent.children.append(go)
        self.objects.append(go)
        return go

    @staticmethod
    def component(go: GameObject, kind: str, class_id: int, type_name: str,
                  body: Mapping[str, object]) -> int:
        fid = go.cid(kind)
        full: dict[str, object] = {**_COMMON, "m_GameObject": ref(go.id)}
        full.update(body)
        go.components.append(UnityObject(class_id, fid, type_name, full))
        return fid

    def mono(self, go: GameObject, kind: str, script: Flow, fields: Mapping[str, object],
             enabled: int = 1) -> int:
        return self.component(go, kind, MONO_BEHAVIOUR, "MonoBehaviour", {
            "m_Enabled": enabled,
            "m_EditorHideFlags": 0,
            "m_Script": script,
            "m_Name": "",
            "m_EditorClassIdentifier": "",
            **fields,
        })

    def dump(self) -> str:
        docs: list[UnityObject] = []
        for go in self.objects:
            docs.append(UnityObject(GAME_OBJECT, go.id, "GameObject", {
                **_COMMON,
                "serializedVersion": 6,
                "m_Component": [{"component": ref(go.transform_id)}]
                + [{"component": ref(c.file_id)} for c in go.components],
                "m_Layer": go.layer,
                "m_Name": go.name,
                "m_TagString": "Untagged",
                "m_Icon": NULL,
                "m_NavMeshLayer": 0,
                "m_StaticEditorFlags": 0,
                "m_IsActive": int(go.active),
            }))
            docs.append(self._transform(go))
            docs.extend(go.components)
        return dump_objects(docs)

    @staticmethod
    def _transform(go: GameObject) -> UnityObject:
        t = go.transform
        body: dict[str, object] = {**_COMMON, "m_GameObject": ref(go.id)}
        if not go.rect:
            body["serializedVersion"] = 2
        body.update({
            "m_LocalRotation": t.get("rotation", vec(0, 0, 0, 1)),
            "m_LocalPosition": t.get("position", vec(0, 0, 0)),
            "m_LocalScale": t.get("scale", vec(1, 1, 1)),
            "m_ConstrainProportionsScale": 0,
            "m_Children": [ref(c.transform_id) for c in go.children],
            "m_Father": ref(go.parent.transform_id) if go.parent else NULL,
            "m_LocalEulerAnglesHint": t.get("euler", vec(0, 0, 0)),
        })
        if go.rect:
            body.update({
                "m_AnchorMin": t.get("anchor_min", vec(0, 1)),
                "m_AnchorMax": t.get("anchor_max", vec(0, 1)),
                "m_AnchoredPosition": t.get("anchored", vec(0, 0)),
                "m_SizeDelta": t.get("size", vec(100, 100)),
                "m_Pivot": t.get("pivot", vec(0, 1)),
            })
        return UnityObject(RECT_TRANSFORM if go.rect else TRANSFORM, go.transform_id,
                           "RectTransform" if go.rect else "Transform", body)


# --- uGUI pieces ----------------------------------------------------------------------

_WHITE = color(1, 1, 1, 1)
_NO_CALLS = {"m_PersistentCalls": {"m_Calls": []}}


def _graphic(col: Flow, raycast: int = 1) -> dict[str, object]:
    return {
        "m_Material": NULL,
        "m_Color": col,
        "m_RaycastTarget": raycast,
        "m_RaycastPadding": vec(0, 0, 0, 0),
        "m_Maskable": 1,
        "m_OnCullStateChanged": _NO_CALLS,
    }


def _selectable(target_graphic: int) -> dict[str, object]:
    return {
        "m_Navigation": {
            "m_Mode": 3, "m_WrapAround": 0, "m_SelectOnUp": NULL, "m_SelectOnDown": NULL,
            "m_SelectOnLeft": NULL, "m_SelectOnRight": NULL,
        },
        "m_Transition": 1,
        "m_Colors": {
            "m_NormalColor": _WHITE,
            "m_HighlightedColor": color(0.9607843, 0.9607843, 0.9607843, 1),
            "m_PressedColor": color(0.78431374, 0.78431374, 0.78431374, 1),
            "m_SelectedColor": color(0.9607843, 0.9607843, 0.9607843, 1),
            "m_DisabledColor": color(0.78431374, 0.78431374, 0.78431374, 0.5019608),
            "m_ColorMultiplier": 1,
            "m_FadeDuration": 0.1,
        },
        "m_SpriteState": {
            "m_HighlightedSprite": NULL, "m_PressedSprite": NULL, "m_SelectedSprite": NULL,
            "m_DisabledSprite": NULL,
        },
        "m_AnimationTriggers": {
            "m_NormalTrigger": "Normal", "m_HighlightedTrigger": "Highlighted",
            "m_PressedTrigger": "Pressed", "m_SelectedTrigger": "Selected",
            "m_DisabledTrigger": "Disabled",
        },
        "m_Interactable": 1,
        "m_TargetGraphic": ref(target_graphic),
    }


def send_custom_event_call(udon_behaviour_id: int, event: str) -> dict[str, object]:
    """A persistent UnityEvent call: UdonBehaviour.SendCustomEvent(event)."""
    return {
        "m_Target": ref(udon_behaviour_id),
        "m_TargetAssemblyTypeName": "VRC.Udon.UdonBehaviour, VRC.Udon",
        "m_MethodName": "SendCustomEvent",
        "m_Mode": 5,  # string argument
        "m_Arguments": {
            "m_ObjectArgument": NULL,
            "m_ObjectArgumentAssemblyTypeName": "UnityEngine.Object, UnityEngine",
            "m_IntArgument": 0,
            "m_FloatArgument": 0,
            "m_StringArgument": event,
            "m_BoolArgument": 0,
        },
        "m_CallState": 2,  # runtime only
    }


def _image(b: PrefabBuilder, go: GameObject, col: Flow, sprite: str = "UISprite", *,
           sliced: bool = True) -> int:
    b.component(go, "CanvasRenderer", CANVAS_RENDERER, "CanvasRenderer",
                {"m_CullTransparentMesh": 1})
    return b.mono(go, "Image", builtin_ref("Image"), {
        **_graphic(col),
        "m_Sprite": builtin_ref(sprite),
        "m_Type": 1 if sliced else 0,
        "m_PreserveAspect": 0,
        "m_FillCenter": 1,
        "m_FillMethod": 4,
        "m_FillAmount": 1,
        "m_FillClockwise": 1,
        "m_FillOrigin": 0,
        "m_UseSpriteMesh": 0,
        "m_PixelsPerUnitMultiplier": 1,
    })


def _text(b: PrefabBuilder, go: GameObject, text: str, size: int, col: Flow, *,
          alignment: int = 0, style: int = 0, rich: int = 0, raycast: int = 0) -> int:
    b.component(go, "CanvasRenderer", CANVAS_RENDERER, "CanvasRenderer",
                {"m_CullTransparentMesh": 1})
    return b.mono(go, "Text", builtin_ref("Text"), {
        **_graphic(col, raycast),
        "m_FontData": {
            "m_Font": builtin_ref("Arial"),
            "m_FontSize": size,
            "m_FontStyle": style,
            "m_BestFit": 0,
            "m_MinSize": 1,
            "m_MaxSize": 300,
            "m_Alignment": alignment,
            "m_AlignByGeometry": 0,
            "m_RichText": rich,
            "m_HorizontalOverflow": 0,
            "m_VerticalOverflow": 1,
            "m_LineSpacing": 1,
        },
        "m_Text": text,
    })


def _rect(x: float, y: float, w: float, h: float) -> dict[str, object]:
    """Top-left anchored rectangle: (x, y) from the parent's top-left corner, y downwards."""
    return {"anchor_min": vec(0, 1), "anchor_max": vec(0, 1), "pivot": vec(0, 1),
            "anchored": vec(x, -y), "size": vec(w, h)}


def _fill(margin: float = 0) -> dict[str, object]:
    return {"anchor_min": vec(0, 0), "anchor_max": vec(1, 1), "pivot": vec(0.5, 0.5),
            "anchored": vec(0, 0), "size": vec(-2 * margin, -2 * margin)}


def _button(b: PrefabBuilder, parent: GameObject, name: str, label: str,
            rect: dict[str, object], col: Flow) -> tuple[GameObject, int]:
    go = b.add(name, parent, rect=True, **rect)
    image = _image(b, go, col)
    label_go = b.add("Text", go, rect=True, **_fill(4))
    _text(b, label_go, label, 28, color(0.1, 0.1, 0.1, 1), alignment=4)
    return go, image


# --- UdonSharp behaviours ---------------------------------------------------------------


def _udon_behaviour(b: PrefabBuilder, go: GameObject, kind: str, program_guid: str,
                    sync_method: int) -> int:
    return b.mono(go, kind + ".UdonBehaviour", builtin_ref("UdonBehaviour"), {
        "interactTextPlacement": NULL,
        "interactText": "Use",
        "interactTextGO": NULL,
        "proximity": 2,
        "SynchronizePosition": 0,
        "AllowCollisionOwnershipTransfer": 0,
        "Reliable": 0,
        "_syncMethod": sync_method,
        # U# refreshes the compiled program reference and, on build, copies the proxy's
        # fields into the public-variable blob; we never write that blob ourselves.
        "serializedProgramAsset": NULL,
        "programSource": ref(MONO_ID, program_guid, 2),
        "serializedPublicVariablesBytesString": "",
        "publicVariablesUnityEngineObjects": [],
        "publicVariablesSerializationDataFormat": 0,
    })


FieldResolver = Callable[[str, str], object | None]


def _udonsharp(b: PrefabBuilder, go: GameObject, cls: CSharpClass, assets: PrefabAssets,
               resolve: FieldResolver) -> tuple[int, int]:
    """Proxy MonoBehaviour + backing UdonBehaviour; returns (proxy id, UdonBehaviour id)."""
    backing = go.cid(cls.name + ".UdonBehaviour")
    fields: dict[str, object] = {}
    for type_name, field_name in cls.fields:
        value = resolve(type_name, field_name)
        if value is not None:
            fields[field_name] = value
    proxy = b.mono(go, cls.name, script_ref(assets.scripts[cls.name]), {
        "serializationData": _odin_empty(),
        "_udonSharpBackingUdonBehaviour": ref(backing),
        **fields,
    })
    _udon_behaviour(b, go, cls.name, assets.programs[cls.name], cls.sync_method)
    return proxy, backing


def _mesh_renderer(b: PrefabBuilder, go: GameObject, material: Flow, *, lit: int) -> int:
    """`lit` 1: casts and receives shadows and uses light and reflection probes (a scene
    object); 0: none of these (the screen, which shows the VM's colours as they are)."""
    return b.component(go, "MeshRenderer", MESH_RENDERER, "MeshRenderer", {
        "m_Enabled": 1,
        "m_CastShadows": lit,
        "m_ReceiveShadows": lit,
        "m_DynamicOccludee": 1,
        "m_StaticShadowCaster": 0,
        "m_MotionVectors": 1,
        "m_LightProbeUsage": lit,
        "m_ReflectionProbeUsage": lit,
        "m_RayTracingMode": 2,
        "m_RayTraceProcedural": 0,
        "m_RenderingLayerMask": 1,
        "m_RendererPriority": 0,
        "m_Materials": [material],
        "m_StaticBatchInfo": {"firstSubMesh": 0, "subMeshCount": 0},
        "m_StaticBatchRoot": NULL,
        "m_ProbeAnchor": NULL,
        "m_LightProbeVolumeOverride": NULL,
        "m_ScaleInLightmap": 1,
        "m_ReceiveGI": 1,
        "m_PreserveUVs": 0,
        "m_IgnoreNormalsForChartDetection": 0,
        "m_ImportantGI": 0,
        "m_StitchLightmapSeams": 1,
        "m_SelectedEditorRenderState": 3,
        "m_MinimumChartSize": 4,
        "m_AutoUVMaxDistance": 0.5,
        "m_AutoUVMaxAngle": 89,
        "m_LightmapParameters": NULL,
        "m_SortingLayerID": 0,
        "m_SortingLayer": 0,
        "m_SortingOrder": 0,
        "m_AdditionalVertexStreams": NULL,
    })


def _box_collider(b: PrefabBuilder, go: GameObject, size: Flow, *, trigger: int) -> int:
    return b.component(go, "BoxCollider", BOX_COLLIDER, "BoxCollider", {
        "m_Material": NULL,
        "m_IncludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ExcludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_LayerOverridePriority": 0,
        "m_IsTrigger": trigger,
        "m_ProvidesContacts": 0,
        "m_Enabled": 1,
        "serializedVersion": 3,
        "m_Size": size,
        "m_Center": vec(0, 0, 0),
    })


# --- camera input -------------------------------------------------------------------------
#
# The original world feeds `camera()` from a Camera on a pickup ("CameraControl" in
# FuncWorld.unity) that renders into Camera.renderTexture (512 x 512), which VM.mat binds to
# _Camera. The pickup sits on VRChat's Pickup layer, the camera's culling mask leaves that
# layer out (so it never films its own body), and the camera starts disabled. We keep all of
# that; the switch is a uGUI Toggle whose onValueChanged calls GameObject.SetActive on the
# camera object (a UI event VRChat allows, so no Udon is needed).

#: VRChat's built-in layers used here
LAYER_DEFAULT, LAYER_PLAYER, LAYER_PLAYER_LOCAL, LAYER_PICKUP, LAYER_MIRROR_REFLECTION = (
    0, 9, 10, 13, 18)
#: what the original's camera renders: Default, Player, PlayerLocal and MirrorReflection
#: (263681); not Pickup, where its own body lives
CAMERA_CULLING_MASK = sum(1 << layer for layer in (
    LAYER_DEFAULT, LAYER_PLAYER, LAYER_PLAYER_LOCAL, LAYER_MIRROR_REFLECTION))
CAMERA_TEXTURE_SIZE = 512
CAMERA_INPUT_NAME = "CameraInput"
CAMERA_OBJECT_NAME = "Camera"
CAMERA_TOGGLE_NAME = "CameraToggle"
CAMERA_BODY_SIZE = vec(0.15, 0.15, 0.2)


def _camera(b: PrefabBuilder, go: GameObject, target_texture: Flow) -> int:
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


def _camera_input(b: PrefabBuilder, root: GameObject, texture_guid: str) -> GameObject:
    """The camera pickup (VRC Pickup + Object Sync, a small box on the Pickup layer) with a
    child camera that renders into the camera texture. It sits on top of the screen and looks
    the way the screen faces (-Z), at the players in front of it. The camera child starts
    inactive, as the original's camera starts disabled; it is what the toggle switches."""
    body = b.add(CAMERA_INPUT_NAME, root, rect=False, layer=LAYER_PICKUP,
                 position=vec(0, 2.75, -0.05), rotation=vec(0, 1, 0, 0),
                 euler=vec(0, 180, 0))
    _box_collider(b, body, CAMERA_BODY_SIZE, trigger=1)
    b.component(body, "Rigidbody", RIGIDBODY, "Rigidbody", {
        "serializedVersion": 4,
        "m_Mass": 1,
        "m_Drag": 0,
        "m_AngularDrag": 0.05,
        "m_CenterOfMass": vec(0, 0, 0),
        "m_InertiaTensor": vec(1, 1, 1),
        "m_InertiaRotation": vec(0, 0, 0, 1),
        "m_IncludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ExcludeLayers": {"serializedVersion": 2, "m_Bits": 0},
        "m_ImplicitCom": 1,
        "m_ImplicitTensor": 1,
        "m_UseGravity": 0,
        "m_IsKinematic": 1,
        "m_Interpolate": 0,
        "m_Constraints": 0,
        "m_CollisionDetection": 0,
    })
    b.mono(body, "VRCPickup", builtin_ref("VRCPickup"), {
        "MomentumTransferMethod": 0,
        "DisallowTheft": 0,
        "ExactGun": NULL,
        "ExactGrip": NULL,
        "allowManipulationWhenEquipped": 0,
        "orientation": 0,
        "AutoHold": 0,
        "InteractionText": "",
        "UseText": "Camera",
        "useEventBroadcastType": 0,
        "UseDownEventName": "",
        "UseUpEventName": "",
        "pickupDropEventBroadcastType": 0,
        "PickupEventName": "",
        "DropEventName": "",
        "ThrowVelocityBoostMinSpeed": 1,
        "ThrowVelocityBoostScale": 1,
        "currentlyHeldBy": NULL,
        "pickupable": 1,
        "proximity": 2,
    })
    b.mono(body, "VRCObjectSync", builtin_ref("VRCObjectSync"), {
        "AllowCollisionOwnershipTransfer": 1,
    })
    # the visible box is a scaled child, so that the camera's own transform is unscaled
    box = b.add("Body", body, rect=False, layer=LAYER_PICKUP, scale=CAMERA_BODY_SIZE)
    b.component(box, "MeshFilter", MESH_FILTER, "MeshFilter",
                {"m_Mesh": builtin_ref("CubeMesh")})
    _mesh_renderer(b, box, builtin_ref("DefaultMaterial"), lit=1)
    camera_go = b.add(CAMERA_OBJECT_NAME, body, rect=False, layer=LAYER_PICKUP, active=False)
    _camera(b, camera_go, ref(RENDER_TEXTURE_ID, texture_guid, 2))
    return camera_go


def set_active_call(game_object_id: int) -> dict[str, object]:
    """A persistent UnityEvent<bool> call: GameObject.SetActive with the event's own value
    (m_Mode 0, a dynamic argument)."""
    return {
        "m_Target": ref(game_object_id),
        "m_TargetAssemblyTypeName": "UnityEngine.GameObject, UnityEngine",
        "m_MethodName": "SetActive",
        "m_Mode": 0,  # event defined: Toggle.onValueChanged passes isOn
        "m_Arguments": {
            "m_ObjectArgument": NULL,
            "m_ObjectArgumentAssemblyTypeName": "UnityEngine.Object, UnityEngine",
            "m_IntArgument": 0,
            "m_FloatArgument": 0,
            "m_StringArgument": "",
            "m_BoolArgument": 0,
        },
        "m_CallState": 2,  # runtime only
    }


def _camera_toggle(b: PrefabBuilder, canvas: GameObject, camera_go: GameObject,
                   rect: dict[str, object]) -> int:
    """A uGUI Toggle (box, check mark, label) that switches the camera object on and off."""
    go = b.add(CAMERA_TOGGLE_NAME, canvas, rect=True, **rect)
    box = b.add("Background", go, rect=True, anchor_min=vec(0, 0.5), anchor_max=vec(0, 0.5),
                pivot=vec(0, 0.5), anchored=vec(0, 0), size=vec(48, 48))
    box_image = _image(b, box, color(0.95, 0.95, 0.95, 1))
    check = b.add("Checkmark", box, rect=True, **_fill(4))
    check_image = _image(b, check, color(0.1, 0.1, 0.1, 1), "Checkmark", sliced=False)
    label = b.add("Label", go, rect=True, anchor_min=vec(0, 0), anchor_max=vec(1, 1),
                  pivot=vec(0.5, 0.5), anchored=vec(30, 0), size=vec(-60, 0))
    _text(b, label, "Camera input", 28, color(0.9, 0.9, 0.9, 1), alignment=3)
    return b.mono(go, "Toggle", builtin_ref("Toggle"), {
        **_selectable(box_image),
        "toggleTransition": 1,  # fade
        "graphic": ref(check_image),
        "m_Group": NULL,
        "onValueChanged": {"m_PersistentCalls": {"m_Calls": [set_active_call(camera_go.id)]}},
        "m_IsOn": int(camera_go.active),
    })


# --- the Shaderception prefab -----------------------------------------------------------

CANVAS_W, CANVAS_H = 1200, 1500
CANVAS_SCALE = 0.0015
EXAMPLE_COLUMNS = 3


def shaderception_prefab(assets: PrefabAssets) -> str:
    b = PrefabBuilder()
    root = b.add("Shaderception", None, rect=False)

    # Screen: a 2 m grid (or quad) showing the CRT through the screen material.
    w = assets.screen_scale
    screen = b.add("Screen", root, rect=False, position=vec(0, 1.6, 0), scale=vec(w, w, w))
    mesh = ref(MESH_ID, assets.screen_mesh, 2) if assets.screen_mesh else builtin_ref("QuadMesh")
    mesh_filter = b.component(screen, "MeshFilter", MESH_FILTER, "MeshFilter", {"m_Mesh": mesh})
    renderer = _mesh_renderer(b, screen, ref(MATERIAL_ID, assets.screen_material, 2), lit=0)

    # World-space canvas on the Default layer (VRChat's UI pointer needs a VRC UiShape).
    canvas = b.add("Canvas", root, rect=True, anchor_min=vec(0, 0), anchor_max=vec(0, 0),
                   pivot=vec(0.5, 0.5), anchored=vec(2.05, 1.6), size=vec(CANVAS_W, CANVAS_H),
                   position=vec(2.05, 1.6, 0),
                   scale=vec(CANVAS_SCALE, CANVAS_SCALE, CANVAS_SCALE))
    b.component(canvas, "Canvas", CANVAS, "Canvas", {
        "m_Enabled": 1,
        "serializedVersion": 3,
        "m_RenderMode": 2,  # world space
        "m_Camera": NULL,
        "m_PlaneDistance": 100,
        "m_PixelPerfect": 0,
        "m_ReceivesEvents": 1,
        "m_OverrideSorting": 0,
        "m_OverridePixelPerfect": 0,
        "m_SortingBucketNormalizedSize": 0,
        "m_VertexColorAlwaysGammaSpace": 0,
        "m_AdditionalShaderChannelsFlag": 0,
        "m_UpdateRectTransformForStandalone": 0,
        "m_SortingLayerID": 0,
        "m_SortingOrder": 0,
        "m_TargetDisplay": 0,
    })
    b.mono(canvas, "CanvasScaler", builtin_ref("CanvasScaler"), {
        "m_UiScaleMode": 0, "m_ReferencePixelsPerUnit": 100, "m_ScaleFactor": 1,
        "m_ReferenceResolution": vec(800, 600), "m_ScreenMatchMode": 0,
        "m_MatchWidthOrHeight": 0, "m_PhysicalUnit": 3, "m_FallbackScreenDPI": 96,
        "m_DefaultSpriteDPI": 96, "m_DynamicPixelsPerUnit": 1, "m_PresetInfoIsWorld": 1,
    })
    b.mono(canvas, "GraphicRaycaster", builtin_ref("GraphicRaycaster"), {
        "m_IgnoreReversedGraphics": 1, "m_BlockingObjects": 0,
        "m_BlockingMask": {"serializedVersion": 2, "m_Bits": 4294967295},
    })
    b.mono(canvas, "VRCUiShape", builtin_ref("VRCUiShape"), {})
    _box_collider(b, canvas, vec(CANVAS_W, CANVAS_H, 1), trigger=1)
    background = b.add("Background", canvas, rect=True, **_fill())
    _image(b, background, color(0.12, 0.12, 0.14, 0.95))

    # Code input: legacy multi-line InputField with placeholder and text children.
    code = b.add("CodeInput", canvas, rect=True, **_rect(20, 20, CANVAS_W - 40, 820))
    code_bg = _image(b, code, color(0.95, 0.95, 0.95, 1), "InputFieldBackground")
    placeholder = b.add("Placeholder", code, rect=True, **_fill(12))
    placeholder_text = _text(b, placeholder, "Type a PSL program, then press Compile...", 26,
                             color(0.2, 0.2, 0.2, 0.5), style=2)
    code_text_go = b.add("Text", code, rect=True, **_fill(12))
    code_text = _text(b, code_text_go, "", 26, color(0.05, 0.05, 0.05, 1))
    input_field = b.mono(code, "InputField", builtin_ref("InputField"), {
        **_selectable(code_bg),
        "m_TextComponent": ref(code_text),
        "m_Placeholder": ref(placeholder_text),
        "m_ContentType": 0,
        "m_InputType": 0,
        "m_AsteriskChar": 42,
        "m_KeyboardType": 0,
        "m_LineType": 2,  # multi-line, Enter inserts a newline
        "m_HideMobileInput": 0,
        "m_CharacterValidation": 0,
        "m_CharacterLimit": assets.source_limit,
        "m_OnSubmit": _NO_CALLS,
        "m_OnDidEndEdit": _NO_CALLS,
        "m_OnEndEdit": _NO_CALLS,
        "m_OnValueChanged": _NO_CALLS,
        "m_CaretColor": color(0.19607843, 0.19607843, 0.19607843, 1),
        "m_CustomCaretColor": 0,
        "m_SelectionColor": color(0.65882355, 0.80784315, 1, 0.7529412),
        "m_Text": "",
        "m_CaretBlinkRate": 0.85,
        "m_CaretWidth": 1,
        "m_ReadOnly": 0,
        "m_ShouldActivateOnSelect": 1,
    })

    compile_go, compile_image = _button(b, canvas, "CompileButton", "Compile",
                                        _rect(20, 860, 320, 80), color(0.55, 0.85, 0.55, 1))
    output_go = b.add("Output", canvas, rect=True, **_rect(360, 860, CANVAS_W - 380, 220))
    output_text = _text(b, output_go, "", 24, color(0.9, 0.9, 0.9, 1), rich=1)

    if assets.camera_texture:
        camera_go = _camera_input(b, root, assets.camera_texture)
        _camera_toggle(b, canvas, camera_go, _rect(20, 960, 320, 60))

    compiler_go = b.add("Compiler", root, rect=False)
    sync_go = b.add("SyncCode", root, rect=False)
    classes = assets.classes
    ids: dict[str, int] = {}  # class name -> proxy id, filled as behaviours are created

    def common(type_name: str, field_name: str) -> object | None:
        if type_name == "InputField":
            return ref(input_field)
        if type_name == "Text":
            return ref(output_text)
        if type_name == "Material":
            return ref(MATERIAL_ID, assets.vm_material, 2)
        if type_name in ("CustomRenderTexture", "RenderTexture", "Texture"):
            return ref(CRT_ID, assets.crt, 2)
        if type_name in ("Renderer", "MeshRenderer"):
            return ref(renderer)
        if type_name in ids:
            return ref(ids[type_name])
        return None

    # Fixed file IDs let proxies refer to each other regardless of creation order
    # (Compiler.sync -> SyncCode, SyncCode.compiler -> Compiler).
    ids["Compiler"] = compiler_go.cid("Compiler")
    ids["SyncCode"] = sync_go.cid("SyncCode")
    _, compiler_backing = _udonsharp(b, compiler_go, classes["Compiler"], assets, common)
    _udonsharp(b, sync_go, classes["SyncCode"], assets, common)
    _button_click(compile_go, compile_image, compiler_backing, assets.compile_event)

    # Example buttons: each loads one program into the input field and compiles it.
    examples = b.add("Examples", canvas, rect=True, **_rect(20, 1100, CANVAS_W - 40, 380))
    title = b.add("Title", examples, rect=True, **_rect(0, 0, CANVAS_W - 40, 40))
    _text(b, title, "Examples", 28, color(0.9, 0.9, 0.9, 1), style=1)
    example_cls = classes["ExampleButton"]
    load_event = assets.load_event
    col_w = (CANVAS_W - 40 - (EXAMPLE_COLUMNS - 1) * 10) / EXAMPLE_COLUMNS
    for i, (label, source, text_guid) in enumerate(assets.examples):
        row, col = divmod(i, EXAMPLE_COLUMNS)
        go, image = _button(b, examples, f"Example_{label}", label,
                            _rect(col * (col_w + 10), 50 + row * 55, col_w, 48),
                            color(0.8, 0.85, 0.95, 1))

        def example_fields(type_name: str, field_name: str, _src: str = source,
                           _guid: str = text_guid, _label: str = label) -> object | None:
            if type_name == "TextAsset":
                return ref(4900000, _guid, 3)
            if type_name == "string":
                lowered = field_name.lower()
                if any(k in lowered for k in ("name", "label", "title")):
                    return _label
                return _src
            return common(type_name, field_name)

        _, backing = _udonsharp(b, go, example_cls, assets, example_fields)
        _button_click(go, image, backing, load_event)
    for part in assets.parts:
        part(b, PrefabParts(assets, root, canvas, screen, mesh_filter))
    return b.dump()


def _button_click(go: GameObject, image_id: int, udon_behaviour_id: int, event: str) -> None:
    """Adds the Button component to a button object built by _button."""
    fid = go.cid("Button")
    go.components.append(UnityObject(MONO_BEHAVIOUR, fid, "MonoBehaviour", {
        **_COMMON,
        "m_GameObject": ref(go.id),
        "m_Enabled": 1,
        "m_EditorHideFlags": 0,
        "m_Script": builtin_ref("Button"),
        "m_Name": "",
        "m_EditorClassIdentifier": "",
        **_selectable(image_id),
        "m_OnClick": {"m_PersistentCalls": {"m_Calls": [
            send_custom_event_call(udon_behaviour_id, event),
        ]}},
    }))
