"""Generated programs of an exact instruction count, for the program-texture limit
(LIMITS.instructions): a doubling chain of small pure functions applied to a float4 that
starts at the pixel's uv, padded with 2- and 3-instruction statements. Only + and * on
bounded values, so the VMs agree to the last bit or close to it."""

from __future__ import annotations

from psl.analysis import analyse
from psl.compiler import codegen, link
from psl.syntax.parser import parse

HEAD = "c = float4(uv().x, uv().y, 0.5, 1);\n"
TAIL = "c\n"
#: f0 and its doublings f1..fDEPTH; each call of fK applies f0 2^K times
DEPTH = 6


def _functions() -> str:
    lines = ["fun f0(p) { p * 0.999 + p.yzxw * 0.002 + 0.0004 }"]
    lines += [f"fun f{k}(p) {{ f{k - 1}(f{k - 1}(p)) }}" for k in range(1, DEPTH + 1)]
    return "\n".join(lines) + "\n"


def _text(calls: int, small: int, twos: int, threes: int) -> str:
    body = [f"c = f{DEPTH}(c);"] * calls + ["c = f0(c);"] * small
    body += ["c = c;"] * twos + ["c = -c;"] * threes
    return _functions() + HEAD + "\n".join(body) + "\n" + TAIL


def _unit(**kw: int) -> int:
    base = dict(calls=0, small=0, twos=0, threes=0)
    one = base | kw
    return _count(**one) - _count(**base)


def _count(calls: int, small: int, twos: int, threes: int) -> int:
    tree = parse(_text(calls, small, twos, threes)).program
    assert tree is not None
    analysis = analyse(tree)
    functions = {
        name: link.Function(name, tuple(p.text for p in f.params),
                            codegen.generate(f.body, analysis.functions))
        for name, f in analysis.functions.items()
    }
    return link.inlined_size(codegen.generate(tree.body, analysis.functions), functions)


def source(instructions: int) -> str:
    """A program of exactly `instructions` instructions after inlining (>= 20)."""
    base = _count(0, 0, 0, 0)
    big, small = _unit(calls=1), _unit(small=1)
    rest = instructions - base
    calls, rest = divmod(rest, big)
    smalls, rest = divmod(rest, small)
    if rest == 1:  # made of 2s and 3s: borrow one f0 call
        smalls, rest = smalls - 1, rest + small
    threes = rest % 2
    twos = (rest - 3 * threes) // 2
    text = _text(calls, smalls, twos, threes)
    assert _count(calls, smalls, twos, threes) == instructions, "big program size"
    return text
