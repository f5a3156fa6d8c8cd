"""The optimizer exists in two languages; these tests keep the two halves from drifting:
every pass has its Python module and its in-world C# half side by side (psl/optimize/
<pass>.py and <pass>.cs.j2), and the facts both read (pass ids, heuristic constants, the
foldable set and its fold rules) come from the registry, not from the template."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from psl import registry
from psl.compiler import compile_source
from psl.gen import udonsharp
from psl.optimize import optimize_code, run_pass, to_code

OPTIMIZE = Path(__file__).resolve().parent.parent / "psl" / "optimize"


def rendered() -> str:
    return udonsharp.TARGET.render()["Compiler.cs"]


def test_every_pass_has_both_halves():
    for name in registry.OPTIMIZER_PASSES:
        assert (OPTIMIZE / f"{name}.py").is_file(), name
        assert (OPTIMIZE / f"{name}.cs.j2").is_file(), name
    halves = {p.name.removesuffix(".cs.j2") for p in OPTIMIZE.glob("*.cs.j2")}
    assert halves == set(udonsharp.OPTIMIZER_PARTS)
    assert set(registry.OPTIMIZER_PASSES) <= halves
    for name in halves:  # and the Python half of each C# part
        assert (OPTIMIZE / f"{name}.py").is_file(), name
    assert set(registry.O2_PASSES) <= halves  # -O2's passes too (fuse.cs.j2)


def test_fuse_tables_come_from_the_registry():
    """The in-world fuse pass's trie spells exactly registry.FUSED (tokens -> opcode), its
    token numbers are registry.FUSED_TOKENS' order, and -O2 is an in-world level."""
    text = rendered()

    def ints(name: str) -> list[int]:
        m = re.search(rf"private int\[\] {name} = {{ ([-0-9, ]*) }};", text)
        assert m, name
        return [int(x) for x in m.group(1).split(", ")]

    tokens = list(registry.FUSED_TOKENS)
    for k, t in enumerate(tokens):
        assert f"private const int FU_TOK_{t} = {k};" in text
    nxt, op_of = ints("fuNext"), ints("fuOpOf")
    found: dict[str, int] = {}
    todo = [(0, "")]
    while todo:
        node, spelled = todo.pop()
        if op_of[node]:
            found[spelled] = op_of[node]
        for t, ch in enumerate(tokens):
            child = nxt[node * len(tokens) + t]
            if child:
                todo.append((child, spelled + ch))
    assert found == {f.tokens: f.op for f in registry.FUSED}
    longest = min(max(len(f.tokens) for f in registry.FUSED), registry.FUSED_MAX_STEPS)
    assert f"private const int FU_LONGEST = {longest};" in text
    assert f"private const float FU_SWIZZLE = {registry.SWIZZLE.id}f;" in text
    assert 2 in registry.INWORLD_OPTIMIZE_LEVELS and "public bool superinstructions" in text


def test_every_pipeline_pass_runs_alone():
    """registry.PIPELINE_PASSES is what psl's pipeline can run, entry by entry."""
    from psl.optimize import PIPELINE_RUN

    assert set(PIPELINE_RUN) == set(registry.PIPELINE_PASSES)
    program = compile_source("a = 2; b = a * 3; if (uv().x < b) { c = 1; } c + b").program
    assert program is not None
    for name in registry.PIPELINE_PASSES:
        code = to_code(program)
        assert code is not None
        optimize_code(code, pipeline=(name,))
        assert run_pass(name, code) is not None
    with pytest.raises(ValueError, match="no optimizer pass"):
        optimize_code(to_code(program), pipeline=("nonesuch",))


def test_constants_and_pass_ids_come_from_the_registry(monkeypatch):
    text = rendered()
    tuning = registry.OPTIMIZER_TUNING
    for field, const in (("unroll_budget", "OPT_UNROLL_BUDGET"), ("max_trips", "OPT_MAX_TRIPS"),
                         ("loop_weight", "OPT_LOOP_WEIGHT")):
        assert f"private const int {const} = {getattr(tuning, field)};" in text
    for k, name in enumerate(registry.PIPELINE_PASSES):
        assert f"private const int PASS_{name.upper()} = {k};" in text
        assert f"Pass{name.capitalize()}();" in text and f"{name.capitalize()}Step();" in text
    # a registry change reaches the C# without a template edit
    monkeypatch.setattr(registry, "OPTIMIZER_TUNING",
                        dataclasses.replace(tuning, unroll_budget=777, loop_weight=5))
    changed = rendered()
    assert "OPT_UNROLL_BUDGET = 777;" in changed and "OPT_LOOP_WEIGHT = 5;" in changed
    # psl's passes read the same numbers
    from psl.optimize import hoist, unroll
    assert unroll.UNROLL_BUDGET == tuning.unroll_budget and unroll.MAX_TRIPS == tuning.max_trips
    assert hoist.LOOP_WEIGHT == tuning.loop_weight


def test_foldable_set_is_generated():
    text = rendered()
    ids = re.search(r"optFoldCall = \{ ([^}]*) \}", text)
    assert ids is not None
    flags = [f == "true" for f in ids.group(1).split(", ")]
    assert {b.id for b in registry.BUILTINS if b.foldable} == {
        i for i, f in enumerate(flags) if f}
    for name in registry.FOLD_RULES:
        assert f"OC_{name.upper()} = {registry.BUILTIN_BY_NAME[name].id};" in text


@pytest.mark.parametrize("change", [
    {"sin": "lanes"},  # a lanes builtin without a formula would fold as something else
    {"round": "teleport"},  # a rule the in-world optimizer does not know
    {"min": "reduce"},  # a named rule for a builtin it does not implement
])
def test_a_foldable_builtin_the_world_cannot_fold_is_refused(monkeypatch, change):
    rules = {**registry.FOLD_RULES, **change}
    monkeypatch.setattr(registry, "FOLD_RULES", rules)
    monkeypatch.setattr(registry, "BUILTINS", tuple(
        dataclasses.replace(b, foldable=b.name in rules) for b in registry.BUILTINS))
    with pytest.raises(ValueError, match="FOLD_RULES"):
        udonsharp.optimizer_context()


def test_a_pass_without_its_csharp_half_is_refused(monkeypatch):
    monkeypatch.setattr(registry, "OPTIMIZER_PASSES", (*registry.OPTIMIZER_PASSES, "peephole"))
    with pytest.raises(ValueError, match="in-world half"):
        udonsharp.optimizer_context()


def optimizer_part(text: str) -> list[tuple[str, int]]:
    """The rendered optimizer's code lines (comments, blank lines and lone braces left out,
    white space folded), with their line numbers in Compiler.cs."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if "===== optimizer (-O1)" in line)
    end = next(k for k in range(start + 1, len(lines)) if re.match(r" {4}// =+ ", lines[k]))
    out = []
    for k in range(start, end):
        code = re.sub(r"\s*//.*$", "", lines[k]).strip()
        if code and code not in ("{", "}"):
            out.append((" ".join(code.split()), k + 1))
    return out


def test_no_copied_runs_in_the_optimizer():
    """No run of 6 code lines stands twice in the rendered optimizer (a copied loop or
    driver belongs in one method the places call: PutIns, SEnd, LiveOutWord, ...)."""
    lines = optimizer_part(rendered())
    assert len(lines) > 2000
    seen: dict[tuple[str, ...], int] = {}
    copies = []
    for i in range(len(lines) - 5):
        run = tuple(code for code, _ in lines[i:i + 6])
        if run in seen:
            copies.append(f"Compiler.cs:{lines[i][1]} repeats :{seen[run]}: {run[0]} ...")
        else:
            seen[run] = lines[i][1]
    assert copies == [], "\n".join(copies[:10])
