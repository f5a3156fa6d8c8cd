"""Warnings from width inference: reads before assignment, swizzles past a value's width,
mixed widths, and the program's result (catalogue codes W007, W010, W011, N001).

Each check reads what the recording pass saw at an instruction, joined over every path
and context; an instruction of an inlined function exists once per call, so findings are
grouped by source position and name the calls they hold for when not all do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from psl import registry
from psl.diagnostics import Diagnostic, Span, make
from psl.infer import domain
from psl.infer.flow import Flow
from psl.registry import Op, ResultDim

_SWIZZLE = registry.SWIZZLE.id
_POW = registry.BUILTIN_BY_NAME["pow"].id
_SLIDER = registry.BUILTIN_BY_NAME["slider"].id
_ARITH = {registry.BINOP_BY_SYMBOL[s].id: s for s in "+-*/"}
_SYMBOL = {b.id: s for s, b in registry.BINOP_BY_SYMBOL.items()}


def static(v: domain.Val) -> int | None:
    """The one width v can have, or None when it can have several."""
    ws = domain.width_set(v)
    return next(iter(ws)) if len(ws) == 1 else None


def kind(w: int) -> str:
    """'a float3'."""
    return domain.describe(frozenset({w}))


def bare(w: int) -> str:
    """'float3'."""
    return kind(w).split(" ", 1)[1]


@dataclass
class _Finding:
    code: str
    span: Span
    fields: dict[str, object]
    hint: str
    sites: list[tuple] = field(default_factory=list)


class Findings:
    """Findings grouped by (code, position, message)."""

    def __init__(self, sites: Sequence[tuple]):
        self.sites = sites
        self.items: dict[tuple, _Finding] = {}

    def add(self, code: str, k: int, span: Span | None, hint: str = "",
            **fields: object) -> None:
        if span is None:
            return
        key = (code, span, tuple(sorted(fields.items())))
        got = self.items.get(key)
        if got is None:
            got = self.items[key] = _Finding(code, span, fields, hint)
        got.sites.append(self.sites[k] if k < len(self.sites) else ())

    def diagnostics(self, spans: Sequence[Span | None]) -> list[Diagnostic]:
        copies: dict[Span, set[tuple]] | None = None
        out = []
        for f in self.items.values():
            d = make(f.code, f.span, hint=f.hint, **f.fields)
            if f.sites and f.sites[0] and copies is None:
                copies = {}  # source position -> the call paths of its inlined copies
                for k, span in enumerate(spans):
                    if span is not None:
                        copies.setdefault(span, set()).add(
                            self.sites[k] if k < len(self.sites) else ())
            everywhere = copies.get(f.span, set()) if copies is not None else set()
            if f.sites and f.sites[0] and len(set(f.sites)) < len(set(everywhere)):
                calls = sorted({s[-1] for s in f.sites if s and s[-1] is not None},
                               key=lambda s: (s.line, s.column))
                shown = ", ".join(f"{s.line}:{s.column}" for s in calls[:3])
                more = f" and {len(calls) - 3} more" if len(calls) > 3 else ""
                d = Diagnostic(d.code, d.span, d.message, d.hint,
                               (f"only in the call{'s' if len(calls) > 1 else ''} at "
                                f"{shown}{more}",))
            out.append(d)
        return out


def lint(flow: Flow, spans: Sequence[Span | None], sites: Sequence[tuple],
         names: dict[int, str], final_span: Span | None, assigned: set[int],
         sliders: frozenset[int] | None = None) -> Findings:
    """`spans[k]`, `sites[k]`: the source and call path of instruction k;
    `names`: register -> variable name; `assigned`: registers some SETVAR writes;
    `sliders`: the indices the program's `//@slider` lines name (None: no W017)."""
    found = Findings(sites)
    code = flow.code
    for k, seen in sorted(flow.seen.items()):
        d = code[k]
        span = spans[k] if k < len(spans) else None
        if d.op == Op.PUSHVAR:
            if seen.unassigned and d.n in assigned:
                name = names.get(d.n, f"r{d.n}").rsplit(".", 1)[-1]
                where = "" if seen.always_unassigned else " on some paths"
                found.add("W007", k, span, name=name, where=where,
                          hint="assign it first on every path (or initialise it before "
                               "the loop or if)")
        elif d.op == Op.BINOP:
            _mixed_binop(found, k, span, d.n, *seen.inputs)
            _constant_nan(found, k, span, d.op, d.n, seen.inputs)
        elif d.op == Op.UNOP:
            _constant_nan(found, k, span, d.op, d.n, seen.inputs)
        elif d.op == Op.CALL:
            _constant_nan(found, k, span, d.op, d.n, seen.inputs)
            if d.n == _SWIZZLE:
                _swizzle(found, k, span, *seen.inputs)
            elif d.n == _SLIDER and sliders is not None:
                _slider(found, k, span, seen.inputs[0], sliders)
            else:
                _mixed_call(found, k, span, d.n, seen.inputs)
    if flow.final is not None and final_span is not None:
        ws = domain.width_set(flow.final)
        if ws and max(ws) < 4:
            found.add("N001", len(code), final_span, what=domain.describe(ws),
                      effect=_result_effect(ws))
    return found


def _apply(op: int, n: int, args: Sequence[domain.Val]) -> domain.Val | None:
    if op == Op.BINOP:
        return domain.binop(n, args[0], args[1])
    if op == Op.UNOP:
        return domain.unop(n, args[0])
    return domain.call(n, list(args))


def _constant_nan(found: Findings, k: int, span: Span | None, op: int, n: int,
                  args: Sequence[domain.Val]) -> None:
    """A constant that folds to NaN in a lane its operation's widths give a number (0/0,
    sqrt(-1)): the VM takes NaN for a missing lane, so the value is narrower than it
    looks (and `psl export` refuses it). The same test as psl/export/ir.py's."""
    if not args or any(a is None for a in args):
        return
    out = _apply(op, n, args)
    if out is None or out[1] is None:
        return
    shape_args = [(a[0], None) for a in args]
    if op == Op.CALL and n == _SWIZZLE:
        shape_args[1] = args[1]
    shape = _apply(op, n, shape_args)
    if shape is not None and out[0] != shape[0]:
        found.add("W013", k, span,
                  hint="NaN is the VM's mark of a missing lane: the value loses that lane")


def _result_effect(ws: frozenset[int]) -> str:
    w = max(ws)
    if w == 3:
        return "its alpha is 0"
    if w == 2:
        return "its blue and alpha are 0"
    return "only its red channel is set"


def _swizzle(found: Findings, k: int, span: Span | None, base: domain.Val,
             pick: domain.Val) -> None:
    lanes = domain.swizzle_pick(pick)
    if lanes is None:
        return
    ws = domain.width_set(base)
    if not ws:
        return
    # a lane is past the value's width when it is NaN in every pattern the value can have
    past = [lane for lane in lanes
            if lane > 0 and all(p >> (lane - 1) & 1 for p in domain.patterns(base[0]))]
    if past:
        letter = registry.SWIZZLE_SETS[0][max(past) - 1]
        found.add("W010", k, span, lane=letter, what=domain.describe(ws),
                  hint="a swizzle past a value's width reads 0; check the value's width")


def _mixed_binop(found: Findings, k: int, span: Span | None, op_id: int,
                 left: domain.Val, right: domain.Val) -> None:
    a, b = static(left), static(right)
    if a is None or b is None or a == b or min(a, b) < 2:
        return  # a scalar broadcasts; equal or dynamic widths are not a clear mistake
    if domain.ZERO in (left, right):
        return  # an unassigned read (0, 0, 0, 0): W006/W007 already say so
    if op_id in _ARITH:
        effect = (f"the lanes past the {bare(min(a, b))} become NaN, so the result is "
                  f"{kind(min(a, b))}")
    else:
        effect = (f"the lanes past the {bare(min(a, b))} compare with NaN, so the result's "
                  f"extra lanes are not comparisons of numbers")
    found.add("W011", k, span, op=f"'{_SYMBOL.get(op_id, '?')}'", left=kind(a), right=kind(b),
              effect=effect, hint="only a scalar is broadcast; make both sides the same "
                                  "width with a swizzle or a constructor")


def _slider(found: Findings, k: int, span: Span | None, arg: domain.Val,
            named: frozenset[int]) -> None:
    """W017: slider(k) with a constant k that no `//@slider` line names (docs/spec.md §8.8)."""
    if arg[1] is None:
        return
    x = domain.lanes(arg)[0]
    # the VM masks the argument first: a NaN x lane reads as 0
    index = math.floor(x) if math.isfinite(x) else (0 if x != x else x)
    count, marker = registry.SLIDERS.count, registry.SLIDERS.marker
    if isinstance(index, int) and 0 <= index < count:
        if index in named:
            return
        found.add("W017", k, span, index=index, why=f"is named by no `//{marker}` line",
                  hint=f"name it with a line such as `//{marker} {index} amount 0..1 = 0.5`")
        return
    found.add("W017", k, span, index=f"{x:g}",
              why=f"is outside the {count} sliders (0-{count - 1})",
              hint=f"read one of the sliders 0-{count - 1}")


def _mixed_call(found: Findings, k: int, span: Span | None, builtin_id: int,
                args: tuple[domain.Val, ...]) -> None:
    b = registry.BUILTIN_BY_ID.get(builtin_id)
    if b is None or not args:
        return
    ws = [static(a) for a in args]
    if any(w is None for w in ws) or domain.ZERO in args:
        return
    if builtin_id == _POW:
        base, exp = ws
        if base != exp and max(base, exp) >= 2:  # type: ignore[type-var]
            lanes = "lanes past the exponent's are 1" if base > exp else \
                "the base's missing lanes are 0"  # type: ignore[operator]
            found.add("W011", k, span, op="pow()", left=kind(base), right=kind(exp),
                      effect=f"pow() does not broadcast, so {lanes}",
                      hint="give the exponent the base's width, e.g. pow(v, float3(2, 2, 2))")
        return
    if b.pad and b.result is not ResultDim.MASK:
        wide = [w for w in ws if w is not None and w >= 2]
        if len(set(wide)) > 1:
            lo, hi = min(wide), max(wide)
            found.add("W011", k, span, op=f"{b.name}()", left=kind(lo), right=kind(hi),
                      effect=f"the {bare(lo)} is padded with zeros to {kind(hi)}",
                      hint="only a scalar is broadcast; make the arguments the same width")
