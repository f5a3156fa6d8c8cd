"""Take docs/playground.png: the page with a corpus program, rendered once at 128 × 128.

    python -m tests.serve_support.screenshot [PROGRAM.psl] [OUT.png] [3d]

With `3d`, the 3D view (shaded) instead: docs/playground_3d.png is
`... tests/corpus/scene_fbm.psl docs/playground_3d.png 3d`.

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


def main(program: Path, out: Path, view3d: bool = False) -> None:
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
            # the GPU works asynchronously: reading the frame back waits until it is drawn
            page.evaluate("window.psl.readPixels('color').length")
            page.screenshot(path=str(out), timeout=600_000)
            browser.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    main(Path(args[0]) if args else ROOT / "tests/corpus/scene_raymarch.psl",
         Path(args[1]) if len(args) > 1 else ROOT / "docs/playground.png",
         len(args) > 2 and args[2] == "3d")
