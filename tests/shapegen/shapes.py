"""The shape generator's kinds (tests/shapegen/__init__.py says what each aims at)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from psl.optimize.hoist import LOOP_WEIGHT
from psl.optimize.unroll import MAX_TRIPS, UNROLL_BUDGET
from psl.registry import LIMITS
from tests.shapegen.measure import before_after_hoist, o0_size

# Expressions of one value for the whole pixel (hoist's candidates, §10.9)
PURE = ["uv().x + 1", "pow(10, 2)", "sin(time().y * 1.5)", "cos(xy().y) * 3",
        "float2(time().x, 4)", "sqrt(uv().y + 0.25)", "uv().y * 2 - 1", "abs(xy().x) + 0.5",
        "lerp(uv().x, 2, 0.25)", "clamp(uv().x * 3, 0, 1)", "time().y", "-uv().x",
        "length(uv() - 0.5)", "float3(uv().x, uv().y, 1).zyx"]
# Expressions that read a texture (never hoisted) or constants only (folded)
TEXTURE = ["self(uv()).x", "camera(uv()).y", "video(uv()).z"]
CONST = ["2", "0.5", "-1", "1 / 32", "pow(2, 3)", "float2(1, 2)", "0 / 0",
         "0." + "0" * 40 + "1"]  # a subnormal
COND = ["uv().x < 0.5", "uv().y > 0.3", "xy().x < 0", "time().y > 1000", "0 > 1", "1",
        "self(uv()).x > 0.5", "uv().x == uv().y"]


@dataclass(frozen=True)
class Shape:
    text: str
    tags: tuple[str, ...]  # what it holds, for the campaign's counts


def _expr(rng: random.Random, names: list[str], depth: int = 2) -> str:
    """A value: pure, texture, constant or a read of `names`, sometimes combined."""
    pick = rng.random()
    if depth <= 0 or pick < 0.45:
        pool = PURE * 3 + CONST + TEXTURE + names * 4
        return rng.choice(pool)
    a, b = _expr(rng, names, depth - 1), _expr(rng, names, depth - 1)
    form = rng.choice(["({a}) + ({b})", "({a}) * ({b})", "max({a}, {b})", "({a}) - ({b})",
                       "sin({a})", "({a}).x", "pow({a}, {b})", "({a}) < ({b})"])
    return form.format(a=a, b=b)


def _join(rng: random.Random, names: list[str]) -> str:
    """A construct that ends in a join point: an if, if/else, while or for."""
    v = rng.choice(["k", "m", *names])  # a store that may be dead or read later
    inner = f"{v} = {_expr(rng, names, 1)};"
    form = rng.randrange(6)
    if form == 0:
        return f"if ({rng.choice(COND)}) {{ {inner} }}"
    if form == 1:
        return (f"if ({rng.choice(COND)}) {{ {inner} }} else {{ "
                f"{rng.choice(['k', 'm'])} = {_expr(rng, names, 1)}; }}")
    if form == 2:
        return f"w = 0; while (w < {rng.randint(1, 4)}) {{ {inner} w++; }}"
    if form == 3:
        return f"for (j = 0; j < {rng.randint(1, 5)}; j++) {{ {inner} }}"
    if form == 4:
        return f"if ({rng.choice(COND)}) {{ if ({rng.choice(COND)}) {{ {inner} }} }}"
    return f"w = uv().x; while (w < 1) {{ {inner} w = w + 0.25; }}"


def join_call(rng: random.Random) -> Shape:
    """§10.6: a jump lands at a join point whose next statement calls a user function
    with arguments dse forwards (or moves, or deletes as dead)."""
    nparams = rng.randint(1, 4)
    params = [f"p{i}" for i in range(nparams)]
    body = " + ".join(f"{p} * {rng.randint(1, 3)}" for p in params)
    lines = [f"fun f({', '.join(params)}) {{ {body} }}"]
    if rng.random() < 0.4:
        lines.append("fun g(a) { a * a + 1 }")
    names: list[str] = []
    if rng.random() < 0.5:
        lines.append(f"a = {rng.choice(PURE)};")
        names.append("a")
    for _ in range(rng.randint(1, 3)):
        lines.append(_join(rng, names))
    args = []
    for _ in params:
        arg = _expr(rng, names, rng.randint(0, 2))
        if "g(" in lines[1] if len(lines) > 1 else False:
            arg = rng.choice([arg, f"g({arg})"])
        args.append(arg)
    call = f"f({', '.join(args)})"
    joins = 1  # the last construct before the call
    tail = rng.randrange(4)
    if tail == 0:
        lines.append(call)
    elif tail == 1:
        lines.append(f"r = {call};\nr + {rng.choice(names or ['k'])}")
    elif tail == 2:
        lines.append(f"sin({call}) + {_expr(rng, names, 1)}")
    else:  # a second join and call after the first
        lines.append(f"r = {call};")
        lines.append(_join(rng, names + ["r"]))
        lines.append(f"f({', '.join(_expr(rng, names + ['r'], 1) for _ in params)}) + r")
        joins += 1
    return Shape("\n".join(lines) + "\n", ("join_before_call",) * joins)


def _loop_program(trips: int, body: str, extra: str = "", start: str = "0",
                  op: str = "<", step: str = "i++") -> str:
    return (f"s = 0;\n{extra}for (i = {start}; i {op} {trips}; {step}) {{ {body} }}\n"
            "s + i\n")


def _loop_bodies(rng: random.Random) -> str:
    parts = [f"s = s + {rng.choice(PURE)};"]
    for _ in range(rng.randint(0, 3)):
        parts.append(rng.choice([f"s = s * {rng.choice(PURE)};", "s = s + i;",
                                 f"t = {rng.choice(PURE)} + i; s = s + t;",
                                 f"s = s + {rng.choice(TEXTURE)};",
                                 f"if (i > {rng.randint(0, 20)}) {{ s = s - 1; }}",
                                 f"s = max(s, {rng.choice(PURE)} * i);"]))
    return " ".join(parts)


def unroll(rng: random.Random) -> Shape:
    """§10.8 against §10.9: a counted loop whose `count × body` is at the unroll budget,
    one below or above it, as the body is before hoist or after it; trip counts at
    MAX_TRIPS; the loop after code that hoist grows."""
    body = _loop_bodies(rng)
    extra = ""
    if rng.random() < 0.5:  # hoists outside the counted loop: code grows by 2 per class
        extra = "q = 0; while (q < uv().x) { " + " ".join(
            f"q = q + {rng.choice(PURE)} * {rng.randint(2, 9)};"
            for _ in range(rng.randint(1, 4))) + " }\n"
    probe = before_after_hoist(_loop_program(1000, body, extra))
    sizes: list[int] = []
    if probe:
        for found in probe:
            sizes += [lp.body for lp in found[-1:]]  # the counted loop is the last one
    choices = [MAX_TRIPS - 1, MAX_TRIPS, MAX_TRIPS + 1, rng.randint(1, 40)]
    for b in sizes:
        if b > 0:
            choices += [UNROLL_BUDGET // b + d for d in (-1, 0, 1)]
    trips = max(1, rng.choice(choices))
    tags = []
    if trips in (MAX_TRIPS - 1, MAX_TRIPS, MAX_TRIPS + 1):
        tags.append("trips_at_max")
    for when, b in zip(("before", "after"), sizes, strict=False):
        if b > 0 and abs(trips * b - UNROLL_BUDGET) <= b:
            tags.append(f"budget_edge_{when}_hoist")
    if len(sizes) == 2 and sizes[0] > 0 and sizes[1] > 0 and (
            (trips * sizes[0] > UNROLL_BUDGET) != (trips * sizes[1] > UNROLL_BUDGET)):
        tags.append("budget_split_by_hoist")
    form = rng.randrange(4)
    if form == 0:
        text = _loop_program(trips, body, extra)
    elif form == 1:
        text = _loop_program(trips, body, extra, op="<=")
    elif form == 2:  # counting down
        text = _loop_program(0, body, extra, start=str(trips), op=">", step="i--")
    else:
        text = _loop_program(trips * 2, body, extra, step="i += 2")
    return Shape(text, tuple(tags) or ("counted_loop",))


#: a function whose every call inlines about 200 instructions; what its argument reads decides
#: whether hoist can touch them (uv(): yes, self(): no, unroll_at_limit)
_BIG = "fun big(a) { " + " + ".join(f"sin(a * {k + 1}.5)" for k in range(40)) + " }\n"
_SMALLS = ["z = z + uv().x;", "z = z * 2;", "z = z + 1;"]
_SIZES: dict[str, int] = {}  # a filler statement's -O0 instructions (they add up)


def _pad_to(rng: random.Random, head: str, tail: str, target: int) -> str:
    """`head`, statements that fill the program to `target` -O0 instructions or just under
    it, then `tail`: `z = z + big(uv().x);` (inlines many instructions) and small ones."""

    def text(nbig: int, fill: list[str]) -> str:
        return (_BIG + head + "z = 0;\n" + "z = z + big(uv().x);\n" * nbig
                + " ".join(fill) + "\n" + tail)

    base = o0_size(text(0, []))
    if base is None:
        return text(0, [])
    if not _SIZES:
        _SIZES["big"] = (o0_size(text(1, [])) or base) - base
        for stmt in _SMALLS:
            _SIZES[stmt] = (o0_size(text(0, [stmt])) or base) - base
    room = target - base
    nbig = max(0, room // _SIZES["big"] - rng.randint(0, 1))
    room -= nbig * _SIZES["big"]
    fill: list[str] = []
    while True:
        fits = [st for st in _SMALLS if _SIZES[st] <= room]
        if not fits:
            break
        stmt = rng.choice(fits)
        fill.append(stmt)
        room -= _SIZES[stmt]
    return text(nbig, fill)


_OPAQUE = "z = z + self(uv()).x;"  # reads a texture and a register: never hoisted
_PRE: dict[str, int] = {}  # what one filler adds to the code unroll sees before hoist


def _unrolled_size(src: str, trips: int) -> tuple[int, int] | None:
    """(the size the last counted loop, run `trips` times, would unroll the code to on the
    code before hoist; the same after hoist), as §10.8's limit check counts them."""
    probe = before_after_hoist(src)
    if not probe or not probe[0] or not probe[1]:
        return None
    before, after = (lp.size - (lp.body + 5) + trips * lp.body
                     for lp in (probe[0][-1], probe[1][-1]))
    return before, after


def unroll_at_limit(rng: random.Random) -> Shape:
    """A counted loop whose copies would end the program at the instruction limit on the
    code before hoist and past it after hoist (`grow`: hoist adds a SETVAR and a PUSHVAR for
    each input it moves out of another loop), or the other way round."""
    trips = rng.choice([8, 16, 32, 64])
    shrink = rng.random() < 0.3  # the loop's own inputs hoisted: its copies shrink
    body = "s = s + self(uv()).x * i;" + (f" s = s * {rng.choice(PURE)};" if shrink else "")
    grow = "" if shrink else "q = 0; while (q < uv().x) { " + " ".join(
        f"q = q + {p} * {k + 2};" for k, p in enumerate(rng.sample(PURE, rng.randint(1, 12)))
    ) + " }\n"
    tail = _loop_program(trips, body).replace("s + i\n", "s + i + z\n")

    def text(nbig: int, nsmall: int) -> str:
        return (_BIG + grow + "z = 0;\n" + "z = z + big(self(uv()).x);\n" * nbig
                + " ".join([_OPAQUE] * nsmall) + "\n" + tail)

    base = _unrolled_size(text(0, 0), trips)
    if base is None:
        return Shape(text(0, 0), ("unroll_limit_unmeasured",))
    if not _PRE:
        _PRE["big"] = (_unrolled_size(text(1, 0), trips) or base)[0] - base[0]
        _PRE["small"] = ((_unrolled_size(text(0, 40), trips) or base)[0] - base[0]) / 40
    # the body's copies count trips × body against the limit, once: aim the code around
    # them at the window where the two sizes fall on either side of the limit
    copies = base[0]
    grows = base[1] - base[0]  # > 0: hoist grows the code
    lo, hi = sorted((LIMITS.instructions - grows, LIMITS.instructions))
    want = rng.randint(lo + 1, hi) if hi > lo else LIMITS.instructions
    room = want - copies
    nbig = max(0, int(room // _PRE["big"]) - 1)
    nsmall = max(0, round((room - nbig * _PRE["big"]) / max(_PRE["small"], 1)))
    got = None
    for _ in range(3):
        got = _unrolled_size(text(nbig, nsmall), trips)
        if got is None or got[0] == want:
            break
        nsmall = max(0, nsmall + round((want - got[0]) / max(_PRE["small"], 1)))
        got = None
    got = got or _unrolled_size(text(nbig, nsmall), trips)
    split = got is not None and min(got) <= LIMITS.instructions < max(got)
    return Shape(text(nbig, nsmall), ("unroll_limit_split_by_hoist" if split
                                      else "unroll_near_limit",))


def limit(rng: random.Random) -> Shape:
    """Programs at the VM's and the optimizer's limits."""
    which = rng.randrange(7)
    if which == 6:
        return unroll_at_limit(rng)
    if which <= 1:  # the instruction limit, with a loop that would unroll past it
        body = _loop_bodies(rng)
        trips = rng.choice([4, 8, 16, 32, 64])
        grow = "q = 0; while (q < uv().x) { " + " ".join(
            f"q = q + {p} * {k + 2};" for k, p in enumerate(rng.sample(PURE, 4))) + " }\n"
        head = grow if rng.random() < 0.7 else ""
        tail = _loop_program(trips, body)
        target = LIMITS.instructions - rng.choice([0, 1, 2, 8, 40, 200, 600])
        return Shape(_pad_to(rng, head, tail, target), ("instruction_limit",))
    if which == 2:  # the register limit
        n = LIMITS.registers - rng.randint(0, 3)
        lines = [f"v{k} = {rng.choice(PURE)} + {k};" for k in range(n)]
        lines.append(" + ".join(f"v{k}" for k in rng.sample(range(n), 12)))
        return Shape("\n".join(lines) + "\n", ("register_limit",))
    if which == 3:  # the stack limit: a call's arguments all on the stack, and values
        # that forwarding would move into them (deeper than their reads)
        n = LIMITS.stack - rng.randint(1, 4)
        params = ", ".join(f"a{k}" for k in range(n))
        args = [rng.choice(["1", "uv().x", "b", "c"]) for _ in range(n)]
        for k in rng.sample(range(n), 3):
            args[k] = rng.choice(["b", "c"])
        return Shape(f"fun h({params}) {{ a0 + a{n - 1} + a{n // 2} }}\n"
                     f"b = {rng.choice(PURE)} * ({rng.choice(PURE)} + {rng.choice(PURE)});\n"
                     f"c = max(uv().x, b * {rng.choice(PURE)});\nh({', '.join(args)})\n",
                     ("stack_limit",))
    if which == 4:  # loops nested at the optimizer's limit and one past it
        levels = LIMITS.optimize_loop_nesting + rng.choice([-1, 0, 1])
        text = "s = s + uv().x;"
        for d in range(levels):
            text = f"for (i{d} = 0; i{d} < 2; i{d}++) {{ {text} }}"
        return Shape(f"s = 0;\n{text}\ns\n", (f"loop_nesting_{levels}",))
    # the source text's limit: one long line of small statements
    stmt = rng.choice(["x = x + uv().x; ", "x = x * 0.5 + 1; ", "if (x > 1) { x = 0; } "])
    count = (LIMITS.source_chars - 10) // len(stmt)
    return Shape("x = 0; " + stmt * min(count, 1500) + "\nx\n", ("source_limit",))


def hoist_inputs(rng: random.Random) -> Shape:
    """§10.9: hoistable inputs in loops, in branches never taken, in loop conditions."""
    lines = ["s = 0;"]
    tags = []
    for _ in range(rng.randint(1, 4)):
        p = rng.choice(PURE)
        form = rng.randrange(6)
        tags.append(("hoist_in_dead_branch", "hoist_in_dead_branch", "hoist_in_loop_condition",
                     "hoist_in_counted_loop", "hoist_outside_loops", "hoist_in_loop")[form])
        if form == 0:
            lines.append(f"if (0 > 1) {{ s = s + {p}; }}")
        elif form == 1:
            lines.append(f"if (time().y > 1000000000) {{ s = {p} * {rng.choice(PURE)}; }}")
        elif form == 2:
            lines.append(f"w = 0; while (w < {p}) {{ s = s + {rng.choice(PURE)}; w++; }}")
        elif form == 3:
            lines.append(f"for (j = 0; j < {rng.randint(1, 30)}; j++) "
                         f"{{ s = s + {p} * j; }}")
        elif form == 4:  # a pure tree reused often enough outside loops (weight 1 each)
            lines += [f"s = s + {p};"] * rng.randint(1, LOOP_WEIGHT + 1)
        else:
            lines.append(f"while (s < {p}) {{ s = s + 0.5; if ({rng.choice(COND)}) "
                         f"{{ s = s + {rng.choice(TEXTURE)}; }} }}")
    lines.append(rng.choice(["s", "float2(s, uv().x)", "s * self(uv()).x"]))
    return Shape("\n".join(lines) + "\n", tuple(tags))


KINDS: dict[str, Callable[[random.Random], Shape]] = {
    "join_call": join_call,
    "unroll": unroll,
    "limit": limit,
    "hoist": hoist_inputs,
}
