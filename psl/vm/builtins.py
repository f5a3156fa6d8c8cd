"""Builtin implementations, registered against `psl.registry.BUILTINS` by name and id.

Each implementation gets the arguments after the VM's masking (and padding when the
registry says `pad`), as float32 arrays `[L][m]` that share one lane count L (lanes past an
argument's own dimension are zero), the arguments' dimensions, and the frame context. It
returns lanes; the VM then shapes the result as the registry's `ResultDim` says (restore
for LARGEST, `dim` lanes for FIXED, four lanes for FULL). The swizzle (MASK) builds its own
value. `check_complete()` fails when the registry has a builtin without an implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from psl import registry
from psl.vm import audiolink as al
from psl.vm.inputs import Inputs
from psl.vm.sampling import sample_bilinear
from psl.vm.values import DIRTY, F32, LANE, NAN, V, canon

ZERO = np.zeros(1, F32)


@dataclass
class Ctx:
    """What builtins may read for the pixels of one group."""

    u: np.ndarray  # float32 [m]
    v: np.ndarray
    inputs: Inputs


Impl = Callable[[list, list, Ctx], np.ndarray]
IMPLS: dict[int, Impl] = {}


def impl(*names: str) -> Callable[[Impl], Impl]:
    def deco(fn: Impl) -> Impl:
        for name in names:
            b = registry.BUILTIN_BY_NAME[name]
            IMPLS[b.id] = fn
        return fn
    return deco


def check_complete() -> None:
    missing = [b.name for b in registry.BUILTINS if b.id not in IMPLS]
    if missing:
        raise AssertionError(f"builtins without a VM implementation: {', '.join(missing)}")
    stray = set(IMPLS) - set(registry.BUILTIN_BY_ID)
    if stray:
        raise AssertionError(f"VM implements ids the registry does not have: {sorted(stray)}")


def lane(a: np.ndarray, i: int) -> np.ndarray:
    return a[i] if i < a.shape[0] else ZERO


def to4(a: np.ndarray) -> np.ndarray:
    if a.shape[0] == 4:
        return a
    out = np.zeros((4, a.shape[1]), F32)
    out[: a.shape[0]] = a
    return out


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Four-lane dot product in lane order; missing lanes add +0 (turns -0 into +0)."""
    s = a[0] * b[0]
    for i in range(1, max(a.shape[0], b.shape[0])):
        s = s + lane(a, i) * lane(b, i)
    if max(a.shape[0], b.shape[0]) < 4:
        s = s + F32(0)
    return s[None]


def _length(a: np.ndarray) -> np.ndarray:
    return np.sqrt(_dot(a, a))


# ---- lanewise (ResultDim.LARGEST) -------------------------------------------------

def _lanewise(fn: Callable[..., np.ndarray]) -> Impl:
    return lambda args, dims, ctx: fn(*args)


def _rounded(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """fn evaluated in float64 and rounded to float32: the correctly rounded float32 result
    (nearly always), like C's sinf/expf/powf. numpy's own float32 kernels are off by an ulp
    in a sizeable fraction of inputs, which the goldens and the HLSL VM on CPU are not."""
    return lambda *a: fn(*(x.astype(np.float64) for x in a)).astype(F32)


for _name, _fn in {
    "log": np.log, "log2": np.log2, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "exp": np.exp, "exp2": np.exp2,
    "atan2": np.arctan2, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "log10": np.log10,
}.items():
    impl(_name)(_lanewise(_rounded(_fn)))

for _name, _fn in {
    "sqrt": np.sqrt, "abs": np.abs, "sign": np.sign, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc,
}.items():
    impl(_name)(_lanewise(_fn))  # exact in float32

impl("rsqrt")(_lanewise(lambda a: F32(1) / np.sqrt(a)))
impl("frac")(_lanewise(lambda a: a - np.floor(a)))
impl("pow")(_lanewise(_rounded(np.power)))
impl("mod")(_lanewise(lambda a, b: a - b * np.floor(a / b)))
impl("fmod")(_lanewise(lambda a, b: a - b * np.trunc(a / b)))
impl("saturate")(_lanewise(lambda a: np.fmin(np.fmax(a, F32(0)), F32(1))))
impl("radians")(_lanewise(lambda a: a * F32(registry.RADIANS_PER_DEGREE)))
impl("degrees")(_lanewise(lambda a: a * F32(registry.DEGREES_PER_RADIAN)))
impl("min")(_lanewise(np.fmin))
impl("max")(_lanewise(np.fmax))
impl("clamp")(_lanewise(lambda a, b, c: np.fmin(np.fmax(a, b), c)))
impl("lerp")(_lanewise(lambda a, b, c: a + (b - a) * c))
impl("step")(_lanewise(lambda a, b: (b >= a).astype(F32)))


@impl("smoothstep")
def _smoothstep(args, dims, ctx):
    a, b, c = args
    t = np.fmin(np.fmax((c - a) / (b - a), F32(0)), F32(1))
    return t * t * (F32(3) - F32(2) * t)


@impl("normalize")
def _normalize(args, dims, ctx):
    a = args[0]
    return a / _length(a)


@impl("reflect")
def _reflect(args, dims, ctx):
    a, b = args
    return a - F32(2) * _dot(a, b) * b


@impl("refract")
def _refract(args, dims, ctx):
    a, b, c = args
    eta = c[0][None]
    d = _dot(b, a)
    k = F32(1) - eta * eta * (F32(1) - d * d)
    with np.errstate(invalid="ignore"):
        t = eta * a - (eta * d + np.sqrt(k)) * b
    return np.where(k < 0, F32(0), t)


# ---- constructors, inputs and others ------------------------------------------------

@impl("float2", "float3", "float4")
def _construct(args, dims, ctx):
    return np.stack([np.broadcast_to(a[0], np.broadcast_shapes(*(x[0].shape for x in args)))
                     for a in args])


@impl("uv")
def _uv(args, dims, ctx):
    return np.stack([ctx.u, ctx.v])


@impl("xy")
def _xy(args, dims, ctx):
    # the original computes 2 * (uv - 0.5) * 10 in float32
    return np.stack([(F32(2) * (ctx.u - F32(0.5))) * F32(10),
                     (F32(2) * (ctx.v - F32(0.5))) * F32(10)])


impl("time")(lambda args, dims, ctx: ctx.inputs.time4())
impl("deltatime")(lambda args, dims, ctx: ctx.inputs.deltatime4())
impl("button")(lambda args, dims, ctx: ctx.inputs.button4())
impl("axis")(lambda args, dims, ctx: ctx.inputs.axis4())


@impl("slider")
def _slider(args, dims, ctx):
    # slider floor(a.x) of SLIDERS.count, 0 outside them; NaN fails both tests (§8.8)
    k = np.floor(lane(args[0], 0))
    values = ctx.inputs.slider_values()
    with np.errstate(invalid="ignore"):
        ok = (k >= 0) & (k < values.shape[0])
    at = np.where(ok, k, 0).astype(np.int64)
    return np.where(ok, values[at], F32(0))[None]


impl("resolution")(lambda args, dims, ctx: np.array(
    [[ctx.inputs.width], [ctx.inputs.height]], F32))
impl("round")(lambda args, dims, ctx: to4(np.round(args[0])))  # numpy rounds half to even


@impl("dot")
def _dot_impl(args, dims, ctx):
    return _dot(args[0], args[1])


@impl("cross")
def _cross(args, dims, ctx):
    a, b = args
    ax, ay, az = lane(a, 0), lane(a, 1), lane(a, 2)
    bx, by, bz = lane(b, 0), lane(b, 1), lane(b, 2)
    out = [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx]
    shape = np.broadcast_shapes(*(x.shape for x in out))
    return np.stack([np.broadcast_to(x, shape) for x in out])


@impl("distance")
def _distance(args, dims, ctx):
    return _length(args[0] - args[1])


@impl("length")
def _length_impl(args, dims, ctx):
    return _length(args[0])


@impl("self")
def _self(args, dims, ctx):
    a = args[0]
    return sample_bilinear(ctx.inputs.self_texture, lane(a, 0), lane(a, 1))


@impl("camera")
def _camera(args, dims, ctx):
    a = args[0]
    return sample_bilinear(ctx.inputs.camera, lane(a, 0), lane(a, 1))


@impl("video")
def _video(args, dims, ctx):
    a = args[0]
    y = lane(a, 1)
    if ctx.inputs.is_avpro:
        y = F32(1) - y
    return sample_bilinear(ctx.inputs.video, lane(a, 0), y)


@impl("all")
def _all(args, dims, ctx):
    a = args[0]
    # SPEC §8: every lane below the argument's dimension is non-zero (dimension 0 gives 1;
    # the original VM tested all four masked lanes there and gave 0).
    limit = np.asarray(dims[0])
    ok = (LANE[: a.shape[0]] >= limit) | (a != 0)
    return ok.all(axis=0).astype(F32)[None]


@impl("any")
def _any(args, dims, ctx):
    return (args[0] != 0).any(axis=0).astype(F32)[None]


_BIG = 2.0**62


def _pick_lane(x: float) -> int:
    """trunc(nan_to_num(x)) without numpy (a constant pick is read on every swizzle):
    NaN is 0, infinities clamp far outside 1-4."""
    if x != x:
        return 0
    return int(max(-_BIG, min(_BIG, x)))


@impl("swizzle")
def _swizzle(args, dims, ctx) -> V:
    """lane k = a[b_k - 1] where b_k > 0, else the sentinel (a is already masked)."""
    a, b = args
    if b.shape[1] == 1:  # the usual case: a constant mask
        sel = [_pick_lane(x) for x in b[:, 0].tolist()]
        sel += [0] * (4 - len(sel))
        n = 0
        while n < 4 and sel[n] > 0:
            n += 1
        if n > 0 and all(s <= 0 for s in sel[n:]):
            rows = [s - 1 for s in sel[:n]]
            if rows == list(range(rows[0], rows[0] + n)) and rows[-1] < a.shape[0]:
                return V(a[rows[0]: rows[0] + n], n)  # a view: .x, .xy, .yz, ...
            return V(np.stack([np.broadcast_to(lane(a, r) if 0 <= r < 4 else ZERO,
                                               (a.shape[1],)) for r in rows]), n)
    m = max(a.shape[1], b.shape[1])
    out = np.full((4, m), NAN, F32)
    a4 = np.broadcast_to(to4(a), (4, m))
    for k in range(4):
        bk = np.broadcast_to(lane(b, k), (m,)).astype(np.float64)
        idx = np.trunc(np.nan_to_num(bk)).astype(np.int64) - 1
        use = (bk > 0) & (idx >= 0) & (idx < 4)
        got = a4[np.clip(idx, 0, 3), np.arange(m)]
        out[k] = np.where(use, got, np.where(bk > 0, F32(0), NAN))
    return canon(out)


# ---- AudioLink ----------------------------------------------------------------------

def _al(ctx: Ctx):
    return ctx.inputs.audiolink


impl("audiolinkgetversion")(lambda args, dims, ctx: al.version(_al(ctx))[None])
impl("audiolinkdata")(lambda args, dims, ctx: al.data(
    _al(ctx), al.to_uint(lane(args[0], 0)), al.to_uint(lane(args[0], 1))))
impl("audiolinkdatamultiline")(lambda args, dims, ctx: al.data_multiline(
    _al(ctx), al.to_uint(lane(args[0], 0)), al.to_uint(lane(args[0], 1))))
impl("audiolinklerp")(lambda args, dims, ctx: al.lerp(
    _al(ctx), lane(args[0], 0), lane(args[0], 1)))
impl("audiolinklerpmultiline")(lambda args, dims, ctx: al.lerp_multiline(
    _al(ctx), lane(args[0], 0), lane(args[0], 1)))
impl("audiolinkdecodedataasseconds")(lambda args, dims, ctx: al.decode_seconds(
    _al(ctx), al.to_uint(lane(args[0], 0)), al.to_uint(lane(args[0], 1)))[None])
impl("audiolinkgetamplitudeatfrequency")(lambda args, dims, ctx: al.amplitude_at_frequency(
    _al(ctx), lane(args[0], 0)))
impl("audiolinkgetamplitudeatnote")(lambda args, dims, ctx: al.amplitude_at_note(
    _al(ctx), lane(args[0], 0), lane(args[1], 0)))
impl("audiolinkgetchronotime")(lambda args, dims, ctx: al.chrono_time(
    _al(ctx), lane(args[0], 0), lane(args[1], 0))[None])
impl("audiolinkgetchronotimenormalized")(lambda args, dims, ctx: al.chrono_time_normalized(
    _al(ctx), lane(args[0], 0), lane(args[1], 0), lane(args[2], 0))[None])
impl("audiolinkgetchronotimeinterval")(lambda args, dims, ctx: al.chrono_time_interval(
    _al(ctx), lane(args[0], 0), lane(args[1], 0), lane(args[2], 0), lane(args[3], 0))[None])


__all__ = ["DIRTY", "IMPLS", "Ctx", "check_complete", "impl"]
