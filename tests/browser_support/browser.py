"""Headless Chromium (Debian's, on SwiftShader) driven by Playwright, running the generated
GLSL VM through psl/web/static/render.js and harness.html.

No web server: the page's requests to http://psl.test/ are fulfilled from psl/web/static
and from the shader text in memory (page.route). Programs, textures and frames cross the
Playwright bridge as base64 of the float32 bytes, so NaN lanes keep their bits.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from psl import registry
from psl.bytecode import to_texture
from psl.gen import glsl
from psl.vm.inputs import Inputs

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "psl" / "web" / "static"
ORIGIN = "http://psl.test"
#: Chromium switches: WebGL2 through ANGLE on SwiftShader (Vulkan), which has
#: EXT_color_buffer_float; no network or background services.
CHROMIUM_ARGS = (
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--mute-audio",
)
TEXTURES = ("camera", "video", "audiolink")


def chromium_path() -> str | None:
    """The browser to drive: $PSL_CHROMIUM, else `chromium` on PATH (Debian's package)."""
    env = os.environ.get("PSL_CHROMIUM")
    if env:
        return env
    return shutil.which("chromium") or shutil.which("chromium-browser")


def unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]'; tests/run.sh does)"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install chromium; tests/run.sh does)"
    return None


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a, np.float32).tobytes()).decode("ascii")


def _floats(text: str, height: int, width: int) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), np.float32).reshape(height, width, 4).copy()


@dataclass
class BrowserRender:
    image: np.ndarray  # float32 [height][width][4], row 0 = smallest v
    executed: np.ndarray | None = None  # [height][width] executed instructions (cost mode)
    jumps: np.ndarray | None = None  # [height][width] taken jumps (cost mode)
    hit: np.ndarray | None = None  # [height][width] bool: stopped at the jump limit
    spent: np.ndarray | None = None  # [height][width] bool: stopped at the work budget


def frame_inputs(inputs: Inputs) -> dict[str, Any]:
    """The uniforms of one frame as render.js's setInputs takes them."""
    return {"time": float(inputs.time), "deltaTime": float(inputs.delta_time),
            "button": [float(x) for x in inputs.button], "axis": [float(x) for x in inputs.axis],
            "width": int(inputs.width), "height": int(inputs.height),
            "isAvpro": bool(inputs.is_avpro),
            # the values render.js uploads to the VM's slider array (registry.SLIDERS.uniform)
            "sliders": [float(x) for x in inputs.slider_values()]}


class BrowserVM:
    """One Chromium, one page, one compiled VM shader; programs are textures, so one page
    serves every program of a test session."""

    def __init__(self, max_jumps: int = registry.LIMITS.jumps) -> None:
        from playwright.sync_api import sync_playwright

        path = chromium_path()
        if path is None:
            raise RuntimeError(unavailable_reason())
        self._pw = sync_playwright().start()
        try:
            self._browser = self._pw.chromium.launch(executable_path=path, headless=True,
                                                     args=list(CHROMIUM_ARGS))
            self.page = self._browser.new_page()
            self.page.on("console", self._log_console)
            self.page.route(f"{ORIGIN}/**", self._serve)
            self._shaders: dict[str, str] = {}
            self.page.goto(f"{ORIGIN}/harness.html")
            self.page.wait_for_function("window.pslHarnessReady === true")
            self.console: list[str] = []
            self.renderer = ""
            self.max_jumps = -1
            self.max_steps = registry.LIMITS.steps
            self._texture_keys: dict[str, str | None] = {}
            self.load_shader(max_jumps)
        except BaseException:
            self.close()
            raise

    def _log_console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.console.append(message.text)

    def _serve(self, route: Any) -> None:
        name = route.request.url[len(ORIGIN) + 1:].split("?")[0]
        path = STATIC / name
        if name and "/" not in name and path.is_file():
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if name.endswith(".js"):
                kind = "text/javascript"
            route.fulfill(body=path.read_bytes(), content_type=kind)
        else:
            route.fulfill(status=404, body="not found")

    def load_shader(self, max_jumps: int = registry.LIMITS.jumps,
                    max_steps: int = registry.LIMITS.steps) -> float:
        """Generate vm.frag / vm.vert with psl-gen's library function and compile them in
        the page (a no-op when already loaded); returns the seconds it took."""
        if max_jumps == self.max_jumps and max_steps == self.max_steps:
            return 0.0
        files = glsl.TARGET.render(max_jumps=max_jumps, max_steps=max_steps)
        start = time.perf_counter()
        self.renderer = self.page.evaluate(
            "([frag, vert]) => window.pslHarness.init(frag, vert)",
            [files["vm.frag"], files["vm.vert"]])
        self.max_jumps = max_jumps
        self.max_steps = max_steps
        self._texture_keys = {}
        return time.perf_counter() - start

    def _set_textures(self, inputs: Inputs) -> None:
        for name in TEXTURES:
            tex = getattr(inputs, name)
            key = None if tex is None else hashlib.sha1(
                np.ascontiguousarray(tex, np.float32).tobytes()).hexdigest() + str(tex.shape)
            if name in self._texture_keys and self._texture_keys[name] == key:
                continue
            payload = None if tex is None else {
                "width": int(tex.shape[1]), "height": int(tex.shape[0]), "data": _b64(tex)}
            self.page.evaluate("([name, tex]) => window.pslHarness.setTexture(name, tex)",
                               [name, payload])
            self._texture_keys[name] = key

    def render_frames(self, slots: np.ndarray, frames: list[Inputs], mode: str = "color",
                      last: bool = False) -> list[BrowserRender]:
        """Run frames from a zero self() texture, each frame's output feeding the next.
        Textures come from the first frame's Inputs; `self_texture` is ignored. The
        program reaches the VM as the program texture of `slots` (`bytecode.to_texture`)."""
        first = frames[0]
        for f in frames:
            if (f.width, f.height) != (first.width, first.height):
                raise ValueError("all frames of one run have one size")
        self._set_textures(first)
        program = to_texture(slots)
        got = self.page.evaluate("(job) => window.pslHarness.run(job)", {
            "program": _b64(program), "width": first.width, "height": first.height,
            "frames": [frame_inputs(f) for f in frames], "mode": mode, "last": last})
        out = []
        h, w = first.height, first.width
        for item in got:
            r = BrowserRender(_floats(item["color"], h, w))
            if "cost" in item:
                cost = _floats(item["cost"], h, w)
                r.executed = cost[..., 0].astype(np.int64)
                r.jumps = cost[..., 1].astype(np.int64)
                r.hit = cost[..., 2] > 0.5
                r.spent = cost[..., 3] > 1.5
            out.append(r)
        return out

    def render(self, slots: np.ndarray, inputs: Inputs, mode: str = "color") -> BrowserRender:
        return self.render_frames(slots, [inputs], mode)[0]

    def benchmark(self, slots: np.ndarray, inputs: Inputs, count: int) -> dict[str, float]:
        """Frames per second of the colour pass at inputs' size (render.js, no readback)."""
        self._set_textures(inputs)
        program = to_texture(slots)
        return self.page.evaluate("(job) => window.pslHarness.benchmark(job)", {
            "program": _b64(program), "width": inputs.width, "height": inputs.height,
            "inputs": frame_inputs(inputs), "count": count})

    def present(self) -> tuple[np.ndarray, int]:
        """render.js's present(): the canvas as uint8 [height][width][4] (row 0 = bottom
        row) and the WebGL error code after drawing (0: none)."""
        got = self.page.evaluate("() => window.pslHarness.present()")
        pixels = np.array(got["pixels"], np.uint8).reshape(got["height"], got["width"], 4)
        return pixels, int(got["error"])

    def close(self) -> None:
        browser = getattr(self, "_browser", None)
        if browser is not None:
            browser.close()
        self._pw.stop()
