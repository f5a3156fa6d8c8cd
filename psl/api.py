"""Python API: `psl.run(...)` renders a PSL program with the reference VM, like `psl run`;
`program_stats(...)` gives the numbers of `psl check --stats`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, overload

import numpy as np

from psl.bytecode import Program, unfuse
from psl.registry import DEFAULT_OPTIMIZE_LEVEL, LIMITS, SLIDERS
from psl.syntax.sliders import SliderTable, parse_sliders
from psl.vm.images import load_texture
from psl.vm.machine import Stats
from psl.vm.render import RenderSettings, render
from psl.vm.samples import PixelCount, Sampled, reference_inputs, run_samples

Texture = np.ndarray | str | Path | None
#: slider values for `run`: {name or index: value} over the program's defaults, or all
#: SLIDERS.count values
Sliders = Mapping[str | int, float] | Sequence[float] | None


def slider_values(source_or_program: object, sliders: Sliders = None) -> tuple[float, ...]:
    """The SLIDERS.count values `run` gives the VM: the defaults of source text's
    `//@slider` lines (zeros for a compiled program), then `sliders`: a mapping sets a named
    slider (by name or index) clamped into its range, as the world does, and an index no
    line names to the value as given; a sequence gives every value."""
    table = parse_sliders(source_or_program) if isinstance(source_or_program, str) else \
        SliderTable((), ())
    if sliders is not None and not isinstance(sliders, Mapping):
        values = tuple(float(np.float32(x)) for x in sliders)
        if len(values) != SLIDERS.count:
            raise ValueError(f"sliders takes {SLIDERS.count} numbers or a mapping")
        return values
    named: dict[str, float] = {}
    raw: dict[int, float] = {}
    for key, x in (sliders or {}).items():
        s = table.by_name(str(key))
        if s is None and str(key).isascii() and str(key).isdigit():
            if int(key) >= SLIDERS.count:
                raise ValueError(f"there is no slider {key}: a screen has {SLIDERS.count} "
                                 f"(0-{SLIDERS.count - 1})")
            s = table.by_index(int(key))
            if s is None:
                raw[int(key)] = float(np.float32(x))
                continue
        if s is None:
            names = ", ".join(f"{t.index} {t.name}" for t in table.sliders)
            raise ValueError(f"'{key}' is no slider of the program; " + (
                f"its sliders are: {names}" if names else
                f"it names none (`//@slider` lines), give an index 0-{SLIDERS.count - 1}"))
        named[s.name] = float(x)
    values = list(table.values(named))
    for index, x in raw.items():
        values[index] = x
    return tuple(values)


def program_slots(source_or_program: object,
                  optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> np.ndarray:
    """Slots of PSL source text (compiled at optimization level `optimize`, SPEC §10, §11), a
    compiled `Program`, or slots already (float32 [n][4]).

    Source with errors raises `psl.diagnostics.PslError` carrying the diagnostics.
    """
    if isinstance(source_or_program, str):
        from psl.compiler import compile_source

        return compile_source(source_or_program, lint=False,
                              optimize=optimize).unwrap().slots()
    if isinstance(source_or_program, np.ndarray):
        return np.asarray(source_or_program, np.float32).reshape(-1, 4)
    slots = getattr(source_or_program, "slots", None)
    if callable(slots):
        return np.asarray(slots(), np.float32)
    raise TypeError("expected PSL source text, a compiled Program or a slot array")


def _texture(t: Texture, flip: bool = True) -> np.ndarray | None:
    if t is None:
        return None
    if isinstance(t, (str, Path)):
        return load_texture(t, flip=flip)
    arr = np.asarray(t, np.float32)
    if arr.ndim != 3 or arr.shape[2] != 4:
        raise ValueError(f"a texture is float32 [H][W][4], got shape {arr.shape}")
    return arr


@overload
def run(source_or_program: object, *, size: tuple[int, int] = ..., time: float = ...,
        frames: int = ..., fps: float = ..., camera: Texture = ..., video: Texture = ...,
        is_avpro: bool = ..., audiolink: Texture = ...,
        button: tuple[float, float, float, float] = ...,
        axis: tuple[float, float, float, float] = ..., sliders: Sliders = ...,
        max_jumps: int = ..., max_steps: int = ...,
        stats: Literal[False] = ...) -> np.ndarray: ...


@overload
def run(source_or_program: object, *, size: tuple[int, int] = ..., time: float = ...,
        frames: int = ..., fps: float = ..., camera: Texture = ..., video: Texture = ...,
        is_avpro: bool = ..., audiolink: Texture = ...,
        button: tuple[float, float, float, float] = ...,
        axis: tuple[float, float, float, float] = ..., sliders: Sliders = ...,
        max_jumps: int = ..., max_steps: int = ...,
        stats: Literal[True]) -> tuple[np.ndarray, Stats]: ...


def run(source_or_program: object, *, size: tuple[int, int] = (64, 64), time: float = 0.0,
        frames: int = 1, fps: float = 60.0, camera: Texture = None, video: Texture = None,
        is_avpro: bool = False, audiolink: Texture = None,
        button: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
        axis: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
        sliders: Sliders = None, max_jumps: int = LIMITS.jumps,
        max_steps: int = LIMITS.steps, stats: bool = False,
        optimize: int = DEFAULT_OPTIMIZE_LEVEL):
    """Render `frames` frames of a program at `size` = (width, height) and return the last
    one as float32 [H][W][4] (row 0 = smallest v, NaN lanes already zeroed).

    Frame k runs at `time + k / fps` and reads frame k-1 through `self()`. Textures are
    arrays [H][W][4] (row 0 = smallest v) or image paths (PNG/JPEG, or .npy); the AudioLink
    texture is indexed by AudioLink's (column, row). `sliders`: see `slider_values` (the
    program's `//@slider` defaults when not given). With `stats=True` returns
    `(image, Stats)` where the statistics are those of the last frame. Source text is
    compiled at optimization level `optimize` (0, 1 or 2: SPEC §10, §11; by default
    registry.DEFAULT_OPTIMIZE_LEVEL, 2).
    """
    slots = program_slots(source_or_program, optimize)
    width, height = size
    settings = RenderSettings(
        width=int(width), height=int(height), time=float(time), frames=int(frames),
        fps=float(fps), button=tuple(float(x) for x in button),  # type: ignore[arg-type]
        axis=tuple(float(x) for x in axis),  # type: ignore[arg-type]
        camera=_texture(camera), video=_texture(video), is_avpro=bool(is_avpro),
        audiolink=_texture(audiolink, flip=False),
        sliders=slider_values(source_or_program, sliders), max_jumps=int(max_jumps),
        max_steps=int(max_steps))
    if len(settings.button) != 4 or len(settings.axis) != 4:
        raise ValueError("button and axis take four numbers")
    out = render(slots, settings, keep_frames=False)
    if stats:
        return out.last, out.stats[-1]
    return out.last


# ---------------------------------------------------------------------- psl check --stats

@dataclass(frozen=True)
class ProgramStats:
    """A compiled program's static numbers against the VM's limits (`LIMITS`), and what the
    reference VM executed on a few sample pixels (`psl.vm.samples`)."""

    instructions: int  # static instructions, as `psl compile` counts them
    registers: int
    #: deepest operand stack over every path of the control-flow graph; None when a loop
    #: deepens it without bound (psl.compiler.stats)
    max_stack: int | None
    sampled: Sampled
    #: the same numbers for the -O0 code, when the program was optimized (SPEC §10)
    unoptimized: ProgramStats | None = None

    def _over_pixels(self, count: str) -> tuple[int, int]:
        counts = [getattr(p, count) for p in self.sampled.pixels]
        return min(counts), max(counts)

    @property
    def executed(self) -> tuple[int, int]:
        """(min, max) executed instructions over the sample pixels."""
        return self._over_pixels("instructions")

    @property
    def dispatched(self) -> tuple[int, int]:
        """(min, max) dispatched instructions (a fused one once, SPEC §11)."""
        return self._over_pixels("dispatched")

    @property
    def memory_ops(self) -> tuple[int, int]:
        """(min, max) stack and register memory operations (SPEC §11.4)."""
        return self._over_pixels("memory_ops")

    @property
    def jumps(self) -> tuple[int, int]:
        """(min, max) taken jumps over the sample pixels."""
        return self._over_pixels("jumps")

    @property
    def uniform(self) -> bool:
        """Every sample pixel executed the same number of instructions and jumps."""
        return self.executed[0] == self.executed[1] and self.jumps[0] == self.jumps[1]

    @property
    def cut_off(self) -> tuple[PixelCount, ...]:
        """Sample pixels the jump limit stopped."""
        return tuple(p for p in self.sampled.pixels if p.hit_jump_limit)

    @property
    def spent(self) -> tuple[PixelCount, ...]:
        """Sample pixels the work budget stopped."""
        return tuple(p for p in self.sampled.pixels if p.hit_work_budget)

    def as_dict(self) -> dict[str, object]:
        s = self.sampled
        extra: dict[str, object] = {}
        if self.unoptimized is not None:
            extra["unoptimized"] = self.unoptimized.as_dict()
        return {
            "instructions": {"count": self.instructions, "limit": LIMITS.instructions},
            "registers": {"count": self.registers, "limit": LIMITS.registers},
            "stack": {"deepest": self.max_stack, "unbounded": self.max_stack is None,
                      "limit": LIMITS.stack, "deepest_sampled": s.max_stack},
            "executed": {
                "instructions_min": self.executed[0], "instructions_max": self.executed[1],
                "jumps_min": self.jumps[0], "jumps_max": self.jumps[1],
                "dispatched_min": self.dispatched[0], "dispatched_max": self.dispatched[1],
                "memory_ops_min": self.memory_ops[0], "memory_ops_max": self.memory_ops[1],
                "uniform": self.uniform, "jump_limit": s.max_jumps,
                "pixels_hit_jump_limit": len(self.cut_off),
                "work_budget": s.max_steps, "pixels_hit_work_budget": len(self.spent),
                "frame": {"width": s.width, "height": s.height, "time": s.time},
                "samples": [{"x": p.x, "y": p.y, "u": p.u, "v": p.v,
                             "instructions": p.instructions, "dispatched": p.dispatched,
                             "memory_ops": p.memory_ops, "jumps": p.jumps,
                             "hit_jump_limit": p.hit_jump_limit,
                             "hit_work_budget": p.hit_work_budget} for p in s.pixels],
            },
            **extra,
        }


def program_stats(source_or_program: str | Program, *, max_jumps: int = LIMITS.jumps,
                  pixels: Sequence[tuple[int, int]] | None = None,
                  optimize: int = DEFAULT_OPTIMIZE_LEVEL,
                  unoptimized: Program | None = None,
                  sliders: Sequence[float] | None = None) -> ProgramStats:
    """The numbers of `psl check --stats` for PSL source text or a compiled `Program`.

    The executed counts come from frame 0 of the reference settings (SPEC §9, 64 x 64) at
    `pixels` (x, y), by default the four corners and the centre, with slider(k) reading
    `sliders[k]` (default: source text's `//@slider` defaults; a Program's: zeros). Source
    is compiled at level `optimize` (SPEC §10); the -O0 code's numbers then come along as
    `unoptimized` (for a compiled Program, pass its -O0 code as `unoptimized` to get them).
    Source with errors raises `psl.diagnostics.PslError` carrying the diagnostics.
    """
    from psl.compiler import compile_source
    from psl.compiler.stats import static_stats

    if isinstance(source_or_program, str):
        result = compile_source(source_or_program, optimize=optimize)
        program = result.unwrap()
        unoptimized = result.unoptimized
        if sliders is None:
            sliders = result.sliders.values()  # the program's defaults
    else:
        program = source_or_program
    before = None if unoptimized is None else \
        program_stats(unoptimized, max_jumps=max_jumps, pixels=pixels, sliders=sliders)
    static = static_stats(unfuse(program))  # fused code has the stack of what it fuses
    sampled = run_samples(program.slots(), pixels=pixels, inputs=reference_inputs(sliders),
                          max_jumps=max_jumps)
    return ProgramStats(len(program.instructions), static.registers, static.max_stack, sampled,
                        before)
