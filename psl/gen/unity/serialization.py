"""Unity serialisation helpers: GUIDs, object references, a small YAML writer and .meta files.

Unity's text serialisation is YAML 1.1 with one document per object, headed
`--- !u!<classID> &<fileID>`. We write it ourselves (rather than through PyYAML's dumper) so
the output looks like what Unity writes: flow mappings for references and vectors, block
mappings elsewhere, and the same bytes on every run.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# --------------------------------------------------------------------------------------
# GUIDs
# --------------------------------------------------------------------------------------

GUID_RE = re.compile(r"^[0-9a-f]{32}$")


def guid_for(package_name: str, path: str) -> str:
    """The stable GUID of a package file or folder: md5 of "name:path" (path relative, '/')."""
    return hashlib.md5(f"{package_name}:{path}".encode()).hexdigest()


def file_id_for(*parts: str) -> int:
    """A stable local fileID for an object inside a prefab (positive, below 2**63)."""
    digest = hashlib.md5("/".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") & 0x7FFF_FFFF_FFFF_FFFF or 1


@dataclass(frozen=True)
class BuiltinAsset:
    """An asset that lives outside our package (Unity, VRChat SDK, UdonSharp)."""

    guid: str
    file_id: int
    type: int
    doc: str


#: THE table of every GUID our assets reference outside the package. Tests check that every
#: `guid:` in generated YAML is either a package file or listed here.
BUILTIN_ASSETS: dict[str, BuiltinAsset] = {
    # UdonSharp (ships inside com.vrchat.worlds since SDK 3.4)
    "UdonSharpProgramAsset": BuiltinAsset(
        "c333ccfdd0cbdbc4ca30cef2dd6e6b9b", 11500000, 3, "UdonSharpProgramAsset script"),
    "UdonSharpAssemblyDefinition": BuiltinAsset(
        "5136146375e9a0a498a72a0091b40cc1", 11500000, 3, "U# assembly definition script"),
    # VRChat Udon / SDK
    "UdonBehaviour": BuiltinAsset(
        "45115577ef41a5b4ca741ed302693907", 11500000, 3, "VRC.Udon.UdonBehaviour script"),
    "VRCUiShape": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", -1533785930, 3,
        "VRC.SDK3.Components.VRCUiShape (in VRCSDK3.dll)"),
    "VRCPickup": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", 1804438810, 3,
        "VRC.SDK3.Components.VRCPickup (in VRCSDK3.dll)"),
    "VRCObjectSync": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", -1783056023, 3,
        "VRC.SDK3.Components.VRCObjectSync (in VRCSDK3.dll)"),
    "VRCUrlInputField": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", -547739040, 3,
        "VRC.SDK3.Components.VRCUrlInputField (in VRCSDK3.dll; as in public VRChat prefabs)"),
    # the mirror (as in the original world's FuncWorld.unity; the material is listed in public
    # GUID tables of com.vrchat.base: Runtime/VRCSDK/Sample Assets/Materials/MirrorReflection.mat)
    "VRCMirrorReflection": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", -160369383, 3,
        "VRC.SDK3.Components.VRCMirrorReflection (in VRCSDK3.dll)"),
    "VRCMirrorMaterial": BuiltinAsset(
        "c815f7613a04b724089c206857e57c6a", 2100000, 2,
        "com.vrchat.base Sample Assets/Materials/MirrorReflection.mat"),
    # VRChat's Unity video player (as in MerlinVR/USharpVideo's prefab)
    "VRCUnityVideoPlayer": BuiltinAsset(
        "661092b4961be7145bfbe56e1e62337b", -560078975, 3,
        "VRC.SDK3.Video.Components.VRCUnityVideoPlayer (in VRCSDK3.dll)"),
    # uGUI (com.unity.ugui)
    "Image": BuiltinAsset("fe87c0e1cc204ed48ad3b37840f39efc", 11500000, 3, "UnityEngine.UI.Image"),
    "Text": BuiltinAsset("5f7201a12d95ffc409449d95f23cf332", 11500000, 3, "UnityEngine.UI.Text"),
    "Button": BuiltinAsset(
        "4e29b1a8efbd4b44bb3f3716e73f07ff", 11500000, 3, "UnityEngine.UI.Button"),
    "InputField": BuiltinAsset(
        "d199490a83bb2b844b9695cbf13b01ef", 11500000, 3, "UnityEngine.UI.InputField (legacy)"),
    "CanvasScaler": BuiltinAsset(
        "0cd44c1031e13a943bb63640046fad76", 11500000, 3, "UnityEngine.UI.CanvasScaler"),
    "GraphicRaycaster": BuiltinAsset(
        "dc42784cf147c0c48a680349fa168899", 11500000, 3, "UnityEngine.UI.GraphicRaycaster"),
    "Toggle": BuiltinAsset(
        "9085046f02f69544eb97fd06b6048fe2", 11500000, 3, "UnityEngine.UI.Toggle"),
    "Slider": BuiltinAsset(
        "67db9e8f0e2ae9c40bc1e2b64352a6b4", 11500000, 3, "UnityEngine.UI.Slider"),
    "ScrollRect": BuiltinAsset(
        "1aa08ab6e0800fa44ae55d278d1423e3", 11500000, 3, "UnityEngine.UI.ScrollRect"),
    "RectMask2D": BuiltinAsset(
        "3312d7739989d2b4e91e6319e9a96d76", 11500000, 3, "UnityEngine.UI.RectMask2D"),
    "ContentSizeFitter": BuiltinAsset(
        "3245ec927659c4140ac4f8d17403cc18", 11500000, 3, "UnityEngine.UI.ContentSizeFitter"),
    # Unity built-in resources
    "Arial": BuiltinAsset(
        "0000000000000000e000000000000000", 10102, 0, "built-in Arial font"),
    "QuadMesh": BuiltinAsset(
        "0000000000000000e000000000000000", 10210, 0, "built-in Quad mesh"),
    "CubeMesh": BuiltinAsset(
        "0000000000000000e000000000000000", 10202, 0, "built-in Cube mesh"),
    "DefaultMaterial": BuiltinAsset(
        "0000000000000000f000000000000000", 10303, 0, "built-in Default-Material"),
    "UISprite": BuiltinAsset(
        "0000000000000000f000000000000000", 10905, 0, "built-in UISprite (buttons)"),
    "InputFieldBackground": BuiltinAsset(
        "0000000000000000f000000000000000", 10911, 0, "built-in InputFieldBackground sprite"),
    "Checkmark": BuiltinAsset(
        "0000000000000000f000000000000000", 10901, 0, "built-in Checkmark sprite (toggles)"),
}

BUILTIN_GUIDS: frozenset[str] = frozenset(a.guid for a in BUILTIN_ASSETS.values())

# --------------------------------------------------------------------------------------
# YAML values
# --------------------------------------------------------------------------------------


class Flow(dict):
    """A mapping written inline, `{x: 0, y: 1}`, as Unity writes references and vectors."""


@dataclass(frozen=True)
class Raw:
    """A scalar written verbatim (already valid YAML)."""

    text: str


def ref(file_id: int = 0, guid: str | None = None, type_: int | None = None) -> Flow:
    """An object reference: local `{fileID: n}` or external `{fileID, guid, type}`."""
    if guid is None:
        return Flow(fileID=file_id)
    return Flow(fileID=file_id, guid=Raw(guid), type=type_ if type_ is not None else 2)


def builtin_ref(name: str) -> Flow:
    a = BUILTIN_ASSETS[name]
    return ref(a.file_id, a.guid, a.type)


NULL = Flow(fileID=0)


def vec(*values: float, keys: str = "xyzw") -> Flow:
    return Flow((k, v) for k, v in zip(keys, values, strict=False))


def color(r: float, g: float, b: float, a: float = 1.0) -> Flow:
    return Flow(r=r, g=g, b=b, a=a)


_PLAIN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .()/+-]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


def scalar(value: object) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if value is None:
        return ""
    if isinstance(value, str):
        return _string(value)
    raise TypeError(f"cannot write {type(value).__name__} as a Unity YAML scalar")


def _float(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _string(text: str) -> str:
    if text == "":
        return ""
    if _PLAIN_RE.match(text) and text.lower() not in _YAML_WORDS and not text.endswith(" "):
        return text
    # JSON string escapes are a subset of YAML double-quoted escapes.
    return json.dumps(text, ensure_ascii=False)


def _flow(mapping: Mapping[str, object]) -> str:
    inner = ", ".join(f"{k}: {_inline(v)}" for k, v in mapping.items())
    return "{" + inner + "}"


def _inline(value: object) -> str:
    if isinstance(value, Mapping):
        return _flow(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return scalar(value)


def _block(mapping: Mapping[str, object], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for key, value in mapping.items():
        if isinstance(value, Flow):
            out.append(f"{pad}{key}: {_flow(value)}")
        elif isinstance(value, Mapping):
            if not value:
                out.append(f"{pad}{key}: {{}}")
            else:
                out.append(f"{pad}{key}:")
                _block(value, indent + 2, out)
        elif isinstance(value, list | tuple):
            if not value:
                out.append(f"{pad}{key}: []")
            else:
                out.append(f"{pad}{key}:")
                _sequence(value, indent, out)
        else:
            text = scalar(value)
            out.append(f"{pad}{key}: {text}" if text else f"{pad}{key}:")


def _sequence(items: Iterable[object], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if isinstance(item, Flow) or not isinstance(item, Mapping):
            out.append(f"{pad}- {_inline(item)}")
            continue
        lines: list[str] = []
        _block(item, indent + 2, lines)
        lines[0] = pad + "- " + lines[0][indent + 2:]
        out.extend(lines)


@dataclass(frozen=True)
class UnityObject:
    """One document of a Unity YAML file."""

    class_id: int
    file_id: int
    type_name: str
    body: Mapping[str, object]
    stripped: bool = False


YAML_HEADER = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"


def dump_objects(objects: Iterable[UnityObject]) -> str:
    out = [YAML_HEADER.rstrip("\n")]
    for obj in objects:
        out.append(f"--- !u!{obj.class_id} &{obj.file_id}")
        out.append(f"{obj.type_name}:")
        _block(obj.body, 2, out)
    return "\n".join(out) + "\n"


def dump_mapping(mapping: Mapping[str, object]) -> str:
    """A plain YAML file (used for .meta files)."""
    out: list[str] = []
    _block(mapping, 0, out)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------
# .meta files
# --------------------------------------------------------------------------------------

# main object fileIDs of native assets (what references and a .meta's mainObjectFileID name)
MATERIAL_ID, PREFAB_ID, MONO_ID = 2100000, 100100000, 11400000
RENDER_TEXTURE_ID, CRT_ID = 8400000, 8600000
# ... by extension (NativeFormatImporter); a CRT is an .asset, so its files pass CRT_ID
NATIVE_MAIN_OBJECT = {".mat": MATERIAL_ID, ".prefab": PREFAB_ID, ".asset": MONO_ID,
                      ".rendertexture": RENDER_TEXTURE_ID}


def meta_for(path: str, guid: str, *, folder: bool = False, main_object: int | None = None) -> str:
    """The .meta text Unity 2022.3 would write for `path` (only the importer matters)."""
    head: dict[str, object] = {"fileFormatVersion": 2, "guid": Raw(guid)}
    if folder:
        head["folderAsset"] = Raw("yes")
        head["DefaultImporter"] = _importer_tail({"externalObjects": {}})
        return dump_mapping(head)
    ext = _ext(path)
    importer: tuple[str, dict[str, object]]
    if ext == ".cs":
        importer = ("MonoImporter", {
            "externalObjects": {}, "serializedVersion": 2, "defaultReferences": [],
            "executionOrder": 0, "icon": NULL,
        })
    elif ext in (".shader", ".cginc", ".hlsl"):
        importer = ("ShaderImporter", {
            "externalObjects": {}, "defaultTextures": [], "nonModifiableTextures": [],
        })
    elif ext == ".asmdef":
        importer = ("AssemblyDefinitionImporter", {"externalObjects": {}})
    elif ext == ".json" and path.rsplit("/", 1)[-1] == "package.json":
        importer = ("PackageManifestImporter", {"externalObjects": {}})
    elif ext in (".txt", ".md", ".json", ".bytes", ".csv", ".xml"):
        importer = ("TextScriptImporter", {"externalObjects": {}})
    elif ext == ".prefab":
        importer = ("PrefabImporter", {"externalObjects": {}})
    elif ext in (".ttf", ".otf"):
        # a dynamic font (forceTextureCase -2) with its data included, as Unity imports one
        importer = ("TrueTypeFontImporter", {
            "externalObjects": {}, "serializedVersion": 4, "fontSize": 16,
            "forceTextureCase": -2, "characterSpacing": 0, "characterPadding": 1,
            "includeFontData": 1, "fontNames": [], "fallbackFontReferences": [],
            "customCharacters": "", "fontRenderingMode": 0, "ascentCalculationMode": 1,
            "useLegacyBoundsCalculation": 0, "shouldRoundAdvanceValue": 1,
        })
    elif ext in NATIVE_MAIN_OBJECT or main_object is not None:
        mob = main_object if main_object is not None else NATIVE_MAIN_OBJECT[ext]
        importer = ("NativeFormatImporter", {"externalObjects": {}, "mainObjectFileID": mob})
    else:
        importer = ("DefaultImporter", {"externalObjects": {}})
    name, fields = importer
    head[name] = _importer_tail(fields)
    return dump_mapping(head)


def _importer_tail(fields: dict[str, object]) -> dict[str, object]:
    return {**fields, "userData": "", "assetBundleName": "", "assetBundleVariant": ""}


def _ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[name.rfind("."):].lower() if "." in name else ""


GUID_REF_RE = re.compile(r"guid: ([0-9a-fA-F]+)")


def guid_references(text: str) -> list[str]:
    """Every `guid:` value mentioned in a YAML text (used by tests and self-checks)."""
    return GUID_REF_RE.findall(text)
