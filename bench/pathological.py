"""Pathological PSL programs for the compilers' cost benchmarks (bench/udon_cost.py).

Each program is deterministic and at most LIMITS.source_chars characters (UTF-16 units;
they are all ASCII). The families:

  nest_*     (a) parentheses, calls and blocks nested up to LIMITS.nesting, repeated to fill
                 the source (and one that goes one level over at the very end: E003)
  soup_*     (b) ~16,000 one-character tokens (`1+1+1+...`): at top level (E030), inside a
                 function that is never called (ok), and the longest sum that fits (ok)
  inline_*   (c) exponential inlining, `a_k() { a_{k-1}() + a_{k-1}() }`: exactly at the
                 instruction limit (ok), one over (E030), a huge exact count (E030) and a
                 count past LIMITS.count_cap (E030, saturated)
  num_*      (d) number literals of 800+ digits repeated to fill the source: huge integers
                 (float32 infinity), 0.000...0001 (zero), 1.000...0001 and a double midpoint
                 (the exact slow path), a float32 denormal and more than 800 significant
                 digits (the sticky digit)
  unary_*    (e) unary operator chains `- - - ... 1`, `-+-+...1`, `!!!...1`
  ident_*    (f) one very long identifier; many distinct identifiers (E031); 256 names with a
                 long common prefix (at the register limit)
  fn_*       (g) many functions: a wrapper chain, many called functions, a recursion cycle
                 through all of them (E012 with a long path)
  params_*   (h) a function with thousands of parameters: never called (ok), called (E030),
                 and called with 1,000 (E031)
  tests_*    the programs of tests/csharp_support/pathological.py (the differential tests')

The expected outcome of each (ok or the first error code, with psl's message) is recorded in
bench/pathological_manifest.json.

Usage:
  python bench/pathological.py OUTDIR            write OUTDIR/NAME.psl and OUTDIR/manifest.json
  python bench/pathological.py --check           compile each with psl; compare with the manifest
  python bench/pathological.py --update-manifest compile each with psl; rewrite the manifest
  python bench/pathological.py --list            names, sizes and expected outcomes
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl.registry import BUILTINS, KEYWORDS, LIMITS  # noqa: E402
from tests.csharp_support import pathological as tests_pathological  # noqa: E402

MANIFEST = Path(__file__).resolve().parent / "pathological_manifest.json"
LIMIT = LIMITS.source_chars
NEST = LIMITS.nesting
INSTRUCTIONS = LIMITS.instructions
REGISTERS = LIMITS.registers


# ---------------------------------------------------------------------------- helpers


def fill(head: str, units: Iterator[str] | Callable[[int], str], tail: str,
         limit: int = LIMIT) -> str:
    """head + as many units as fit + tail, at most `limit` characters. `units` is an
    iterator, or a function of the unit's index."""
    it = units if not callable(units) else (units(i) for i in itertools.count())
    out, size = [head], len(head) + len(tail)
    for u in it:
        if size + len(u) > limit:
            break
        out.append(u)
        size += len(u)
    out.append(tail)
    return "".join(out)


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
    """The longest `x=1+...+1;` that compiles: 2n-1 + SETVAR = INSTRUCTIONS (when even)."""
    n = INSTRUCTIONS // 2
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
    return "x=" + "- " * (INSTRUCTIONS - 2) + "1;"


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
    n = (INSTRUCTIONS - 1) // 2  # 2 per assignment + the final PUSHVAR
    per = (LIMIT - 8) // n - len("=1;")
    names = scattered_names(n, max(1, min(per, 64)))
    return "".join(f"{v}=1;" for v in names) + names[0]


def ident_prefix_at_registers() -> str:
    """REGISTERS names sharing a long common prefix, differing only at the end: exactly the
    register limit; text comparisons of names see the whole prefix every time."""
    suffixes = list(itertools.islice(short_names(), REGISTERS))
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


def fn_wrapper_chain_backwards() -> str:
    """The same chain defined last-first: every call is to a function defined further on."""
    n = fn_wrapper_chain().count("fun ")
    while True:
        text = "".join(f"fun f{k}(){{return f{k - 1}();}}\n" for k in range(n - 1, 0, -1))
        text += "fun f0(){1}\n" + f"f{n - 1}()"
        if len(text) <= LIMIT:
            return text
        n -= 1


def fn_many_called() -> str:
    """As many one-instruction functions as fit, each called once in a final sum."""
    n = 1
    while True:
        text = _many_called(n + 1)
        if len(text) > LIMIT or 2 * (n + 1) - 1 > INSTRUCTIONS:
            return _many_called(n)
        n += 1


def _many_called(n: int) -> str:
    return "".join(f"fun f{k}(){{{k % 10}}}\n" for k in range(n)) + "+".join(
        f"f{k}()" for k in range(n))


def fn_cycle() -> str:
    """`f0 -> f1 -> ... -> fN -> f0`, as long as fits: E012 with the whole cycle."""
    n = 2
    while len(_cycle(n + 1)) <= LIMIT:
        n += 1
    return _cycle(n)


def _cycle(n: int) -> str:
    return ("".join(f"fun f{k}(){{f{k + 1}()}}\n" for k in range(n - 1))
            + f"fun f{n - 1}(){{f0()}}\nf0()")


# ---------------------------------------------------------------------------- (h) parameters


def _params_fun(n: int) -> tuple[str, list[str]]:
    names = list(itertools.islice(short_names(), n))
    return f"fun f({','.join(names)}){{{names[0]}}}\n", names


def params_uncalled() -> str:
    """A function with as many parameters as fit, never called."""
    n = 16
    while len(_params_fun(n + 16)[0]) + 1 <= LIMIT:
        n += 16
    while len(_params_fun(n + 1)[0]) + 1 <= LIMIT:
        n += 1
    return _params_fun(n)[0] + "1"


def _params_called(n: int) -> str:
    head, _ = _params_fun(n)
    return head + "f(" + ",".join(["1"] * n) + ")"


def params_called() -> str:
    """As many parameters as fit with one call (n PUSHCONST + n SETVAR): E030."""
    n = 16
    while len(_params_called(n + 1)) <= LIMIT:
        n += 1
    return _params_called(n)


def params_called_over_registers() -> str:
    """One call with the most arguments that fit the instruction limit: E031."""
    return _params_called((INSTRUCTIONS - 1) // 2)


def params_at_registers() -> str:
    """REGISTERS parameters, called once: exactly the register limit."""
    return _params_called(REGISTERS)


# ---------------------------------------------------------------------------- all


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
}


def largest_fitting(make: Callable[[int], str], whole: Callable[[str], bool] = lambda t: True,
                    lo: int = 2) -> tuple[int, str]:
    """The largest n (from lo up) whose make(n) fits in the source limit and is `whole`
    (both monotone in n)."""
    def fits(n: int) -> bool:
        text = make(n)
        return len(text) <= LIMIT and whole(text)

    if not fits(lo):
        raise ValueError("even the smallest program is over the source limit")
    hi = lo
    while fits(hi * 2):
        hi *= 2
    lo, hi = hi, hi * 2  # fits(lo), not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo, make(lo)


def empty_chain(n: int) -> str:
    """tests_pathological.empty_chain, filled correctly: its `_fill` counts one character per
    `+0*` separator, so its programs always come out over the source limit."""
    defs = "fun a0(){}\n" + "".join(f"fun a{i}(){{return a{i - 1}();}}\n" for i in range(1, n))
    call = f"a{n - 1}()"
    return fill(defs + "x=" + call, itertools.repeat("+0*" + call), ";")


def tests_programs() -> dict[str, str]:
    """The differential tests' pathological programs (tests/csharp_support/pathological.py).
    Those written before the source limit was 16,000 characters are longer than it (E004 at
    once); for these the largest n of the same generator that fits is taken instead."""
    out = {}
    for name, text in tests_pathological.programs().items():
        if len(text) <= LIMIT:
            out[f"tests_{name}"] = text
    # (their `_fill` drops the calls that do not fit: keep at least 100 calls of the chain,
    # and every call of wrapper_chain_each)
    fitted = {
        "wrapper_chain": (lambda n: tests_pathological.wrapper_chain(n, 2000),
                          lambda t: t.count("()+") >= 99),
        "wrapper_chain_each": (tests_pathological.wrapper_chain_each,
                               lambda t: t.endswith("a1();")),
        "empty_chain": (empty_chain, lambda t: t.count("+0*") >= 99),
        "recursion_far_from_cycle": (tests_pathological.recursion_far_from_cycle,
                                     lambda t: True),
    }
    for name, (make, whole) in fitted.items():
        n, text = largest_fitting(make, whole)
        out[f"tests_{name}_{n}"] = text
    return out


def programs() -> dict[str, str]:
    """Every pathological program by name (the differential tests' ones prefixed tests_)."""
    out = {name: gen() for name, gen in GENERATORS.items()}
    out.update(tests_programs())
    for name, text in out.items():
        size = len(text.encode("utf-16-le")) // 2
        assert size <= LIMIT, f"{name}: {size} characters > {LIMIT}"
    return out


def outcome(text: str) -> dict:
    """psl's verdict: ok (with the instruction and register counts) or the first error."""
    from psl.compiler import compile_source

    t0 = time.perf_counter()
    result = compile_source(text)
    seconds = time.perf_counter() - t0
    out: dict = {"chars": len(text)}
    if result.ok:
        prog = result.unwrap()
        out.update(expect="ok", instructions=len(prog.instructions), registers=prog.registers)
    else:
        err = result.errors[0]
        out.update(expect=err.code, at=f"{err.span.line}:{err.span.column}", message=err.message)
    out["_seconds"] = round(seconds, 3)
    return out


def manifest(progs: dict[str, str]) -> dict:
    return {name: {k: v for k, v in outcome(text).items() if not k.startswith("_")}
            for name, text in progs.items()}


def load_manifest() -> dict:
    return json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}


def write(folder: Path) -> dict[str, Path]:
    """Write every program as folder/NAME.psl and the manifest as folder/manifest.json."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.psl"):
        old.unlink()
    paths = {}
    for name, text in programs().items():
        path = folder / f"{name}.psl"
        path.write_text(text, encoding="utf-8", newline="")
        paths[name] = path
    (folder / "manifest.json").write_text(json.dumps(load_manifest(), indent=1) + "\n")
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", nargs="?", help="write NAME.psl files and manifest.json here")
    ap.add_argument("--check", action="store_true", help="compile each with psl and compare "
                                                          "with " + MANIFEST.name)
    ap.add_argument("--update-manifest", action="store_true", help="rewrite " + MANIFEST.name)
    ap.add_argument("--list", action="store_true", help="names, sizes, expected outcomes")
    args = ap.parse_args()
    if not (args.outdir or args.check or args.update_manifest or args.list):
        ap.error("give OUTDIR, --check, --update-manifest or --list")
    progs = programs()
    status = 0
    if args.check or args.update_manifest:
        recorded = load_manifest()
        fresh = {}
        for name, text in progs.items():
            got = outcome(text)
            secs = got.pop("_seconds")
            fresh[name] = got
            want = recorded.get(name)
            verdict = "same" if want == got else ("NEW" if want is None else "DIFFERS")
            print(f"{name:36s} {got['chars']:6d} chars  {got['expect']:4s}  {secs:6.2f} s  "
                  f"{verdict}  {got.get('message', '')[:60]}")
            if args.check and verdict != "same":
                status = 1
                if want is not None:
                    print(f"    manifest: {want}\n    psl:      {got}")
        for name in sorted(set(recorded) - set(fresh)):
            print(f"{name}: in the manifest, no longer generated")
            status = 1 if args.check else status
        if args.update_manifest:
            MANIFEST.write_text(json.dumps(fresh, indent=1) + "\n")
            print(f"wrote {MANIFEST}")
            status = 0
    if args.list:
        recorded = load_manifest()
        for name, text in progs.items():
            print(f"{name:36s} {len(text):6d} chars  {recorded.get(name, {}).get('expect', '?')}")
    if args.outdir:
        paths = write(Path(args.outdir))
        print(f"wrote {len(paths)} programs to {args.outdir}")
    return status


if __name__ == "__main__":
    sys.exit(main())
