"""`psl-gen unity-package`: every YAML asset parses, every reference resolves, assets are wired."""

from __future__ import annotations

import re

import pytest
import yaml

from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.csharp import parse_csharp_class
from psl.gen.unity.serialization import BUILTIN_ASSETS, BUILTIN_GUIDS, guid_for, guid_references
from tests.package_support import body, load_unity_yaml, walk_refs

NAME = pkg.DEFAULT_NAME
YAML_ASSETS = pkg.YAML_ASSETS


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package()


@pytest.fixture(scope="module")
def guid_to_path(package: pkg.Package) -> dict[str, str]:
    return {e.guid: e.path for e in package.tree.entries.values()}


def _text(package: pkg.Package, path: str) -> str:
    return package.files[path].decode()


def _docs(package: pkg.Package, path: str) -> dict[int, dict]:
    return load_unity_yaml(_text(package, path))


def test_guids_are_derived_and_unique(package: pkg.Package) -> None:
    entries = list(package.tree.entries.values())
    assert len({e.guid for e in entries}) == len(entries)
    for e in entries:
        assert e.guid == guid_for(NAME, e.path)
        assert re.fullmatch(r"[0-9a-f]{32}", e.guid)
    # built-in GUIDs never collide with ours
    assert not BUILTIN_GUIDS & {e.guid for e in entries}


def test_every_meta_parses(package: pkg.Package) -> None:
    for e in package.tree.entries.values():
        meta = yaml.safe_load(e.meta)
        assert meta["fileFormatVersion"] == 2
        assert f"guid: {e.guid}\n" in e.meta
        importers = [k for k in meta if k.endswith("Importer")]
        assert len(importers) == 1, e.path
        if e.is_folder:
            assert meta["folderAsset"] is True
            assert importers == ["DefaultImporter"]


@pytest.mark.parametrize("ext, importer, main_object", [
    (".cs", "MonoImporter", None),
    (".shader", "ShaderImporter", None),
    (".cginc", "ShaderImporter", None),
    (".asmdef", "AssemblyDefinitionImporter", None),
    (".mat", "NativeFormatImporter", 2100000),
    (".renderTexture", "NativeFormatImporter", 8400000),
    (".prefab", "PrefabImporter", None),
    (".txt", "TextScriptImporter", None),
])
def test_importers(package: pkg.Package, ext: str, importer: str, main_object: int | None) -> None:
    entries = [e for e in package.tree.entries.values() if e.path.endswith(ext)]
    assert entries
    for e in entries:
        meta = yaml.safe_load(e.meta)
        assert importer in meta, e.path
        if main_object is not None:
            assert meta[importer]["mainObjectFileID"] == main_object


def test_package_json_meta(package: pkg.Package) -> None:
    assert "PackageManifestImporter" in yaml.safe_load(package.tree.entries["package.json"].meta)


def test_every_yaml_asset_parses(package: pkg.Package) -> None:
    paths = [p for p in package.files if p.endswith(YAML_ASSETS)]
    # prefab, programs, U# asm, CRTs, materials, camera texture
    assert len(paths) >= 1 + 3 + 1 + 4 + 5 + 1
    for path in paths:
        text = _text(package, path)
        assert text.startswith("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!")
        docs = load_unity_yaml(text)
        assert docs


def test_every_guid_reference_resolves(package: pkg.Package,
                                       guid_to_path: dict[str, str]) -> None:
    checked = 0
    for path, data in package.files.items():
        if not path.endswith(YAML_ASSETS):
            continue
        for guid in guid_references(data.decode()):
            assert guid in guid_to_path or guid in BUILTIN_GUIDS, f"{path}: unknown guid {guid}"
            checked += 1
    assert checked > 50


def test_every_local_file_id_resolves(package: pkg.Package) -> None:
    for path in package.files:
        if not path.endswith(YAML_ASSETS):
            continue
        docs = _docs(package, path)
        for doc in docs.values():
            for r in walk_refs(body(doc)):
                if "guid" not in r and r["fileID"] != 0:
                    assert r["fileID"] in docs, f"{path}: dangling fileID {r['fileID']}"


def test_external_references_use_the_right_main_object(package: pkg.Package,
                                                       guid_to_path: dict[str, str]) -> None:
    expected = {".mat": (2100000, 2), ".cs": (11500000, 3), ".shader": (4800000, 3),
                ".txt": (4900000, 3), ".asmdef": (5897886265953266890, 3),
                ".renderTexture": (8400000, 2), ".ttf": (12800000, 3)}
    builtin = {(a.guid, a.file_id, a.type) for a in BUILTIN_ASSETS.values()}
    for path in package.files:
        if not path.endswith(YAML_ASSETS):
            continue
        for doc in _docs(package, path).values():
            for r in walk_refs(body(doc)):
                if "guid" not in r:
                    continue
                guid = str(r["guid"])
                if guid in BUILTIN_GUIDS:
                    assert (guid, r["fileID"], r["type"]) in builtin, r
                    continue
                target = guid_to_path[guid]
                if target.endswith(".asset") and "/RenderTextures/" in target:
                    assert (r["fileID"], r["type"]) == (8600000, 2)
                elif target.endswith(".asset") and "/Meshes/" in target:
                    assert (r["fileID"], r["type"]) == (4300000, 2)  # a Mesh
                elif target.endswith(".asset"):
                    assert (r["fileID"], r["type"]) == (11400000, 2)
                else:
                    ext = target[target.rfind("."):]
                    assert (r["fileID"], r["type"]) == expected[ext], (path, target)


def test_program_assets(package: pkg.Package, guid_to_path: dict[str, str]) -> None:
    for cls in udonsharp.BEHAVIOURS:
        b = body(_docs(package, f"Runtime/Scripts/{cls}.asset")[11400000])
        assert b["m_Name"] == cls
        assert b["scriptVersion"] == 2
        assert str(b["m_Script"]["guid"]) == BUILTIN_ASSETS["UdonSharpProgramAsset"].guid
        assert guid_to_path[str(b["sourceCsScript"]["guid"])] == f"Runtime/Scripts/{cls}.cs"


def test_udonsharp_assembly_definition(package: pkg.Package,
                                       guid_to_path: dict[str, str]) -> None:
    assets = [p for p in package.files if re.fullmatch(r"Runtime/[^/]+\.asset", p)]
    assert len(assets) == 1
    b = body(_docs(package, assets[0])[11400000])
    assert str(b["m_Script"]["guid"]) == BUILTIN_ASSETS["UdonSharpAssemblyDefinition"].guid
    target = guid_to_path[str(b["sourceAssembly"]["guid"])]
    assert target == assets[0].replace(".asset", ".asmdef")


@pytest.mark.parametrize("size", pkg.CRT_SIZES)
def test_render_textures(package: pkg.Package, guid_to_path: dict[str, str], size: int) -> None:
    b = body(_docs(package, f"Runtime/RenderTextures/PSL_CRT_{size}.asset")[8600000])
    assert (b["m_Width"], b["m_Height"]) == (size, size)
    assert b["m_ColorFormat"] == 52  # R32G32B32A32_SFloat
    assert b["m_DoubleBuffered"] == 1
    # only the buffer the screens show at load updates every frame; the others wait for a
    # quality button (ScreenQuality switches them), so a player pays for one resolution
    assert b["m_UpdateMode"] == (1 if size == pkg.DEFAULT_CRT_SIZE else 2)  # realtime, on demand
    assert b["m_InitColor"] == {"r": 0, "g": 0, "b": 0, "a": 0}
    assert b["m_TextureSettings"]["m_FilterMode"] == 1  # bilinear
    assert b["m_TextureSettings"]["m_WrapU"] == b["m_TextureSettings"]["m_WrapV"] == 1  # clamp
    assert guid_to_path[str(b["m_Material"]["guid"])] == "Runtime/Materials/PSL_VM.mat"
    screen = body(_docs(package, f"Runtime/Materials/PSL_Screen_{size}.mat")[2100000])
    assert guid_to_path[str(screen["m_Shader"]["guid"])] == "Runtime/Shaders/Screen.shader"
    tex = screen["m_SavedProperties"]["m_TexEnvs"][0]["_MainTex"]["m_Texture"]
    assert guid_to_path[str(tex["guid"])] == f"Runtime/RenderTextures/PSL_CRT_{size}.asset"


def test_vm_material(package: pkg.Package, guid_to_path: dict[str, str]) -> None:
    b = body(_docs(package, "Runtime/Materials/PSL_VM.mat")[2100000])
    assert guid_to_path[str(b["m_Shader"]["guid"])] == "Runtime/Shaders/VM.shader"


# --- the prefab --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def prefab(package: pkg.Package) -> dict[int, dict]:
    return _docs(package, "Runtime/Prefabs/Shaderception.prefab")


def _by_name(prefab: dict[int, dict]) -> dict[str, int]:
    names: dict[str, int] = {}
    for fid, doc in prefab.items():
        if "GameObject" in doc:
            names.setdefault(doc["GameObject"]["m_Name"], fid)
    return names


def _components(prefab: dict[int, dict], go_id: int) -> list[dict]:
    go = prefab[go_id]["GameObject"]
    return [body(prefab[c["component"]["fileID"]]) | {"__id": c["component"]["fileID"],
                                                      "__class": prefab[c["component"]["fileID"]]
                                                      ["__class__"]}
            for c in go["m_Component"]]


def _script(prefab_comp: dict) -> str:
    return str(prefab_comp.get("m_Script", {}).get("guid", ""))


def test_prefab_hierarchy_is_consistent(prefab: dict[int, dict]) -> None:
    roots = []
    for fid, doc in prefab.items():
        if "GameObject" in doc:
            comps = doc["GameObject"]["m_Component"]
            transform = prefab[comps[0]["component"]["fileID"]]
            assert transform["__class__"] in (4, 224)
            t = body(transform)
            assert t["m_GameObject"]["fileID"] == fid
            for c in comps[1:]:
                assert body(prefab[c["component"]["fileID"]])["m_GameObject"]["fileID"] == fid
            if t["m_Father"]["fileID"] == 0:
                roots.append(doc["GameObject"]["m_Name"])
            else:
                father = body(prefab[t["m_Father"]["fileID"]])
                assert {"fileID": comps[0]["component"]["fileID"]} in father["m_Children"]
    assert roots == ["Shaderception"]


def test_prefab_canvas_and_ui(prefab: dict[int, dict]) -> None:
    names = _by_name(prefab)
    canvas = _components(prefab, names["Canvas"])
    canvas_comp = next(c for c in canvas if c["__class"] == 223)
    assert canvas_comp["m_RenderMode"] == 2  # world space
    assert any(_script(c) == BUILTIN_ASSETS["VRCUiShape"].guid for c in canvas)
    code = _components(prefab, names["CodeInput"])
    field = next(c for c in code if _script(c) == BUILTIN_ASSETS["InputField"].guid)
    assert field["m_LineType"] == 2  # multi-line newline
    assert field["m_TextComponent"]["fileID"] in prefab
    output = _components(prefab, names["Output"])
    assert any(_script(c) == BUILTIN_ASSETS["Text"].guid for c in output)
    screen = _components(prefab, names["Screen"])
    renderer = next(c for c in screen if c["__class"] == 23)
    assert len(renderer["m_Materials"]) == 1


def _udonsharp_pair(prefab: dict[int, dict], go_name: str, script_guid: str) -> tuple[dict, dict]:
    comps = _components(prefab, _by_name(prefab)[go_name])
    proxy = next(c for c in comps if _script(c) == script_guid)
    backing = prefab[proxy["_udonSharpBackingUdonBehaviour"]["fileID"]]
    return proxy, body(backing)


def test_prefab_compile_button_reaches_the_compiler(package: pkg.Package,
                                                   prefab: dict[int, dict],
                                                   guid_to_path: dict[str, str]) -> None:
    """Compile button -> SendCustomEvent("Compile") on the Compiler's UdonBehaviour (local: the
    Compiler has no SyncCode field), and SyncCode's fields -> the input field and the
    Compiler (shared text compiles there). The sharing controls: test_package_world.py."""
    classes = {c: parse_csharp_class(c, _text(package, f"Runtime/Scripts/{c}.cs"))
               for c in udonsharp.BEHAVIOURS}
    # the events the UI sends are public methods of the generated behaviours
    assert udonsharp.COMPILE_EVENT in classes["Compiler"].methods
    assert udonsharp.LOAD_EVENT in classes["ExampleButton"].methods
    proxy, backing = _udonsharp_pair(prefab, "Compiler",
                                     guid_for(NAME, "Runtime/Scripts/Compiler.cs"))
    assert str(backing["m_Script"]["guid"]) == BUILTIN_ASSETS["UdonBehaviour"].guid
    assert guid_to_path[str(backing["programSource"]["guid"])] == "Runtime/Scripts/Compiler.asset"
    names = _by_name(prefab)
    button = next(c for c in _components(prefab, names["CompileButton"])
                  if _script(c) == BUILTIN_ASSETS["Button"].guid)
    # the compile, then the frame-rate guard's ProgramChanged (test_package_guard.py), then
    # the sliders' (test_package_sliders.py)
    call, _guard_call, _sliders_call = button["m_OnClick"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_Target"]["fileID"] == proxy["_udonSharpBackingUdonBehaviour"]["fileID"]
    assert call["m_TargetAssemblyTypeName"] == "VRC.Udon.UdonBehaviour, VRC.Udon"
    assert call["m_MethodName"] == "SendCustomEvent"
    assert call["m_Mode"] == 5
    assert call["m_Arguments"]["m_StringArgument"] == "Compile"
    sync_proxy, sync_backing = _udonsharp_pair(prefab, "SyncCode",
                                               guid_for(NAME, "Runtime/Scripts/SyncCode.cs"))
    assert guid_to_path[str(sync_backing["programSource"]["guid"])] == \
        "Runtime/Scripts/SyncCode.asset"
    assert not any(t == "SyncCode" for t, _ in classes["Compiler"].fields)
    assert {"Compile", "CompileReceived"} <= set(classes["Compiler"].methods)
    compiler_refs = [sync_proxy[n] for t, n in classes["SyncCode"].fields if t == "Compiler"]
    assert compiler_refs and all(r == {"fileID": proxy["__id"]} for r in compiler_refs)
    # the compiler's UI and material fields point at the prefab's objects / the VM material
    compiler_proxy, _ = _udonsharp_pair(prefab, "Compiler",
                                        guid_for(NAME, "Runtime/Scripts/Compiler.cs"))
    input_id = next(c["__id"] for c in _components(prefab, names["CodeInput"])
                    if _script(c) == BUILTIN_ASSETS["InputField"].guid)
    output_id = next(c["__id"] for c in _components(prefab, names["Output"])
                     if _script(c) == BUILTIN_ASSETS["Text"].guid)
    for type_name, field_name in classes["Compiler"].fields:
        value = compiler_proxy[field_name]
        if type_name == "InputField":
            assert value == {"fileID": input_id}
        if type_name == "Text":
            assert value == {"fileID": output_id}
        if type_name == "Material":
            assert guid_to_path[str(value["guid"])] == "Runtime/Materials/PSL_VM.mat"


def test_prefab_example_buttons(package: pkg.Package, prefab: dict[int, dict],
                                guid_to_path: dict[str, str]) -> None:
    cs_guid = guid_for(NAME, "Runtime/Scripts/ExampleButton.cs")
    examples = [n for n in _by_name(prefab) if n.startswith("Example_")]
    txt = [p for p in package.files if p.startswith("Runtime/Examples/")]
    assert len(examples) == len(txt) > 0
    fields = parse_csharp_class("ExampleButton",
                                       _text(package, "Runtime/Scripts/ExampleButton.cs"))
    loaded = set()
    for name in examples:
        proxy, backing = _udonsharp_pair(prefab, name, cs_guid)
        assert guid_to_path[str(backing["programSource"]["guid"])] == \
            "Runtime/Scripts/ExampleButton.asset"
        button = next(c for c in _components(prefab, _by_name(prefab)[name])
                      if _script(c) == BUILTIN_ASSETS["Button"].guid)
        (call,) = button["m_OnClick"]["m_PersistentCalls"]["m_Calls"]
        assert call["m_Target"]["fileID"] == proxy["_udonSharpBackingUdonBehaviour"]["fileID"]
        assert call["m_Arguments"]["m_StringArgument"] in fields.methods
        for type_name, field_name in fields.fields:
            if type_name == "TextAsset":
                loaded.add(guid_to_path[str(proxy[field_name]["guid"])])
            elif type_name == "string" and field_name in proxy:
                loaded.add(proxy[field_name])
    assert loaded, "example buttons carry their program"


def test_udonsharp_proxies_reference_existing_behaviours(prefab: dict[int, dict]) -> None:
    count = 0
    for doc in prefab.values():
        b = body(doc)
        if "_udonSharpBackingUdonBehaviour" in b:
            target = body(prefab[b["_udonSharpBackingUdonBehaviour"]["fileID"]])
            assert str(target["m_Script"]["guid"]) == BUILTIN_ASSETS["UdonBehaviour"].guid
            assert target["m_GameObject"] == b["m_GameObject"]
            count += 1
    # Compiler, SyncCode, TypingLock, ListingView, ProgramLoader, ProgramSaves, FrameGuard,
    # VideoUrl, ProgramSliders and one per example and relief button
    assert count == 9 + len([n for n in _by_name(prefab)
                             if n.startswith(("Example_", "Relief_"))])


def test_changelog_names_the_version_it_ships(package: pkg.Package) -> None:
    text = package.files["CHANGELOG.md"].decode()
    assert "Unreleased" not in text
    first = next(line for line in text.splitlines() if line.startswith("## "))
    assert first == f"## {pkg.PackageOptions().version}"
