"""The world's sliders (issue 42, item 3): the in-world reader of `//@slider` lines
(templates/udonsharp/ProgramSliders.cs.j2) builds exactly the table psl builds
(psl.syntax.sliders.parse_sliders), for any text up to the source limit, never throwing, in
events that stay under 2,500 Udon externs.

- C# == psl on hand-written edge cases and on texts generated from docs/spec.md §8.8's
  grammar and its limits (digits at and past the limits, '..' with spaces, tabs, CR,
  duplicate indices and names, index 7/8/99, 24/25-character names, `//@sliders`, two `//`
  on a line, negative zero, defaults outside the range, no final newline, 16,000 characters);
  the UI sliders get the ranges and defaults, the material the values (SlidersDriver.cs).
- Every event of ProgramSliders (and of the behaviours that now call it) is bounded: the
  loop-aware bound of tests/udon_support/loop_cost.py over the exposure checker's extern sites.
"""

from __future__ import annotations

import base64
import json
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest

from psl.gen import udonsharp
from psl.registry import LIMITS, SLIDERS
from psl.syntax.sliders import parse_sliders
from tests.csharp_support import build as csbuild
from tests.udon_support.inventory import build as inventory_build
from tests.udon_support.loop_cost import loop_bounds
from tests.udon_support.scripts import generated_scripts

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "udon_support" / "SlidersDriver.cs"
BUDGET = 2500

needs_mono = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")


def bits(x: float) -> int:
    return int(np.array(x, dtype=np.float32).view(np.uint32))


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sliders")
    files = udonsharp.TARGET.render()
    sources = []
    for name in ("Compiler.cs", "ProgramSliders.cs"):
        (out / name).write_text(files[name], encoding="utf-8")
        sources.append(str(out / name))
    exe = out / "Sliders.exe"
    proc = subprocess.run(["mcs", "-nologo", "-warnaserror-", "-nowarn:414,169,649,219,1718",
                           "-optimize+", f"-out:{exe}", str(csbuild.STUBS), str(csbuild.JSON),
                           str(DRIVER), *sources], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return exe


def run_driver(exe: Path, texts: list[str]) -> list[dict]:
    lines = "".join(base64.b64encode(t.encode("utf-16-le", "surrogatepass")).decode() + "\n"
                    for t in texts)
    proc = subprocess.run(["mono", str(exe)], input=lines, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(texts)
    return out


def expected(text: str) -> tuple[list[list[object]], list[int]]:
    table = parse_sliders(text)
    rows = [[s.index, s.name, bits(s.low), bits(s.high), bits(s.default), bits(s.low),
             bits(s.high), bits(s.default), True, 0] for s in table.sliders]
    return rows, [bits(v) for v in table.values()]


NEG_ZERO = 0x80000000


def ui(rows: list[list[object]]) -> list[list[object]]:
    """The rows with the UI slider's min, max and value (fields 5-7) compared as numbers: a
    uGUI Slider keeps +0 where -0 is set over it (it ignores a set of an equal value)."""
    return [[*r[:5], *(0 if v == NEG_ZERO else v for v in r[5:8]), *r[8:]] for r in rows]


def compare(exe: Path, texts: list[str]) -> list[dict]:
    results = run_driver(exe, texts)
    bad = []
    for text, got in zip(texts, results, strict=True):
        rows, uniform = expected(text)
        if got["exc"] is not None or "late" in got or ui(got["table"]) != ui(rows) \
                or got["uniform"] != uniform:
            bad.append((text[:300], got, rows))
    assert not bad, f"{len(bad)} of {len(texts)} texts differ; first: {bad[:3]}"
    return results


# ---------------------------------------------------------------------------- the texts

EDGE_CASES: list[str] = [
    "",
    "//@slider 0 zoom 0.5..4 = 1",
    "//@slider 0 zoom 0.5..4 = 1\n",
    "//@slider 0 zoom 0.5..4 = 1\r\n//@slider 1 angle -3.1416..3.1416\r\n",
    "// @slider 1 a\n//\t@slider\t2\tb\t0 .. 2\t=\t1\n",
    "//@sliders 0 zoom\n//@slider0 zoom\n//@Slider 0 zoom\n//@slide 0 zoom\n",
    "//@slider 7 last\n//@slider 8 past\n//@slider 99 far\n//@slider 07 again\n",
    "//@slider 07 seven\n//@slider 007 three_digits\n",
    "//@slider 0 a\n//@slider 0 b\n//@slider 1 a\n//@slider 2 c\n",
    "//@slider 0 " + "n" * 24 + "\n//@slider 1 " + "m" * 25 + "\n",
    "//@slider 0 _\n//@slider 1 _9\n//@slider 2 9a\n//@slider 3 é\n//@slider 4 aé\n",
    "//@slider 0 a 999999.9999..1000000\n//@slider 1 b 0..999999.9999 = 999999.9999\n",
    "//@slider 0 a 0..1234567\n//@slider 1 b 0..1.23456\n//@slider 2 c 0..1.2345\n",
    "//@slider 0 a -0..1\n//@slider 1 b -1..-0\n//@slider 2 c 0..-0\n//@slider 3 d -0..0\n",
    "//@slider 0 a 0..1 = -0\n//@slider 1 b -1..0 = -0.0\n//@slider 2 c = -0\n",
    "//@slider 0 a 0..1 = 5\n//@slider 1 b 0..1 = -5\n//@slider 2 c 2..3\n",
    "//@slider 0 a 1..1\n//@slider 1 b 2..1\n//@slider 2 c 1. .2\n//@slider 3 d 1...2\n",
    "//@slider 0 a .5..1\n//@slider 1 b 0..1.\n//@slider 2 c 1.5.6..7\n//@slider 3 d 0 ..1\n",
    "//@slider 0 a 0.. 1\n//@slider 1 b 0 .. 1 = 0.5\n//@slider 2 c 0..1 =0.5\n",
    "//@slider 0 a 0..1 = 0.5 junk\n//@slider 1 b junk\n//@slider 2 c = \n//@slider 3 d =\n",
    "//@slider 0 a 0..1 = 0.5 \r\n//@slider 1 b\r\n//@slider 2 c \t \r",
    "x = 1; //@slider 0 a\ny = 2 / 3; // note //@slider 1 b\n/ /@slider 2 c\n///@slider 3 d\n",
    "a/b/c //@slider 0 first\n//x //@slider 1 second\n",
    "//@slider 0zoom\n//@slider 1 y-1..2\n//@slider 2 z0..1=1\n",
    "//@slider\n//@slider \n//@slider 1\n//@slider -1 a\n//@slider a 1\n",
    "//@slider 0 a - 1..2\n//@slider 1 b --1..2\n//@slider 2 c -..2\n",
    "//@slider 0 a 0..1 = 1 = 2\n//@slider 1 b 0..1 0..2\n",
    "//@slider 0 a\n//@slider 1 b\n//@slider 2 c\n//@slider 3 d\n//@slider 4 e\n"
    "//@slider 5 f\n//@slider 6 g\n//@slider 7 h\n//@slider 0 i\n//@slider 7 j\n",
    "//@slider 3 \U0001F600\n//@slider 4 ok \U0001F600\n\U0001F600//@slider 5 fine\n",
    "//@slider 1 x 0..1 = 0.3333\n//@slider 2 y 0..0.0001 = 0.00005\n",
    "//@slider 0 a" + " " * 15000 + "0..2" + "\t" * 500 + "=" + " " * 200 + "1",
    "/" * 16000,
    "//\n" * 5333,
    ("/a" * 8000)[:LIMITS.source_chars],
    ("//@slider 9 x\n" * 1200)[:LIMITS.source_chars],
    ("//@slider 0 a 0..1 = 5 !\n" * 700)[:LIMITS.source_chars - 20] + "\n//@slider 0 last",
    "\n" * 16000,
    " " * 15986 + "//@slider 0 a",
]


def _number(rng: random.Random, *, good: bool) -> str:
    """A number by the grammar: '-'? digits ('.' digits)?, at or past its limits."""
    sign = "-" if rng.random() < 0.3 else ""
    if good:
        whole = rng.randint(1, SLIDERS.int_digits)
        frac = rng.choice([0, 0, *range(1, SLIDERS.frac_digits + 1)])
    else:
        whole = rng.choice([0, 1, SLIDERS.int_digits, SLIDERS.int_digits + 1, 9])
        frac = rng.choice([0, 1, SLIDERS.frac_digits, SLIDERS.frac_digits + 1, 7])
    digits = "".join(rng.choice("0123456789") for _ in range(whole))
    if rng.random() < 0.2:
        digits = "0" * whole or "0"  # zeros: -0 and friends
    text = sign + digits
    if frac:
        text += "." + "".join(rng.choice("0123456789") for _ in range(frac))
    elif rng.random() < 0.05:
        text += "."
    return text


def _space(rng: random.Random, *, needed: bool = False) -> str:
    pick = rng.choice([" ", " ", "\t", "  ", " \t ", "", "\r", " " * rng.randint(2, 40)])
    return pick or (" " if needed else "")


def _name(rng: random.Random, used: list[str]) -> str:
    r = rng.random()
    if used and r < 0.15:
        return rng.choice(used)
    if r < 0.25:
        return rng.choice(["", "9a", "é", "a-b", "a.b", "x" * SLIDERS.name_chars,
                           "y" * (SLIDERS.name_chars + 1), "_", "\U0001F600"])
    first = rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
    rest = "".join(rng.choice("abcxyzXYZ_0123456789") for _ in range(rng.randint(0, 26)))
    return first + rest


def _slider_line(rng: random.Random, used_names: list[str]) -> str:
    marker = rng.choices([SLIDERS.marker, "@sliders", "@slide", "@Slider", SLIDERS.marker + "0"],
                         [12, 1, 1, 1, 1])[0]
    index = rng.choices(["0", "1", "2", "3", "4", "5", "6", "7", "07", "8", "99", "007", "",
                         "a", "-1"], [3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1])[0]
    name = _name(rng, used_names)
    used_names.append(name)
    parts = ["//", _space(rng) if rng.random() < 0.3 else "", marker, _space(rng, needed=True),
             index, _space(rng, needed=True), name]
    if rng.random() < 0.7:
        good = rng.random() < 0.8
        lo, hi = _number(rng, good=good), _number(rng, good=good)
        if rng.random() < 0.7:
            try:  # mostly in order; an empty or reversed range now and then
                if float(lo) > float(hi):
                    lo, hi = hi, lo
            except ValueError:
                pass
        sep = rng.choices(["..", " .. ", "\t..\t", ". .", "..."], [12, 3, 2, 1, 1])[0]
        parts += [_space(rng, needed=True), lo, sep, hi]
    if rng.random() < 0.6:
        parts += [_space(rng), rng.choices(["=", "= =", ""], [12, 1, 1])[0], _space(rng),
                  _number(rng, good=rng.random() < 0.8)]
    parts.append(rng.choices(["", " ", "\r", "\t\r", " junk", " //", "x"],
                             [16, 3, 3, 2, 1, 1, 1])[0])
    prefix = rng.choice(["", "", "", "x = 1; ", "a / b ", "/ ", "///", "// c ", " "])
    return prefix + "".join(parts)


def generated_text(rng: random.Random) -> str:
    lines: list[str] = []
    used: list[str] = []
    for _ in range(rng.randint(1, 14)):
        r = rng.random()
        if r < 0.65:
            lines.append(_slider_line(rng, used))
        elif r < 0.8:
            lines.append(rng.choice(["x = uv().x;", "// a comment", "y = 1 / 2; // half", "",
                                     "float3(slider(0), slider(1), 0)", "/ not a comment",
                                     "\t", "//@slider"]))
        else:
            lines.append(rng.choice(lines) if lines else "")  # a repeated line
    end = rng.choice(["\n", "\r\n"])
    text = end.join(lines)
    if rng.random() < 0.5:
        text += end
    return text[:LIMITS.source_chars]


def big_text(rng: random.Random) -> str:
    """Near the source limit: many lines, long runs of spaces or slashes, sliders at the end."""
    chunks: list[str] = []
    used: list[str] = []
    while sum(map(len, chunks)) < LIMITS.source_chars:
        r = rng.random()
        if r < 0.4:
            chunks.append(_slider_line(rng, used) + "\n")
        elif r < 0.6:
            chunks.append(" " * rng.randint(100, 3000))
        elif r < 0.8:
            chunks.append(rng.choice(["/", "//", "/x", "//\n", "\n"]) * rng.randint(10, 800))
        else:
            chunks.append("x = x + 1.5; // step\n" * rng.randint(1, 50))
    return "".join(chunks)[:LIMITS.source_chars]


# ---------------------------------------------------------------------------- the tests


@needs_mono
def test_edge_cases_match_psl(driver):
    assert all(len(t) <= LIMITS.source_chars for t in EDGE_CASES)
    results = compare(driver, EDGE_CASES)
    # the cases mean what they say: some of each kind of table
    assert any(r["table"] for r in results) and any(not r["table"] for r in results)


@needs_mono
def test_the_shipped_slider_examples_match_psl(driver):
    examples = sorted((HERE.parent / "unity_package" / "Examples").glob("sliders_*.psl"))
    assert len(examples) >= 2
    texts = [e.read_text(encoding="utf-8") for e in examples]
    results = compare(driver, texts)
    assert all(r["table"] for r in results), "an example names no slider"


@needs_mono
def test_generated_texts_match_psl(driver):
    rng = random.Random(4203)
    texts = [generated_text(rng) for _ in range(3000)]
    compare(driver, texts)
    # the generator reaches every outcome: named sliders, ignored lines, clamped defaults
    diagnostics = {d.code for t in texts for d in parse_sliders(t).diagnostics}
    assert {"W015", "W016"} <= diagnostics
    assert sum(len(parse_sliders(t).sliders) for t in texts) > 2000


@needs_mono
def test_texts_at_the_source_limit_match_psl(driver):
    rng = random.Random(16000)
    texts = [big_text(rng) for _ in range(40)]
    assert max(map(len, texts)) == LIMITS.source_chars
    results = compare(driver, texts)
    # sliced: the longest text is read over several events, and in a bounded number of them
    assert max(r["events"] for r in results) > 1


@needs_mono
def test_reading_is_sliced_and_finishes(driver):
    steps, scans = udonsharp.SLIDER_STEPS, udonsharp.SLIDER_SCANS
    # the slowest texts: every line a comment, every character a lone slash, every line a
    # slider line that names nothing (each is read: an index past the sliders)
    worst = {"//\n" * 5333: 5333 // (steps * scans), "/a" * 8000: 8000 // (steps * scans),
             "//@slider 9 x\n" * 1142: 1142 // steps}
    results = run_driver(driver, list(worst))
    for (text, most), r in zip(worst.items(), results, strict=True):
        assert r["exc"] is None and r["table"] == []
        assert r["events"] <= most + 2, (text[:20], r["events"], most)


@needs_mono
def test_carried_values_are_clamped_into_the_ranges(driver):
    text = ("//@slider 0 zoom 0.5..4 = 1\n//@slider 1 angle -1..1\n//@slider 3 gain 0..10 = 5\n"
            "float3(slider(0), slider(1), slider(3))")
    b64 = base64.b64encode(text.encode("utf-16-le")).decode()
    lines = (f"carry {b64} 99,-7,3,NaN,1,1,1,1\n"  # past both ends; NaN; unnamed indices
             f"carry {b64} 2.5,0.25\n")  # a short array: the rest at their defaults
    proc = subprocess.run(["mono", str(driver)], input=lines, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    clamped, short = (json.loads(line) for line in proc.stdout.splitlines())
    assert clamped["exc"] is None and short["exc"] is None
    zero = bits(0.0)
    assert clamped["values"] == [bits(4), bits(-1), zero, bits(5), zero, zero, zero, zero]
    assert clamped["uniform"] == clamped["values"]
    assert short["values"] == [bits(2.5), bits(0.25), zero, bits(5), zero, zero, zero, zero]
    # the same text without carried values: the defaults
    (plain,) = run_driver(driver, [text])
    assert plain["values"] == [bits(1), bits(-1), zero, bits(5), zero, zero, zero, zero]


# ------------------------------------------------------------------------ event budgets

#: ProgramSliders' events: the UI's and the other behaviours' calls, Update, Start
SLIDER_EVENTS = ("Update", "Start", "Moved", "ProgramChanged", "ProgramText", "CarryValues",
                 "ValuesFor", "Begin")


@pytest.fixture(scope="module")
def bounds() -> dict[str, int]:
    scripts = generated_scripts()
    inventory = inventory_build(scripts)
    name = "ProgramSliders.cs"
    return {m: b.externs for m, b in loop_bounds(name, scripts[name],
                                                  inventory.sites[name]).items()}


def test_every_slider_event_is_under_the_budget(bounds):
    for event in SLIDER_EVENTS:
        assert event in bounds, event
        assert bounds[event] <= BUDGET, (event, bounds[event])
    # Update reads SLIDER_STEPS steps and applies the table: the largest, by far
    assert bounds["Update"] == max(bounds[e] for e in SLIDER_EVENTS)


#: what the sliders may add to an event that also starts a compile (SyncCode's Share and
#: OnDeserialization, an example, a load): bench/world_events.py puts those events at their own
#: sites plus the Compiler's largest event (2,226 externs, udon_cost), at most 2,326 before the
#: sliders, and the guard's ProgramChanged adds 45; this keeps them under 2,500
COMPILE_EVENT_SHARE = 100


def test_what_the_sliders_add_to_a_compile_starting_event_is_small(bounds):
    share = bounds["ValuesFor"] + bounds["CarryValues"] + bounds["ProgramChanged"]
    arrival = bounds["CarryValues"] + max(bounds["ProgramChanged"], bounds["ProgramText"])
    assert max(share, arrival) <= COMPILE_EVENT_SHARE, (share, arrival)


def test_the_compiled_prefix_is_what_the_compiler_writes():
    compiler = udonsharp.TARGET.render()["Compiler.cs"]
    assert f'"{udonsharp.COMPILED_PREFIX} "' in compiler
