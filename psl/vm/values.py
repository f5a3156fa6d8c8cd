"""PSL values for a whole group of pixels, and the operators on them (SPEC §4, §7).

A value is a float4 per pixel whose unused lanes hold the NaN sentinel. The VM stores a
value for `m` pixels lane-major, `a[lane][pixel]`, as float32. Two representations:

* clean (`k` in 1..4): every pixel has dimension `k` and no NaN in lanes < k; only those
  `k` lanes are stored (`a.shape[0] == k`), the sentinel lanes are implicit. Almost every
  value a real program makes is clean, and clean values allow cheap fast paths.
* dirty (`k == DIRTY`): all four lanes are stored and the dimension (count of non-NaN lanes)
  is per pixel. This is the general, literal SPEC §7 path.

`a.shape[1]` is either the group's pixel count or 1 for a value that is the same for every
pixel (constants, uniforms); numpy broadcasting then does the rest. Arrays are never
modified in place once wrapped, so values may be shared freely between registers, stack
slots and groups.
"""

from __future__ import annotations

import numpy as np

from psl.bytecode import F32
from psl.registry import BINOP_BY_SYMBOL, UNOP_BY_SYMBOL

NAN = F32(np.nan)
DIRTY = -1
#: lane index column, for building per-pixel lane masks
LANE = np.arange(4).reshape(4, 1)

#: set by tests to route every operation through the literal (dirty) path
FORCE_SLOW = False


class V:
    """A PSL value for a group of pixels (see module doc)."""

    __slots__ = ("a", "k")

    def __init__(self, a: np.ndarray, k: int):
        self.a = a
        self.k = k

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"V(k={self.k}, shape={self.a.shape})"


def zero4() -> V:
    return V(np.zeros((4, 1), F32), 4)


ZERO4 = zero4()


def full(v: V) -> np.ndarray:
    """The four lanes of v, sentinel lanes as NaN: [4][m]."""
    if v.k == 4 or v.k == DIRTY:
        return v.a
    out = np.empty((4, v.a.shape[1]), F32)
    out[: v.k] = v.a
    out[v.k :] = NAN
    return out


def dims(v: V) -> int | np.ndarray:
    """Dimension: an int for clean values, else per pixel (count of non-NaN lanes)."""
    if v.k != DIRTY:
        return v.k
    return np.count_nonzero(v.a == v.a, axis=0)


def zero_nan(a: np.ndarray) -> np.ndarray:
    return np.where(a != a, F32(0), a)


def canon(a: np.ndarray) -> V:
    """Wrap a [4][m] array, recognising the clean layout when every pixel shares it."""
    if FORCE_SLOW:
        return V(a, DIRTY)
    nn = a == a
    d = np.count_nonzero(nn, axis=0)
    d0 = int(d[0])
    if d0 >= 1 and bool((d == d0).all()) and bool(nn[:d0].all()):
        return V(a[:d0], d0)
    return V(a, DIRTY)


def clean_or_canon(res: np.ndarray, k: int) -> V:
    """A result computed for k lanes that is clean unless arithmetic produced a NaN."""
    if FORCE_SLOW or np.isnan(np.sum(res)):
        if k == 4:
            return canon(res)
        out = np.empty((4, res.shape[1]), F32)
        out[:k] = res
        out[k:] = NAN
        return canon(out)
    return V(res, k)


def sentinel_lanes(d: int | np.ndarray) -> np.ndarray:
    """Where restore(., mask(d)) writes the sentinel: lanes >= d when 0 < d (bool [4][m])."""
    d = np.asarray(d)
    return (LANE >= d) & (d > 0)


def restore(res: np.ndarray, d: int | np.ndarray) -> np.ndarray:
    return np.where(sentinel_lanes(d), NAN, res)


def cast_single(a: np.ndarray, to: int | np.ndarray) -> np.ndarray:
    """cast(v, 1, to) per pixel: x into lanes < to, sentinel above (to = 0 gives all S)."""
    return np.where(LANE < np.asarray(to), a[0], NAN)


# ---- binary operators -------------------------------------------------------------

def _truth(a: np.ndarray) -> np.ndarray:
    return a != 0  # NaN != 0 is true: NaN counts as true (SPEC §7)


def _b(f):  # comparisons and logic give 1.0 or 0.0
    return lambda a, b: f(a, b).astype(F32)


_BINOP_FN = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": np.divide,
    "<": _b(np.less),
    ">": _b(np.greater),
    "==": _b(np.equal),
    "<=": _b(np.less_equal),
    ">=": _b(np.greater_equal),
    "!=": _b(np.not_equal),
    "&&": _b(lambda a, b: _truth(a) & _truth(b)),
    "||": _b(lambda a, b: _truth(a) | _truth(b)),
}
#: BINOP id -> (function, can produce NaN from non-NaN lanes)
BINOPS: dict[int, tuple] = {
    BINOP_BY_SYMBOL[s].id: (f, s in "+-*/") for s, f in _BINOP_FN.items()
}
assert len(BINOPS) == len(BINOP_BY_SYMBOL), "every registry binary operator needs a VM function"


def binop(op_id: int, left: V, r: V) -> V:
    l = left  # noqa: E741 - SPEC's names, l and r
    entry = BINOPS.get(op_id)
    if (not FORCE_SLOW and l.k > 0 and r.k > 0
            and (l.k == r.k or l.k == 1 or r.k == 1)):
        d = max(l.k, r.k)
        if entry is None:  # unknown operator: res stays 0, then restore
            res = np.zeros((d, max(l.a.shape[1], r.a.shape[1])), F32)
            return V(res, d)
        fn, arith = entry
        res = fn(l.a, r.a)  # numpy broadcasting of a [1][m] operand is the dim-1 cast
        return clean_or_canon(res, d) if arith else V(res, d)
    la, ra = full(l), full(r)
    dl, dr = np.asarray(dims(l)), np.asarray(dims(r))
    sl, sr = dl == 1, dr == 1
    ra = np.where(sr & ~sl, cast_single(ra, dl), ra)
    la = np.where(sl & ~sr, cast_single(la, dr), la)
    if entry is None:
        res = np.zeros(np.broadcast_shapes(la.shape, ra.shape), F32)
    else:
        res = entry[0](la, ra)
    return canon(restore(res, np.maximum(dl, dr)).astype(F32, copy=False))


# ---- unary operators --------------------------------------------------------------

_NEG = UNOP_BY_SYMBOL["-"].code
_NOT = UNOP_BY_SYMBOL["!"].code


def _unop_fn(code: int, a: np.ndarray) -> np.ndarray:
    if code == _NEG:
        return -a
    if code == _NOT:
        return (a == 0).astype(F32)
    return a  # '+' and unknown codes leave the value alone


def unop(code: int, v: V) -> V:
    if not FORCE_SLOW and v.k > 0:
        return V(_unop_fn(code, v.a), v.k)
    res = _unop_fn(code, full(v))
    return canon(restore(res, np.asarray(dims(v))).astype(F32, copy=False))


# ---- helpers for builtins -----------------------------------------------------------

def zero_extend(a: np.ndarray, lanes: int) -> np.ndarray:
    if a.shape[0] >= lanes:
        return a
    out = np.zeros((lanes, a.shape[1]), F32)
    out[: a.shape[0]] = a
    return out


def pad_cast_zeroed(a: np.ndarray, frm: np.ndarray, to: np.ndarray) -> np.ndarray:
    """zeroNaN(cast(a, from, to)) for a zeroNaN'd [4][m] array, per pixel."""
    frm, to = np.asarray(frm), np.asarray(to)
    below = LANE < to
    bcast = np.where(below, a[0], F32(0))
    keep = np.where(below, a, F32(0))
    out = np.where(frm == 1, bcast, keep)
    return np.where(frm == to, a, out).astype(F32, copy=False)


def concat(values: list[V], widths: list[int]) -> V:
    """One value for several groups laid side by side (pixel axis)."""
    first = values[0]
    if all(v is first for v in values):
        return first
    k = first.k
    pairs = list(zip(values, widths, strict=True))
    if k != DIRTY and all(v.k == k for v in values):
        return V(np.concatenate([np.broadcast_to(v.a, (k, w)) for v, w in pairs], axis=1), k)
    return V(np.concatenate([np.broadcast_to(full(v), (4, w)) for v, w in pairs], axis=1),
             DIRTY)


def select(v: V, cols: np.ndarray) -> V:
    if v.a.shape[1] == 1:
        return v
    return V(v.a.take(cols, axis=1), v.k)
