"""Take docs/playground.png: `psl serve` on a corpus program (the page's default -O level,
so the status line shows the instruction count players get), in headless Chromium.

    PYTHONPATH=. python scripts/screenshot_playground.py [PROGRAM] [--out docs/playground.png]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser_support.browser import CHROMIUM_ARGS, chromium_path
from tests.serve_support.server import ServerThread

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("program", nargs="?", default=str(ROOT / "tests/corpus/scene_raymarch.psl"))
    ap.add_argument("--out", default=str(ROOT / "docs" / "playground.png"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / Path(args.program).name
        shutil.copy(args.program, program)
        with ServerThread(program) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                         args=list(CHROMIUM_ARGS))
            page = browser.new_page(viewport={"width": 1180, "height": 760})
            page.goto(server.url + "?paused=1")
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=120_000)
            page.wait_for_function("document.getElementById('status').textContent"
                                   ".startsWith('ok')", timeout=60_000)
            page.wait_for_timeout(1500)
            page.screenshot(path=args.out)
            print(page.locator("#status").inner_text())
            browser.close()


if __name__ == "__main__":
    main()
