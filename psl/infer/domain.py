"""The abstract values of width inference (SPEC §4, §7).

A PSL value is a float4 whose unused lanes hold the NaN sentinel; its width (dimension) is
the number of lanes that are not NaN. The inference tracks, for every value, the set of
*NaN patterns* it may have (a pattern has bit i set when lane i is NaN, so 16 patterns,
and a set of patterns is a 16-bit int), plus the value itself when it is the same constant
for every pixel. Patterns rather than widths because a masked assignment (`v.w = 1` on a
float2) leaves a NaN lane below a number lane, and the VM's operators follow lanes, not
widths.

What the inference does not model: NaN made by arithmetic on numbers (`sqrt(-1)`, `0/0`),
which the VM cannot tell from a sentinel either (SPEC §4's quirk). Constants are exact:
they are folded by the reference VM's own operators, so a folded NaN is seen.
"""

from __future__ import annotations

import functools
import struct

import numpy as np

from psl import registry
from psl.registry import ResultDim
from psl.vm import values as vmv
from psl.vm.calls import call as vm_call

F32 = np.float32

#: a value: (set of NaN patterns as a 16-bit int, its float32 lanes as 16 bytes or None)
Val = tuple[int, bytes | None]

ANY_PATTERN = (1 << 16) - 1
WIDTH = tuple(4 - bin(p).count("1") for p in range(16))  # width of each NaN pattern


def high(d: int) -> int:
    """The pattern of restore(., mask(d)): lanes >= d are the sentinel (none for d = 0)."""
    return (0xF << d) & 0xF if d > 0 else 0


def lead(d: int) -> int:
    """The pattern of a value with d lanes in front: lanes >= d NaN (d = 0: every lane)."""
    return (0xF << d) & 0xF


@functools.cache
def patterns(s: int) -> tuple[int, ...]:
    return tuple(p for p in range(16) if s >> p & 1)


#: the pattern sets' bits of the patterns whose x lane is a number
_X_NUMBER = sum(1 << p for p in range(16) if not p & 1)


@functools.cache
def widths(s: int) -> frozenset[int]:
    """The widths a pattern set allows."""
    return frozenset(WIDTH[p] for p in patterns(s))


def width_set(v: Val) -> frozenset[int]:
    return widths(v[0])


_PACK = struct.Struct("<4f")
_BITS = struct.Struct("<4I")


@functools.lru_cache(maxsize=4096)
def _pattern_of(data: bytes) -> int:
    return sum(1 << i for i, u in enumerate(_BITS.unpack(data))
               if u & 0x7F800000 == 0x7F800000 and u & 0x7FFFFF)


def of_bytes(data: bytes) -> Val:
    """A constant from its four float32 lanes (16 little-endian bytes)."""
    return (1 << _pattern_of(data), data)


def of_lanes(lanes: object) -> Val:
    """A constant from four numbers (rounded to float32 as the slots hold them)."""
    if isinstance(lanes, np.ndarray):
        return of_bytes(np.asarray(lanes, "<f4").reshape(4).tobytes())
    return of_bytes(_PACK.pack(*lanes))  # type: ignore[misc]


ZERO: Val = of_lanes((0.0, 0.0, 0.0, 0.0))  # an unassigned register, an empty stack slot
TOP: Val = (ANY_PATTERN, None)


def join(a: Val, b: Val) -> Val:
    if a is b or a == b:
        return a  # the same object again, so later joins take the `is` path
    return (a[0] | b[0], a[1] if a[1] == b[1] else None)


def lanes(v: Val) -> tuple[float, float, float, float]:
    assert v[1] is not None
    return _PACK.unpack(v[1])


def _vm(data: bytes) -> vmv.V:
    return vmv.canon(np.frombuffer(data, "<f4").astype(F32).reshape(4, 1))


def _back(v: vmv.V) -> Val:
    return of_lanes(vmv.full(v)[:, 0])


# ---------------------------------------------------------------- operators on patterns
def _cast1(p: int, to: int) -> int:
    """cast(v, 1, to): x broadcast into lanes < to (NaN there if x is NaN), S above."""
    below = (1 << to) - 1
    return (below if p & 1 else 0) | (0xF & ~below)


def binop_pattern(p: int, q: int, arith: bool) -> int:
    dl, dr = WIDTH[p], WIDTH[q]
    if dr == 1 and dl != 1:
        q = _cast1(q, dl)
    elif dl == 1 and dr != 1:
        p = _cast1(p, dr)
    res = (p | q) if arith else 0  # comparisons and logic always give 0.0 or 1.0
    return res | high(max(dl, dr))


def unop_pattern(p: int, negate_or_plus: bool) -> int:
    res = p if negate_or_plus else 0  # `!` gives 0.0 or 1.0 in every lane
    return res | high(WIDTH[p])


_ARITH = {registry.BINOP_BY_SYMBOL[s].id for s in "+-*/"}
_NOT = registry.UNOP_BY_SYMBOL["!"].code


@functools.lru_cache(maxsize=4096)
def _binop_set(s: int, t: int, arith: bool) -> int:
    out = 0
    for p in patterns(s):
        for q in patterns(t):
            out |= 1 << binop_pattern(p, q, arith)
    return out


@functools.lru_cache(maxsize=1024)
def _unop_set(s: int, keep: bool) -> int:
    out = 0
    for p in patterns(s):
        out |= 1 << unop_pattern(p, keep)
    return out


@functools.lru_cache(maxsize=4096)
def _fold_binop(op_id: int, left: bytes, right: bytes) -> Val:
    with np.errstate(all="ignore"):
        return _back(vmv.binop(op_id, _vm(left), _vm(right)))


@functools.lru_cache(maxsize=4096)
def _fold_unop(code: int, data: bytes) -> Val:
    with np.errstate(all="ignore"):
        return _back(vmv.unop(code, _vm(data)))


@functools.lru_cache(maxsize=4096)
def _fold_call(builtin_id: int, args: tuple[bytes, ...]) -> Val:
    with np.errstate(all="ignore"):
        return _back(vm_call(builtin_id, [_vm(a) for a in args], None))  # type: ignore[arg-type]


_F32 = struct.Struct("<f")
_SCALAR = 1 << 0b1110  # the pattern set of a float: lanes y, z, w are the sentinel
_SCALAR_OPS = {registry.BINOP_BY_SYMBOL[s].id: s for s in ("+", "-", "*", "<", ">", "==",
                                                           "<=", ">=", "!=")}
_NAN_TAIL = vmv.NAN.tobytes() * 3  # the sentinel the VM's operators write


def _fold_scalar(op: str, x: float, y: float) -> Val | None:
    """float op float without numpy, for loop counters (run thousands of times): +, - and
    * computed in double and rounded once to float32 are exactly float32's results (53 >=
    2 * 24 + 2 bits); comparisons are exact. None when the result is not a finite float."""
    if op == "+":
        z = x + y
    elif op == "-":
        z = x - y
    elif op == "*":
        z = x * y
    else:
        z = float({"<": x < y, ">": x > y, "==": x == y, "<=": x <= y, ">=": x >= y,
                   "!=": x != y}[op])
    try:
        data = _F32.pack(z)
    except OverflowError:
        return None
    if z != z or abs(_F32.unpack(data)[0]) == float("inf"):
        return None
    return (_SCALAR, data + _NAN_TAIL)


def binop(op_id: int, left: Val, right: Val) -> Val:
    if left[1] is not None and right[1] is not None:
        op = _SCALAR_OPS.get(op_id)
        if op is not None and left[0] == _SCALAR and right[0] == _SCALAR:
            got = _fold_scalar(op, _F32.unpack(left[1][:4])[0], _F32.unpack(right[1][:4])[0])
            if got is not None:
                return got
        return _fold_binop(op_id, left[1], right[1])
    if op_id not in vmv.BINOPS:  # the VM gives zeros, shaped by the widths
        return (_binop_set(left[0], right[0], False), None)
    return (_binop_set(left[0], right[0], op_id in _ARITH), None)


def unop(code: int, v: Val) -> Val:
    if v[1] is not None:
        return _fold_unop(code, v[1])
    return (_unop_set(v[0], code != _NOT), None)


def swizzle_pick(pick: Val) -> tuple[int, ...] | None:
    """The lanes a constant swizzle pick reads (1-4, 0 for none), as the VM masks it."""
    if pick[1] is None:
        return None
    return tuple(int(x) if x > 0 else 0 for x in lanes(pick))  # NaN > 0 is false


def call(builtin_id: int, args: list[Val]) -> Val:
    b = registry.BUILTIN_BY_ID.get(builtin_id)
    if b is None:
        return ZERO  # an id not in the table returns zeros (SPEC §8)
    if not b.varying and all(a[1] is not None for a in args):
        return _fold_call(b.id, tuple(a[1] for a in args))  # type: ignore[misc]
    if b.result is ResultDim.MASK:
        pick = swizzle_pick(args[1])
        if pick is None:
            return TOP
        # a picked lane reads the masked argument: a number (0 past its width)
        return (1 << sum(1 << k for k in range(4) if pick[k] <= 0), None)
    if b.result is ResultDim.FULL:
        return (1 << 0, None)
    if b.result is ResultDim.FIXED:
        return (1 << lead(b.dim), None)
    return (_largest([a[0] for a in args]), None)


@functools.lru_cache(maxsize=1024)
def _largest_of(sets: tuple[int, ...]) -> int:
    largest = {0}
    for s in sets:
        largest = {max(x, w) for x in largest for w in widths(s)}
    return sum(1 << high(d) for d in largest)


def _largest(sets: list[int]) -> int:
    return _largest_of(tuple(sets))


def setvar(cur: Val, v: Val, pairs: list[tuple[int, int]] | None) -> Val:
    """SETVAR: the whole register, or (source lane, destination lane) pairs of zeroNaN(v)."""
    if pairs is None:
        return v
    if cur[1] is not None and v[1] is not None:
        out = list(lanes(cur))
        src = [0.0 if x != x else x for x in lanes(v)]
        for k, d in pairs:
            out[d] = src[k]
        return of_lanes(out)
    written = sum(1 << d for _, d in pairs)
    s = 0
    for p in patterns(cur[0]):
        s |= 1 << (p & ~written)
    return (s, None)


def jumps(cond: Val) -> bool | None:
    """Does CONDJUMP jump (c.x == 0; NaN does not)? None when it depends on the pixel."""
    if cond[1] is not None:
        return lanes(cond)[0] == 0
    if not cond[0] & _X_NUMBER:
        return False  # x is NaN on every path
    return None


def describe(ws: frozenset[int]) -> str:
    """'a float3', 'a float or a float3' (width 0: a value with no lanes, all NaN)."""
    names = [("a float" if w == 1 else f"a float{w}") if w else "an all-NaN value"
             for w in sorted(ws)]
    return " or ".join(names)
