"""Issue 39 item 3: the setup menu (Video Input, Enable/Disable AudioLink, Screen Resolution,
Create or Repair) writes its changes to the creator's copies under Assets/, never to the
package's own materials and render textures (a VCC update or re-import would reset them),
and Create or Repair refreshes the copies from the package while keeping the creator's
settings. Checked on the editor script's generated text (it compiles against the stubs in
tests/test_package_generated.py)."""

from __future__ import annotations

import re

import pytest

from psl.gen.unity import package as pkg

PACKAGE_LOADS = re.compile(r"Load<(?:Material|CustomRenderTexture)>\(")


@pytest.fixture(scope="module")
def script() -> str:
    text = pkg.build_package().files["Editor/ShaderceptionSetup.cs"].decode()
    # the setup class only (GridMeshes, the relief grids' import-time filler, follows it)
    return text[text.index("public static class ShaderceptionSetup"):
                text.index("public static class GridMeshes")]


def body(script: str, signature: str) -> str:
    """The text of the method whose declaration contains `signature`, braces balanced."""
    start = script.index(signature)
    k = script.index("{", start)
    depth = 0
    for end in range(k, len(script)):
        depth += {"{": 1, "}": -1}.get(script[end], 0)
        if depth == 0:
            return script[start:end + 1]
    raise AssertionError(f"unbalanced {signature}")


def constant(script: str, name: str) -> str:
    m = re.search(rf'\b{name} = ("[^"]*")(?: \+ "([^"]*)")?', script)
    assert m, name
    return m.group(1).strip('"')


def test_every_path_the_menu_writes_is_under_assets(script: str) -> None:
    for name in ("CopyFolder", "AudioLinkShaderPath", "CreatorGalleryPath"):
        assert constant(script, name).startswith("Assets/"), name
    for folder in ("CopyMaterialFolder", "CopyTextureFolder"):
        assert re.search(rf"\b{folder} = CopyFolder \+ \"/", script), folder
    # the copy helper refuses a target outside Assets/ (or the package asset itself)
    copy_of = body(script, "static T CopyOf<T>(")
    assert ('if (!target.StartsWith("Assets/", StringComparison.Ordinal) '
            '|| target == source) return null;') in copy_of
    assert "AssetDatabase.CopyAsset(source, target)" in copy_of
    # files are written only to those constants
    for m in re.finditer(r"File\.WriteAllText\((\w+)", script):
        assert m.group(1) in ("AudioLinkShaderPath", "CreatorGalleryPath"), m.group(0)


def test_package_materials_are_only_read(script: str) -> None:
    """Every package material or render texture is loaded into a `package*` variable, which is
    only ever copied from: never written, dirtied, recorded for undo or handed to the scene."""
    loads = [m.start() for m in PACKAGE_LOADS.finditer(script)]
    assert loads, "the script loads no package material"
    names = set()
    for at in loads:
        line = script[script.rindex("\n", 0, at) + 1:script.index("\n", at)]
        m = re.match(r"\s*(?:Material|CustomRenderTexture) (package\w+) = Load<", line)
        assert m, f"a package asset loaded outside a package* variable: {line.strip()}"
        names.add(m.group(1))
    for name in names:
        for bad in (rf"\b{name}\.(?:Set\w+|shader\s*=|material\s*=|name\s*=|mainTexture\s*=)",
                    rf"(?:SetDirty|RecordObject)\(\s*{name}\b",
                    rf"CopySerialized\(\w+,\s*{name}\b",
                    rf"sharedMaterials?\s*=\s*{name}\b",
                    rf"return {name}\b"):
            assert not re.search(bad, script), (name, bad)


def test_material_writes_go_to_the_copies(script: str) -> None:
    receivers = {m.group(1) for m in re.finditer(
        r"([\w.]+)\.(?:SetTexture|SetFloat|SetInt)\(", script)}
    receivers |= {m.group(1) for m in re.finditer(r"([\w.]+)\.(?:shader|material) = ", script)}
    assert receivers <= {"vm", "screen", "crt", "copies.Vm"}, receivers
    # where those come from: the copies only
    for m in re.finditer(r"\b(?:Material|CustomRenderTexture) (vm|screen|crt) = ([^;]+);", script):
        source = m.group(2)
        assert ("copies.Vm" in source or source.startswith("CopyOf(")), m.group(0)
    # the methods that take the VM material as a parameter get the copy from Repair
    for call in ("RepairProgramTexture(vm)", "RepairCameraInput(t, vm)",
                 "RepairVideoPlayer(t, vm)"):
        assert call in body(script, "static void Repair(GameObject root"), call


def test_the_menus_use_and_assign_the_copies(script: str) -> None:
    repair = body(script, "static void Repair(GameObject root")
    assert "Copies copies = MakeCopies(true);" in repair  # refreshed after an update
    assert repair.count("Retarget(t, copies);") == 2  # before wiring, and last
    for method in ("public static void EnableAudioLink()", "public static void DisableAudioLink()",
                   "static void SetVideo(", "static void SetSize(",
                   "static GameObject VideoInputObject()"):
        assert "MakeCopies(false)" in body(script, method), method
    for method in ("public static void EnableAudioLink()", "public static void DisableAudioLink()",
                   "static void SetVideo("):
        assert "RetargetScene(copies);" in body(script, method), method
    assert "screen.sharedMaterial = copies.Screens[index];" in body(script, "static void SetSize(")
    guard = body(script, "static void RepairGuard(")
    assert "copies.Screens.ToArray()" in guard and "copies.Crts.ToArray()" in guard
    # Retarget covers renderers and the behaviours' fields (single and array)
    retarget = body(script, "static void Retarget(")
    assert "GetComponentsInChildren<Renderer>(true)" in retarget
    assert "GetComponentsInChildren<UdonSharpBehaviour>(true)" in retarget
    assert "as Array" in retarget


def test_a_refresh_keeps_the_creators_settings(script: str) -> None:
    make = body(script, "static Copies MakeCopies(bool refresh)")
    refresh = make[make.index("if (refresh && !madeVm)"):make.index("for (int i = 0;")]
    copy = refresh.index("EditorUtility.CopySerialized(packageVm, vm);")
    for kept in ("AudioLinkShaderPath", "vm.GetTexture(VideoProperty)",
                 "vm.GetFloat(AvProProperty)"):
        assert refresh.index(kept) < copy, kept
    for restored in ("vm.shader = shader;", "vm.SetTexture(VideoProperty, video);",
                     "vm.SetFloat(AvProProperty, avPro);"):
        assert refresh.index(restored) > copy, restored
    # the AudioLink shader is rewritten from the (updated) package's VM.shader
    assert "WriteAudioLinkShader()" in refresh
    # and the copies point at each other, not at the package's
    assert "crt.material = vm;" in make
    assert ("if (screen.GetTexture(property) == packageCrt) "
            "screen.SetTexture(property, crt);") in make
