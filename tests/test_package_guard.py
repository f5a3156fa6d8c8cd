"""The frame-rate guard and the owner controls in both prefabs (issue 37): every FrameGuard
field wired (screens, each resolution's material and render texture, the compiler, the
paused note, the creator settings at the registry's defaults), every behaviour's `guard`
field pointing at it, the Compile button announcing the program change, the note hidden
with its Run anyway button, the owner's Lock / Clear buttons, and the editor script's
repair of all of it."""

from __future__ import annotations

import pytest

from psl import registry
from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.components import guard, sharing
from psl.gen.unity.csharp import parse_csharp_class
from psl.gen.unity.serialization import guid_for
from tests.package_support import body
from tests.test_package_world import NAME, PREFABS, Prefab, _calls


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package()


@pytest.fixture(scope="module", params=sorted(PREFABS))
def prefab(request, package: pkg.Package) -> Prefab:
    return Prefab(package.files[PREFABS[request.param]].decode())


def _class(package: pkg.Package, name: str):
    return parse_csharp_class(name, package.files[f"Runtime/Scripts/{name}.cs"].decode())


def _renderers(prefab: Prefab) -> set[int]:
    """The program screens' MeshRenderers (the screen, and the original's pickup quads)."""
    paths = ["Screen"] + [p for p in prefab.paths if p.endswith("/Quad")]
    return {c["__id"] for p in paths for c in prefab.components(p) if "m_Materials" in c}


def test_every_frame_guard_field_is_wired(prefab: Prefab, package: pkg.Package) -> None:
    proxy = prefab.proxy(guard.GUARD_OBJECT, "FrameGuard")
    cls = _class(package, "FrameGuard")
    for _type, name in cls.fields:
        assert proxy.get(name) not in (None, [], {"fileID": 0}), name
    sizes = sorted(pkg.CRT_SIZES)
    assert {s["fileID"] for s in proxy["screens"]} == _renderers(prefab)
    assert [str(m["guid"]) for m in proxy["screenMaterials"]] == [
        guid_for(NAME, f"Runtime/Materials/PSL_Screen_{s}.mat") for s in sizes]
    assert [str(b["guid"]) for b in proxy["buffers"]] == [
        guid_for(NAME, f"Runtime/RenderTextures/PSL_CRT_{s}.asset") for s in sizes]
    assert proxy["sizes"] == sizes
    assert proxy["compiler"] == {"fileID": prefab.proxy("Compiler", "Compiler")["__id"]}
    g = registry.FRAME_GUARD
    assert {k: proxy[k] for k in guard.SETTINGS} == {
        "climbBelow": g.climb_below_s, "dropAbove": g.drop_above_s,
        "pauseAbove": g.pause_above_s, "holdUpFrames": g.hold_up_frames,
        "holdDownFrames": g.hold_down_frames, "settleFrames": g.settle_frames,
        "ceiling": g.ceiling}
    assert set(guard.SETTINGS) <= {n for _t, n in cls.fields}


def test_the_paused_note_is_hidden_and_its_button_runs_anyway(prefab: Prefab) -> None:
    proxy = prefab.proxy(guard.GUARD_OBJECT, "FrameGuard")
    note = prefab.paths[guard.NOTE_NAME]
    assert proxy["pausedNote"] == {"fileID": note}
    assert body(prefab.docs[note])["m_IsActive"] == 0
    text = prefab.script(f"{guard.NOTE_NAME}/{guard.NOTE_TEXT}", "Text")
    assert proxy["pausedText"] == {"fileID": text["__id"]}
    assert text["m_Text"] == udonsharp.GUARD_PAUSED_MESSAGE
    button = prefab.script(f"{guard.NOTE_NAME}/{guard.RUN_ANYWAY_NAME}", "Button")
    assert _calls(button["m_OnClick"]) == [(prefab.backing(guard.GUARD_OBJECT, "FrameGuard"),
                                            udonsharp.GUARD_RUN_ANYWAY_EVENT)]
    prefab.script(guard.NOTE_NAME, "VRCUiShape")  # the pointer can press it


def test_every_guard_field_points_at_the_guard(prefab: Prefab, package: pkg.Package) -> None:
    """SyncCode, the example buttons, ProgramLoader and (original layout) the quality
    buttons all hold the guard; the Compile button tells it after compiling."""
    guard_proxy = {"fileID": prefab.proxy(guard.GUARD_OBJECT, "FrameGuard")["__id"]}
    holders = {"SyncCode": ["SyncCode"], "ProgramLoader": ["ProgramLoader"],
               "ExampleButton": [p for p in prefab.paths
                                 if p.startswith("Canvas/Examples/Example_")
                                 and p.count("/") == 2],
               "ScreenQuality": [p for p in prefab.paths if "/Quality_" in p
                                 and not p.endswith("/Text")]}
    for cls, paths in holders.items():
        assert ("FrameGuard", "guard") in _class(package, cls).fields, cls
        for path in paths:
            assert prefab.proxy(path, cls)["guard"] == guard_proxy, path
    assert holders["ExampleButton"]
    button = prefab.script("Canvas/CompileButton", "Button")
    # the compile, the guard, then the sliders (test_package_sliders.py)
    assert _calls(button["m_OnClick"])[:2] == [
        (prefab.backing("Compiler", "Compiler"), udonsharp.COMPILE_EVENT),
        (prefab.backing(guard.GUARD_OBJECT, "FrameGuard"), udonsharp.GUARD_PROGRAM_EVENT)]
    methods = _class(package, "FrameGuard").methods
    assert {udonsharp.GUARD_PROGRAM_EVENT, udonsharp.GUARD_RUN_ANYWAY_EVENT} <= set(methods)


def test_owner_buttons_reach_synccode(prefab: Prefab, package: pkg.Package) -> None:
    sync = prefab.backing("SyncCode", "SyncCode")
    for name, event in ((sharing.LOCK_NAME, udonsharp.LOCK_EVENT),
                        (sharing.CLEAR_NAME, udonsharp.CLEAR_EVENT)):
        assert event in _class(package, "SyncCode").methods
        button = prefab.script(f"Canvas/{name}", "Button")
        assert _calls(button["m_OnClick"]) == [(sync, event)]


def test_the_editor_script_repairs_the_guard_and_the_owner_buttons(package: pkg.Package):
    text = package.files["Editor/ShaderceptionSetup.cs"].decode()
    for needle in (f'GuardObject = "{guard.GUARD_OBJECT}"',
                   f'GuardNotePath = "{guard.NOTE_NAME}"',
                   f'RunAnywayEvent = "{udonsharp.GUARD_RUN_ANYWAY_EVENT}"',
                   f'GuardProgramEvent = "{udonsharp.GUARD_PROGRAM_EVENT}"',
                   f'LockPath = "Canvas/{sharing.LOCK_NAME}"',
                   f'ClearPath = "Canvas/{sharing.CLEAR_NAME}"',
                   f'LockEvent = "{udonsharp.LOCK_EVENT}"',
                   f'ClearEvent = "{udonsharp.CLEAR_EVENT}"',
                   "RepairGuard(t, guard, compiler, screen, copies);",
                   "AddClick(compileButton, guard, GuardProgramEvent);"):
        assert needle in text, needle
    assert "<built-in" not in text and " object at 0x" not in text
    # every FrameGuard field that is not a creator setting is wired by name in RepairGuard
    repair = text[text.index("static void RepairGuard("):]
    repair = repair[:repair.index("\n        }\n")]
    for _type, name in _class(package, "FrameGuard").fields:
        if name not in guard.SETTINGS:
            assert f'name == "{name}"' in repair, name
