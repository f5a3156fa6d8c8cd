"""The .NET / Unity / VRChat API the checker knows: types (with their base types) and members.

This is the one table to extend when a generated script starts using another member. A
member that is not here is reported by the checker as an error ("cannot type ..."), never
skipped: the checker must not guess a signature. Members are listed under the type that
declares them in .NET/Unity (`gameObject` under `UnityEngine.Component`), because UdonSharp
names the extern after the declaring type (`CompilerUdonInterface.GetUdonMethodName` uses the
Roslyn symbol's containing type). The table says nothing about exposure: whether Udon
exposes a member is decided only by `udon_nodes.txt`, so non-exposed members (`GameObject.tag`,
`Math.Clamp`) may and do appear here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.udon_support.cstypes import KEYWORDS, CsType


@dataclass(frozen=True)
class TypeInfo:
    full: str
    kind: str  # "struct" | "class" | "static" | "behaviour" (a project UdonSharpBehaviour)
    base: str | None


class _NoConstant:
    def __repr__(self) -> str:
        return "NO_CONSTANT"


NO_CONSTANT = _NoConstant()


@dataclass(frozen=True)
class Member:
    owner: str  # the declaring type's full name
    name: str
    kind: str  # "method" | "property" | "field" | "ctor"
    params: tuple[CsType, ...]
    type: CsType  # result / property / field type; the owner for a constructor
    static: bool = False
    settable: bool = False
    #: value of a const field, or of a static property UdonSharp folds (Vector4.zero...)
    constant: object = NO_CONSTANT


def parse_type(text: str) -> CsType:
    """"int", "UnityEngine.Vector4[]", "out string" -> CsType (keywords or full names only)."""
    if text.startswith("out "):
        inner = parse_type(text[4:])
        return CsType(inner.name, inner.elem, ref=True)
    if text.endswith("[]"):
        return parse_type(text[:-2]).array()
    return CsType(KEYWORDS.get(text, text))


_TYPES: list[TypeInfo] = [
    TypeInfo("System.Object", "class", None),
    TypeInfo("System.String", "class", "System.Object"),
    TypeInfo("System.Array", "class", "System.Object"),
    TypeInfo("System.Type", "class", "System.Object"),
    TypeInfo("System.ValueType", "class", "System.Object"),
    *(TypeInfo(full, "struct", "System.ValueType") for kw, full in KEYWORDS.items()
      if kw not in ("string", "object", "void")),
    TypeInfo("System.Math", "static", "System.Object"),
    TypeInfo("System.Convert", "static", "System.Object"),
    TypeInfo("UnityEngine.Object", "class", "System.Object"),
    TypeInfo("UnityEngine.Component", "class", "UnityEngine.Object"),
    TypeInfo("UnityEngine.Behaviour", "class", "UnityEngine.Component"),
    TypeInfo("UnityEngine.MonoBehaviour", "class", "UnityEngine.Behaviour"),
    TypeInfo("UnityEngine.Transform", "class", "UnityEngine.Component"),
    TypeInfo("UnityEngine.GameObject", "class", "UnityEngine.Object"),
    TypeInfo("UnityEngine.Material", "class", "UnityEngine.Object"),
    TypeInfo("UnityEngine.Mesh", "class", "UnityEngine.Object"),
    TypeInfo("UnityEngine.MeshFilter", "class", "UnityEngine.Component"),
    TypeInfo("UnityEngine.Renderer", "class", "UnityEngine.Component"),
    TypeInfo("UnityEngine.MeshRenderer", "class", "UnityEngine.Renderer"),
    TypeInfo("UnityEngine.Texture", "class", "UnityEngine.Object"),
    TypeInfo("UnityEngine.RenderTexture", "class", "UnityEngine.Texture"),
    TypeInfo("UnityEngine.CustomRenderTexture", "class", "UnityEngine.RenderTexture"),
    TypeInfo("UnityEngine.CustomRenderTextureUpdateMode", "struct", "System.ValueType"),
    TypeInfo("UnityEngine.Vector4", "struct", "System.ValueType"),
    TypeInfo("UnityEngine.Color", "struct", "System.ValueType"),
    TypeInfo("UnityEngine.Texture2D", "class", "UnityEngine.Texture"),
    # enums: their members are constants (no extern), listed as const fields
    TypeInfo("UnityEngine.TextureFormat", "struct", "System.Enum"),
    TypeInfo("UnityEngine.FilterMode", "struct", "System.Enum"),
    TypeInfo("UnityEngine.TextureWrapMode", "struct", "System.Enum"),
    TypeInfo("System.Enum", "class", "System.ValueType"),
    TypeInfo("UnityEngine.Mathf", "struct", "System.ValueType"),
    TypeInfo("UnityEngine.Debug", "class", "System.Object"),
    TypeInfo("UnityEngine.EventSystems.UIBehaviour", "class", "UnityEngine.MonoBehaviour"),
    TypeInfo("UnityEngine.UI.Selectable", "class", "UnityEngine.EventSystems.UIBehaviour"),
    TypeInfo("UnityEngine.UI.InputField", "class", "UnityEngine.UI.Selectable"),
    TypeInfo("UnityEngine.UI.Graphic", "class", "UnityEngine.EventSystems.UIBehaviour"),
    TypeInfo("UnityEngine.UI.MaskableGraphic", "class", "UnityEngine.UI.Graphic"),
    TypeInfo("UnityEngine.UI.Text", "class", "UnityEngine.UI.MaskableGraphic"),
    TypeInfo("UnityEngine.UI.Toggle", "class", "UnityEngine.UI.Selectable"),
    TypeInfo("UnityEngine.UI.Slider", "class", "UnityEngine.UI.Selectable"),
    TypeInfo("VRC.SDKBase.Networking", "class", "System.Object"),
    TypeInfo("VRC.SDKBase.VRCPlayerApi", "class", "System.Object"),
    TypeInfo("VRC.Udon.Common.UdonInputEventArgs", "struct", "System.ValueType"),
    TypeInfo("UdonSharp.UdonSharpBehaviour", "class", "UnityEngine.MonoBehaviour"),
    TypeInfo("UnityEngine.Time", "class", "System.Object"),
    TypeInfo("System.Text.Encoding", "class", "System.Object"),
    TypeInfo("VRC.SDKBase.VRCUrl", "class", "System.Object"),
    TypeInfo("VRC.SDK3.Components.VRCUrlInputField", "class", "UnityEngine.UI.Selectable"),
    TypeInfo("VRC.SDK3.Video.Components.Base.BaseVRCVideoPlayer", "class",
             "UnityEngine.MonoBehaviour"),
    TypeInfo("VRC.SDK3.Components.Video.VideoError", "struct", "System.Enum"),
    TypeInfo("VRC.SDK3.StringLoading.IVRCStringDownload", "class", "System.Object"),
    TypeInfo("VRC.SDK3.StringLoading.VRCStringDownloader", "static", "System.Object"),
    TypeInfo("VRC.SDK3.Persistence.PlayerData", "static", "System.Object"),
    TypeInfo("VRC.Udon.Common.Interfaces.IUdonEventReceiver", "class", "System.Object"),
]
TYPES: dict[str, TypeInfo] = {t.full: t for t in _TYPES}

#: simple names a script may use for the types above (its `using` directives are not read:
#: the generated scripts import exactly these namespaces)
SIMPLE_NAMES: dict[str, str] = {
    **{t.full.rsplit(".", 1)[-1]: t.full for t in _TYPES if not t.full.startswith("System.")},
    "Math": "System.Math", "Convert": "System.Convert", "Array": "System.Array",
    "String": "System.String", "Object": "UnityEngine.Object",
    "System.Text.Encoding": "System.Text.Encoding", "System.Convert": "System.Convert",
}


def _method(owner: str, name: str, params: tuple[str, ...], ret: str,
            static: bool = False) -> Member:
    return Member(owner, name, "method", tuple(map(parse_type, params)), parse_type(ret), static)


def _prop(owner: str, name: str, type_: str, static: bool = False,
          settable: bool = False) -> Member:
    return Member(owner, name, "property", (), parse_type(type_), static, settable)


def _field(owner: str, name: str, type_: str, settable: bool = True) -> Member:
    return Member(owner, name, "field", (), parse_type(type_), False, settable)


def _ctor(owner: str, params: tuple[str, ...]) -> Member:
    return Member(owner, ".ctor", "ctor", tuple(map(parse_type, params)), parse_type(owner))


def _const(owner: str, name: str, type_: str, value: object) -> Member:
    return Member(owner, name, "field", (), parse_type(type_), True, False, value)


def _folded(owner: str, name: str, type_: str, value: object) -> Member:
    """A static property that UdonSharp replaces by its value (BoundPropertyAccessExpression:
    static properties of Vector2/3/4, Quaternion, Matrix4x4, Color, Mathf, Rect)."""
    return Member(owner, name, "property", (), parse_type(type_), True, False, value)


_F4 = ("float", "float", "float", "float")
S, MATH, UE = "System.String", "System.Math", "UnityEngine"
USB = "UdonSharp.UdonSharpBehaviour"

MEMBERS: list[Member] = [
    # System.String (an indexer `s[i]` is not a member: UdonSharp lowers it, see checker)
    _prop(S, "Length", "int"),
    _method(S, "ToCharArray", (), "char[]"),
    _method(S, "ToCharArray", ("int", "int"), "char[]"),
    _method(S, "Substring", ("int",), "string"),
    _method(S, "Substring", ("int", "int"), "string"),
    _method(S, "IndexOf", ("char",), "int"),
    _method(S, "IndexOf", ("char", "int"), "int"),
    _method(S, "IndexOf", ("string",), "int"),
    _method(S, "Contains", ("string",), "bool"),
    _method(S, "StartsWith", ("string",), "bool"),
    _method(S, "Replace", ("string", "string"), "string"),
    _method(S, "GetHashCode", (), "int"),
    _method(S, "Split", ("char[]",), "string[]"),
    _method(S, "Trim", (), "string"),
    _method(S, "TrimStart", ("char[]",), "string"),
    _method(S, "ToLower", (), "string"),
    _method(S, "ToLowerInvariant", (), "string"),
    _method(S, "EndsWith", ("string",), "bool"),
    _method(S, "ToString", (), "string"),
    _method(S, "IsNullOrEmpty", ("string",), "bool", static=True),
    _method(S, "Join", ("string", "string[]", "int", "int"), "string", static=True),
    _prop(S, "Empty", "string", static=True),
    # numbers
    _method("System.Int32", "ToString", (), "string"),
    _method("System.Int32", "ToString", ("string",), "string"),
    _method("System.Int32", "Parse", ("string",), "int", static=True),
    _method("System.Int64", "ToString", (), "string"),
    _method("System.Single", "ToString", (), "string"),
    _method("System.Double", "ToString", (), "string"),
    _method("System.Char", "ToString", (), "string"),
    _const("System.Int32", "MaxValue", "int", 2**31 - 1),
    _const("System.Int32", "MinValue", "int", -(2**31)),
    _const("System.Int64", "MaxValue", "long", 2**63 - 1),
    _const("System.Int64", "MinValue", "long", -(2**63)),
    _method("System.Single", "IsNaN", ("float",), "bool", static=True),
    _const("System.Single", "NaN", "float", math.nan),
    _const("System.Single", "PositiveInfinity", "float", math.inf),
    _const("System.Single", "NegativeInfinity", "float", -math.inf),
    _const("System.Single", "MaxValue", "float", 3.4028234663852886e38),
    _const("System.Double", "NaN", "double", math.nan),
    _const("System.Double", "PositiveInfinity", "double", math.inf),
    # System.Math (Clamp: .NET Standard 2.1 has it, Udon does not expose it)
    _method(MATH, "Truncate", ("double",), "double", static=True),
    _method(MATH, "Floor", ("double",), "double", static=True),
    _method(MATH, "Sqrt", ("double",), "double", static=True),
    _method(MATH, "Abs", ("int",), "int", static=True),
    _method(MATH, "Abs", ("long",), "long", static=True),
    _method(MATH, "Abs", ("float",), "float", static=True),
    _method(MATH, "Abs", ("double",), "double", static=True),
    _method(MATH, "Min", ("int", "int"), "int", static=True),
    _method(MATH, "Max", ("int", "int"), "int", static=True),
    _method(MATH, "Clamp", ("int", "int", "int"), "int", static=True),
    # System.Array
    _prop("System.Array", "Length", "int"),
    _method("System.Array", "Copy", ("System.Array", "System.Array", "int"), "void",
            static=True),
    _method("System.Array", "Clear", ("System.Array", "int", "int"), "void",
            static=True),
    # UnityEngine
    _prop(f"{UE}.Object", "name", "string", settable=True),
    _prop(f"{UE}.Component", "gameObject", f"{UE}.GameObject"),
    _prop(f"{UE}.Component", "transform", f"{UE}.Transform"),
    _prop(f"{UE}.GameObject", "tag", "string", settable=True),
    _prop(f"{UE}.GameObject", "activeSelf", "bool"),
    _method(f"{UE}.GameObject", "SetActive", ("bool",), "void"),
    _prop(f"{UE}.MeshFilter", "sharedMesh", f"{UE}.Mesh", settable=True),
    _method(f"{UE}.Material", "SetVector", ("string", f"{UE}.Vector4"), "void"),
    _method(f"{UE}.Material", "SetVectorArray", ("string", f"{UE}.Vector4[]"), "void"),
    _method(f"{UE}.Material", "SetFloat", ("string", "float"), "void"),
    _method(f"{UE}.Material", "SetFloatArray", ("string", "float[]"), "void"),
    _method(f"{UE}.Material", "SetInt", ("string", "int"), "void"),
    _method(f"{UE}.Material", "GetVector", ("string",), f"{UE}.Vector4"),
    _method(f"{UE}.Material", "GetTexture", ("string",), f"{UE}.Texture"),
    _method(f"{UE}.Texture2D", "GetPixel", ("int", "int"), f"{UE}.Color"),
    _method(f"{UE}.Material", "GetVectorArray", ("string",), f"{UE}.Vector4[]"),
    _method(f"{UE}.Material", "SetTexture", ("string", f"{UE}.Texture"), "void"),
    _ctor(f"{UE}.Color", _F4),
    *(_field(f"{UE}.Color", lane, "float") for lane in "rgba"),
    _ctor(f"{UE}.Texture2D", ("int", "int", f"{UE}.TextureFormat", "bool", "bool")),
    _method(f"{UE}.Texture2D", "SetPixels", (f"{UE}.Color[]",), "void"),
    _method(f"{UE}.Texture2D", "Apply", ("bool",), "void"),
    _prop(f"{UE}.Texture", "filterMode", f"{UE}.FilterMode", settable=True),
    _prop(f"{UE}.Texture", "wrapMode", f"{UE}.TextureWrapMode", settable=True),
    _const(f"{UE}.TextureFormat", "RGBAFloat", f"{UE}.TextureFormat", 20),
    _const(f"{UE}.FilterMode", "Point", f"{UE}.FilterMode", 0),
    _const(f"{UE}.TextureWrapMode", "Clamp", f"{UE}.TextureWrapMode", 1),
    _ctor(f"{UE}.Vector4", _F4),
    _ctor(f"{UE}.Vector4", _F4[:3]),
    _ctor(f"{UE}.Vector4", _F4[:2]),
    *(_field(f"{UE}.Vector4", axis, "float") for axis in "xyzw"),
    _folded(f"{UE}.Vector4", "zero", f"{UE}.Vector4", (0.0, 0.0, 0.0, 0.0)),
    _folded(f"{UE}.Vector4", "one", f"{UE}.Vector4", (1.0, 1.0, 1.0, 1.0)),
    _method(f"{UE}.Mathf", "Min", ("float", "float"), "float", static=True),
    _method(f"{UE}.Mathf", "Max", ("float", "float"), "float", static=True),
    _method(f"{UE}.Mathf", "Abs", ("float",), "float", static=True),
    _method(f"{UE}.Mathf", "Floor", ("float",), "float", static=True),
    _method(f"{UE}.Mathf", "FloorToInt", ("float",), "int", static=True),
    _method(f"{UE}.Mathf", "Clamp", ("float", "float", "float"), "float", static=True),
    _const(f"{UE}.Mathf", "PI", "float", 3.1415927410125732),
    _method(f"{UE}.Debug", "Log", ("object",), "void", static=True),
    _prop(f"{UE}.UI.InputField", "text", "string", settable=True),
    _prop(f"{UE}.UI.InputField", "characterLimit", "int", settable=True),
    _prop(f"{UE}.UI.Text", "text", "string", settable=True),
    _prop(f"{UE}.UI.InputField", "isFocused", "bool"),
    _method(f"{UE}.UI.InputField", "DeactivateInputField", (), "void"),
    _prop(f"{UE}.UI.Toggle", "isOn", "bool", settable=True),
    _method(f"{UE}.UI.Toggle", "SetIsOnWithoutNotify", ("bool",), "void"),
    *(_prop(f"{UE}.UI.Slider", n, "float", settable=True) for n in ("value", "minValue",
                                                                    "maxValue")),
    _method(f"{UE}.UI.Slider", "SetValueWithoutNotify", ("float",), "void"),
    _prop(f"{UE}.Renderer", "sharedMaterial", f"{UE}.Material", settable=True),
    _prop(f"{UE}.CustomRenderTexture", "updateMode", f"{UE}.CustomRenderTextureUpdateMode",
          settable=True),
    # enum members: UdonSharp passes them as constants of the enum type
    *(_const(f"{UE}.CustomRenderTextureUpdateMode", n, f"{UE}.CustomRenderTextureUpdateMode", v)
      for n, v in (("OnLoad", 0), ("Realtime", 1), ("OnDemand", 2))),
    # VRChat
    _prop("VRC.SDKBase.Networking", "LocalPlayer", "VRC.SDKBase.VRCPlayerApi", static=True),
    _prop("VRC.SDKBase.Networking", "IsMaster", "bool", static=True),
    _prop("VRC.SDKBase.Networking", "IsInstanceOwner", "bool", static=True),
    _prop("VRC.SDKBase.VRCPlayerApi", "isInstanceOwner", "bool"),
    _method("VRC.SDKBase.VRCPlayerApi", "GetPlayerCount", (), "int", static=True),
    _method("VRC.SDKBase.VRCPlayerApi", "GetPlayers", ("VRC.SDKBase.VRCPlayerApi[]",),
            "VRC.SDKBase.VRCPlayerApi[]", static=True),
    _method("VRC.SDKBase.VRCPlayerApi", "IsValid", (), "bool"),
    _prop("VRC.SDKBase.VRCPlayerApi", "displayName", "string"),
    _method("VRC.SDKBase.VRCPlayerApi", "Immobilize", ("bool",), "void"),
    _method("VRC.SDKBase.VRCPlayerApi", "GetJumpImpulse", (), "float"),
    _method("VRC.SDKBase.VRCPlayerApi", "SetJumpImpulse", ("float",), "void"),
    _method("VRC.SDKBase.VRCPlayerApi", "IsUserInVR", (), "bool"),
    _method("VRC.SDKBase.Networking", "IsOwner", ("VRC.SDKBase.VRCPlayerApi",
                                                  f"{UE}.GameObject"), "bool", static=True),
    _method("VRC.SDKBase.Networking", "IsOwner", (f"{UE}.GameObject",), "bool", static=True),
    _method("VRC.SDKBase.Networking", "SetOwner", ("VRC.SDKBase.VRCPlayerApi",
                                                   f"{UE}.GameObject"), "void", static=True),
    _prop("VRC.SDKBase.VRCPlayerApi", "isLocal", "bool"),
    _method("VRC.SDKBase.VRCUrl", "Get", (), "string"),
    _method("VRC.SDK3.Components.VRCUrlInputField", "GetUrl", (), "VRC.SDKBase.VRCUrl"),
    _method("VRC.SDK3.Video.Components.Base.BaseVRCVideoPlayer", "PlayURL",
            ("VRC.SDKBase.VRCUrl",), "void"),
    _method("VRC.SDK3.Video.Components.Base.BaseVRCVideoPlayer", "Stop", (), "void"),
    _method("VRC.SDK3.Components.Video.VideoError", "ToString", (), "string"),
    _method("VRC.SDK3.StringLoading.VRCStringDownloader", "LoadUrl",
            ("VRC.SDKBase.VRCUrl", "VRC.Udon.Common.Interfaces.IUdonEventReceiver"), "void",
            static=True),
    *(_prop("VRC.SDK3.StringLoading.IVRCStringDownload", name, type_)
      for name, type_ in (("Result", "string"), ("ResultBytes", "byte[]"), ("Error", "string"),
                          ("ErrorCode", "int"), ("Url", "VRC.SDKBase.VRCUrl"))),
    _method("VRC.SDK3.Persistence.PlayerData", "HasKey", ("VRC.SDKBase.VRCPlayerApi", "string"),
            "bool", static=True),
    _method("VRC.SDK3.Persistence.PlayerData", "GetString",
            ("VRC.SDKBase.VRCPlayerApi", "string"), "string", static=True),
    _method("VRC.SDK3.Persistence.PlayerData", "TryGetString",
            ("VRC.SDKBase.VRCPlayerApi", "string", "out string"), "bool", static=True),
    _method("VRC.SDK3.Persistence.PlayerData", "SetString", ("string", "string"), "void",
            static=True),
    _prop(f"{UE}.Time", "time", "float", static=True),
    _prop(f"{UE}.Time", "deltaTime", "float", static=True),
    _prop(f"{UE}.Time", "smoothDeltaTime", "float", static=True),
    _prop("System.Text.Encoding", "UTF8", "System.Text.Encoding", static=True),
    _method("System.Text.Encoding", "GetBytes", ("string",), "byte[]"),
    _method("System.Text.Encoding", "GetByteCount", ("string",), "int"),
    _method("System.Convert", "ToBase64String", ("byte[]",), "string", static=True),
    # UdonSharpBehaviour's own API (its Udon type is IUdonEventReceiver, see checker)
    _method(USB, "RequestSerialization", (), "void"),
    _method(USB, "SendCustomEvent", ("string",), "void"),
    _method(USB, "GetProgramVariable", ("string",), "object"),
    _method(USB, "SetProgramVariable", ("string", "object"), "void"),
]


def members_named(owner: str, name: str) -> list[Member]:
    return _BY_NAME.get((owner, name), [])


_BY_NAME: dict[tuple[str, str], list[Member]] = {}
for _m in MEMBERS:
    _BY_NAME.setdefault((_m.owner, _m.name), []).append(_m)
