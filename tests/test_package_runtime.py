"""`psl-gen unity-package`: the runtime pieces a world needs besides the scripts (issue 9.4).

- every CustomRenderTexture has the original world's update zone (one full-texture zone with
  needSwap 1, which double-buffered `self()` feedback relies on);
- CRT and RenderTexture assets use Unity 2022.3's serialized layout (serializedVersion 5);
- the camera input: a RenderTexture bound to the VM material's `_Camera`, a prefab camera
  rendering into it, and a UI toggle that switches the camera object;
- the URL rule: no placeholder URL anywhere; no listing without --base-url; right URLs with it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from psl.cli.gen import main as psl_gen
from psl.gen.unity import package as pkg
from psl.gen.unity.components import camera as cam
from psl.gen.unity.serialization import BUILTIN_ASSETS, guid_for
from tests.package_support import body, load_unity_yaml

NAME = pkg.DEFAULT_NAME
BASE_URL = "https://vpm.psl-tests.org/shaderception/"
CAMERA_RT = "Runtime/RenderTextures/PSL_Camera.renderTexture"
PLACEHOLDER = b"example.invalid"

#: what Unity 2022.3 writes for the RenderTexture part of a (Custom)RenderTexture, in order
#: (AudioLink 1.3's rt_AudioLink.asset / rt_MiniPlayer.asset, saved by Unity 2022.3.6f1)
RENDER_TEXTURE_KEYS_2022 = [
    "m_ObjectHideFlags", "m_CorrespondingSourceObject", "m_PrefabInstance", "m_PrefabAsset",
    "m_Name", "m_ImageContentsHash", "m_ForcedFallbackFormat", "m_DownscaleFallback",
    "m_IsAlphaChannelOptional", "serializedVersion", "m_Width", "m_Height", "m_AntiAliasing",
    "m_MipCount", "m_DepthStencilFormat", "m_ColorFormat", "m_MipMap", "m_GenerateMips",
    "m_SRGB", "m_UseDynamicScale", "m_BindMS", "m_EnableCompatibleFormat",
    "m_EnableRandomWrite", "m_TextureSettings", "m_Dimension", "m_VolumeDepth",
    "m_ShadowSamplingMode",
]
CUSTOM_RENDER_TEXTURE_KEYS_2022 = RENDER_TEXTURE_KEYS_2022 + [
    "m_Material", "m_InitSource", "m_InitMaterial", "m_InitColor", "m_InitTexture",
    "m_UpdateMode", "m_InitializationMode", "m_UpdateZoneSpace", "m_CurrentUpdateZoneSpace",
    "m_UpdateZones", "m_UpdatePeriod", "m_ShaderPass", "m_CubemapFaceMask", "m_DoubleBuffered",
    "m_WrapUpdateZones",
]
#: the zone of the original's Assets/FuncWorld/CRT/VMCRT{64,128,256,512}.asset
ORIGINAL_ZONE = {
    "updateZoneCenter": {"x": 0.5, "y": 0.5, "z": 0.5},
    "updateZoneSize": {"x": 1, "y": 1, "z": 1},
    "rotation": 0,
    "passIndex": -1,
    "needSwap": 1,
}


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package()


def _docs(package: pkg.Package, path: str) -> dict[int, dict]:
    return load_unity_yaml(package.files[path].decode())


def _guid(path: str) -> str:
    return guid_for(NAME, path)


# --- CRT update zone and the 2022.3 layout ------------------------------------------------


@pytest.mark.parametrize("size", pkg.CRT_SIZES)
def test_every_crt_has_the_original_full_texture_zone(package: pkg.Package, size: int) -> None:
    crt = body(_docs(package, f"Runtime/RenderTextures/PSL_CRT_{size}.asset")[8600000])
    assert crt["m_UpdateZones"] == [ORIGINAL_ZONE]
    assert crt["m_UpdateZoneSpace"] == crt["m_CurrentUpdateZoneSpace"] == 0  # normalised
    assert crt["m_DoubleBuffered"] == 1
    assert crt["m_WrapUpdateZones"] == 0
    assert crt["m_ShaderPass"] == 0


def test_zone_text_is_what_unity_writes(package: pkg.Package) -> None:
    text = package.files["Runtime/RenderTextures/PSL_CRT_64.asset"].decode()
    assert ("  m_UpdateZones:\n"
            "  - updateZoneCenter: {x: 0.5, y: 0.5, z: 0.5}\n"
            "    updateZoneSize: {x: 1, y: 1, z: 1}\n"
            "    rotation: 0\n"
            "    passIndex: -1\n"
            "    needSwap: 1\n"
            "  m_UpdatePeriod: 0\n") in text


@pytest.mark.parametrize("size", pkg.CRT_SIZES)
def test_crt_uses_the_unity_2022_3_layout(package: pkg.Package, size: int) -> None:
    crt = body(_docs(package, f"Runtime/RenderTextures/PSL_CRT_{size}.asset")[8600000])
    assert list(crt) == CUSTOM_RENDER_TEXTURE_KEYS_2022
    assert crt["serializedVersion"] == 5
    assert "m_DepthFormat" not in crt  # the pre-2021 name of m_DepthStencilFormat
    assert crt["m_DepthStencilFormat"] == 0  # no depth buffer: a CRT needs none
    assert crt["m_EnableRandomWrite"] == 0
    assert crt["m_ShadowSamplingMode"] == 2  # none
    assert crt["m_IsAlphaChannelOptional"] == 0


def test_camera_texture_uses_the_unity_2022_3_layout(package: pkg.Package) -> None:
    docs = _docs(package, CAMERA_RT)
    assert list(docs) == [8400000]
    assert docs[8400000]["__class__"] == 84  # RenderTexture
    rt = body(docs[8400000])
    assert list(rt) == RENDER_TEXTURE_KEYS_2022
    assert rt["serializedVersion"] == 5
    assert (rt["m_Width"], rt["m_Height"]) == (512, 512)  # as the original Camera.renderTexture
    assert rt["m_ColorFormat"] == 8  # R8G8B8A8_UNorm, as the original
    assert rt["m_DepthStencilFormat"] != 0  # a camera target needs a depth buffer
    meta = yaml.safe_load(package.tree.entries[CAMERA_RT].meta)
    assert meta["NativeFormatImporter"]["mainObjectFileID"] == 8400000


# --- camera input ---------------------------------------------------------------------------


def test_vm_materials_sample_the_camera_texture(package: pkg.Package) -> None:
    vm_shader = _guid("Runtime/Shaders/VM.shader")
    vm_materials = [p for p in package.files if p.endswith(".mat")
                    and str(body(_docs(package, p)[2100000])["m_Shader"]["guid"]) == vm_shader]
    assert vm_materials == ["Runtime/Materials/PSL_VM.mat"]
    for path in vm_materials:
        envs = body(_docs(package, path)[2100000])["m_SavedProperties"]["m_TexEnvs"]
        textures = {k: v["m_Texture"] for env in envs for k, v in env.items()}
        assert textures[pkg.CAMERA_PROPERTY] == {
            "fileID": 8400000, "guid": _guid(CAMERA_RT), "type": 2}
    # ... and the shader declares that property (camera() samples it)
    shader = package.files["Runtime/Shaders/VM.shader"].decode()
    assert re.search(rf"^\s*{pkg.CAMERA_PROPERTY}\s*\(.*,\s*2D\s*\)", shader, re.MULTILINE)


@pytest.fixture(scope="module")
def prefab(package: pkg.Package) -> dict[int, dict]:
    return _docs(package, "Runtime/Prefabs/Shaderception.prefab")


def _game_objects(prefab: dict[int, dict]) -> dict[str, tuple[int, dict]]:
    """hierarchy path -> (fileID, GameObject body)"""
    transforms = {fid: body(doc) for fid, doc in prefab.items() if doc["__class__"] in (4, 224)}
    names: dict[int, str] = {}
    for fid, doc in prefab.items():
        if doc["__class__"] == 1:
            names[body(doc)["m_Component"][0]["component"]["fileID"]] = fid

    def path(tid: int) -> str:
        go = body(prefab[names[tid]])["m_Name"]
        father = transforms[tid]["m_Father"]["fileID"]
        return go if father == 0 else f"{path(father)}/{go}"

    return {path(tid): (gid, body(prefab[gid])) for tid, gid in names.items()}


def _components(prefab: dict[int, dict], go: dict) -> list[tuple[int, dict]]:
    return [(c["component"]["fileID"], prefab[c["component"]["fileID"]])
            for c in go["m_Component"]]


def test_prefab_camera_renders_into_the_camera_texture(prefab: dict[int, dict]) -> None:
    cameras = [(fid, body(doc)) for fid, doc in prefab.items() if doc["__class__"] == 20]
    assert len(cameras) == 1
    _, camera = cameras[0]
    assert camera["m_TargetTexture"] == {"fileID": 8400000, "guid": _guid(CAMERA_RT), "type": 2}
    assert camera["m_Enabled"] == 1
    objects = _game_objects(prefab)
    path = f"Shaderception/{cam.CAMERA_INPUT_NAME}/{cam.CAMERA_OBJECT_NAME}"
    go_id, go = objects[path]
    assert camera["m_GameObject"] == {"fileID": go_id}
    # switched off at start, as the original's camera (its Camera component starts disabled)
    assert go["m_IsActive"] == 0
    # the camera's transform chain is unscaled (a scaled camera distorts its view)
    for part in (path, path.rsplit("/", 1)[0]):
        transform = body(prefab[objects[part][1]["m_Component"][0]["component"]["fileID"]])
        assert transform["m_LocalScale"] == {"x": 1, "y": 1, "z": 1}


def test_prefab_camera_does_not_film_its_own_body(prefab: dict[int, dict]) -> None:
    """The original's culling mask (Default, Player, PlayerLocal, MirrorReflection) leaves out
    the Pickup layer its body is on; ours is the same mask and the same layer."""
    camera = next(body(doc) for doc in prefab.values() if doc["__class__"] == 20)
    mask = camera["m_CullingMask"]["m_Bits"]
    assert mask == 263681 == cam.CAMERA_CULLING_MASK
    rig = f"Shaderception/{cam.CAMERA_INPUT_NAME}"
    objects = _game_objects(prefab)
    rig_parts = [go for path, (_, go) in objects.items() if path == rig
                 or path.startswith(rig + "/")]
    assert len(rig_parts) == 3  # the pickup, its visible box, the camera
    for go in rig_parts:
        assert go["m_Layer"] == 13 and not mask & (1 << go["m_Layer"])


def test_prefab_camera_is_a_synced_pickup(prefab: dict[int, dict]) -> None:
    _, rig = _game_objects(prefab)[f"Shaderception/{cam.CAMERA_INPUT_NAME}"]
    comps = _components(prefab, rig)
    classes = [doc["__class__"] for _, doc in comps]
    assert 54 in classes and 65 in classes  # Rigidbody, BoxCollider
    rigidbody = next(body(doc) for _, doc in comps if doc["__class__"] == 54)
    assert rigidbody["m_IsKinematic"] == 1 and rigidbody["m_UseGravity"] == 0
    scripts = {(body(doc)["m_Script"]["fileID"], str(body(doc)["m_Script"]["guid"]))
               for _, doc in comps if doc["__class__"] == 114}
    for name in ("VRCPickup", "VRCObjectSync"):
        asset = BUILTIN_ASSETS[name]
        assert (asset.file_id, asset.guid) in scripts, name


def test_camera_toggle_switches_the_camera_object(prefab: dict[int, dict]) -> None:
    objects = _game_objects(prefab)
    camera_id, camera_go = objects[
        f"Shaderception/{cam.CAMERA_INPUT_NAME}/{cam.CAMERA_OBJECT_NAME}"]
    _, toggle_go = objects[f"Shaderception/Canvas/{cam.CAMERA_TOGGLE_NAME}"]
    toggles = [body(doc) for _, doc in _components(prefab, toggle_go)
               if doc["__class__"] == 114
               and str(body(doc)["m_Script"]["guid"]) == BUILTIN_ASSETS["Toggle"].guid]
    assert len(toggles) == 1
    toggle = toggles[0]
    (call,) = toggle["onValueChanged"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_Target"] == {"fileID": camera_id}
    assert prefab[camera_id]["__class__"] == 1  # the GameObject itself
    assert call["m_TargetAssemblyTypeName"] == "UnityEngine.GameObject, UnityEngine"
    assert call["m_MethodName"] == "SetActive"  # on VRChat's list of allowed UI event targets
    assert call["m_Mode"] == 0  # dynamic: the toggle's own value
    assert call["m_CallState"] == 2
    assert toggle["m_IsOn"] == camera_go["m_IsActive"] == 0
    assert toggle["graphic"]["fileID"] in prefab
    assert toggle["m_TargetGraphic"]["fileID"] in prefab


def test_editor_script_knows_the_camera_texture(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert f'CameraTextureGuid = "{_guid(CAMERA_RT)}"' in script
    assert f'CameraProperty = "{pkg.CAMERA_PROPERTY}"' in script
    assert (f'CameraObjectPath = "{cam.CAMERA_INPUT_NAME}/{cam.CAMERA_OBJECT_NAME}"') in script
    assert f'CameraTogglePath = "Canvas/{cam.CAMERA_TOGGLE_NAME}"' in script
    assert "cameraObject.SetActive" in script


# --- URLs -----------------------------------------------------------------------------------


def _all_output_bytes(folder: Path) -> dict[str, bytes]:
    """Every output file, plus every member of the zip and of the .unitypackage."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.iterdir()):
        data = path.read_bytes()
        found[path.name] = data
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                found.update({f"{path.name}:{i.filename}": zf.read(i) for i in zf.infolist()})
        elif path.suffix == ".unitypackage":
            raw = gzip.decompress(data)
            found[f"{path.name}:tar"] = raw
            with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
                for info in tar.getmembers():
                    if info.isfile():
                        found[f"{path.name}:{info.name}"] = tar.extractfile(info).read()  # type: ignore[union-attr]
    return found


def test_without_base_url_no_listing_and_no_url(tmp_path: Path) -> None:
    out = pkg.write_package(tmp_path)
    assert out.listing is None
    assert not (tmp_path / "vpm-listing.json").exists()
    manifest = json.loads(out.manifest.read_text())
    assert "url" not in manifest
    with zipfile.ZipFile(out.zip) as zf:
        assert "url" not in json.loads(zf.read("package.json"))
    for name, data in _all_output_bytes(tmp_path).items():
        assert PLACEHOLDER not in data, name


@pytest.mark.parametrize("base_url", [BASE_URL, BASE_URL.rstrip("/")])
def test_with_base_url_the_urls_are_right(tmp_path: Path, base_url: str) -> None:
    out = pkg.write_package(tmp_path, pkg.PackageOptions(base_url=base_url))
    zip_url = BASE_URL + out.zip.name
    manifest = json.loads(out.manifest.read_text())
    assert manifest["url"] == zip_url
    with zipfile.ZipFile(out.zip) as zf:
        assert json.loads(zf.read("package.json")) == manifest
    assert out.listing == tmp_path / "vpm-listing.json"
    listing = json.loads(out.listing.read_text())
    assert listing["url"] == BASE_URL + "vpm-listing.json"
    entry = listing["packages"][NAME]["versions"][manifest["version"]]
    assert entry["url"] == zip_url
    assert entry["zipSHA256"] == hashlib.sha256(out.zip.read_bytes()).hexdigest()
    assert {k: v for k, v in entry.items() if k != "zipSHA256"} == manifest
    for name, data in _all_output_bytes(tmp_path).items():
        assert PLACEHOLDER not in data, name


def test_updating_a_listing_drops_placeholder_versions(tmp_path: Path) -> None:
    """A listing written by an older psl without --base-url has example.invalid URLs that can
    never install; the next build with a real base URL drops those versions."""
    (tmp_path / "vpm-listing.json").write_text(json.dumps({
        "name": "PSL Shaderception packages", "id": f"{NAME}.listing",
        "url": "https://example.invalid/psl/vpm-listing.json", "author": "psl developers",
        "packages": {NAME: {"versions": {"0.0.9": {
            "name": NAME, "version": "0.0.9",
            "url": f"https://example.invalid/psl/{NAME}-0.0.9.zip"}}}},
    }))
    out = pkg.write_package(tmp_path, pkg.PackageOptions(base_url=BASE_URL))
    assert out.listing is not None
    assert PLACEHOLDER not in out.listing.read_bytes()
    listing = json.loads(out.listing.read_text())
    assert list(listing["packages"][NAME]["versions"]) == [pkg.PackageOptions().version]


def test_listing_json_needs_a_base_url(package: pkg.Package) -> None:
    with pytest.raises(pkg.PackageError, match="--base-url"):
        pkg.listing_json(package, b"zip")


def test_cli_says_how_to_get_a_listing(tmp_path: Path) -> None:
    result = CliRunner().invoke(psl_gen, ["unity-package", "--out", str(tmp_path)])
    if result.exit_code != 0 and "psl.gen.udonsharp" in result.output:
        pytest.skip(f"the UdonSharp generator cannot render yet: {result.output.strip()}")
    assert result.exit_code == 0, result.output
    assert "no vpm-listing.json written" in result.output
    assert "--base-url https://" in result.output
    assert not (tmp_path / "vpm-listing.json").exists()


def test_cli_help_explains_base_url() -> None:
    result = CliRunner().invoke(psl_gen, ["unity-package", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--base-url URL" in text
    assert "Without it: no listing and no url" in text
    assert "example.invalid" not in text
