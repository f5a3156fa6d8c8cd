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

from tests.browser_support.browser import CHROMIUM_ARGS, chromium_path, unavailable_reason

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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                               args=list(CHROMIUM_ARGS))
        yield b
        b.close()


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
