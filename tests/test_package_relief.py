"""The relief screen in the Unity package (issue 24): the grid meshes ship as Mesh assets, the
prefab's program screen is the finest grid with a relief material, the flat material stays,
and the quality buttons each put their grid on the screen (ReliefQuality.Apply)."""

from __future__ import annotations

import subprocess

import pytest

from psl import registry
from psl.gen import udonsharp
from psl.gen.unity import mesh
from psl.gen.unity import package as pkg
from psl.gen.unity.csharp import parse_csharp_class
from psl.gen.unity.layouts import original
from psl.gen.unity.serialization import BUILTIN_ASSETS, guid_for
from tests.csharp_support import build as csbuild
from tests.package_support import body, load_unity_yaml

NAME = pkg.DEFAULT_NAME
SIDES = registry.RELIEF.resolutions


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package()


#: prefab -> its program screens (object paths) and the screens' width in metres
PREFABS = {
    "Runtime/Prefabs/Shaderception.prefab": (("Screen",), (2.0,)),
    pkg.ORIGINAL_PREFAB_PATH: (("Screen", *(f"{n}/Quad" for n, _s, _x in original.PICKUP_SIZES)),
                               (original.SCREEN_SIZE,
                                *(size for _n, size, _x in original.PICKUP_SIZES))),
}


@pytest.fixture(scope="module", params=sorted(PREFABS))
def prefab(package: pkg.Package, request) -> tuple[dict[int, dict], tuple, tuple]:
    screens, sizes = PREFABS[request.param]
    return load_unity_yaml(package.files[request.param].decode()), screens, sizes


def _by_path(prefab: dict[int, dict], path: str) -> int:
    """The GameObject at `path` (names joined by '/', from below the root)."""
    parents: dict[int, int] = {}
    transforms: dict[int, int] = {}
    for fid, doc in prefab.items():
        if "GameObject" in doc:
            transforms[doc["GameObject"]["m_Component"][0]["component"]["fileID"]] = fid
    for t_id, go in transforms.items():
        father = body(prefab[t_id])["m_Father"]["fileID"]
        parents[go] = transforms.get(father, 0)

    def full(go: int) -> str:
        name = prefab[go]["GameObject"]["m_Name"]
        return name if parents.get(go, 0) == 0 else f"{full(parents[go])}/{name}"

    (found,) = [go for go in transforms.values() if full(go).split("/", 1)[-1] == path]
    return found


def _mesh_path(side: int) -> str:
    return f"{pkg.MESH_DIR}/{mesh.mesh_name(side)}.asset"


def _objects(prefab: dict[int, dict], name: str) -> list[int]:
    return [fid for fid, doc in prefab.items()
            if "GameObject" in doc and doc["GameObject"]["m_Name"] == name]


def _components(prefab: dict[int, dict], go_id: int) -> list[tuple[int, dict]]:
    return [(c["component"]["fileID"], prefab[c["component"]["fileID"]])
            for c in prefab[go_id]["GameObject"]["m_Component"]]


def test_grid_meshes_ship_as_empty_mesh_objects_with_the_full_bounds(
        package: pkg.Package) -> None:
    """Each grid ships as its Mesh object (the GUID and fileID the prefabs reference) without
    vertices, which the editor script fills in on import; its bounds are already the full
    grid's, holding every vertex the relief can move (RELIEF.max_displacement)."""
    for side in SIDES:
        path = _mesh_path(side)
        text = package.files[path].decode()
        assert text == mesh.placeholder_mesh_asset(side)
        assert len(text) < 4000
        (doc,) = load_unity_yaml(text).values()
        (full,) = load_unity_yaml(mesh.grid_mesh_asset(side)).values()
        assert doc["__class__"] == mesh.MESH and body(doc)["m_Name"] == mesh.mesh_name(side)
        assert body(doc)["m_VertexData"]["m_VertexCount"] == 0
        assert body(doc)["m_LocalAABB"] == body(full)["m_LocalAABB"] == {
            "m_Center": {"x": 0, "y": 0, "z": 0},
            "m_Extent": {"x": 0.5, "y": 0.5, "z": registry.RELIEF.max_displacement}}
        assert f"mainObjectFileID: {mesh.MESH_ID}" in package.tree.entries[path].meta


def test_editor_script_builds_the_grids_on_import(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert "[InitializeOnLoad]" in script and "class GridMeshImport : AssetPostprocessor" in script
    assert (f"public const float MaxDisplacement = {registry.RELIEF.max_displacement}f;"
            in script)
    assert "new Bounds(Vector3.zero, new Vector3(1f, 1f, 2f * MaxDisplacement))" in script
    assert "mesh.indexFormat = UnityEngine.Rendering.IndexFormat.UInt32;" in script
    assert "GridMeshes.EnsureAll();" in script  # Create or Repair too
    guids = ", ".join(f'"{guid_for(NAME, _mesh_path(s))}"' for s in SIDES)
    assert f"static readonly string[] Guids = {{ {guids} }};" in script


GRID_MAIN = """
using System.IO;
public static class GridMain
{
    public static void Main(string[] args)
    {
        using (BinaryWriter w = new BinaryWriter(File.Create(args[0])))
        {
            foreach (int side in new[] { SIDES })
            {
                float[] p, uv;
                int[] t;
                PSL.Shaderception.EditorTools.GridMeshes.Arrays(side, out p, out uv, out t);
                foreach (float x in p) w.Write(x);
                foreach (float x in uv) w.Write(x);
                foreach (int x in t) w.Write(x);
            }
        }
    }
}
"""


@pytest.mark.skipif(not csbuild.tools_available(), reason="mono-mcs/mono-runtime not installed")
def test_editor_grids_are_psls_grids(package: pkg.Package, tmp_path) -> None:
    """The editor script's grid (what Unity gets) is mesh.grid's, bit for bit: positions,
    uvs and triangles of every resolution (normals are (0, 0, -1) in both)."""
    from pathlib import Path

    import numpy as np

    script = tmp_path / "ShaderceptionSetup.cs"
    script.write_bytes(package.files["Editor/ShaderceptionSetup.cs"])
    (tmp_path / "GridMain.cs").write_text(
        GRID_MAIN.replace("SIDES", ", ".join(str(s) for s in SIDES)))
    stubs = Path(__file__).parent / "package_support" / "EditorStubs.cs"
    exe = tmp_path / "grid.exe"
    proc = subprocess.run(["mcs", "-nologo", f"-out:{exe}", str(stubs), str(script),
                           str(tmp_path / "GridMain.cs")], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = tmp_path / "grids.bin"
    run = subprocess.run(["mono", str(exe), str(out)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    data = out.read_bytes()
    at = 0
    for side in SIDES:
        g = mesh.grid(side)
        for want, dtype in ((g.positions, "<f4"), (g.uvs, "<f4"), (g.triangles, "<i4")):
            n = want.size * 4
            got = np.frombuffer(data[at:at + n], dtype).reshape(want.shape)
            at += n
            assert np.array_equal(got, want.astype(dtype)), (side, dtype)
        assert np.all(g.normals == np.asarray(mesh.NORMAL, np.float32))
    assert at == len(data)


def test_screen_materials_are_relief_and_flat_stays(package: pkg.Package) -> None:
    for size in pkg.CRT_SIZES:
        mat = body(next(iter(load_unity_yaml(
            package.files[f"Runtime/Materials/PSL_Screen_{size}.mat"].decode()).values())))
        assert mat["m_ValidKeywords"] == ["PSL_SCREEN_HEIGHT"]
        floats = {k: v for d in mat["m_SavedProperties"]["m_Floats"] for k, v in d.items()}
        assert floats == {"_Height": 1, "_HeightScale": registry.RELIEF.height_scale}
    flat = body(next(iter(load_unity_yaml(
        package.files[f"Runtime/Materials/{pkg.FLAT_MATERIAL}.mat"].decode()).values())))
    assert flat["m_ValidKeywords"] == []


def test_prefab_screens_are_the_finest_grid_with_the_relief_material(prefab) -> None:
    docs, screens, sizes = prefab
    for path, size in zip(screens, sizes, strict=True):
        comps = {doc["__class__"]: body(doc) for _fid, doc in
                 _components(docs, _by_path(docs, path))}
        assert str(comps[33]["m_Mesh"]["guid"]) == guid_for(NAME, _mesh_path(SIDES[0]))
        assert comps[33]["m_Mesh"]["fileID"] == mesh.MESH_ID
        (material,) = comps[23]["m_Materials"]
        assert str(material["guid"]) == guid_for(
            NAME, f"Runtime/Materials/PSL_Screen_{pkg.DEFAULT_CRT_SIZE}.mat")
        # uniform scale: the relief's height is in screen widths, as psl run / serve show it
        assert comps[4]["m_LocalScale"] == {"x": size, "y": size, "z": size}
    assert registry.RELIEF.screen_width_m == 2.0  # the standard prefab's screen


def test_only_the_shown_buffer_updates_every_frame(package: pkg.Package, prefab) -> None:
    """Every screen of both prefabs shows the default resolution's buffer, the one render
    texture that ships Realtime; every other one ships OnDemand until a quality button
    switches it (ScreenQuality: that button's buffer Realtime, the rest OnDemand)."""
    modes = {}
    for size in pkg.CRT_SIZES:
        (doc,) = load_unity_yaml(package.files[
            f"Runtime/RenderTextures/PSL_CRT_{size}.asset"].decode()).values()
        modes[size] = body(doc)["m_UpdateMode"]
    assert modes == {size: 1 if size == pkg.DEFAULT_CRT_SIZE else 2 for size in pkg.CRT_SIZES}
    docs, screens, _sizes = prefab
    for path in screens:
        comps = {doc["__class__"]: body(doc) for _fid, doc in
                 _components(docs, _by_path(docs, path))}
        (material,) = comps[23]["m_Materials"]
        mat = package.files[f"Runtime/Materials/PSL_Screen_{pkg.DEFAULT_CRT_SIZE}.mat"].decode()
        assert str(material["guid"]) == guid_for(
            NAME, f"Runtime/Materials/PSL_Screen_{pkg.DEFAULT_CRT_SIZE}.mat")
        assert f"PSL_CRT_{pkg.DEFAULT_CRT_SIZE}" in mat or guid_for(
            NAME, f"Runtime/RenderTextures/PSL_CRT_{pkg.DEFAULT_CRT_SIZE}.asset") in mat
    quality = udonsharp.TARGET.render()["ScreenQuality.cs"]
    assert "other.updateMode = CustomRenderTextureUpdateMode.OnDemand;" in quality
    assert "buffer.updateMode = CustomRenderTextureUpdateMode.Realtime;" in quality


def test_quality_buttons_put_their_grid_on_the_screen(package: pkg.Package, prefab) -> None:
    """Each quality button -> SendCustomEvent("Apply") on its ReliefQuality's UdonBehaviour,
    whose proxy holds that button's grid mesh and the screen's MeshFilter."""
    docs, screens, _sizes = prefab
    cls = parse_csharp_class(
        "ReliefQuality", package.files["Runtime/Scripts/ReliefQuality.cs"].decode())
    assert udonsharp.RELIEF_EVENT in cls.methods and cls.sync_mode == "None"
    assert set(cls.fields) == {("MeshFilter[]", "screens"), ("Mesh", "mesh")}
    filters = [next(fid for fid, doc in _components(docs, _by_path(docs, path))
                    if doc["__class__"] == 33) for path in screens]
    cs_guid = guid_for(NAME, "Runtime/Scripts/ReliefQuality.cs")
    program_guid = guid_for(NAME, "Runtime/Scripts/ReliefQuality.asset")
    for side in SIDES:
        (go,) = _objects(docs, f"Relief_{side}")
        comps = [(fid, body(doc)) for fid, doc in _components(docs, go)]
        proxy_id, proxy = next((f, c) for f, c in comps
                               if str(c.get("m_Script", {}).get("guid")) == cs_guid)
        assert proxy["mesh"] == {"fileID": mesh.MESH_ID,
                                 "guid": guid_for(NAME, _mesh_path(side)), "type": 2}
        assert proxy["screens"] == [{"fileID": f} for f in filters]
        backing_id = proxy["_udonSharpBackingUdonBehaviour"]["fileID"]
        backing = body(docs[backing_id])
        assert str(backing["m_Script"]["guid"]) == BUILTIN_ASSETS["UdonBehaviour"].guid
        assert str(backing["programSource"]["guid"]) == program_guid
        button = next(c for _, c in comps
                      if str(c.get("m_Script", {}).get("guid")) == BUILTIN_ASSETS["Button"].guid)
        (call,) = button["m_OnClick"]["m_PersistentCalls"]["m_Calls"]
        assert call["m_Target"]["fileID"] == backing_id
        assert call["m_MethodName"] == "SendCustomEvent"
        assert call["m_Arguments"]["m_StringArgument"] == udonsharp.RELIEF_EVENT
        del proxy_id


def test_quality_behaviour_sets_the_shared_mesh() -> None:
    text = udonsharp.TARGET.render()["ReliefQuality.cs"]
    assert f"public void {udonsharp.RELIEF_EVENT}()" in text
    assert "screens[i].sharedMesh = mesh;" in text


@pytest.mark.skipif(not csbuild.tools_available(), reason="mono-mcs/mono-runtime not installed")
def test_quality_behaviour_runs_under_mono(tmp_path) -> None:
    """Apply (and Interact) put the button's mesh on every screen; no mesh: nothing changes."""
    (tmp_path / "ReliefQuality.cs").write_text(udonsharp.TARGET.render()["ReliefQuality.cs"])
    (tmp_path / "Main.cs").write_text(MAIN.replace("APPLY", udonsharp.RELIEF_EVENT))
    exe = tmp_path / "quality.exe"
    cmd = ["mcs", "-nologo", "-nowarn:414,169,649,219", f"-out:{exe}", str(csbuild.STUBS),
           str(tmp_path / "ReliefQuality.cs"), str(tmp_path / "Main.cs")]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = subprocess.run(["mono", str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.split() == ["ok", "ok", "ok"], run.stdout + run.stderr


MAIN = """
using UnityEngine;
using PSL.Shaderception;
public static class QualityMain
{
    public static void Main()
    {
        MeshFilter a = new MeshFilter();
        MeshFilter b = new MeshFilter();
        Mesh fine = new Mesh();
        Mesh coarse = new Mesh();
        ReliefQuality q = new ReliefQuality();
        q.screens = new MeshFilter[] { a, null, b };
        q.mesh = coarse;
        q.APPLY();
        System.Console.WriteLine(a.sharedMesh == coarse && b.sharedMesh == coarse ? "ok" : "bad");
        q.mesh = fine;
        q.Interact();
        System.Console.WriteLine(a.sharedMesh == fine && b.sharedMesh == fine ? "ok" : "bad");
        q.mesh = null;
        q.APPLY();
        System.Console.WriteLine(a.sharedMesh == fine ? "ok" : "bad");
    }
}
"""


def test_setup_menu_wires_the_quality_buttons(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert f'const string ReliefEvent = "{udonsharp.RELIEF_EVENT}";' in script
    sides = ", ".join(str(s) for s in SIDES)
    assert f"static readonly int[] GridSides = {{ {sides} }};" in script
    guids = ", ".join(f'"{guid_for(NAME, _mesh_path(s))}"' for s in SIDES)
    assert f"static readonly string[] GridMeshGuids = {{ {guids} }};" in script
    assert "RepairRelief(t, screen);" in script
    paths = ", ".join(f'"{name}/Quad"' for name, _s, _x in original.PICKUP_SIZES)
    assert f"static readonly string[] ReliefScreenPaths = {{ {paths} }};" in script
    assert "SetClick(button, quality, ReliefEvent);" in script
