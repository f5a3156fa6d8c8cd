"""The program's sliders in both prefabs (issue 42, item 3): a world-space panel the VRChat
pointer can use, one hidden row per slider index (a label and a uGUI Slider whose
onValueChanged sends ProgramSliders.Moved), the ProgramSliders behaviour wired to the code
box, the Compiler, the VM material every screen runs and each row's parts; the behaviours that
start programs (SyncCode, the examples, ProgramLoader) and the Compile button telling it; the
example buttons reaching the slider examples; and the editor script's repair of all of it."""

from __future__ import annotations

import pytest

from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.components import sliders
from psl.gen.unity.csharp import parse_csharp_class
from psl.gen.unity.package import unity_package_dir
from psl.gen.unity.serialization import guid_for
from psl.registry import SLIDERS
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


def _proxy(prefab: Prefab) -> dict:
    return prefab.proxy(sliders.SLIDERS_OBJECT, sliders.SLIDERS_CLASS)


def test_the_panel_is_a_world_canvas_the_pointer_can_use(prefab: Prefab) -> None:
    panel = sliders.SLIDER_PANEL
    prefab.script(panel, "VRCUiShape")
    prefab.script(panel, "GraphicRaycaster")
    assert any("m_IsTrigger" in c and c["m_IsTrigger"] == 1 for c in prefab.components(panel))
    assert any(c.get("m_RenderMode") == 2 for c in prefab.components(panel)), "world space"
    # the same layer as the rest of the UI (the pointer's)
    canvas_layer = body(prefab.docs[prefab.paths["Canvas"]])["m_Layer"]
    assert body(prefab.docs[prefab.paths[panel]])["m_Layer"] == canvas_layer


def test_every_row_is_hidden_labelled_and_sends_moved(prefab: Prefab,
                                                      package: pkg.Package) -> None:
    backing = prefab.backing(sliders.SLIDERS_OBJECT, sliders.SLIDERS_CLASS)
    for k in range(SLIDERS.count):
        row = sliders.row_path(k)
        assert body(prefab.docs[prefab.paths[row]])["m_IsActive"] == 0, row
        prefab.script(f"{row}/{sliders.LABEL_NAME}", "Text")
        bar = prefab.script(f"{row}/{sliders.SLIDER_NAME}", "Slider")
        assert _calls(bar["m_OnValueChanged"]) == [(backing, udonsharp.SLIDER_MOVED_EVENT)]
        assert bar["m_MinValue"] == SLIDERS.low and bar["m_MaxValue"] == SLIDERS.high
        assert bar["m_WholeNumbers"] == 0 and bar["m_Interactable"] == 1
        # the handle and fill are the slider's own children
        handle = bar["m_HandleRect"]["fileID"]
        assert handle == prefab.transform(f"{row}/{sliders.SLIDER_NAME}/Handle Slide Area/Handle")
        assert bar["m_FillRect"]["fileID"] == prefab.transform(
            f"{row}/{sliders.SLIDER_NAME}/Fill Area/Fill")
    assert udonsharp.SLIDER_MOVED_EVENT in _class(package, sliders.SLIDERS_CLASS).methods


def test_the_behaviour_is_wired(prefab: Prefab, package: pkg.Package) -> None:
    proxy = _proxy(prefab)
    cls = _class(package, sliders.SLIDERS_CLASS)
    for _type, name in cls.fields:
        assert proxy.get(name) not in (None, [], {"fileID": 0}), name
    rows = [sliders.row_path(k) for k in range(SLIDERS.count)]
    assert proxy["rows"] == [{"fileID": prefab.paths[r]} for r in rows]
    assert proxy["sliders"] == [
        {"fileID": prefab.script(f"{r}/{sliders.SLIDER_NAME}", "Slider")["__id"]} for r in rows]
    assert proxy["labels"] == [
        {"fileID": prefab.script(f"{r}/{sliders.LABEL_NAME}", "Text")["__id"]} for r in rows]
    # the VM material: every render texture of every screen runs it
    assert [str(m["guid"]) for m in proxy["materials"]] == [
        guid_for(NAME, "Runtime/Materials/PSL_VM.mat")]
    assert proxy["compiler"] == {"fileID": prefab.proxy("Compiler", "Compiler")["__id"]}
    assert proxy["input"] == prefab.proxy("Compiler", "Compiler")["input"]


def test_every_program_start_reaches_the_sliders(prefab: Prefab, package: pkg.Package) -> None:
    target = {"fileID": _proxy(prefab)["__id"]}
    holders = {"SyncCode": ["SyncCode"], "ProgramLoader": ["ProgramLoader"],
               "ExampleButton": [p for p in prefab.paths
                                 if p.startswith("Canvas/Examples/Example_")
                                 and p.count("/") == 2]}
    for cls, paths in holders.items():
        assert (sliders.SLIDERS_CLASS, "sliders") in _class(package, cls).fields, cls
        assert paths, cls
        for path in paths:
            assert prefab.proxy(path, cls)["sliders"] == target, path
    button = prefab.script("Canvas/CompileButton", "Button")
    assert _calls(button["m_OnClick"]) == [
        (prefab.backing("Compiler", "Compiler"), udonsharp.COMPILE_EVENT),
        (prefab.backing("FrameGuard", "FrameGuard"), udonsharp.GUARD_PROGRAM_EVENT),
        (prefab.backing(sliders.SLIDERS_OBJECT, sliders.SLIDERS_CLASS),
         udonsharp.SLIDERS_PROGRAM_EVENT)]


def test_the_example_buttons_reach_every_example(prefab: Prefab) -> None:
    stems = sorted(p.stem for p in (unity_package_dir() / "Examples").glob("*.psl"))
    assert {"sliders_mandelbrot_zoom", "sliders_raymarch_light"} <= set(stems)
    buttons = [p for p in prefab.paths if p.startswith("Canvas/Examples/Example_")
               and p.count("/") == 2]
    assert len(buttons) == len(stems)
    programs = {prefab.proxy(p, "ExampleButton")["program"] for p in buttons}
    for stem in stems:
        text = (unity_package_dir() / "Examples" / f"{stem}.psl").read_text(encoding="utf-8")
        assert text in programs, stem
    # the buttons lie inside the examples area (none cut off below it)
    area = prefab.local("Canvas/Examples")["m_SizeDelta"]["y"]
    for p in buttons:
        local = prefab.local(p)
        assert -local["m_AnchoredPosition"]["y"] + local["m_SizeDelta"]["y"] <= area, p


def test_the_editor_script_repairs_the_sliders(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert f'SlidersObject = "{sliders.SLIDERS_OBJECT}"' in script
    assert f'SliderPanelPath = "{sliders.SLIDER_PANEL}"' in script
    assert f"SliderCount = {SLIDERS.count};" in script
    assert f'SliderMovedEvent = "{udonsharp.SLIDER_MOVED_EVENT}"' in script
    assert "AddClick(compileButton, sliders, SlidersProgramEvent)" in script
    assert "RepairSliders(t, sliders, vm, common);" in script
    assert "type.IsInstanceOfType(sliders)) return sliders;" in script
