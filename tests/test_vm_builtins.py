"""Every builtin against an independent numpy formula, with the masking, padding and
sentinel rules of SPEC §7-8 (results are inspected with their sentinel lanes)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from psl import registry
from psl.vm import audiolink as al
from psl.vm import builtins as vm_builtins
from psl.vm.builtins import Ctx, check_complete
from psl.vm.calls import call
from psl.vm.inputs import Inputs
from psl.vm.values import V, canon, full

F = np.float32
S = math.nan


def val(*lanes: float) -> V:
    a = np.full((4, 1), np.nan, F)
    a[: len(lanes), 0] = lanes
    return canon(a)


def ctx(**kw) -> Ctx:
    inputs = Inputs(width=kw.pop("width", 8), height=kw.pop("height", 4), **kw)
    return Ctx(np.array([0.3125], F), np.array([0.625], F), inputs)


def lanes(v: V) -> list[float]:
    return [float(x) for x in full(v)[:, 0]]


def vcall(name: str, *args: V, **kw) -> list[float]:
    with np.errstate(all="ignore"):
        return lanes(call(registry.BUILTIN_BY_NAME[name].id, list(args), ctx(**kw)))


def same(got: list[float], expected) -> None:
    exp = [float(F(x)) for x in expected]
    np.testing.assert_allclose(np.array(got, F), np.array(exp, F), rtol=2e-7, atol=0,
                               equal_nan=True)


# ---- registry coverage --------------------------------------------------------------

def test_every_registry_builtin_has_an_implementation():
    check_complete()


def test_a_builtin_added_to_the_registry_without_implementation_fails(monkeypatch):
    extra = dataclasses.replace(registry.BUILTINS[0], name="newthing", id=64)  # a free id
    assert extra.id not in registry.BUILTIN_BY_ID
    monkeypatch.setattr(registry, "BUILTINS", (*registry.BUILTINS, extra))
    with pytest.raises(AssertionError, match="newthing"):
        check_complete()


def test_unknown_id_returns_zero4():
    got = lanes(call(63, [], ctx()))
    assert got == [0, 0, 0, 0]


# ---- lanewise (restore to the largest argument dimension) ---------------------------

LANEWISE = {
    "log": np.log, "log2": np.log2, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "exp": np.exp, "exp2": np.exp2,
    "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "abs": np.abs, "sign": np.sign,
    "floor": np.floor, "ceil": np.ceil, "frac": lambda x: x - np.floor(x),
    "trunc": np.trunc, "saturate": lambda x: np.clip(x, 0, 1),
    "radians": np.radians, "degrees": np.degrees, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "log10": np.log10,
}


@pytest.mark.parametrize("name", sorted(LANEWISE))
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_lanewise_unary(name, n):
    xs = [0.3, -0.7, 1.9, 0.55][:n]
    with np.errstate(all="ignore"):
        exp = [LANEWISE[name](np.float64(x)) for x in xs] + [S] * (4 - n)
    same(vcall(name, val(*xs)), exp)


def test_lanewise_unary_zero_dimension_argument_computes_all_lanes():
    # dimension 0 (all NaN): masked to zeros, mask(0) restores nothing -> cos(0) in 4 lanes
    same(vcall("cos", val()), [1, 1, 1, 1])


def test_nan_inside_the_dimension_is_masked_to_zero():
    # (NaN, 2): dimension 1 -> masked (0, 2): abs gives (0, 2) then restore(mask(1))
    a = np.array([[np.nan], [2], [np.nan], [np.nan]], F)
    same(lanes(call(registry.BUILTIN_BY_NAME["abs"].id, [V(a, -1)], ctx())), [0, S, S, S])


def test_pow_is_not_padded():
    same(vcall("pow", val(3, 2, 5), val(2)), [9, 1, 1, S])
    same(vcall("pow", val(2), val(3, 2, 5)), [8, 0, 0, S])  # 0^2, 0^5
    same(vcall("pow", val(2, 3), val(3, 2)), [8, 9, S, S])


@pytest.mark.parametrize("a,b", [((7.5,), (2,)), ((7.5, -7.5, 3), (2,)), ((-1, 5), (3, -2)),
                                 ((2,), (0.75, 1.5, 4, 8))])
def test_mod_min_max_step_are_padded(a, b):
    n = max(len(a), len(b))

    def pad(x):
        return [x[0]] * n if len(x) == 1 else list(x) + [0] * (n - len(x))

    pa, pb = np.array(pad(a), F), np.array(pad(b), F)
    tail = [S] * (4 - n)
    same(vcall("mod", val(*a), val(*b)), list(pa - pb * np.floor(pa / pb)) + tail)
    same(vcall("min", val(*a), val(*b)), list(np.minimum(pa, pb)) + tail)
    same(vcall("max", val(*a), val(*b)), list(np.maximum(pa, pb)) + tail)
    same(vcall("step", val(*a), val(*b)), list((pb >= pa).astype(F)) + tail)


def test_padding_a_vector_to_a_larger_vector_fills_zero():
    # clamp(float2, float3 lo, hi): the float2 is cast to 3 lanes: z = 0
    same(vcall("clamp", val(5, -5), val(-1, -1, -1), val(1, 1, 1)), [1, -1, 0, S])


def test_clamp_lerp_smoothstep():
    same(vcall("clamp", val(0.5, 2, -3), val(0), val(1)), [0.5, 1, 0, S])
    a, b, c = np.array([1, 2], F), np.array([3, 6], F), np.array([0.25, 0.25], F)
    same(vcall("lerp", val(1, 2), val(3, 6), val(0.25)), list(a + (b - a) * c) + [S, S])
    x = np.array([0.2, 0.5, 0.9], F)
    t = np.clip((x - F(0.1)) / (F(0.8) - F(0.1)), 0, 1)
    same(vcall("smoothstep", val(0.1), val(0.8), val(0.2, 0.5, 0.9)),
         list(t * t * (3 - 2 * t)) + [S])


# ---- ids 50-59: atan2, fmod, saturate, trunc, radians, degrees, sinh, cosh, tanh, log10 ---

def test_lanewise_table_covers_every_unary_lanewise_builtin():
    unary = {b.name for b in registry.BUILTINS
             if b.result is registry.ResultDim.LARGEST and b.arity == 1 and not b.pad}
    assert unary - {"normalize"} == set(LANEWISE)


def exact(got: list[float], expected) -> None:
    """Bit for bit, signed zeros included; NaN lanes (sentinels too) only need to be NaN."""
    want = [float(F(x)) for x in expected]
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        if math.isnan(w):
            assert math.isnan(g), (k, got, want)
        else:
            assert g == w and math.copysign(1, g) == math.copysign(1, w), (k, got, want)


def _rounded(fn, *xs: float) -> float:
    """The correctly rounded float32 result of fn at float32 arguments (SPEC §8.2)."""
    return float(F(fn(*(float(F(x)) for x in xs))))


INF = math.inf
PI = float(F(math.pi))


def test_atan2_quadrants_axes_and_signed_zeros():
    # atan2(y, x): the angle of (x, y), HLSL's argument order
    exact(vcall("atan2", val(1, 1, -1, -1), val(1, -1, -1, 1)),
          [math.pi / 4, 3 * math.pi / 4, -3 * math.pi / 4, -math.pi / 4])
    exact(vcall("atan2", val(0, 1, 0, -1), val(1, 0, -1, 0)), [0, math.pi / 2, PI, -math.pi / 2])
    exact(vcall("atan2", val(0, -0.0, -0.0, 0), val(0, -1, 1, -0.0)), [0, -PI, -0.0, PI])
    exact(vcall("atan2", val(INF, -INF, 3), val(INF, 2, -INF)),
          [math.pi / 4, -math.pi / 2, PI, S])
    ys, xs = [0.3, -2.5, 7, -1e-3], [-0.7, -0.25, 1e-4, 5]
    exact(vcall("atan2", val(*ys), val(*xs)), [_rounded(math.atan2, y, x)
                                               for y, x in zip(ys, xs, strict=True)])


def test_atan2_and_fmod_are_padded():
    exact(vcall("atan2", val(1, 2, -3), val(-1)),
          [_rounded(math.atan2, y, -1) for y in (1, 2, -3)] + [S])
    exact(vcall("atan2", val(2), val(1, 0)), [_rounded(math.atan2, 2, 1), math.pi / 2, S, S])
    exact(vcall("fmod", val(-7, 5, -1), val(3)), [-1, 2, -1, S])
    # a vector padded to a larger one: the missing lanes are 0 (fmod(0, 4) = 0)
    exact(vcall("fmod", val(7, 8), val(4, 3, 4)), [3, 2, 0, S])


def test_fmod_takes_the_sign_of_the_first_argument():
    exact(vcall("fmod", val(7.5, -7.5, 7.5, -7.5), val(2, 2, -2, -2)), [1.5, -1.5, 1.5, -1.5])
    exact(vcall("mod", val(7.5, -7.5, 7.5, -7.5), val(2, 2, -2, -2)), [1.5, 0.5, -0.5, -1.5])
    exact(vcall("fmod", val(-0.25, 0.25, 6, -6), val(1)), [-0.25, 0.25, 0, 0])
    exact(vcall("fmod", val(5.5, -1e6, 1e-3), val(1.5, 7, 0.5)),
          [math.fmod(5.5, 1.5), math.fmod(-1e6, 7), float(F(1e-3)), S])


def test_fmod_is_written_out_in_float32():
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(4) * 50).astype(F)
    b = (rng.standard_normal(4) * 3).astype(F)
    exact(vcall("fmod", val(*a), val(*b)), a - b * np.trunc(a / b))


def test_fmod_by_zero_is_nan_in_used_lanes_only():
    exact(vcall("fmod", val(3, 0), val(0)), [S, S, S, S])
    got = vcall("fmod", val(3, 4), val(0, 3))
    assert math.isnan(got[0]) and got[1] == 1 and all(math.isnan(x) for x in got[2:])


def test_saturate():
    exact(vcall("saturate", val(-0.5, 0.25, 1.5, INF)), [0, 0.25, 1, 1])
    exact(vcall("saturate", val(-INF, 1, 0)), [0, 1, 0, S])
    exact(vcall("saturate", val(-1e-30)), [0, S, S, S])
    # a NaN inside the dimension is masked to 0 first (saturate(NaN) is 0 on GPUs too)
    a = np.array([[np.nan], [2], [np.nan], [np.nan]], F)
    exact(lanes(call(registry.BUILTIN_BY_NAME["saturate"].id, [V(a, -1)], ctx())), [0, S, S, S])
    exact(vcall("saturate", val()), [0, 0, 0, 0])  # dimension 0: saturate(0) in every lane


def test_trunc_rounds_toward_zero():
    exact(vcall("trunc", val(1.7, -1.7, -0.5, 2.5)), [1, -1, -0.0, 2])
    exact(vcall("trunc", val(-3, 1e30, -INF)), [-3, 1e30, -INF, S])
    exact(vcall("trunc", val(8388607.5)), [8388607, S, S, S])


def test_radians_and_degrees_multiply_by_one_float32_constant():
    rad, deg = F(math.pi / 180), F(180 / math.pi)
    assert float(rad) == registry.RADIANS_PER_DEGREE and float(deg) == registry.DEGREES_PER_RADIAN
    xs = [180, -90, 45.5, 1e-3]
    exact(vcall("radians", val(*xs)), [F(x) * rad for x in xs])
    exact(vcall("degrees", val(*xs)), [F(x) * deg for x in xs])
    exact(vcall("radians", val(180)), [PI, S, S, S])  # float32(pi) itself
    same(vcall("degrees", val(math.pi, -math.pi / 2)), [180, -90, S, S])
    exact(vcall("degrees", val(1e38)), [INF, S, S, S])  # overflows like the multiplication


def test_hyperbolic_functions_and_log10_are_correctly_rounded():
    xs = [0.5, -1.25, 3.7, 1e-4]
    for name, fn in (("sinh", math.sinh), ("cosh", math.cosh), ("tanh", math.tanh),
                     ("log10", math.log10)):
        args = [abs(x) for x in xs] if name == "log10" else xs
        exact(vcall(name, val(*args)), [_rounded(fn, x) for x in args])
    exact(vcall("sinh", val(0, -0.0, 100, -100)), [0, -0.0, INF, -INF])
    exact(vcall("cosh", val(0, 100, -100)), [1, INF, INF, S])
    exact(vcall("tanh", val(0, 9.5, -100, INF)), [0, 1, -1, 1])
    exact(vcall("tanh", val(9)), [np.nextafter(F(1), F(0)), S, S, S])  # not yet 1 at 9
    exact(vcall("log10", val(1000, 1e-2, 0, -1)), [3, -2, -INF, S])


def test_new_builtins_keep_the_largest_dimension():
    for name in ("trunc", "saturate", "radians", "degrees", "sinh", "cosh", "tanh", "log10"):
        for n in (1, 2, 3, 4):
            got = vcall(name, val(*[0.5] * n))
            assert [math.isnan(x) for x in got] == [False] * n + [True] * (4 - n), (name, n)
    for name in ("atan2", "fmod"):
        got = vcall(name, val(1, 2), val(3))
        assert [math.isnan(x) for x in got] == [False, False, True, True], name


# ---- constructors and swizzle ------------------------------------------------------

def test_constructors_take_x_of_each_argument():
    same(vcall("float2", val(1, 9), val(2)), [1, 2, S, S])
    same(vcall("float3", val(1), val(2, 8), val(3, 7, 6)), [1, 2, 3, S])
    same(vcall("float4", val(1), val(2), val(3), val()), [1, 2, 3, 0])  # masked S -> 0


def test_swizzle_reads_masked_lanes():
    same(vcall("swizzle", val(1, 2, 3), val(3, 1, 0, 0)), [3, 1, S, S])
    same(vcall("swizzle", val(1, 2), val(1, 2, 3, 0)), [1, 2, 0, S])  # .xyz of float2
    same(vcall("swizzle", val(1, 2, 3, 4), val(4, 4, 4, 4)), [4, 4, 4, 4])
    same(vcall("swizzle", val(5), val(1, 0, 0, 0)), [5, S, S, S])


# ---- geometry ----------------------------------------------------------------------

def test_dot_cross_distance_length_normalize():
    a, b = np.array([1, 2, 3], F), np.array([4, -5, 6], F)
    same(vcall("dot", val(*a), val(*b)), [np.dot(a, b), S, S, S])
    same(vcall("dot", val(*a), val(2)), [2 * a.sum(), S, S, S])  # the scalar is padded
    same(vcall("cross", val(*a), val(*b)), list(np.cross(a, b)) + [S])
    same(vcall("cross", val(1, 0), val(0, 1)), [0, 0, 1, S])
    same(vcall("distance", val(*a), val(*b)), [np.linalg.norm(a - b), S, S, S])
    same(vcall("length", val(3, 4)), [5, S, S, S])
    same(vcall("normalize", val(3, 4)), [0.6, 0.8, S, S])
    same(vcall("normalize", val(3, 0, 4, 0)), [0.6, 0, 0.8, 0])


def test_reflect_and_refract():
    i, n = np.array([1, -1, 0], F), np.array([0, 1, 0], F)
    same(vcall("reflect", val(*i), val(*n)), list(i - 2 * np.dot(i, n) * n) + [S])
    i = np.array([0.6, -0.8, 0], F)
    eta = F(0.9)
    d = F(np.dot(n, i))
    k = 1 - eta * eta * (1 - d * d)
    same(vcall("refract", val(*i), val(*n), val(eta)),
         list(eta * i - (eta * d + np.sqrt(k)) * n) + [S])
    # total internal reflection: k < 0 gives zeros (with the sentinel restored)
    same(vcall("refract", val(0.99, -0.14, 0), val(0, 1, 0), val(1.5)), [0, 0, 0, S])


def test_round_all_any():
    same(vcall("round", val(0.5, 1.5, -2.5)), [0, 2, -2, 0])
    same(vcall("all", val(1, 2, 0)), [0, S, S, S])
    same(vcall("all", val(1, 2)), [1, S, S, S])
    same(vcall("all", val()), [1, S, S, S])  # SPEC: no lane below dimension 0 (original: 0)
    same(vcall("any", val(0, 0, 3)), [1, S, S, S])
    same(vcall("any", val(0, 0)), [0, S, S, S])


# ---- inputs ------------------------------------------------------------------------

def test_inputs():
    same(vcall("uv"), [0.3125, 0.625, S, S])
    same(vcall("xy"), [20 * 0.3125 - 10, 20 * 0.625 - 10, S, S])
    same(vcall("time", time=1.25), [1.25 / 20, 1.25, 2.5, 3.75])
    same(vcall("deltatime", delta_time=0.5), [0.5, 2, 0.5, 2])
    same(vcall("resolution", width=320, height=200), [320, 200, S, S])
    same(vcall("button", button=(1, 0, 1, 0)), [1, 0, 1, 0])
    same(vcall("axis", axis=(0.25, -0.5, 0.75, 0)), [0.25, -0.5, 0.75, 0])


def _texture(w: int, h: int) -> np.ndarray:
    i, j = np.meshgrid(np.arange(w), np.arange(h))
    return np.stack([i / (w - 1), j / (h - 1), (i * j) % 3 / 2.0, np.ones_like(i)],
                    axis=-1).astype(F)


def _bilinear(tex: np.ndarray, u: float, v: float) -> np.ndarray:
    h, w = tex.shape[:2]
    x, y = u * w - 0.5, v * h - 0.5
    x0, y0 = math.floor(x), math.floor(y)
    fx, fy = x - x0, y - y0

    def at(i, j):
        return tex[min(max(j, 0), h - 1), min(max(i, 0), w - 1)].astype(np.float64)

    return ((at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy)
            + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy)


@pytest.mark.parametrize("uv", [(0.3, 0.6), (0.0, 0.0), (1.0, 1.0), (-3, 0.5), (0.51, 7)])
def test_textures_bilinear_clamp(uv):
    tex = _texture(8, 4)
    exp = _bilinear(tex, *uv)
    got = vcall("self", val(*uv), self_texture=tex)
    np.testing.assert_allclose(got, exp, atol=1e-6)
    got = vcall("camera", val(*uv), camera=tex)
    np.testing.assert_allclose(got[:3], exp[:3], atol=1e-6)
    assert math.isnan(got[3])
    got = vcall("video", val(*uv), video=tex)
    np.testing.assert_allclose(got[:3], exp[:3], atol=1e-6)
    got = vcall("video", val(*uv), video=tex, is_avpro=True)
    np.testing.assert_allclose(got[:3], _bilinear(tex, uv[0], 1 - uv[1])[:3], atol=1e-6)


def test_textures_without_image_read_zero():
    same(vcall("self", val(0.5, 0.5)), [0, 0, 0, 0])
    same(vcall("camera", val(0.5, 0.5)), [0, 0, 0, S])


def test_self_with_scalar_argument_reads_y_zero():
    tex = _texture(8, 4)
    np.testing.assert_allclose(vcall("self", val(0.3), self_texture=tex),
                               _bilinear(tex, 0.3, 0.0), atol=1e-6)


# ---- AudioLink ---------------------------------------------------------------------

def _audiolink() -> np.ndarray:
    tex = np.zeros((64, 128, 4), F)
    tex[:, :, 0] = np.arange(128)[None, :] / 128.0 + np.arange(64)[:, None]
    tex[:, :, 1] = 0.5
    tex[22, 0] = (2.04, 0, 0, 0)  # ALPASS_GENERALVU: version
    tex[28, 16 + 3] = (500, 3, 1, 0)  # chronotensity index 3, band 0
    tex[23, 6] = (123, 456, 7, 0)  # unix seconds
    return tex


def test_audiolink_without_texture_reads_zeros():
    for b in registry.BUILTINS:
        if b.extension == "audiolink":
            got = lanes(call(b.id, [val(1.5, 2)] * b.arity, ctx()))
            assert [x for x in got if not math.isnan(x)] == [0.0] * b.dim, b.name


def test_audiolink_functions():
    tex = _audiolink()

    def data(x, y):
        return tex[y, x].astype(np.float64)

    same(vcall("audiolinkgetversion", audiolink=tex), [2.04, S, S, S])
    same(vcall("audiolinkdata", val(5.7, 27.2), audiolink=tex), data(5, 27))
    same(vcall("audiolinkdata", val(500, 2), audiolink=tex), [0, 0, 0, 0])  # outside
    same(vcall("audiolinkdatamultiline", val(130, 4), audiolink=tex), data(2, 5))
    x = 10.25
    same(vcall("audiolinklerp", val(x, 27), audiolink=tex),
         data(10, 27) + (data(11, 27) - data(10, 27)) * 0.25)
    same(vcall("audiolinklerpmultiline", val(127.5, 4), audiolink=tex),
         data(127, 4) + (data(0, 5) - data(127, 4)) * 0.5)
    t = (123 + 456 * 1024 + 7 * 1048576) & 0x7FFFFFF
    same(vcall("audiolinkdecodedataasseconds", val(6, 23), audiolink=tex),
         [t // 1000 + (t % 1000) / 1000, S, S, S])
    note = 24 * np.log2(F(440) / F(13.75))
    fx = F(note)
    expected = data(int(fx) % 128, 4 + int(fx) // 128)
    expected = expected + (data((int(fx) + 1) % 128, 4 + (int(fx) + 1) // 128)
                           - expected) * (fx - np.floor(fx))
    same(vcall("audiolinkgetamplitudeatfrequency", val(440), audiolink=tex)[:1], expected[:1])
    q = 3 * 24 + 5 * 2
    same(vcall("audiolinkgetamplitudeatnote", val(3), val(5), audiolink=tex),
         [data(q, 4)[0], S, S, S])
    chrono = (500 + 3 * 1024 + 1048576) / 100000.0
    same(vcall("audiolinkgetchronotime", val(3), val(0), audiolink=tex), [chrono, S, S, S])
    norm = F(chrono) * F(2.5)
    same(vcall("audiolinkgetchronotimenormalized", val(3), val(0), val(2.5), audiolink=tex),
         [norm - np.floor(norm), S, S, S])
    same(vcall("audiolinkgetchronotimeinterval", val(3), val(0), val(2.5), val(4),
               audiolink=tex), [F(norm - np.floor(norm)) * F(4), S, S, S])


def test_audiolink_uint_conversion():
    assert al.to_uint(np.array([-2.5, np.nan, 3.9, 1e12])).tolist() == [0, 0, 3, 2**32 - 1]


def test_lane_helper_zero_beyond():
    a = np.ones((2, 3), F)
    assert vm_builtins.lane(a, 3).tolist() == [0.0]
