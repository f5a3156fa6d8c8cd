"""Programs in and out of the world (issue 26), package side: the prefab's Programs panel
(URL field, Load, Bring Back, slots, gallery) wired to the right events, the gallery baked by
`--gallery`, and the setup menu's code that fills the gallery's VRCUrls from the text asset.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from psl.cli.gen import main as psl_gen
from psl.gen import world_programs as wp
from psl.gen.unity import package as pkg
from psl.gen.unity.components import programs as ui
from psl.gen.unity.serialization import BUILTIN_ASSETS
from tests.package_support import body, load_unity_yaml

GALLERY = (
    wp.GalleryEntry("Pong", "https://gist.githubusercontent.com/someone/1/raw/pong.psl"),
    wp.GalleryEntry("Spiral", "https://pastebin.com/raw/AbCd1234"),
    wp.GalleryEntry("Fbm", "https://someone.github.io/psl/fbm.psl"),
)
ROOT = "Shaderception"
PANEL = f"{ROOT}/{ui.PANEL}"


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package(pkg.PackageOptions(gallery=GALLERY))


@pytest.fixture(scope="module")
def prefab(package: pkg.Package) -> dict[int, dict]:
    return load_unity_yaml(package.files["Runtime/Prefabs/Shaderception.prefab"].decode())


def _objects(prefab: dict[int, dict]) -> dict[str, tuple[int, dict]]:
    """hierarchy path -> (GameObject fileID, its body)"""
    transforms = {fid: body(doc) for fid, doc in prefab.items() if doc["__class__"] in (4, 224)}
    owner = {body(doc)["m_Component"][0]["component"]["fileID"]: fid
             for fid, doc in prefab.items() if doc["__class__"] == 1}

    def path(tid: int) -> str:
        name = body(prefab[owner[tid]])["m_Name"]
        father = transforms[tid]["m_Father"]["fileID"]
        return name if father == 0 else f"{path(father)}/{name}"

    return {path(tid): (gid, body(prefab[gid])) for tid, gid in owner.items()}


def _monos(prefab: dict[int, dict], go: dict) -> list[tuple[int, dict]]:
    return [(c["component"]["fileID"], body(prefab[c["component"]["fileID"]]))
            for c in go["m_Component"] if prefab[c["component"]["fileID"]]["__class__"] == 114]


def _script_is(mono: dict, name: str) -> bool:
    asset = BUILTIN_ASSETS[name]
    script = mono["m_Script"]
    return script["fileID"] == asset.file_id and str(script["guid"]) == asset.guid


def _behaviour(prefab: dict[int, dict], objects, name: str) -> tuple[dict, int]:
    """A U# behaviour's proxy fields and its backing UdonBehaviour's fileID."""
    _, go = objects[f"{ROOT}/{name}"]
    for fid, mono in _monos(prefab, go):
        if "_udonSharpBackingUdonBehaviour" in mono:
            return dict(mono, __id__=fid), mono["_udonSharpBackingUdonBehaviour"]["fileID"]
    raise AssertionError(f"no UdonSharp proxy on {name}")


def _click(prefab: dict[int, dict], objects, path: str) -> tuple[int, str]:
    """The (UdonBehaviour fileID, event) a button's onClick sends."""
    _, go = objects[path]
    buttons = [m for _, m in _monos(prefab, go) if _script_is(m, "Button")]
    assert len(buttons) == 1, path
    (call,) = buttons[0]["m_OnClick"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_MethodName"] == "SendCustomEvent"
    return call["m_Target"]["fileID"], call["m_Arguments"]["m_StringArgument"]


def test_url_field_is_vrchats_with_legacy_text(prefab: dict[int, dict]) -> None:
    objects = _objects(prefab)
    field_path = f"{PANEL}/{ui.URL_FIELD}"
    _, go = objects[field_path]
    (fid, field), = [(f, m) for f, m in _monos(prefab, go) if _script_is(m, "VRCUrlInputField")]
    assert field["m_Script"] == {"fileID": -547739040,
                                 "guid": "661092b4961be7145bfbe56e1e62337b", "type": 3}
    text = body(prefab[field["m_TextComponent"]["fileID"]])
    placeholder = body(prefab[field["m_Placeholder"]["fileID"]])
    assert _script_is(text, "Text") and _script_is(placeholder, "Text")  # legacy UI Text
    assert text["m_GameObject"]["fileID"] == objects[f"{field_path}/Text"][0]
    loader, _ = _behaviour(prefab, objects, ui.LOADER_OBJECT)
    assert loader["urlField"] == {"fileID": fid}


def test_enter_in_the_url_field_loads_the_url(prefab: dict[int, dict]) -> None:
    """Issue 39: the URL field's end-edit event (Enter; VRChat's keyboard closing) sends the
    loader's URL_ENTERED_EVENT, a static-string SendCustomEvent on its UdonBehaviour, and the
    loader has that event; its value-changed event sends nothing."""
    objects = _objects(prefab)
    _, go = objects[f"{PANEL}/{ui.URL_FIELD}"]
    (field,) = [m for _, m in _monos(prefab, go) if _script_is(m, "VRCUrlInputField")]
    _, loader_udon = _behaviour(prefab, objects, ui.LOADER_OBJECT)
    (call,) = field["m_OnEndEdit"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_Target"]["fileID"] == loader_udon
    assert prefab[loader_udon]["__class__"] == 114
    assert call["m_MethodName"] == "SendCustomEvent" and call["m_Mode"] == 5
    assert call["m_CallState"] == 2
    assert call["m_Arguments"]["m_StringArgument"] == wp.URL_ENTERED_EVENT
    assert field["m_OnValueChanged"]["m_PersistentCalls"]["m_Calls"] == []
    source = pkg.build_package().files["Runtime/Scripts/ProgramLoader.cs"].decode()
    assert f"public void {wp.URL_ENTERED_EVENT}()" in source


def test_buttons_send_the_right_events(prefab: dict[int, dict]) -> None:
    objects = _objects(prefab)
    loader, loader_udon = _behaviour(prefab, objects, ui.LOADER_OBJECT)
    _, saves_udon = _behaviour(prefab, objects, ui.SAVES_OBJECT)
    expected = {
        f"{PANEL}/{ui.LOAD_BUTTON}": (loader_udon, wp.LOAD_URL_EVENT),
        f"{PANEL}/{ui.BRING_BACK_BUTTON}": (loader_udon, wp.BRING_BACK_EVENT),
        f"{PANEL}/{ui.SLOTS}/{ui.LAST_BUTTON}": (saves_udon, wp.LOAD_LAST_EVENT),
    }
    for n in range(1, wp.SAVE_SLOTS + 1):
        expected[f"{PANEL}/{ui.SLOTS}/{ui.slot_save_button(n)}"] = (saves_udon, wp.save_event(n))
        expected[f"{PANEL}/{ui.SLOTS}/{ui.slot_load_button(n)}"] = (
            saves_udon, wp.load_slot_event(n))
    for k in range(len(GALLERY)):
        expected[f"{PANEL}/{ui.GALLERY}/{ui.gallery_button(k)}"] = (
            loader_udon, wp.gallery_event(k))
    assert wp.SAVE_SLOTS >= 4
    for path, want in expected.items():
        assert _click(prefab, objects, path) == want, path
    # one gallery button per entry, no more
    gallery = [p for p in objects if p.startswith(f"{PANEL}/{ui.GALLERY}/Entry")
               and p.count("/") == PANEL.count("/") + 2]
    assert len(gallery) == len(GALLERY)
    # and every event exists on the behaviour that receives it
    cs = pkg.build_package().files
    for udon, event in expected.values():
        script = "ProgramLoader" if udon == loader_udon else "ProgramSaves"
        source = cs[f"Runtime/Scripts/{script}.cs"].decode()
        assert f"public void {event}()" in source, (script, event)


def test_behaviours_are_wired(prefab: dict[int, dict]) -> None:
    objects = _objects(prefab)
    loader, _ = _behaviour(prefab, objects, ui.LOADER_OBJECT)
    saves, _ = _behaviour(prefab, objects, ui.SAVES_OBJECT)
    compiler, _ = _behaviour(prefab, objects, "Compiler")
    _, code = objects[f"{ROOT}/Canvas/CodeInput"]
    code_field = next(f for f, m in _monos(prefab, code) if _script_is(m, "InputField"))
    for behaviour in (loader, saves):
        assert behaviour["input"] == {"fileID": code_field}
        assert body(prefab[behaviour["output"]["fileID"]])["m_GameObject"]["fileID"] == \
            objects[f"{PANEL}/{ui.STATUS}"][0]
        assert prefab[behaviour["compiler"]["fileID"]]["__class__"] == 114
    assert saves["loader"] == {"fileID": loader["__id__"]}
    # every load goes through SyncCode's one history (issue 39)
    sync, _ = _behaviour(prefab, objects, "SyncCode")
    assert loader["share"] == {"fileID": sync["__id__"]} and "follow" in sync
    assert loader["compiler"] == saves["compiler"] == {"fileID": compiler["__id__"]}
    assert loader["galleryTitles"] == [e.title for e in GALLERY]
    assert loader["galleryUrls"] == [{"url": e.url} for e in GALLERY]


def test_help_text_tells_players(prefab: dict[int, dict]) -> None:
    objects = _objects(prefab)
    _, help_go = objects[f"{PANEL}/{ui.HELP}"]
    (text,) = [m for _, m in _monos(prefab, help_go) if _script_is(m, "Text")]
    for part in ("RAW", "Load", "Bring Back", "Save", "Allow Untrusted URLs",
                 *wp.TRUSTED_DISPLAY):
        assert part in text["m_Text"], part


def test_gallery_file_ships_and_parses_back(package: pkg.Package) -> None:
    text = package.files[pkg.GALLERY_PATH].decode()
    assert wp.parse_gallery(text) == list(GALLERY)
    assert wp.parse_gallery(pkg.build_package().files[pkg.GALLERY_PATH].decode()) == []


@pytest.mark.parametrize("line, why", [
    ("just a title", "expected 'title | url'"),
    ("Pong | ftp://x/y", "must start with https://"),
    (" | https://a.github.io/p.psl", "expected 'title | url'"),
])
def test_bad_gallery_lines_are_named(line: str, why: str) -> None:
    with pytest.raises(wp.GalleryError, match=f"g.txt:2: .*{why}"):
        wp.parse_gallery("# comment\n" + line + "\n", "g.txt")


def test_cli_bakes_a_gallery(tmp_path: Path) -> None:
    gallery = tmp_path / "gallery.txt"
    gallery.write_text("".join(f"{e.title} | {e.url}\n" for e in GALLERY), encoding="utf-8")
    result = CliRunner().invoke(psl_gen, ["unity-package", "--out", str(tmp_path / "out"),
                                          "--gallery", str(gallery)])
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.txt"
    bad.write_text("Pong\n", encoding="utf-8")
    result = CliRunner().invoke(psl_gen, ["unity-package", "--out", str(tmp_path / "out2"),
                                          "--gallery", str(bad)])
    assert result.exit_code != 0 and "bad.txt:1: expected 'title | url'" in result.output


# ------------------------------------------------------------------------ setup menu

SETUP_TEST = r"""
using System;
using VRC.SDKBase;
using PSL.Shaderception.EditorTools;

public class FakeLoader
{
    public string[] galleryTitles;
    public VRCUrl[] galleryUrls;
}

public static class SetupTest
{
    public static int Main(string[] args)
    {
        string text = System.IO.File.ReadAllText(args[0]);
        ShaderceptionSetup.GalleryList list = ShaderceptionSetup.ParseGallery(text);
        FakeLoader loader = new FakeLoader();
        ShaderceptionSetup.FillGallery(loader, list);
        for (int i = 0; i < loader.galleryTitles.Length; i++)
            Console.WriteLine("entry\t" + loader.galleryTitles[i] + "\t"
                              + loader.galleryUrls[i].Get());
        foreach (string p in list.Problems) Console.WriteLine("problem\t" + p);
        return 0;
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None or shutil.which("mono") is None,
                    reason="mono / mcs not installed")
def test_setup_code_fills_the_gallery_urls_from_the_text_asset(package: pkg.Package,
                                                               tmp_path: Path) -> None:
    script = tmp_path / "ShaderceptionSetup.cs"
    script.write_bytes(package.files["Editor/ShaderceptionSetup.cs"])
    test = tmp_path / "SetupTest.cs"
    test.write_text(SETUP_TEST, encoding="utf-8")
    stubs = Path(__file__).parent / "package_support" / "EditorStubs.cs"
    exe = tmp_path / "setup.exe"
    proc = subprocess.run(["mcs", "-nologo", f"-out:{exe}", str(stubs), str(script), str(test)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    asset = tmp_path / "Gallery.txt"
    # the package's own file, plus a comment, a blank line, CRLF and a bad line
    asset.write_bytes((package.files[pkg.GALLERY_PATH].decode()
                       + "\r\n# more\r\nno bar here\r\n").encode())
    run = subprocess.run(["mono", str(exe), str(asset)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    lines = [line.split("\t") for line in run.stdout.splitlines()]
    assert [(t, u) for kind, t, u in (x for x in lines if x[0] == "entry")] == \
        [(e.title, e.url) for e in GALLERY]
    problems = [x[1] for x in lines if x[0] == "problem"]
    assert len(problems) == 1 and "expected 'title | url'" in problems[0]


#: lines where splitting, trimming and control characters could part the two parsers
PARITY_LINES = [
    "Plain | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Lone CR\r | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Title | https://gist.githubusercontent.com/a/\rb/raw/p.psl",
    "Sep\u2028arated | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Para | https://gist.githubusercontent.com/a/b/raw/\u2029p.psl",
    "Next line\u0085 | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Bell\x07 | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Del | https://gist.githubusercontent.com/a/b/raw/p\x7f.psl",
    "Esc\x1b[31m | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "\tTabbed\t|\thttps://gist.githubusercontent.com/a/b/raw/p.psl\t",
    "In\ttitle | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "\u00a0Nbsp\u00a0 | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "\u3000Ideographic | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Unit\x1fsep | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "File\x1c | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Vertical\x0b | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "Form\x0c | https://gist.githubusercontent.com/a/b/raw/p.psl",
    "No bar at all",
]


@pytest.mark.skipif(shutil.which("mcs") is None or shutil.which("mono") is None,
                    reason="mono / mcs not installed")
def test_gallery_parsers_agree_line_for_line(package: pkg.Package, tmp_path: Path) -> None:
    """psl-gen's gallery reader and the setup menu's split lines the same way (LF, CRLF),
    trim the same characters and refuse the same control characters in titles and URLs:
    for each line, both take the same entry or both refuse line 2."""
    script = tmp_path / "ShaderceptionSetup.cs"
    script.write_bytes(package.files["Editor/ShaderceptionSetup.cs"])
    (tmp_path / "SetupTest.cs").write_text(SETUP_TEST, encoding="utf-8")
    stubs = Path(__file__).parent / "package_support" / "EditorStubs.cs"
    exe = tmp_path / "setup.exe"
    proc = subprocess.run(["mcs", "-nologo", f"-out:{exe}", str(stubs), str(script),
                           str(tmp_path / "SetupTest.cs")], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first = "First | https://gist.githubusercontent.com/a/b/raw/first.psl"
    for k, line in enumerate(PARITY_LINES):
        for end in ("\n", "\r\n"):
            text = first + end + line + end
            try:
                ours = [(e.title, e.url) for e in wp.parse_gallery(text, "g")]
                refused = False
            except wp.GalleryError as exc:
                ours, refused = None, True
                assert str(exc).startswith("g:2:"), (line, str(exc))
            asset = tmp_path / f"g{k}.txt"
            asset.write_bytes(text.encode("utf-8"))
            run = subprocess.run(["mono", str(exe), str(asset)], capture_output=True,
                                 timeout=120)
            assert run.returncode == 0, run.stderr
            rows = [r.split("\t") for r in run.stdout.decode("utf-8").split("\n") if r]
            entries = [(r[1], r[2]) for r in rows if r[0] == "entry"]
            problems = [r[1] for r in rows if r[0] == "problem"]
            if refused:
                assert len(problems) == 1 and problems[0].startswith("Gallery line 2:"), \
                    (line, problems)
            else:
                assert problems == [] and entries == ours, (line, entries, ours)
