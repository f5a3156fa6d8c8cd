"""Take docs/playground.png: the page with a corpus program, rendered once at 128 × 128;
with --vrchat, docs/playground-vrchat.png: the same page with its "for VRChat" view open
and a gist page URL in its URL check.

    python -m tests.serve_support.screenshot [--vrchat | --3d | --sliders] [PROGRAM.psl] [OUT.png]

With --3d, the 3D view (shaded) instead: docs/playground_3d.png is
`... --3d tests/corpus/scene_fbm.psl docs/playground_3d.png`. With --sliders,
docs/playground-sliders.png: the Mandelbrot slider example with its sliders moved
(SLIDER_VALUES).

Paused on purpose: on SwiftShader one frame of scene_raymarch takes many seconds.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from tests.browser_support.browser import CHROMIUM_ARGS, chromium_path
from tests.serve_support.server import ServerThread

ROOT = Path(__file__).resolve().parents[2]


#: what the --vrchat screenshot types into the URL check (a gist's page, not its raw URL)
GIST_PAGE = "https://gist.github.com/someone/0123456789abcdef0123456789abcdef"
SLIDER_PROGRAM = ROOT / "unity_package/Examples/sliders_mandelbrot_zoom.psl"
#: what the --sliders screenshot sets (by slider index): zoom, centre x and y, steps
SLIDER_VALUES = [3.0, -0.1, 0.85, 48.0]


def main(program: Path, out: Path, vrchat: bool = False,
         view3d: bool = False, sliders: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / program.name
        shutil.copy(program, copy)
        with ServerThread(copy) as srv, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                         args=list(CHROMIUM_ARGS))
            page = browser.new_page(viewport={"width": 1180, "height": 760})
            page.goto(srv.url + "?res=128&paused=1" + ("&view=3d" if view3d else ""))
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=600_000)
            page.wait_for_function("window.psl.state.frames > 0", timeout=600_000)
            if view3d:
                page.evaluate("window.psl.setView3d(true, {shaded: true})")
            if sliders:
                page.evaluate("(v) => window.psl.setSliders(v)", SLIDER_VALUES)
            # the GPU works asynchronously: reading the frame back waits until it is drawn
            page.evaluate("window.psl.readPixels('color').length")
            if vrchat:
                page.locator("#vrchat").click()
                page.locator("#vrchat-url").fill(GIST_PAGE)
                page.wait_for_selector("#vrchat-url-check code")
            page.screenshot(path=str(out), timeout=600_000)
            browser.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    vrchat, view3d, sliders = "--vrchat" in args, "--3d" in args, "--sliders" in args
    args = [a for a in args if a not in ("--vrchat", "--3d", "--sliders")]
    default_out = ("docs/playground-vrchat.png" if vrchat else
                   "docs/playground-sliders.png" if sliders else "docs/playground.png")
    default_program = SLIDER_PROGRAM if sliders else ROOT / "tests/corpus/scene_raymarch.psl"
    main(Path(args[0]) if args else default_program,
         Path(args[1]) if len(args) > 1 else ROOT / default_out, vrchat, view3d, sliders)
