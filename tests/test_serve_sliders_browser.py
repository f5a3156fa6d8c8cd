"""Sliders in the playground, in headless Chromium (tests/test_serve_browser.py's setup):
the example list loads a slider program, its sliders appear beside the canvas, moving one
(pointer and keys) changes the canvas to the Python VM's frame at those values; the values
survive a recompile with the same table, reset with another, travel in share links (hostile
ones too) and start the world's sliders in the "For VRChat" text."""

from __future__ import annotations

import base64
import io
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.browser_support.browser import unavailable_reason
from tests.serve_support.client import chromium

REASON = unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "unity_package" / "Examples"
MANDELBROT = (EXAMPLES / "sliders_mandelbrot_zoom.psl").read_text("utf-8")
LIGHT = (EXAMPLES / "sliders_raymarch_light.psl").read_text("utf-8")
LOAD_TIMEOUT_MS = 120_000
# A program whose frame SwiftShader draws fast (a deep Mandelbrot zoom takes it seconds).
CHEAP = """// every slider shows in the frame
//@slider 0 red 0..1 = 0.25
//@slider 1 wave 1..20 = 4
//@slider 2 shift -1.5..1.5 = 0
//@slider 3 blue 0..1
float3(slider(0), 0.5 + 0.5 * sin(uv().x * slider(1) + slider(2)), slider(3) * uv().y)
"""
CHEAP_NAMES = ["red", "wave", "shift", "blue"]
CHEAP_DEFAULTS = [0.25, 4, 0, 0]


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    from tests.serve_support.server import ServerThread

    with ServerThread(None) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def open_page(browser: Any, url: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=LOAD_TIMEOUT_MS)
    assert not errors, errors
    assert page.evaluate("window.psl.hasRenderer()"), page.locator("#shader-error").inner_text()
    return page, errors


@pytest.fixture(scope="module")
def page(browser: Any, server: Any) -> Iterator[Any]:
    p, errors = open_page(browser, server.url + "?test=1")
    # loading an example over edits asks first (window.confirm): say yes
    p.on("dialog", lambda dialog: dialog.accept())
    yield p
    assert not errors, errors
    p.close()


def reference_render(source: str, sliders: dict[str, float] | None = None) -> np.ndarray:
    from psl.api import run
    from psl.vm import samples

    return run(source, size=(64, 64), time=samples.REFERENCE_TIME, frames=1,
               fps=samples.REFERENCE_FPS, camera=samples.reference_camera(),
               video=samples.reference_video(), button=samples.REFERENCE_BUTTON,
               axis=samples.REFERENCE_AXIS, sliders=sliders)


def frame(page: Any) -> np.ndarray:
    return np.array(page.evaluate("window.psl.readPixels('color')"), np.float32).reshape(64, 64, 4)


def canvas(page: Any) -> np.ndarray:
    """What the canvas shows (its PNG), as uint8 [row][column][RGBA]."""
    from PIL import Image

    url = page.evaluate("document.getElementById('screen').toDataURL('image/png')")
    png = base64.b64decode(url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def assert_like_python(page: Any, source: str, values: list[float], names: list[str]) -> None:
    want = reference_render(source, dict(zip(names, values, strict=True)))
    close = np.abs(np.nan_to_num(frame(page)) - np.nan_to_num(want)) <= 1e-3
    assert close.mean() >= 0.995, f"{close.mean():.4f} of lanes within 1e-3"


def values(page: Any) -> list[float]:
    return page.evaluate("window.psl.sliderValues")[:4]


def compiled(page: Any) -> None:
    page.wait_for_function("window.psl.state.goodSeq === window.psl.state.compileSeq "
                           "&& document.body.dataset.compiled === "
                           "String(window.psl.state.compileSeq)", timeout=30_000)


def set_and_compile(page: Any, source: str) -> None:
    page.evaluate("(s) => window.psl.setSource(s)", source)
    page.evaluate("window.psl.compileNow()")
    compiled(page)


def load_example(page: Any, name: str, source: str) -> None:
    before = page.evaluate("window.psl.state.compileSeq")
    page.locator("#examples").select_option(name)
    page.wait_for_function("(t) => window.psl.source === t", arg=source, timeout=10_000)
    page.wait_for_function("(n) => window.psl.state.compileSeq > n", arg=before,
                           timeout=10_000)
    compiled(page)


NAMES = ["zoom", "center_x", "center_y", "steps"]


def drag(page: Any, selector: str, to: float) -> None:
    """Drag a range input's thumb from where it is to `to` (0..1) of its track."""
    box = page.locator(selector).bounding_box()
    assert box is not None
    at = page.evaluate("(sel) => { const e = document.querySelector(sel); "
                       "return (e.value - e.min) / (e.max - e.min); }", selector)
    y = box["y"] + box["height"] / 2
    inner = box["width"] - 16  # the thumb's centre travels the track less a thumb width
    page.mouse.move(box["x"] + 8 + inner * at, y)
    page.mouse.down()
    page.mouse.move(box["x"] + 8 + inner * to, y, steps=2)
    page.mouse.up()


def test_a_slider_program_shows_sliders_and_moving_one_changes_the_canvas(page: Any) -> None:
    load_example(page, "sliders_mandelbrot_zoom", MANDELBROT)
    assert page.locator("#sliders").is_visible()
    rows = page.locator("#slider-list .slider")
    assert rows.count() == 4
    assert [rows.nth(k).locator("label").inner_text() for k in range(4)] == NAMES
    assert rows.nth(0).inner_text().split() == ["zoom", "1", "1..400"]
    assert rows.nth(2).inner_text().split() == ["center_y", "0", "-1.2..1.2"]
    assert values(page) == [1, -0.75, 0, 24]
    assert_like_python(page, MANDELBROT, [1, -0.75, 0, 24], NAMES)
    shown, drawn = canvas(page), frame(page)

    # the pointer: drag center_x's thumb most of the way right
    drag(page, "#slider-1", 0.85)
    center = values(page)[1]
    assert 0.2 < center < 0.8, center
    assert page.locator("#slider-value-1").inner_text() == \
        page.evaluate("(v) => String(Number(Number(v.toFixed(4)).toPrecision(7)))", center)
    assert np.abs(np.nan_to_num(frame(page)) - np.nan_to_num(drawn)).max() > 0.1
    assert (canvas(page) != shown).any(axis=-1).mean() > 0.05  # the canvas changed
    assert_like_python(page, MANDELBROT, [1, center, 0, 24], NAMES)

    # the keys: Home moves steps to its low end, Right one hundredth of its range up
    page.locator("#slider-3").focus()
    page.keyboard.press("Home")
    assert values(page)[3] == 8
    page.keyboard.press("ArrowRight")
    got = values(page)
    assert got[3] == pytest.approx(8 + 52 / 100)
    assert page.locator("#slider-value-3").inner_text() == "8.52"
    assert_like_python(page, MANDELBROT, got, NAMES)


def test_values_stay_for_the_same_table_and_reset_for_another(page: Any) -> None:
    set_and_compile(page, CHEAP)
    page.evaluate("window.psl.setSlider(0, 0.75)")
    page.evaluate("window.psl.setSlider(3, 0.5)")
    # an edit elsewhere: the same table, the player's values
    set_and_compile(page, CHEAP + "// a note\n")
    assert values(page) == [0.75, 4, 0, 0.5]
    assert_like_python(page, CHEAP, [0.75, 4, 0, 0.5], CHEAP_NAMES)
    # a changed slider line: every slider back to its default
    set_and_compile(page, CHEAP.replace("0..1 = 0.25", "0..1 = 0.5"))
    assert values(page) == [0.5, 4, 0, 0]
    # a program without sliders: none shown, slider() reads 0
    set_and_compile(page, "float3(slider(0) + 0.5, 0, 0)\n")
    assert page.locator("#sliders").is_hidden()
    assert frame(page)[0, 0, 0] == pytest.approx(0.5)
    # a program with errors keeps the running program's sliders
    set_and_compile(page, CHEAP)
    page.evaluate("window.psl.setSlider(1, 10)")
    page.evaluate("(s) => window.psl.setSource(s)", CHEAP + "sin(1, 2)\n")
    page.evaluate("window.psl.compileNow()")
    assert page.locator("#slider-list .slider").count() == 4 and values(page)[1] == 10
    # Defaults puts them back
    page.locator("#slider-defaults").click()
    assert values(page) == CHEAP_DEFAULTS
    assert_like_python(page, CHEAP, CHEAP_DEFAULTS, CHEAP_NAMES)


def test_the_raymarch_example_has_its_sliders(page: Any) -> None:
    load_example(page, "sliders_raymarch_light", LIGHT)
    labels = page.locator("#slider-list label").all_inner_texts()
    assert labels == ["light_angle", "light_height", "shine", "blend"]
    assert values(page) == pytest.approx([0.8, 0.5, 16, 0.05])


def test_share_links_carry_the_values(page: Any, browser: Any) -> None:
    set_and_compile(page, CHEAP)
    page.evaluate("window.psl.setSlider(0, 0.7)")
    page.evaluate("window.psl.setSlider(2, -1.25)")
    want = values(page)
    drawn = frame(page)
    page.locator("#share").click()
    page.wait_for_selector("#share-box:not([hidden])")
    url = page.locator("#share-url").input_value()
    assert url.endswith("&s=0.7,4,-1.25,0")
    other, errors = open_page(browser, url.replace("/#", "/?test=1#"))
    try:
        compiled(other)
        assert other.evaluate("window.psl.source") == CHEAP
        assert values(other) == want
        np.testing.assert_array_equal(frame(other), drawn)
        # a second link to the same program sets the values it gives, keeps the others
        other.evaluate("(h) => { location.hash = h; }",
                       _fragment(CHEAP) + "&s=0.1,,junk,1")
        other.wait_for_function("window.psl.sliderValues[3] === 1", timeout=10_000)
        assert values(other) == pytest.approx([0.1, 4, -1.25, 1])
    finally:
        other.close()
    assert not errors


def _fragment(text: str) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return "#p=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


# (red 0..1 = 0.25, wave 1..20 = 4, shift -1.5..1.5 = 0, blue 0..1 = 0)
@pytest.mark.parametrize("part, want", [
    # out of range: clamped; junk, NaN, infinities, hex, empty: the default; past the
    # table: ignored
    ("&s=1e999,abc,-5,,NaN,Infinity,0x10,99", [0.25, 4, -1.5, 0]),
    ("&s=%30.5,%ZZ,1e-7,0.999999&x=&s=2", [0.5, 4, 1e-7, 0.999999]),
    ("&s=" + ",".join(["3"] * 10_000) + "&s=" + "9" * 5000, [1, 3, 1.5, 1]),
    ("&s=<script>alert(1)</script>," + "9" * 5000 + ",-0", [0.25, 4, 0, 0]),
])
def test_hostile_slider_values_in_links_are_clamped_or_ignored(
        browser: Any, server: Any, part: str, want: list[float]) -> None:
    p, errors = open_page(browser, server.url + "?test=1" + _fragment(CHEAP) + part)
    try:
        compiled(p)
        assert p.evaluate("window.psl.source") == CHEAP
        assert values(p) == [float(np.float32(w)) for w in want]
        assert p.locator("#share-note").is_hidden()  # a bad value is no error
        assert_like_python(p, CHEAP, values(p), CHEAP_NAMES)
    finally:
        p.close()
    assert not errors


def test_for_vrchat_starts_the_worlds_sliders_at_the_values(page: Any) -> None:
    set_and_compile(page, CHEAP)
    page.locator("#slider-defaults").click()  # (the same table keeps earlier tests' values)
    page.evaluate("window.psl.setSlider(1, 12.5)")
    page.evaluate("window.psl.setSlider(3, 1)")
    page.locator("#vrchat").click()
    page.wait_for_selector("#vrchat-view:not([hidden])")
    page.wait_for_function("document.getElementById('vrchat-checks').children.length > 0")
    note = page.locator("#vrchat-sliders").inner_text()
    assert "wave = 12.5" in note and "blue = 1" in note and "red = 0.25" in note
    with page.expect_download() as info:
        page.locator("#vrchat-download").click()
    text = Path(info.value.path()).read_text("utf-8")
    assert text == CHEAP.replace("1..20 = 4", "1..20 = 12.5").replace(
        "blue 0..1", "blue 0..1 = 1")
    # moving a slider while the view is open updates its note
    page.evaluate("window.psl.setSlider(0, 0.5)")
    page.wait_for_function("document.getElementById('vrchat-sliders').textContent"
                           ".includes('red = 0.5')")
    page.locator("#vrchat-close").click()


def test_native_mode_reads_the_sliders(page: Any) -> None:
    """psl export makes each named slider a uniform of its own; the page sets them from the
    compile reply's names (a slider named like a GLSL word is renamed: `float` -> float_)."""
    source = CHEAP.replace("blue", "float")
    names = ["red", "wave", "shift", "float"]
    page.evaluate("window.psl.setNative(true)")
    try:
        set_and_compile(page, source)
        assert page.evaluate("window.psl.native"), page.locator("#status").inner_text()
        page.evaluate("window.psl.setSliders([0.9, 12, -1, 0.75])")
        assert values(page) == [float(np.float32(v)) for v in (0.9, 12, -1, 0.75)]
        assert_like_python(page, source, values(page), names)
    finally:
        page.evaluate("window.psl.setNative(false)")
