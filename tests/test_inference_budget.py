"""The width inference's work budget (issue 21): counted work, not a clock.

The fixed point counts the instructions it runs (`Flow.work`) against a budget linear in the
program's size (`flow.budget`), and the loop counting its condition and update steps against
its own (`loops.count_budget`). Nests of `while`, `for` and mixed loops up to the nesting
limit, and generated deep programs (tests/progen, mode "deep"), stay within them; N003
appears exactly when one ran out.
"""

from __future__ import annotations

import pytest

from psl.compiler import compile_source
from psl.export import ExportError, lower
from psl.infer import infer
from psl.infer.flow import PEEL_DEPTH, WORK_FLOOR, WORK_PER_INSTRUCTION, analyse, budget
from psl.infer.loops import COUNT_FLOOR, COUNT_PER_INSTRUCTION, count_budget, loop_costs
from psl.registry import LIMITS
from tests import progen
from tests.conftest import corpus_programs, valid_programs, warning_cases
from tests.progen.nests import nest

#: deepest nest the bracket limit allows: `fun f(a) {` holds one brace and the innermost
#: condition one parenthesis
DEEPEST = LIMITS.nesting - 2


def work(source: str) -> tuple[int, int, int, int, list[str]]:
    """(fixed point work, its budget, counting work, its budget, diagnostic codes)."""
    result = compile_source(source)
    assert result.inference is not None and result.inference.counting is not None, \
        [d.message for d in result.diagnostics]
    flow, counting = result.inference.flow, result.inference.counting
    return (flow.work, flow.budget, counting.work, counting.limit,
            [d.code for d in result.diagnostics])


def test_budgets_are_linear_in_the_program():
    for n in (0, 1, 100, LIMITS.instructions):
        assert budget(n) == WORK_FLOOR + WORK_PER_INSTRUCTION * n
        assert count_budget(n) == COUNT_FLOOR + COUNT_PER_INSTRUCTION * n
    assert PEEL_DEPTH >= 1  # a loop keeps its own first iteration (its counting needs it)


@pytest.mark.parametrize("kind", ["while", "for", "mixed"])
def test_nests_up_to_the_nesting_limit_stay_within_budget(kind: str):
    ratios = {}
    for depth in (1, 2, 4, 8, 16, 32, DEEPEST):
        source = nest(kind, depth)
        assert compile_source(source, lint=False).ok
        done, limit, counted, count_limit, codes = work(source)
        assert done <= limit and counted <= count_limit
        assert "N003" not in codes, (kind, depth, codes)
        ratios[depth] = done / len(compile_source(source, lint=False).unwrap().instructions)
    # Before the budget, contexts doubled per loop: 4^depth block runs for `while`. Now the
    # work per instruction grows at most linearly with the depth, and stays well inside the
    # budget's constant even at the limit.
    assert ratios[DEEPEST] < WORK_PER_INSTRUCTION / 2, ratios


def test_the_corpus_is_far_from_the_budgets():
    """The corpus costs at most 2.5 instructions run per instruction (0.6% of the budget)
    and 84 counting steps; no program of it or of the test programs meets N003 but the
    one written to."""
    for path in corpus_programs():
        done, limit, counted, count_limit, codes = work(path.read_text(encoding="utf-8"))
        assert done <= limit // 50 and counted <= count_limit // 50, path.name
        assert "N003" not in codes, path.name
    for case in warning_cases():
        has = any(e.code == "N003" for e in case.expected)
        assert has == (case.name == "loop_counting_over_budget"), case.name
    for path in valid_programs():
        assert "N003" not in work(path.read_text(encoding="utf-8"))[4], path.name


def test_the_issue_s_program_is_quick():
    """62 nested `while (a)` in a function (770 characters): it ran forever."""
    source = "fun f(a) {\n" + "while (a) {\n" * 62 + "a = a - 1;\n" + "}\n" * 62 + "a\n}\nf(3)\n"
    done, limit, _, _, codes = work(source)
    assert done <= 20 * len(compile_source(source, lint=False).unwrap().instructions)
    assert codes == ["N001"]


def test_generated_deep_programs_stay_within_budget():
    checked = deep = 0
    for seed in range(40):
        source = progen.generate(seed, mode="deep")
        result = compile_source(source)
        if result.inference is None:
            continue
        flow, counting = result.inference.flow, result.inference.counting
        assert counting is not None
        assert flow.work <= flow.budget and counting.work <= counting.limit
        ran_out = flow.flattened is not None or bool(counting.uncounted)
        assert ran_out == any(d.code == "N003" for d in result.diagnostics), seed
        assert not ran_out, seed  # no generated program comes near the budget
        checked += 1
        deep += any(lp.parent is not None for lp in flow.loops)
    assert checked >= 35 and deep >= 20


def _program(source: str):
    return compile_source(source, lint=False).unwrap()


@pytest.mark.parametrize("kind", ["while", "for", "mixed"])
def test_note_exactly_when_the_budget_runs_out(kind: str):
    program = _program(nest(kind, 12))
    full = analyse(program.instructions, program.registers, limit=10**9)
    assert full.flattened is None and full.complete
    need = full.work
    # exactly the work it needs: the same result, no note
    enough = infer(program.instructions, program.registers, [], [], {}, limit=need)
    assert enough.flow.work == need and enough.flow.flattened is None
    assert "N003" not in [d.code for d in enough.diagnostics]
    assert enough.flow.seen.keys() == full.seen.keys()
    # one instruction less: the nest is analysed again without peeling, and N003 says so
    short = infer(program.instructions, program.registers, [], [], {}, limit=need - 1)
    assert short.flow.flattened is not None and short.flow.complete
    assert short.flow.work <= 2 * (need - 1)  # each attempt within the budget
    (note,) = [d for d in short.diagnostics if d.code == "N003"]
    assert "without their first iterations" in note.message
    # sound still: every NaN pattern the full analysis allows anywhere, the flattened one
    # allows too (it only merges paths)
    for k, seen in full.seen.items():
        coarse = short.flow.seen[k]
        for fine, wide in zip(seen.inputs, coarse.inputs, strict=True):
            assert fine[0] & ~wide[0] == 0, k
    if full.final is not None:
        assert short.flow.final is not None and full.final[0] & ~short.flow.final[0] == 0


def test_no_checks_when_even_the_unpeeled_attempt_runs_out():
    program = _program(nest("for", 12))
    got = infer(program.instructions, program.registers, [], [], {}, limit=10)
    assert not got.flow.complete and got.flow.work <= 20
    assert [d.code for d in got.diagnostics] == ["N003"]
    assert "without the width checks" in got.diagnostics[0].message
    assert got.loops == [] and got.variables == {}


def test_loop_counting_stops_at_its_budget():
    source = "let s = 0;\n" + "".join(
        f"for (let i{k} = 0; i{k} < 500; i{k}++) {{ s += 1; }}\n" for k in range(3)) + \
        "float4(s, 0, 0, 1)\n"
    program = _program(source)
    flow = analyse(program.instructions, program.registers)
    costs, counting = loop_costs(flow, limit=10**9)
    need = counting.work
    assert [c.iterations for c in costs] == [500, 500, 500] and not counting.uncounted
    costs, counting = loop_costs(flow, limit=need)
    assert not counting.uncounted and counting.work == need
    costs, counting = loop_costs(flow, limit=need - 1)
    assert len(counting.uncounted) == 1 and counting.work <= need - 1
    assert sorted(c.iterations is None for c in costs) == [False, False, True]


def test_an_incomplete_inference_offers_no_widths(monkeypatch):
    """The compile goes on: its program is the same, N003 is its only note, and there are
    no widths for `psl check --widths`, the editor or `psl export`."""
    import psl.infer.flow as flow_module

    source = nest("for", 6)
    full = compile_source(source)
    monkeypatch.setattr(flow_module, "budget", lambda n: 5)
    result = compile_source(source)
    assert result.ok and result.unwrap().to_bytes() == full.unwrap().to_bytes()
    assert result.inference is None and [d.code for d in result.diagnostics] == ["N003"]
    with pytest.raises(ExportError, match="widths could not be inferred"):
        lower(source)
