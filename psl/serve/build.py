"""Compile replies for the page: diagnostics with positions, and the program's slots.

JSON has no NaN and the slots hold padding NaNs (SPEC §4), so the slots travel as base64
of the float32 little-endian bytes, exactly what `psl compile --pad` writes.
"""

from __future__ import annotations

import base64
from dataclasses import replace
from functools import lru_cache

from psl.compiler import CompileResult, check_source
from psl.registry import DEFAULT_OPTIMIZE_LEVEL, LIMITS
from psl.syntax.sliders import SliderTable


def compile_reply(source: str, native: bool = False,
                  optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> dict[str, object]:
    """Diagnostics and slots (at optimization level `optimize`, SPEC §10); with `native`,
    also the program exported as a GLSL fragment shader (psl export --target glsl), or why
    it cannot be exported."""
    result = check_source(source, optimize=optimize)
    reply: dict[str, object] = {
        "ok": result.program is not None,
        "diagnostics": [d.as_dict() for d in result.diagnostics],
        "texture": None,
        # the table of the `//@slider` lines (docs/spec.md §8.8): the page's sliders
        "sliders": slider_table(result.sliders),
    }
    if result.program is not None:
        # The program texture's rows the program uses (the rest are zero): the start of
        # what `psl compile --format texture` writes.
        row = 4 * 4 * LIMITS.texture_width
        rows = max(1, -(-2 * len(result.program.instructions) // LIMITS.texture_width))
        data = result.program.texture_bytes()[: rows * row]
        reply["texture"] = base64.b64encode(data).decode("ascii")
        reply["texture_width"] = LIMITS.texture_width
        reply["instructions"] = len(result.program.instructions)
        reply["registers"] = result.program.registers
        if native:  # psl export reads the -O0 code (its inference is that code's)
            reply["native"] = native_reply(
                result if result.unoptimized is None else
                replace(result, program=result.unoptimized, unoptimized=None))
    return reply


def slider_table(table: SliderTable) -> list[dict[str, object]]:
    """The sliders as the page shows them, in index order (psl.syntax.sliders reads the
    lines: the page has no parser of its own)."""
    return [{"index": s.index, "name": s.name, "low": s.low, "high": s.high,
             "default": s.default, "line": s.span.line} for s in table.sliders]


def native_reply(result: CompileResult) -> dict[str, object]:
    from psl.export import ExportError, Options, write_text
    from psl.export.ir import build
    from psl.export.sliders import parameters

    try:  # with the exact path: the playground shows the VM's pixels, NaN ones included
        program = build(result)  # once: the text and the slider uniforms' names read it
        reply: dict[str, object] = {"fragment": write_text(program, "glsl", Options(exact=True))}
        if result.sliders.sliders:
            # slider index (as text) -> the export's uniform for it (psl export makes each
            # named slider a uniform of its own, docs/export.md)
            reply["sliders"] = {str(p.index): p.name for p in parameters(program)}
        return reply
    except ExportError as exc:
        return {"error": str(exc)}


@lru_cache(maxsize=1)
def reference_settings() -> dict[str, object]:
    """SPEC §9's settings for the page's test mode, from the reference VM's own tables, the
    camera and video textures as base64 float32 [row][column][RGBA] (row 0 = smallest v)."""
    from psl.vm import samples

    def b64(array) -> str:
        return base64.b64encode(array.astype("<f4").tobytes()).decode("ascii")

    return {
        "width": samples.REFERENCE_WIDTH, "height": samples.REFERENCE_HEIGHT,
        "time": samples.REFERENCE_TIME, "fps": samples.REFERENCE_FPS,
        "button": list(samples.REFERENCE_BUTTON), "axis": list(samples.REFERENCE_AXIS),
        "self_frames": 8, "max_jumps": LIMITS.jumps,
        "camera": {"width": samples.REFERENCE_WIDTH, "height": samples.REFERENCE_HEIGHT,
                   "data": b64(samples.reference_camera())},
        "video": {"width": samples.REFERENCE_WIDTH, "height": samples.REFERENCE_HEIGHT,
                  "data": b64(samples.reference_video())},
        "relief": relief_settings(),
    }


def relief_settings() -> dict[str, object]:
    """The 3D view's grids, height scale, camera and light: the world's (psl.registry.RELIEF)
    and `psl run --relief`'s (psl.vm.relief), so all three show the same relief."""
    from dataclasses import asdict

    from psl.registry import RELIEF
    from psl.vm import relief

    return {
        "resolutions": list(RELIEF.resolutions),
        "height_scale": RELIEF.height_scale,
        "max_displacement": RELIEF.max_displacement,
        "view": asdict(relief.VIEW),
        "light": list(relief.LIGHT_DIR),
        "ambient": relief.AMBIENT,
        "background": list(relief.BACKGROUND),
    }
