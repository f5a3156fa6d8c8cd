"""`psl-gen unity-package`: structure of the VPM zip, the .unitypackage and the listing."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest

from psl.gen.unity import package as pkg
from psl.gen.unity.sdk import SDK_RANGE
from psl.gen.unity.serialization import guid_for

NAME = pkg.DEFAULT_NAME
BASE_URL = "https://vpm.psl-tests.org/shaderception/"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> pkg.Outputs:
    """A build with --base-url, so that every output (the listing too) exists."""
    out = tmp_path_factory.mktemp("dist")
    return pkg.write_package(out, pkg.PackageOptions(base_url=BASE_URL))


@pytest.fixture(scope="module")
def zip_members(outputs: pkg.Outputs) -> dict[str, bytes]:
    with zipfile.ZipFile(outputs.zip) as zf:
        assert zf.testzip() is None
        return {i.filename: zf.read(i) for i in zf.infolist()}


@pytest.fixture(scope="module")
def tar_members(outputs: pkg.Outputs) -> tuple[bytes, list[tarfile.TarInfo], dict[str, bytes]]:
    raw = gzip.decompress(outputs.unitypackage.read_bytes())
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
        infos = tar.getmembers()
        data = {i.name: tar.extractfile(i).read() for i in infos if i.isfile()}  # type: ignore
    return raw, infos, data


def test_output_names(outputs: pkg.Outputs) -> None:
    stem = f"{NAME}-{pkg.PackageOptions().version}"
    assert outputs.zip.name == f"{stem}.zip"
    assert outputs.unitypackage.name == f"{stem}.unitypackage"
    assert outputs.manifest.name == "package.json"
    assert outputs.listing is not None and outputs.listing.name == "vpm-listing.json"


def test_zip_layout(zip_members: dict[str, bytes], outputs: pkg.Outputs) -> None:
    names = set(zip_members)
    assert "package.json" in names and "package.json.meta" in names
    for folder in ("Runtime/", "Editor/", "Samples~/"):
        assert folder in names
    for name in names:
        assert "\\" not in name and ":" not in name and ".." not in name.split("/")
    # every file and folder has a .meta, except the hidden Samples~ folder itself
    for name in names:
        if name.endswith(".meta") or name == "Samples~/":
            continue
        assert name.rstrip("/") + ".meta" in names, f"{name} has no .meta"
    # and every .meta belongs to something
    for name in names:
        if name.endswith(".meta"):
            base = name[: -len(".meta")]
            assert base in names or base + "/" in names, f"orphan {name}"
    assert json.loads(zip_members["package.json"]) == json.loads(outputs.manifest.read_bytes())
    assert zip_members["package.json"] == outputs.manifest.read_bytes()


def test_zip_members_are_reproducible(outputs: pkg.Outputs) -> None:
    with zipfile.ZipFile(outputs.zip) as zf:
        infos = zf.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    for info in infos:
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


def test_zip_contents(zip_members: dict[str, bytes]) -> None:
    expected = [
        "Runtime/Scripts/Compiler.cs", "Runtime/Scripts/Compiler.asset",
        "Runtime/Scripts/SyncCode.cs", "Runtime/Scripts/SyncCode.asset",
        "Runtime/Scripts/ExampleButton.cs", "Runtime/Scripts/ExampleButton.asset",
        "Runtime/Shaders/VM.shader", "Runtime/Shaders/VM.cginc", "Runtime/Shaders/Screen.shader",
        "Runtime/Materials/PSL_VM.mat", "Runtime/Prefabs/Shaderception.prefab",
        "Editor/ShaderceptionSetup.cs", "README.md", "CHANGELOG.md", "LICENSE.md",
    ]
    expected += [f"Runtime/RenderTextures/PSL_CRT_{s}.asset" for s in pkg.CRT_SIZES]
    expected += [f"Runtime/Materials/PSL_Screen_{s}.mat" for s in pkg.CRT_SIZES]
    for name in expected:
        assert name in zip_members, name
    asmdefs = [n for n in zip_members if n.endswith(".asmdef")]
    assert sorted(n.split("/")[0] for n in asmdefs) == ["Editor", "Runtime"]
    editor = json.loads(zip_members[next(n for n in asmdefs if n.startswith("Editor/"))])
    assert editor["includePlatforms"] == ["Editor"]
    assert "MIT License" in zip_members["LICENSE.md"].decode()


def test_examples_are_the_corpus(zip_members: dict[str, bytes]) -> None:
    corpus = sorted((Path(__file__).parent / "corpus").glob("*.psl"))
    assert corpus, "tests/corpus has the corpus programs"
    for src in corpus:
        assert zip_members[f"Runtime/Examples/{src.stem}.txt"] == src.read_bytes()
        assert zip_members[f"Samples~/Programs/{src.stem}.psl"] == src.read_bytes()


def test_unitypackage_is_gzip_of_ustar(outputs: pkg.Outputs, tar_members) -> None:
    data = outputs.unitypackage.read_bytes()
    assert data[:2] == b"\x1f\x8b"
    assert data[4:8] == b"\0\0\0\0", "gzip mtime must be 0"
    assert data[10:10 + len(b"archtemp.tar\0")] == b"archtemp.tar\0"
    raw, infos, _ = tar_members
    for info in infos:
        header = raw[info.offset:info.offset + 512]
        assert header[257:263] == b"ustar\0", f"{info.name} is not a ustar header"
        assert info.type in (tarfile.REGTYPE, tarfile.DIRTYPE), f"{info.name}: no PAX/GNU"
        assert info.mtime == 0


def test_unitypackage_guid_folders(tar_members, zip_members: dict[str, bytes]) -> None:
    _, infos, data = tar_members
    dirs = {i.name.rstrip("/") for i in infos if i.isdir()}
    files = {i.name for i in infos if i.isfile()}
    assert len({i.name for i in infos}) == len(infos), "duplicate tar entries"
    pathnames: dict[str, str] = {}
    for guid in dirs:
        assert len(guid) == 32 and all(c in "0123456789abcdef" for c in guid)
        assert f"{guid}/asset.meta" in files and f"{guid}/pathname" in files
        pathname = data[f"{guid}/pathname"].decode()
        assert "\n" not in pathname and "\r" not in pathname
        assert pathname.startswith(f"Packages/{NAME}/")
        rel = pathname[len(f"Packages/{NAME}/"):]
        assert guid == guid_for(NAME, rel)
        assert f"guid: {guid}\n".encode() in data[f"{guid}/asset.meta"]
        pathnames[rel] = guid
        is_folder = f"{guid}/asset" not in files
        zip_name = rel + "/" if is_folder else rel
        assert zip_name in zip_members, f"{rel} missing from the zip"
        if not is_folder:
            assert data[f"{guid}/asset"] == zip_members[rel]
        assert data[f"{guid}/asset.meta"] == zip_members[rel + ".meta"]
    for name in files:
        assert name.split("/")[0] in dirs and name.split("/")[1] in ("asset", "asset.meta",
                                                                      "pathname")
    # every folder of every path has its own entry, so Unity never invents GUIDs
    for rel in pathnames:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            assert "/".join(parts[:i]) in pathnames, f"no folder entry for {parts[:i]}"
    # same files as the zip, except the hidden Samples~ (Unity does not import it)
    zip_files = {n.rstrip("/") for n in zip_members
                 if not n.endswith(".meta") and not n.startswith("Samples~")}
    assert zip_files == set(pathnames)


def test_manifest_fields(outputs: pkg.Outputs) -> None:
    manifest = json.loads(outputs.manifest.read_text())
    for key in ("name", "displayName", "version", "unity", "description", "author", "license",
                "url", "vpmDependencies"):
        assert manifest.get(key), key
    assert manifest["name"] == NAME
    assert manifest["unity"] == "2022.3"
    assert manifest["vpmDependencies"] == {"com.vrchat.worlds": SDK_RANGE}  # sdk.py
    assert pkg.SEMVER_RE.match(manifest["version"])
    assert manifest["license"] == "MIT"
    assert manifest["url"] == BASE_URL + outputs.zip.name


def test_listing(outputs: pkg.Outputs) -> None:
    assert outputs.listing is not None
    listing = json.loads(outputs.listing.read_text())
    for key in ("name", "id", "url", "author", "packages"):
        assert listing[key]
    manifest = json.loads(outputs.manifest.read_text())
    entry = listing["packages"][NAME]["versions"][manifest["version"]]
    assert entry["zipSHA256"] == hashlib.sha256(outputs.zip.read_bytes()).hexdigest()
    assert {k: v for k, v in entry.items() if k != "zipSHA256"} == manifest


def test_counts_are_reported(outputs: pkg.Outputs, zip_members: dict[str, bytes]) -> None:
    files = [n for n in zip_members if not n.endswith("/") and not n.endswith(".meta")]
    assert outputs.files == len(files)
    assert outputs.folders >= 8
