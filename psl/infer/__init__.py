"""Width inference and the checks built on it.

`infer` runs on the compiled program, the code the VM runs, so functions are inferred per
call (they are inlined) and every rule of SPEC §7 is applied as the VM applies it. The
source positions and call paths of the instructions map the results back to the text.
See docs/width-inference.md.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from psl.bytecode import Instruction
from psl.diagnostics import Diagnostic, Span, make
from psl.infer import domain
from psl.infer.copies import NAN_CONSTANT, UNDERFLOW, BlockCopies, BlockCopy, Step, block_copies
from psl.infer.flow import Decoded, Flow, State, analyse
from psl.infer.graph import Loop
from psl.infer.lints import lint
from psl.infer.loops import Counting, LoopCost, loop_costs, loop_findings
from psl.registry import Op


@dataclass
class Inference:
    flow: Flow
    #: widths the program's result can have (empty when no path ends)
    final: frozenset[int]
    loops: list[LoopCost]
    spans: Sequence[Span | None] = ()
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: call path of each instruction (outermost call first), register -> variable name
    sites: Sequence[tuple] = ()
    names: dict[int, str] = field(default_factory=dict)
    #: the loop counting's work and budget (None when the fixed point did not finish)
    counting: Counting | None = None

    def _binds(self, k: int) -> bool:
        """Whether instruction k is a SETVAR that binds a parameter at a call: the linker
        gives those the call's span and the callee's call path, which ends with that span."""
        site = self.sites[k] if k < len(self.sites) else ()
        return bool(site) and k < len(self.spans) and site[-1] == self.spans[k]

    @functools.cached_property
    def variables(self) -> dict[Span, frozenset[int]]:
        """Source position of a variable read or plain assignment -> the widths it can have
        there (over every call of an inlined function)."""
        out: dict[Span, frozenset[int]] = {}
        spans = self.spans
        for k, seen in self.flow.seen.items():
            d = self.flow.code[k]
            span = spans[k] if k < len(spans) else None
            if span is None or not seen.inputs or (d.op == Op.SETVAR and self._binds(k)):
                continue
            if d.op == Op.PUSHVAR or (d.op == Op.SETVAR and d.pairs is None):
                ws = domain.width_set(seen.inputs[0])
                got = out.get(span)
                out[span] = ws if got is None else got | ws
        return out

    @functools.cached_property
    def parameters(self) -> dict[Span, list[tuple[str, frozenset[int]]]]:
        """Source position of a user function's call -> its parameters in order, each with
        the widths the call binds to it (over every inlined copy of the call)."""
        found: dict[Span, dict[str, frozenset[int]]] = {}
        for k, seen in sorted(self.flow.seen.items()):
            d = self.flow.code[k]
            if d.op != Op.SETVAR or not seen.inputs or not self._binds(k):
                continue
            span = self.spans[k]
            assert span is not None
            name = self.names.get(d.n, str(d.n)).rsplit(".", 1)[-1]
            got = found.setdefault(span, {})
            ws = domain.width_set(seen.inputs[0])
            got[name] = got[name] | ws if name in got else ws
        # the linker binds the last parameter first
        return {span: list(reversed(list(ps.items()))) for span, ps in found.items()}

    @functools.cached_property
    def values(self) -> dict[Span, frozenset[int]]:
        """Source position of an expression's token -> the widths of the value computed
        there: a number, a variable read, an operator (the chain up to it), a unary
        operator, a builtin call's name, a swizzle's letters (over every inlined copy)."""
        out: dict[Span, frozenset[int]] = {}
        spans = self.spans
        code = self.flow.code
        for k, seen in self.flow.seen.items():
            span = spans[k] if k < len(spans) else None
            if span is None:
                continue
            d = code[k]
            if d.op == Op.PUSHVAR:
                value = seen.inputs[0]
            elif d.op == Op.BINOP:
                value = domain.binop(d.n, *seen.inputs)
            elif d.op == Op.UNOP:
                value = domain.unop(d.n, seen.inputs[0])
            elif d.op == Op.CALL:
                value = domain.call(d.n, list(seen.inputs))
            else:
                continue
            ws = domain.width_set(value)
            got = out.get(span)
            out[span] = ws if got is None else got | ws
        for k, d in enumerate(code):
            span = spans[k] if k < len(spans) else None
            if d.op == Op.PUSHCONST and span is not None and span not in out \
                    and d.const is not None:
                out[span] = domain.width_set(d.const)
        return out

    def dynamic(self) -> dict[Span, frozenset[int]]:
        """The variables that can hold different widths at one point."""
        return {s: w for s, w in self.variables.items() if len(w) > 1}


def infer(instructions: list[Instruction], registers: int, spans: Sequence[Span | None],
          sites: Sequence[tuple], names: dict[int, str],
          final_span: Span | None = None, limit: int | None = None,
          sliders: frozenset[int] | None = None) -> Inference:
    """Infer the program's widths and constants; `spans[k]`, `sites[k]`: the source and
    call path of instruction k; `names`: register -> variable name; `limit`: the work
    budget (default flow.budget(len(instructions))); `sliders`: the slider indices the
    program's `//@slider` lines name, for W017 (None: not checked)."""
    flow = analyse(instructions, registers, limit)
    final = domain.width_set(flow.final) if flow.final is not None else frozenset()
    if not flow.complete:
        result = Inference(flow, frozenset(), [], spans, sites=sites, names=names)
        result.diagnostics = [_out_of_budget(flow, flow.flattened, spans)]
        return result
    costs, counting = loop_costs(flow)
    result = Inference(flow, final, costs, spans, sites=sites, names=names)
    result.counting = counting
    assigned = {d.n for d in flow.code if d.op == Op.SETVAR}
    found = lint(flow, spans, sites, names, final_span, assigned, sliders)
    for code, k, fields, hint in loop_findings(costs):
        found.add(code, k, spans[k] if k < len(spans) else None, hint, **fields)
    result.diagnostics = found.diagnostics(spans)
    if flow.flattened is not None:
        result.diagnostics.insert(0, _out_of_budget(
            flow, flow.flattened, spans, "the loops inside it are analysed without their "
            "first iterations, so the width checks there know fewer constants"))
    if counting.uncounted:
        more = len(counting.uncounted) - 1
        others = f" and {more} other loop{'s' if more > 1 else ''}" if more else ""
        result.diagnostics.insert(0, _out_of_budget(
            flow, min(counting.uncounted, key=lambda lp: lp.header), spans,
            f"the iterations of this loop{others} are not counted, so they are not "
            "checked against the jump budget (W008)", counting.limit,
            "count fewer constant iterations in all: merge loops, or bound them by "
            "something that is not a constant"))
    return result


def _out_of_budget(flow: Flow, loop: Loop | None, spans: Sequence[Span | None],
                   what: str = "the program compiles as usual, without the width checks",
                   budget: int | None = None,
                   hint: str = "nest fewer loops inside one another") -> Diagnostic:
    """N003 at the loop where the budget ran out (its test: the `while` or `for`)."""
    span = None
    if loop is not None:
        k = flow.starts[loop.header + 1] - 1
        span = spans[k] if k < len(spans) else None
    return make("N003", span or Span.start(), count=len(flow.code), what=what,
                budget=flow.budget if budget is None else budget, hint=hint)


#: Decoded, Flow, State: the fixed point's types; block_copies and its types: the widths at
#: every instruction of each block copy, in one call, for the stage that writes typed code
#: (psl.export.ir), so that no stage re-runs the inference's internals.
__all__ = ["NAN_CONSTANT", "UNDERFLOW", "BlockCopies", "BlockCopy", "Decoded", "Flow",
           "Inference", "State", "Step", "block_copies", "infer"]
