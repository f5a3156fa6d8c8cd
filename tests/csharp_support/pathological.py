"""Pathological PSL programs: the differential tests' (tests/test_udonsharp_diff.py) and the
cost benchmarks' (bench/pathological.py, bench/udon_cost.py).

`programs()` gives every program by name. Each is deterministic and at most
LIMITS.source_chars characters (UTF-16 units; they are all ASCII), so none is rejected by its
length alone. The families:

  nest_*     (a) parentheses, calls and blocks nested up to LIMITS.nesting, repeated to fill
                 the source (and one that goes one level over at the very end: E003)
  soup_*     (b) ~16,000 one-character tokens (`1+1+1+...`): at top level (E030), inside a
                 function that is never called (ok), and the longest sum that fits (ok)
  inline_*   (c) exponential inlining, `a_k() { a_{k-1}() + a_{k-1}() }`: exactly at the
                 instruction limit (ok), one over (E030), a huge exact count (E030) and a
                 count past LIMITS.count_cap (E030, saturated)
  num_*      (d) number literals of 800+ digits repeated to fill the source: huge integers
                 (float32 infinity), 0.000...0001 (zero), 1.000...0001 and a double midpoint
                 (the exact slow path, big integers of up to ~180 limbs: several steps of
                 the C# compiler's 96), 1.000...0001 with 799 down to ~250 zeros, a float32
                 denormal and more than 800 significant digits (the sticky digit)
  unary_*    (e) unary operator chains `- - - ... 1`, `-+-+...1`, `!!!...1`
  ident_*    (f) one very long identifier; many distinct identifiers (E031); 256 names with a
                 long common prefix (at the register limit)
  fn_*       (g) many functions: a wrapper chain, many called functions, a recursion cycle
                 through all of them (E012 with a long path)
  params_*   (h) a function with thousands of parameters: never called (ok), called (E030),
                 and called with 1,000 (E031)
  chain_*    (i) inlining chains called many times: wrappers, wrappers each called once,
                 wrappers around an empty function, a parameter passed down 250 levels,
                 a doubling chain of 40 (E030) and a long chain downstream of a cycle (E012);
                 those that fill the source take the largest chain length that fits (its
                 length is the name's suffix)

The expected outcome of each (ok or the first error code, with psl's message) is recorded in
bench/pathological_manifest.json (`python3 bench/pathological.py --check`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator

from psl.registry import BUILTINS, KEYWORDS, LIMITS

LIMIT = LIMITS.source_chars
NEST = LIMITS.nesting
INSTRUCTIONS = LIMITS.instructions
REGISTERS = LIMITS.registers


# ---------------------------------------------------------------------------- helpers


def fill(head: str, units: Iterator[str] | Callable[[int], str], tail: str,
         limit: int = LIMIT) -> str:
    """head + as many units as fit + tail, at most `limit` characters (unless head + tail
    alone are longer). `units` is an iterator, or a function of the unit's index."""
    it = units if not callable(units) else (units(i) for i in itertools.count())
    out, size = [head], len(head) + len(tail)
    for u in it:
        if size + len(u) > limit:
            break
        out.append(u)
        size += len(u)
    out.append(tail)
    return "".join(out)


def largest(fits: Callable[[int], bool], lo: int = 1) -> int:
    """The largest n >= lo with fits(n), fits being true up to some n and false after."""
    if not fits(lo):
        raise ValueError(f"nothing fits, not even n = {lo}")
    hi = lo
    while fits(hi * 2):
        hi *= 2
    lo, hi = hi, hi * 2  # fits(lo), not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


def largest_fitting(make: Callable[[int], str], whole: Callable[[str], bool] = lambda t: True,
                    lo: int = 2) -> tuple[int, str]:
    """The largest n (from lo up) whose make(n) fits in the source limit and is `whole`
    (both monotone in n), and make(n)."""
    n = largest(lambda k: len(text := make(k)) <= LIMIT and whole(text), lo)
    return n, make(n)


_RESERVED = {k.lower() for k in KEYWORDS} | {b.name.lower() for b in BUILTINS}
_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_REST = _FIRST + "0123456789"


def short_names() -> Iterator[str]:
    """Distinct identifiers, shortest first, none a keyword or builtin (any case)."""
    for length in itertools.count(1):
        for first in _FIRST:
            for rest in itertools.product(_REST, repeat=length - 1):
                name = first + "".join(rest)
                if name.lower() not in _RESERVED:
                    yield name


@functools.cache
def _first_short_names(n: int) -> tuple[str, ...]:
    return tuple(itertools.islice(short_names(), n))


def first_short_names(n: int) -> list[str]:
    """The first n of short_names() (memoised by the largest n asked)."""
    size = 1 << max(0, n - 1).bit_length()
    return list(_first_short_names(size)[:n])


def scattered_names(n: int, length: int) -> list[str]:
    """n distinct identifiers of `length` characters that differ early (a fixed LCG)."""
    names: list[str] = []
    seen: set[str] = set()
    state = 12345
    while len(names) < n:
        chars = []
        for k in range(length):
            state = (state * 1103515245 + 12345) % 2**31
            alphabet = _FIRST if k == 0 else _REST
            chars.append(alphabet[(state >> 8) % len(alphabet)])
        name = "".join(chars)
        if name not in seen and name.lower() not in _RESERVED:
            seen.add(name)
            names.append(name)
    return names


def digits(n: int, start: int = 1) -> str:
    """n decimal digits 1234567890..., from the `start`-th (1-9: no leading zero)."""
    cycle = "1234567890"
    return "".join(cycle[(start - 1 + i) % 10] for i in range(n))


# ---------------------------------------------------------------------------- (a) nesting


def nest_parens() -> str:
    """`x=((((...(1)...))));` NEST deep, repeated."""
    unit = "x=" + "(" * NEST + "1" + ")" * NEST + ";\n"
    return fill("", itertools.repeat(unit), "x\n")


def nest_calls() -> str:
    """`x=abs(abs(...abs(1)...));` NEST deep (a CALL per level), repeated."""
    unit = "x=" + "abs(" * NEST + "1" + ")" * NEST + ";\n"
    return fill("", itertools.repeat(unit), "x\n")


def nest_blocks_top() -> str:
    """`if(1){if(1){...}}` NEST deep at top level, repeated (3 instructions per if)."""
    unit = "if(1){" * NEST + "}" * NEST + "\n"
    return fill("", itertools.repeat(unit), "1\n")


def nest_blocks_uncalled() -> str:
    """Functions never called whose bodies nest if-blocks to NEST (`{` of the body is one)."""
    def unit(i: int) -> str:
        return f"fun f{i}(){{" + "if(1){" * (NEST - 1) + "}" * NEST + "\n"
    return fill("", unit, "1\n")


def nest_over_at_end() -> str:
    """nest_parens, then a last statement one level deeper than allowed: E003 at the end."""
    last = "x=" + "(" * (NEST + 1) + "1" + ")" * (NEST + 1) + ";\nx\n"
    unit = "x=" + "(" * NEST + "1" + ")" * NEST + ";\n"
    return fill("", itertools.repeat(unit), last)


# ---------------------------------------------------------------------------- (b) soup


def soup_sum_top() -> str:
    """`x=1+1+1+...+1;x`: every other character a token, all emitted (E030)."""
    return fill("x=1", itertools.repeat("+1"), ";x")


def soup_sum_uncalled() -> str:
    """The same soup in a function that is never called: parsed and checked, not emitted."""
    return fill("fun f(){1", itertools.repeat("+1"), "}\n1")


def soup_sum_at_limit() -> str:
    """The longest `x=1+...+1;` that compiles: 2n-1 + SETVAR = INSTRUCTIONS (when even), or
    as long as the source limit allows."""
    n = min(INSTRUCTIONS // 2, (LIMIT - 2) // 2)
    return "x=" + "+".join(["1"] * n) + ";"


def soup_vars_uncalled() -> str:
    """`a*b-c/d+...` one-character names and operators in a function that is never called."""
    names = "abcdeghjkn"  # one-letter names, none a builtin
    ops = "+-*/"
    return fill("fun f(){a", (f"{ops[i % 4]}{names[(i * 7) % 10]}" for i in itertools.count()),
                "}\n1")


# ---------------------------------------------------------------------------- (c) inlining


def _doubling_defs(n: int) -> str:
    """a0 .. a{n-1}: a0 is one instruction, a_k = 2 a_{k-1} + 1 = 2^(k+1) - 1."""
    return "fun a0(){1}\n" + "".join(f"fun a{k}(){{a{k - 1}()+a{k - 1}()}}\n" for k in range(1, n))


def inline_at_limit() -> str:
    """x=a9()+a8()+...+a0(); : sum of (2^(k+1)-1) + 9 BINOPs + SETVAR = exactly INSTRUCTIONS
    (2046 when the limit is 2046; the chain length follows the limit)."""
    top = INSTRUCTIONS.bit_length() - 2  # 2^(top+1) - 1 <= INSTRUCTIONS / 2
    return _doubling_defs(top + 1) + "x=" + "+".join(f"a{k}()" for k in range(top, -1, -1)) + ";"


def inline_over_by_one() -> str:
    """inline_at_limit plus a final expression `x` (one PUSHVAR): E030 with count limit+1."""
    return inline_at_limit() + "\nx"


def inline_exact_huge() -> str:
    """The longest doubling chain whose count stays exact (below LIMITS.count_cap): E030."""
    n = 1
    while 2 ** (n + 2) <= LIMITS.count_cap:  # top-level x=a{n}(); is 2^(n+1) instructions
        n += 1
    return _doubling_defs(n + 1) + f"x=a{n}();"


def inline_saturated() -> str:
    """As many doubling functions as fit in the source: a count past count_cap (E030 with
    count_cap + 1) and sizes far beyond 64 bits on the way."""
    def unit(k: int) -> str:
        return f"fun a{k + 1}(){{a{k}()+a{k}()}}\n"
    head = "fun a0(){1}\n"
    # the tail names the last function; reserve room for its name
    tail_room = len("x=a99999();")
    body = fill(head, unit, "", LIMIT - tail_room)
    last = body.count("fun ") - 1
    return body + f"x=a{last}();"


# ---------------------------------------------------------------------------- (d) numbers


def _numbers(literal: Callable[[int], str]) -> str:
    return fill("", lambda i: f"x={literal(i)};\n", "x")


def num_int800_inf() -> str:
    """`x=1234...(800 digits).5;`: beyond float32 (infinity)."""
    return _numbers(lambda i: digits(800, 1 + i % 9) + ".5")


def num_frac800_tiny() -> str:
    """`x=0.000...0001;` (800 digits after the point): rounds to zero."""
    return _numbers(lambda i: "0." + "0" * 799 + str(1 + i % 9))


def num_frac800_near_one() -> str:
    """`x=1.000...0001;` (800 significant digits): not exact in the fast path."""
    return _numbers(lambda i: "1." + "0" * 798 + str(1 + i % 9))


def num_near_one_790() -> str:
    """`x=1.000...0001;` with 790 zeros (the exact comparison's right side, 10^791, is 176
    limbs: more than one step of BIG_LIMBS_STEP = 96 in the C# compiler)."""
    return _numbers(lambda i: "1." + "0" * 790 + str(1 + i % 9))


def num_near_one_sweep() -> str:
    """`x=1.000...000d;` with 799, 780, 761, ... zeros: big integers of every size from 176
    limbs down across the 96-limb step of the C# compiler."""
    return _numbers(lambda i: "1." + "0" * max(0, 799 - 19 * i) + str(1 + i % 9))


# 1 + 2^-53, the midpoint between the doubles 1 and 1 + 2^-52 (exact decimal expansion)
DOUBLE_MIDPOINT = "1.00000000000000011102230246251565404236316680908203125"
# 2^-150, the midpoint between 0 and the smallest float32 denormal
FLOAT_DENORMAL_MID = ("0." + "0" * 45 + "7006492321624085354618647916449580656401309709382578"
                      "858785341419448955413429303007433190941810607910156250")


def num_double_midpoint() -> str:
    """1 + 2^-53 (a double midpoint) then zeros to 800 digits, then a last non-zero or zero
    digit: the exact comparison decides, at the 800th digit, which way it rounds."""
    def lit(i: int) -> str:
        pad = 800 - (len(DOUBLE_MIDPOINT) - 1)
        return DOUBLE_MIDPOINT + "0" * (pad - 1) + ("1" if i % 2 == 0 else "0")
    return _numbers(lit)


def num_denormal800() -> str:
    """2^-150 (rounds between 0 and the smallest float32 denormal), padded to 800 digits
    with a last digit that tips it up or not."""
    def lit(i: int) -> str:
        pad = 800 - (len(FLOAT_DENORMAL_MID) - 1)
        return FLOAT_DENORMAL_MID + "0" * (pad - 1) + ("1" if i % 2 == 0 else "0")
    return _numbers(lit)


def num_sticky1000() -> str:
    """1 + 2^-53 with the deciding digit past the 800th significant digit (sticky)."""
    def lit(i: int) -> str:
        pad = 1000 - (len(DOUBLE_MIDPOINT) - 1)
        return DOUBLE_MIDPOINT + "0" * (pad - 1) + str(i % 2)
    return _numbers(lit)


def num_mixed() -> str:
    """The literals above in turn."""
    kinds = [
        lambda i: digits(800, 1 + i % 9) + ".5",
        lambda i: "0." + "0" * 799 + "1",
        lambda i: "1." + "0" * 798 + "3",
        lambda i: DOUBLE_MIDPOINT + "0" * (800 - len(DOUBLE_MIDPOINT)) + "1",
        lambda i: FLOAT_DENORMAL_MID + "0" * (800 - len(FLOAT_DENORMAL_MID)) + "1",
        lambda i: "3." + digits(797, 1 + i % 9),
    ]
    return _numbers(lambda i: kinds[i % len(kinds)](i))


# ---------------------------------------------------------------------------- (e) unary


def unary_neg_spaced() -> str:
    """`x=- - - ... 1;x` (E030)."""
    return fill("x=", itertools.repeat("- "), "1;x")


def unary_alternating() -> str:
    """`x=-+-+...1;x`: one character per operator (no `--`/`++` token forms)."""
    return fill("x=", itertools.cycle("-+"), "1;x")


def unary_not() -> str:
    """`x=!!!...!1;x`."""
    return fill("x=", itertools.repeat("!"), "1;x")


def unary_at_limit() -> str:
    """The longest `x=-...-1;` that compiles: PUSHCONST + n UNOP + SETVAR = INSTRUCTIONS."""
    return "x=" + "- " * min(INSTRUCTIONS - 2, (LIMIT - 4) // 2) + "1;"


def unary_uncalled() -> str:
    """`!!!...!1` filling the body of a function that is never called."""
    return fill("fun f(){", itertools.repeat("!"), "1}\n1")


# ---------------------------------------------------------------------------- (f) identifiers


def ident_long() -> str:
    """One identifier as long as fits twice: `NAME=1;` then `NAME`."""
    n = (LIMIT - len("=1;\n")) // 2
    name = "v" + "".join(_REST[(i * 7) % len(_REST)] for i in range(n - 1))
    return f"{name}=1;\n{name}"


def ident_many_over_registers() -> str:
    """Many distinct names (assigned once each), within the instruction limit: E031."""
    # 2 instructions per assignment + the final PUSHVAR; at most as many as fit the source
    # limit with names of 3 characters (enough distinct ones)
    n = min((INSTRUCTIONS - 1) // 2, (LIMIT - 8) // (3 + len("=1;")))
    per = (LIMIT - 8) // n - len("=1;")
    names = scattered_names(n, max(1, min(per, 64)))
    return "".join(f"{v}=1;" for v in names) + names[0]


def ident_prefix_at_registers() -> str:
    """REGISTERS names sharing a long common prefix, differing only at the end: exactly the
    register limit; text comparisons of names see the whole prefix every time."""
    suffixes = first_short_names(REGISTERS)
    longest = max(len(s) for s in suffixes)
    # `PREFIXs=1;` for each name, then a final sum of the first four names
    per = (LIMIT - 4 * 200) // REGISTERS
    prefix = "p" + "_" * max(0, per - len("=1;") - longest - 1)
    names = [prefix + s for s in suffixes]
    return "".join(f"{v}=1;" for v in names) + "+".join(names[:4])


def ident_many_uncalled() -> str:
    """Thousands of distinct short names read in a function that is never called."""
    names = short_names()
    return fill("fun f(){0", (f"+{next(names)}" for _ in itertools.count()), "}\n1")


# ---------------------------------------------------------------------------- (g) functions


def fn_wrapper_chain() -> str:
    """`fun f0(){1}` `fun fK(){return f{K-1}();}` as many as fit; the last called once."""
    def unit(k: int) -> str:
        return f"fun f{k + 1}(){{return f{k}();}}\n"
    body = fill("fun f0(){1}\n", unit, "", LIMIT - len("f99999()"))
    return body + f"f{body.count('fun ') - 1}()"


def _wrapper_chain_backwards(n: int) -> str:
    text = "".join(f"fun f{k}(){{return f{k - 1}();}}\n" for k in range(n - 1, 0, -1))
    return text + "fun f0(){1}\n" + f"f{n - 1}()"


def fn_wrapper_chain_backwards() -> str:
    """The same chain defined last-first: every call is to a function defined further on."""
    n = fn_wrapper_chain().count("fun ")
    while len(text := _wrapper_chain_backwards(n)) > LIMIT:
        n -= 1
    return text


def _many_called(n: int) -> str:
    return "".join(f"fun f{k}(){{{k % 10}}}\n" for k in range(n)) + "+".join(
        f"f{k}()" for k in range(n))


def fn_many_called() -> str:
    """As many one-instruction functions as fit, each called once in a final sum."""
    n = largest(lambda k: 2 * k - 1 <= INSTRUCTIONS and len(_many_called(k)) <= LIMIT)
    return _many_called(n)


def _cycle(n: int) -> str:
    return ("".join(f"fun f{k}(){{f{k + 1}()}}\n" for k in range(n - 1))
            + f"fun f{n - 1}(){{f0()}}\nf0()")


def fn_cycle() -> str:
    """`f0 -> f1 -> ... -> fN -> f0`, as long as fits: E012 with the whole cycle."""
    return largest_fitting(_cycle)[1]


# ---------------------------------------------------------------------------- (h) parameters


def _params_fun(n: int) -> str:
    names = first_short_names(n)
    return f"fun f({','.join(names)}){{{names[0]}}}\n"


def params_uncalled() -> str:
    """A function with as many parameters as fit, never called."""
    return largest_fitting(lambda n: _params_fun(n) + "1", lo=16)[1]


def _params_called(n: int) -> str:
    return _params_fun(n) + "f(" + ",".join(["1"] * n) + ")"


def params_called() -> str:
    """As many parameters as fit with one call (n PUSHCONST + n SETVAR): E030."""
    return largest_fitting(_params_called, lo=16)[1]


def params_called_over_registers() -> str:
    """One call with the most arguments that fit the instruction limit: E031."""
    return _params_called(largest(lambda k: 2 * k + 1 <= INSTRUCTIONS
                                  and len(_params_called(k)) <= LIMIT))


def params_at_registers() -> str:
    """REGISTERS parameters, called once: exactly the register limit."""
    return _params_called(REGISTERS)


# ---------------------------------------------------------------------------- (i) chains


def wrapper_chain(n: int) -> str:
    """`a_k() { a_{k-1}() }`: a chain of n wrappers, its top called as often as fits."""
    defs = "fun a0(){1}\n" + "".join(f"fun a{i}(){{a{i - 1}()}}\n" for i in range(1, n))
    call = f"a{n - 1}()"
    return fill(defs + "x=" + call, itertools.repeat("+" + call), ";")


def wrapper_chain_each(n: int) -> str:
    """Every wrapper of a chain called once (top-level calls from the longest down; as many
    as fit)."""
    defs = "fun a0(){1}\n" + "".join(f"fun a{i}(){{ ((a{i - 1}())) }}\n" for i in range(1, n))
    calls = (f"+a{i}()" for i in range(n - 2, 0, -1))
    return fill(defs + f"x=a{n - 1}()", calls, ";")


def empty_chain(n: int) -> str:
    """Wrappers around an empty function, the top called as often as fits: every call emits
    nothing."""
    defs = "fun a0(){}\n" + "".join(f"fun a{i}(){{return a{i - 1}();}}\n" for i in range(1, n))
    call = f"a{n - 1}()"
    return fill(defs + "x=" + call, itertools.repeat("+0*" + call), ";")


def param_chain(n: int, calls: int) -> str:
    """`a_k(p) { a_{k-1}(p) }`: every level emits its parameter's SETVAR and PUSHVAR."""
    defs = "fun a0(p){p}\n" + "".join(f"fun a{i}(p){{a{i - 1}(p)}}\n" for i in range(1, n))
    # (each function's parameter is its own register: keep n below the register limit)
    return defs + "x=" + "+".join([f"a{n - 1}(1)"] * calls) + ";"


def doubling(n: int) -> str:
    """Exponential inlining: `a_k() { a_{k-1}() + a_{k-1}() }` (E030 with a huge count)."""
    return _doubling_defs(n) + f"x=a{n - 1}();"


def recursion_far_from_cycle(n: int) -> str:
    """A long acyclic chain downstream of a cycle, the cycle's call last in the source."""
    defs = "".join(f"fun d{i}(){{d{i + 1}()}}\n" for i in range(n)) + f"fun d{n}(){{1}}\n"
    return defs + "fun c1(){c2()+d0()}\nfun c2(){c1()}\nx=c1();"


def chain_programs() -> dict[str, str]:
    """Family (i), named with their chain length (the largest that fits, for those that fill
    the source)."""
    # the top call of wrapper_chain and empty_chain repeated at least 100 times; every
    # wrapper of wrapper_chain_each called
    fitted: dict[str, tuple[Callable[[int], str], Callable[[str], bool]]] = {
        "chain_wrapper": (wrapper_chain, lambda t: t.count("()+") >= 99),
        "chain_wrapper_each": (wrapper_chain_each, lambda t: t.endswith("a1();")),
        "chain_empty": (empty_chain, lambda t: t.count("+0*") >= 99),
        "chain_recursion_far_from_cycle": (recursion_far_from_cycle, lambda t: True),
    }
    out = {}
    for name, (make, whole) in fitted.items():
        n, text = largest_fitting(make, whole)
        out[f"{name}_{n}"] = text
    out["chain_param_250"] = param_chain(250, 4)
    out["chain_doubling_40"] = doubling(40)
    return out


# ---------------------------------------------------------------------------- all


def _long_tree(tail: str) -> str:
    """`let t = a*b+a*b+...;` as long as the limits allow, then `tail`: one expression tree of
    about INSTRUCTIONS instructions that -O1's forward moves (or dse deletes) as a whole."""
    head = "let a=uv().x;let b=uv().y;let t="
    n = min((LIMIT - len(head) - len(tail) - 1) // 4, (INSTRUCTIONS - 64) // 4)
    return head + "+".join(["a*b"] * n) + ";" + tail


def opt_long_tree_moved() -> str:
    """forward moves the whole tree to its one read."""
    return _long_tree("return float4(t,0,0,1);")


def opt_long_tree_dead() -> str:
    """t is never read: dse deletes the whole tree."""
    return _long_tree("return float4(a,0,0,1);")


def opt_long_tree_past_stores() -> str:
    """forward checks the tree against each store between it and its read."""
    return _long_tree("let u=a;let v=b;let w=a;return float4(t,u,v,w);")


GENERATORS: dict[str, Callable[[], str]] = {
    "nest_parens": nest_parens,
    "nest_calls": nest_calls,
    "nest_blocks_top": nest_blocks_top,
    "nest_blocks_uncalled": nest_blocks_uncalled,
    "nest_over_at_end": nest_over_at_end,
    "soup_sum_top": soup_sum_top,
    "soup_sum_uncalled": soup_sum_uncalled,
    "soup_sum_at_limit": soup_sum_at_limit,
    "soup_vars_uncalled": soup_vars_uncalled,
    "inline_at_limit": inline_at_limit,
    "inline_over_by_one": inline_over_by_one,
    "inline_exact_huge": inline_exact_huge,
    "inline_saturated": inline_saturated,
    "num_int800_inf": num_int800_inf,
    "num_frac800_tiny": num_frac800_tiny,
    "num_frac800_near_one": num_frac800_near_one,
    "num_near_one_790": num_near_one_790,
    "num_near_one_sweep": num_near_one_sweep,
    "num_double_midpoint": num_double_midpoint,
    "num_denormal800": num_denormal800,
    "num_sticky1000": num_sticky1000,
    "num_mixed": num_mixed,
    "unary_neg_spaced": unary_neg_spaced,
    "unary_alternating": unary_alternating,
    "unary_not": unary_not,
    "unary_at_limit": unary_at_limit,
    "unary_uncalled": unary_uncalled,
    "ident_long": ident_long,
    "ident_many_over_registers": ident_many_over_registers,
    "ident_prefix_at_registers": ident_prefix_at_registers,
    "ident_many_uncalled": ident_many_uncalled,
    "fn_wrapper_chain": fn_wrapper_chain,
    "fn_wrapper_chain_backwards": fn_wrapper_chain_backwards,
    "fn_many_called": fn_many_called,
    "fn_cycle": fn_cycle,
    "params_uncalled": params_uncalled,
    "params_called": params_called,
    "params_called_over_registers": params_called_over_registers,
    "params_at_registers": params_at_registers,
    "opt_long_tree_moved": opt_long_tree_moved,
    "opt_long_tree_dead": opt_long_tree_dead,
    "opt_long_tree_past_stores": opt_long_tree_past_stores,
}


def utf16_length(text: str) -> int:
    """The length LIMITS.source_chars is measured in (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@functools.cache
def _programs() -> tuple[tuple[str, str], ...]:
    out = {name: gen() for name, gen in GENERATORS.items()}
    out.update(chain_programs())
    for name, text in out.items():
        size = utf16_length(text)
        assert size <= LIMIT, f"{name}: {size} characters > {LIMIT}"
    return tuple(out.items())


def programs() -> dict[str, str]:
    """Every pathological program by name (deterministic; each at most LIMIT characters)."""
    return dict(_programs())


def verdict(result, text: str) -> dict:
    """psl's outcome as bench/pathological_manifest.json records it, from
    `psl.compiler.compile_source(text)`: ok with the instruction and register counts, or the
    first error's code, position and message."""
    out: dict = {"chars": len(text)}
    if result.ok:
        prog = result.unwrap()
        out.update(expect="ok", instructions=len(prog.instructions), registers=prog.registers)
    else:
        err = result.errors[0]
        out.update(expect=err.code, at=f"{err.span.line}:{err.span.column}", message=err.message)
    return out
