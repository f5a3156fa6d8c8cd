"""`psl serve` in a browser: the real server (tests/serve_support) and the page in headless
Chromium (SwiftShader, via tests/browser_support's launcher settings), one browser and one
test-mode page for the module. Loading the page compiles the VM shader, the slow part."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.browser_support.browser import unavailable_reason
from tests.serve_support.client import chromium

REASON = unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

CORPUS = Path(__file__).resolve().parent / "corpus"
GOOD = "let c = uv();\nfloat3(c.x, c.y, 0.25)\n"
BAD = "let c = uv();\nlet b = sin(1, 2);\nfloat3(c.x, c.y, b)\n"
LOAD_TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def program_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("serve") / "live.psl"
    path.write_text(GOOD)
    return path


@pytest.fixture(scope="module")
def server(program_file: Path) -> Iterator[Any]:
    from tests.serve_support.server import ServerThread

    with ServerThread(program_file) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=LOAD_TIMEOUT_MS)
    assert not errors, errors
    assert page.evaluate("window.psl.hasRenderer()"), page.locator("#shader-error").inner_text()
    return page


@pytest.fixture(scope="module")
def page(browser: Any, server: Any) -> Any:
    p = open_page(browser, server.url + "?test=1")
    yield p
    p.close()


def set_source_and_compile(page: Any, source: str) -> dict[str, Any]:
    page.evaluate("(s) => window.psl.setSource(s)", source)
    page.evaluate("window.psl.compileNow()")
    return page.evaluate("({good: window.psl.state.goodSeq, seq: window.psl.state.compileSeq})")


def reference_render(source: str) -> np.ndarray:
    from psl.api import run
    from psl.vm import samples

    frames = 8 if "self(" in source.lower() else 1
    return run(source, size=(64, 64), time=samples.REFERENCE_TIME, frames=frames,
               fps=samples.REFERENCE_FPS, camera=samples.reference_camera(),
               video=samples.reference_video(), button=samples.REFERENCE_BUTTON,
               axis=samples.REFERENCE_AXIS)


# fbm: arithmetic and loops; sobel: the camera texture; blur_by_moon: self() over 8 frames.
# (scene_raymarch, ~825 instructions a pixel, takes SwiftShader over 10 s a frame.)
@pytest.mark.parametrize("name", ["scene_fbm", "scene_sobel", "scene_blur_by_moon"])
def test_page_renders_corpus_program_like_the_python_vm(page: Any, name: str) -> None:
    source = (CORPUS / f"{name}.psl").read_text()
    ids = set_source_and_compile(page, source)
    assert ids["good"] == ids["seq"], page.locator("#diagnostics").inner_text()
    # in test mode a good compile renders the SPEC §9 frames at once; read that frame
    pixels = np.array(page.evaluate("window.psl.readPixels('color')"), np.float32)
    got = np.nan_to_num(pixels.reshape(64, 64, 4))
    want = np.nan_to_num(reference_render(source))
    close = np.abs(got - want) <= 1e-3
    # chaotic regions amplify last-bit differences of transcendental functions (SPEC §9)
    assert close.mean() >= 0.995, f"{close.mean():.4f} of lanes within 1e-3"


# Native mode runs `psl export --target glsl`'s shader instead of the VM; fast enough on
# SwiftShader for the raymarcher. A NaN lane below a number lane does not export: the VM
# runs that program.
@pytest.mark.parametrize("name", ["scene_raymarch", "scene_blur_by_moon"])
def test_native_mode_renders_like_the_python_vm(page: Any, name: str) -> None:
    source = (CORPUS / f"{name}.psl").read_text()
    page.evaluate("window.psl.setNative(true)")
    try:
        ids = set_source_and_compile(page, source)
        assert ids["good"] == ids["seq"], page.locator("#diagnostics").inner_text()
        assert page.evaluate("window.psl.native")
        assert "native" in page.locator("#status").inner_text()
        pixels = np.array(page.evaluate("window.psl.readPixels('color')"), np.float32)
        got = pixels.reshape(64, 64, 4)
        want = reference_render(source)
        assert np.abs(got - want).max() <= 1e-3
        set_source_and_compile(page, "let v = uv();\nv.w = 1;\nv\n")
        assert not page.evaluate("window.psl.native")
        assert "cannot export" in page.locator("#status").inner_text()
    finally:
        page.evaluate("window.psl.setNative(false)")


def test_bad_program_shows_markers_and_keeps_the_last_frame(page: Any) -> None:
    set_source_and_compile(page, GOOD)
    before = page.evaluate("window.psl.readPixels('color')")
    good = page.evaluate("window.psl.state.goodSeq")
    # type the error into the editor like a user, and let the debounced compile run
    page.evaluate("(s) => window.psl.setSource(s)", BAD)
    page.wait_for_selector("#diagnostics li.error", timeout=10_000)
    item = page.locator("#diagnostics li.error").first
    assert (item.get_attribute("data-code"), item.get_attribute("data-line"),
            item.get_attribute("data-column")) == ("E011", "2", "9")
    assert "'sin' takes 1 argument, got 2" in item.inner_text()
    assert page.locator(".cm-lint-marker-error").count() >= 1  # gutter marker
    underline = page.locator(".cm-lintRange-error")
    assert underline.count() == 1 and underline.inner_text() == "sin"
    assert page.evaluate("window.psl.state.goodSeq") == good  # the last good program stays
    assert page.evaluate("window.psl.readPixels('color')") == before
    assert "last good program" in page.locator("#status").inner_text()


def wait_for_source(page: Any, text: str, timeout: float = 10.0) -> None:
    page.wait_for_function("(t) => window.psl.source === t", arg=text, timeout=timeout * 1000)


def test_file_edits_reach_the_page_and_save_is_explicit(page: Any, program_file: Path) -> None:
    # start from the file as it is on disk (earlier tests typed into the editor)
    disk = page.evaluate("window.psl.state.diskText")
    page.evaluate("(s) => window.psl.setSource(s)", disk)
    page.wait_for_function("document.body.dataset.events === 'open'", timeout=10_000)

    edited = "float3(1, 0, 0)\n"
    program_file.write_text(edited)  # the user's own editor saves the file
    wait_for_source(page, edited)

    # typing in the page never writes the file; Ctrl-S does
    page.locator(".cm-content").click()
    page.keyboard.press("End")
    page.keyboard.type("// mine")
    page.wait_for_timeout(600)  # longer than the compile delay
    assert program_file.read_text() == edited
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 10
    while program_file.read_text() == edited and time.monotonic() < deadline:
        time.sleep(0.05)
    mine = page.evaluate("window.psl.source")
    assert program_file.read_text() == mine and "// mine" in mine

    # the file changes on disk while the page has unsaved edits: a conflict, not a save
    page.keyboard.type(" more")
    program_file.write_text("float3(0, 1, 0)\n")
    page.wait_for_selector("#conflict:not([hidden])", timeout=10_000)
    page.keyboard.press("Control+s")
    page.wait_for_timeout(500)
    assert program_file.read_text() == "float3(0, 1, 0)\n"
    assert "changed on disk" in page.locator("#conflict-message").inner_text()
    # ... until the user explicitly chooses to overwrite
    page.locator("#conflict-overwrite").click()
    deadline = time.monotonic() + 10
    while "more" not in program_file.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert program_file.read_text() == page.evaluate("window.psl.source")
    # the banner goes when the save's reply arrives, just after the file is written
    page.wait_for_selector("#conflict", state="hidden", timeout=10_000)


def test_share_link_round_trips(page: Any, browser: Any) -> None:
    program = (CORPUS / "scene_spiral.psl").read_text() + "\n// ünïcödé & #fragment\n"
    page.evaluate("(s) => window.psl.setSource(s)", program)
    page.locator("#share").click()
    page.wait_for_selector("#share-box:not([hidden])")
    url = page.locator("#share-url").input_value()
    assert "#p=" in url and "?" not in url
    assert len(url) < len(program)  # compressed
    other = open_page(browser, url)
    try:
        assert other.evaluate("window.psl.source") == program
    finally:
        other.close()


def test_for_vrchat_view_gives_the_file_and_checks_urls(page: Any) -> None:
    program = "let c = uv();\r\nfloat3(c.x, c.y, 0.5) // ünï\r\n"
    set_source_and_compile(page, program)
    page.locator("#vrchat").click()
    page.wait_for_selector("#vrchat-view:not([hidden])")
    checks = page.locator("#vrchat-checks").inner_text()
    assert "compiles" in checks and "of 16,000 characters" in checks
    with page.expect_download() as info:
        page.locator("#vrchat-download").click()
    data = Path(info.value.path()).read_bytes()
    assert data == program.replace("\r\n", "\n").encode("utf-8")  # UTF-8, no BOM, LF
    cases = {
        "https://gist.github.com/someone/abc123": "gist.githubusercontent.com/someone/abc123/raw",
        "https://pastebin.com/XyZ12": "https://pastebin.com/raw/XyZ12",
        "https://raw.githubusercontent.com/a/b/main/p.psl": "Allow Untrusted URLs",
        "https://example.org/p.psl": "not one of VRChat's trusted hosts",
        "https://gist.githubusercontent.com/someone/abc123/raw/p.psl": "a trusted host",
    }
    for url, expected in cases.items():
        page.locator("#vrchat-url").fill(url)
        assert expected in page.locator("#vrchat-url-check").inner_text(), url
    page.locator("#vrchat-close").click()
    assert page.locator("#vrchat-view").is_hidden()


# The 3D view (issue 24): a program whose alpha is known (the right half at 2, the left at 0)
# drawn on the relief grid; the view's colour and camera depth, read back, are psl run
# --relief's render of the same frame (psl.vm.relief, the same grid, height scale, camera).
RELIEF_PROGRAM = "float4(uv().x, uv().y, 0.5, (uv().x > 0.5) * 2.0)\n"
CANVAS_SIZE = "[document.getElementById('screen').width, document.getElementById('screen').height]"


def test_3d_view_shows_the_displaced_surface(page: Any) -> None:
    from psl.vm import relief

    ids = set_source_and_compile(page, RELIEF_PROGRAM)
    assert ids["good"] == ids["seq"], page.locator("#diagnostics").inner_text()
    try:
        page.evaluate("window.psl.setView3d(true, {grid: 65, shaded: false})")
        assert page.evaluate(CANVAS_SIZE) == [640, 480]
        got = np.array(page.evaluate("window.psl.readRelief()"), np.float32)
        got = got.reshape(480, 640, 4)[::-1]  # top row first, as psl.vm.relief
        want = relief.render_relief(reference_render(RELIEF_PROGRAM), side=65)
        drawn, expected = got[..., 3] < 1e29, np.isfinite(want.depth)
        assert (drawn == expected).mean() >= 0.999
        both = drawn & expected
        depth_error = np.abs(got[..., 3][both] - want.depth[both])
        assert (depth_error < 1e-3).mean() >= 0.999, np.quantile(depth_error, [0.5, 0.999])
        colour_error = np.abs(got[..., :3][both] - want.rgb[both]).max(axis=1)
        assert (colour_error < 2 / 255).mean() >= 0.999
        # displaced: against a flat screen, the raised half is nearer (2 * height_scale along
        # the normal, more along an oblique ray) and the left half is where it was
        flat = relief.render_relief(reference_render("float4(uv().x, uv().y, 0.5, 0)"), side=65)
        common = both & np.isfinite(flat.depth)
        step = flat.depth[common] - got[..., 3][common]
        scale = page.evaluate("window.psl.relief.heightScale")
        assert step.max() > 1.9 * scale and step.min() > -1e-3
        assert 0.2 < (np.abs(step) < 1e-3).mean() < 0.8
        # the controls show the state; shaded changes the picture, not the geometry
        assert page.locator("#view3d").is_checked()
        page.evaluate("window.psl.setView3d(true, {shaded: true})")
        lit = np.array(page.evaluate("window.psl.readRelief()"), np.float32).reshape(480, 640, 4)
        np.testing.assert_array_equal(lit[..., 3], got[::-1][..., 3])
    finally:
        page.evaluate("window.psl.setView3d(false, {shaded: false})")
    assert page.evaluate(CANVAS_SIZE) == [64, 64]


def _share_fragment(text: str) -> str:
    import base64
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return "#p=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_share_links_past_the_world_limit_are_refused(browser: Any, server: Any) -> None:
    """A small link that inflates to megabytes (a "share bomb") or to one character more
    than the world holds is refused with a message; the editor keeps the server's program."""
    from psl.registry import LIMITS

    bomb = _share_fragment(" " * 40_000_000)
    assert len(bomb) < 100_000
    over = _share_fragment("x" * (LIMITS.source_chars + 1))
    for fragment in (bomb, over):
        p = open_page(browser, server.url + "?test=1" + fragment)
        try:
            assert len(p.evaluate("window.psl.source")) <= LIMITS.source_chars
            assert "not loaded" in p.locator("#share-note").inner_text()
        finally:
            p.close()
    fits = "// " + "x" * (LIMITS.source_chars - 10) + "\n1"
    p = open_page(browser, server.url + "?test=1" + _share_fragment(fits))
    try:
        assert p.evaluate("window.psl.source") == fits
    finally:
        p.close()


def test_a_new_share_link_asks_before_replacing_edits(browser: Any, server: Any) -> None:
    p = open_page(browser, server.url + "?test=1")
    try:
        p.evaluate("(s) => window.psl.setSource(s)", "float3(1, 0, 0) // my edits")
        answers: list[str] = []

        def dismiss(dialog: Any) -> None:
            answers.append(dialog.message)
            dialog.dismiss()

        p.once("dialog", dismiss)
        p.evaluate("(h) => { location.hash = h; }", _share_fragment("float3(0, 1, 0)"))
        p.wait_for_function("document.getElementById('share-note').textContent"
                            ".includes('keeps your edits')", timeout=10_000)
        assert answers and p.evaluate("window.psl.source") == "float3(1, 0, 0) // my edits"
        p.once("dialog", lambda dialog: dialog.accept())
        p.evaluate("(h) => { location.hash = h; }", _share_fragment("float3(0, 0, 1)"))
        p.wait_for_function("window.psl.source === 'float3(0, 0, 1)'", timeout=10_000)
    finally:
        p.close()
