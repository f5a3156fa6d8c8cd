"""An independent, deliberately literal one-pixel interpreter of SPEC §7 for differential
tests of the vectorised VM. It shares no code with psl.vm: every float4 is a numpy float32
array of 4 lanes, every builtin is written out again from SPEC §8. Texture builtins and
AudioLink are not covered (tests that use the oracle avoid them)."""

from __future__ import annotations

import math

import numpy as np

from psl.registry import BUILTIN_BY_ID, FUSED_BY_OP, LIMITS, Op

F = np.float32
S = F(np.nan)


def dim(v: np.ndarray) -> int:
    return int(sum(1 for x in v if not math.isnan(float(x))))


def mask(d: int) -> np.ndarray:
    out = np.zeros(4, F)
    if 0 < d < 4:
        out[d:] = S
    return out


def restore(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    return np.array([m[i] if math.isnan(float(m[i])) else v[i] for i in range(4)], F)


def zero_nan(v: np.ndarray) -> np.ndarray:
    return np.array([F(0) if math.isnan(float(x)) else x for x in v], F)


def cast(v: np.ndarray, frm: int, to: int) -> np.ndarray:
    if frm == to:
        return v.copy()
    out = np.full(4, S, F)
    for i in range(to):
        out[i] = v[0] if frm == 1 else v[i]
    return out


def to_uint(x: float) -> int:
    if math.isnan(x) or x <= 0:
        return 0
    return min(int(x), 2**32 - 1)


def truthy(x: F) -> bool:
    return bool(x != 0)  # NaN != 0 is true


def binop(op: int, a: F, b: F) -> F:
    with np.errstate(all="ignore"):
        if op == 1:
            return F(a + b)
        if op == 2:
            return F(a - b)
        if op == 3:
            return F(a * b)
        if op == 4:
            return F(a / b)
    table = {5: a < b, 6: a > b, 7: a == b, 8: a <= b, 9: a >= b, 10: a != b,
             11: truthy(a) and truthy(b), 12: truthy(a) or truthy(b)}
    return F(1.0 if table.get(op, False) else 0.0)


def _dot(a, b):
    s = F(a[0] * b[0])
    for i in range(1, 4):
        s = F(s + F(a[i] * b[i]))
    return s


def builtin(bid: int, args: list[np.ndarray], dims: list[int], px: dict) -> np.ndarray:
    """args are masked (and padded); returns the raw float4 before sentinel shaping."""
    a = args[0] if args else None
    b = args[1] if len(args) > 1 else None
    c = args[2] if len(args) > 2 else None
    with np.errstate(all="ignore"):
        lanewise = {
            1: np.log, 2: np.log2, 3: np.sin, 4: np.cos, 5: np.tan, 6: np.arcsin,
            7: np.arccos, 8: np.arctan, 10: np.exp, 11: np.exp2, 12: np.sqrt,
            13: lambda x: F(1) / np.sqrt(x), 14: np.abs, 15: np.sign, 16: np.floor,
            17: np.ceil, 18: lambda x: x - np.floor(x),
        }
        if bid in lanewise:
            if bid in range(1, 12):  # transcendental: correctly rounded float32
                return np.asarray(lanewise[bid](a.astype(np.float64)), np.float64).astype(F)
            return np.asarray(lanewise[bid](a), F)
        if bid == 9:
            return np.power(a.astype(np.float64), b.astype(np.float64)).astype(F)
        if bid == 19:
            return np.array([F(x - F(y * np.floor(F(x / y)))) for x, y in zip(a, b, strict=True)],
                            F)
        if bid == 20:
            return np.array([min(x, y) for x, y in zip(a, b, strict=True)], F)
        if bid == 21:
            return np.array([max(x, y) for x, y in zip(a, b, strict=True)], F)
        if bid == 22:
            return np.array([min(max(x, y), z) for x, y, z in zip(a, b, c, strict=True)], F)
        if bid == 23:
            return np.array([F(x + F(F(y - x) * z)) for x, y, z in zip(a, b, c, strict=True)], F)
        if bid == 24:
            return np.array([F(1) if y >= x else F(0) for x, y in zip(a, b, strict=True)], F)
        if bid == 25:
            out = []
            for x, y, z in zip(a, b, c, strict=True):
                t = F(F(z - x) / F(y - x))
                # HLSL min/max return the non-NaN operand (IEEE minNum/maxNum)
                t = F(np.fmin(np.fmax(t, F(0)), F(1)))
                out.append(F(F(t * t) * F(F(3) - F(2) * t)))
            return np.array(out, F)
        if bid in (26, 27, 28):
            n = bid - 24
            return np.array([args[i][0] for i in range(n)] + [S] * (4 - n), F)
        if bid == 29:
            out = np.full(4, S, F)
            for k in range(4):
                if b[k] > 0:
                    lane = int(min(float(b[k]), 1e9)) - 1
                    # lanes past w are not defined by SPEC; psl reads them as 0
                    out[k] = a[lane] if 0 <= lane < 4 else F(0)
            return out
        if bid == 30:
            return np.array([px["u"], px["v"], S, S], F)
        if bid == 31:
            return np.array([F(F(F(2) * F(px["u"] - F(0.5))) * F(10)),
                             F(F(F(2) * F(px["v"] - F(0.5))) * F(10)), S, S], F)
        if bid == 32:
            t = px["time"]
            return np.array([t / 20, t, 2 * t, 3 * t], np.float64).astype(F)
        if bid == 33:
            return np.array([np.round(x) for x in a], F)
        if bid == 34:
            return np.array([_dot(a, b), S, S, S], F)
        if bid == 35:
            return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                             a[0] * b[1] - a[1] * b[0], S], F)
        if bid == 36:
            d = (a - b).astype(F)
            return np.array([np.sqrt(_dot(d, d)), S, S, S], F)
        if bid == 37:
            return (a / np.sqrt(_dot(a, a))).astype(F)
        if bid == 38:
            return np.array([np.sqrt(_dot(a, a)), S, S, S], F)
        if bid == 39:
            return (a - F(2) * _dot(a, b) * b).astype(F)
        if bid == 40:
            eta = c[0]
            d = _dot(b, a)
            k = F(1) - eta * eta * (F(1) - d * d)
            if k < 0:
                return np.zeros(4, F)
            return (eta * a - (eta * d + np.sqrt(k)) * b).astype(F)
        if bid == 42:
            return np.array([px["width"], px["height"], S, S], F)
        if bid == 43:
            return np.array(px["button"], F)
        if bid == 44:
            return np.array(px["axis"], F)
        if bid == 46:
            dt = px["dt"]
            return np.array([dt, 1 / dt, dt, 1 / dt], np.float64).astype(F)
        if bid == 48:
            ok = all(a[i] != 0 for i in range(dims[0]))
            return np.array([F(1) if ok else F(0), S, S, S], F)
        if bid == 49:
            return np.array([F(1) if any(x != 0 for x in a) else F(0), S, S, S], F)
        if bid == 50:  # atan2(y, x), correctly rounded
            return np.array([F(math.atan2(float(y), float(x)))
                             for y, x in zip(a, b, strict=True)], F)
        if bid == 51:  # fmod: x - y * trunc(x / y), every step rounded to float32
            return np.array([F(x - F(y * np.trunc(F(x / y)))) for x, y in zip(a, b, strict=True)],
                            F)
        if bid == 52:  # saturate: the min/max rule with 0 and 1
            return np.array([np.fmin(np.fmax(x, F(0)), F(1)) for x in a], F)
        if bid == 53:
            return np.array([np.trunc(x) for x in a], F)
        if bid == 54:
            return np.array([F(x * F(math.pi / 180)) for x in a], F)
        if bid == 55:
            return np.array([F(x * F(180 / math.pi)) for x in a], F)
        if bid == 60:  # slider floor(a.x) of the frame's values, 0 outside them (§8.8)
            values = px.get("sliders", ())
            k = math.floor(float(a[0])) if math.isfinite(float(a[0])) else -1
            return np.array([F(values[k]) if 0 <= k < len(values) else F(0), S, S, S], F)
        if bid in (56, 57, 58, 59):  # correctly rounded: float64, then float32
            fn = {56: np.sinh, 57: np.cosh, 58: np.tanh, 59: np.log10}[bid]
            return np.asarray(fn(a.astype(np.float64)), np.float64).astype(F)
    raise NotImplementedError(f"oracle has no builtin {bid}")


LARGEST = set(range(1, 26)) | {37, 39, 40} | set(range(50, 60))


def run_pixel(slots: np.ndarray, px: dict, max_jumps: int = LIMITS.jumps,
              max_steps: int = LIMITS.steps) -> np.ndarray:
    prog = np.zeros((LIMITS.slots + 2, 4), F)
    arr = np.asarray(slots, F).reshape(-1, 4)[: LIMITS.slots]
    prog[: len(arr)] = arr
    stack = [np.zeros(4, F) for _ in range(LIMITS.stack)]
    sp = 0
    vtab = [np.zeros(4, F) for _ in range(LIMITS.registers)]
    j = 0
    e = 0  # executed instructions (the work budget, SPEC §7.2)

    def push(v):
        nonlocal sp
        stack[sp % LIMITS.stack] = np.array(v, F)
        sp = (sp + 1) % 2**32

    def pop():
        nonlocal sp
        sp = (sp - 1) % 2**32
        return stack[sp % LIMITS.stack].copy()

    def step(op: int, o: np.ndarray, n: int, i: int) -> int:
        """One plain instruction (SPEC §7.3); returns the next slot index."""
        nonlocal j
        if op == Op.PUSHCONST:
            push(o)
        elif op == Op.PUSHVAR:
            push(vtab[n % 256])
        elif op == Op.BINOP:
            r = pop()
            left = pop()
            dr, dl = dim(r), dim(left)
            if dr == 1 and dl != 1:
                r = cast(r, 1, dl)
            elif dl == 1 and dr != 1:
                left = cast(left, 1, dr)
            res = np.array([binop(n, left[k], r[k]) if n in range(1, 13) else F(0)
                            for k in range(4)], F)
            push(restore(res, mask(max(dl, dr))))
        elif op == Op.UNOP:
            v = pop()
            d = dim(v)
            if n == 45:
                v = (-v).astype(F)
            elif n == 33:
                v = np.array([F(1) if x == 0 else F(0) for x in v], F)
            push(restore(v, mask(d)))
        elif op == Op.CALL:
            b = BUILTIN_BY_ID.get(n)
            if b is None:
                push(np.zeros(4, F))
            else:
                vals = [pop() for _ in range(b.arity)][::-1]
                dims = [dim(v) for v in vals]
                masked = [zero_nan(v) for v in vals]
                big = max(dims, default=0)
                if b.pad:
                    masked = [zero_nan(cast(v, d, big)) for v, d in zip(masked, dims, strict=True)]
                res = builtin(n, masked, dims, px)
                if n in LARGEST:
                    res = restore(res, mask(big))
                elif n not in (29,) and b.dim < 4 and b.result.value == "fixed":
                    res = np.array([res[k] if k < b.dim else S for k in range(4)], F)
                push(res)
        elif op == Op.SETVAR:
            v = pop()
            m = to_uint(float(o[1]))
            if m == 0:
                vtab[n % 256] = v
            else:
                digits = [int(ch) for ch in str(m % 10000)]
                vz = zero_nan(v)
                cur = vtab[n % 256].copy()
                for k, d in enumerate(digits[:4]):
                    if 1 <= d <= 4:
                        cur[d - 1] = vz[k]
                vtab[n % 256] = cur
        elif op == Op.JUMP:
            i = n - 2
            j += 1
        elif op == Op.CONDJUMP:
            c = pop()
            if c[0] == 0:
                i = n - 2
                j += 1
        return i + 2

    i = 0
    while i < LIMITS.slots:
        if j > max_jumps:
            break
        op = to_uint(float(np.round(prog[i][0])))
        o = prog[i + 1]
        n = to_uint(float(np.round(o[0])))
        fused = FUSED_BY_OP.get(op)
        weight = 1 if fused is None else len(fused.tokens) + fused.tokens.count("W")
        if e + weight > max_steps:
            break
        if op == 0:
            break
        e += weight
        if fused is None:
            i = step(op, o, n, i)
            continue
        # a fused instruction (SPEC §11): field k is lane k + 1 of slot i, then slot i + 1
        fields = [*prog[i][1:], *prog[i + 1]]
        nxt = i + 2
        for t, x in zip(fused.tokens, fields, strict=False):
            num = to_uint(float(np.round(x)))
            if t == "V":
                step(Op.PUSHVAR, NAN4, num, i)
            elif t == "K":
                step(Op.PUSHCONST, np.array([x, S, S, S], F), 0, i)
            elif t == "W":
                d = num % 10000
                pick = np.array([d // 1000, d // 100 % 10, d // 10 % 10, d % 10], F)
                step(Op.PUSHCONST, pick, 0, i)
                step(Op.CALL, NAN4, 29, i)
            elif t == "S":
                step(Op.SETVAR, NAN4, num, i)
            else:
                code = {"B": Op.BINOP, "U": Op.UNOP, "C": Op.CALL, "J": Op.CONDJUMP,
                        "G": Op.JUMP}[t]
                nxt = step(code, NAN4, num, i)
        i = nxt
    return zero_nan(pop())


NAN4 = np.full(4, np.nan, F)
