"""Upper bounds on the Udon externs one event of a loop-free behaviour executes.

For a method without loops (no for/while/do/foreach) and without recursion, every extern
site in it runs at most once per call, so the method's externs are bounded by its own sites
(the exposure checker's, one per extern UdonSharp emits) plus, for each call of one of the
class's own methods, that method's bound. An event's bound is its method's. Calls into other
behaviours (`compiler.CompileLocal()`) are one SendCustomEvent site here; what the callee
runs in the same event is added by the caller of this module (the Compiler's first slice is
measured by the shared udon_cost tool).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.udon_support.checker import Site
from tests.udon_support.syntax import CheckerError, classes, parse, text

LOOPS = ("for_statement", "while_statement", "do_statement", "foreach_statement")


@dataclass(frozen=True)
class EventBound:
    name: str
    externs: int  # upper bound on the externs the event executes
    calls: tuple[str, ...]  # own methods it calls (directly)


def _walk(node, found: list) -> None:
    found.append(node)
    for child in node.children:
        _walk(child, found)


def event_bounds(name: str, source: str, sites: list[Site]) -> dict[str, EventBound]:
    """Every method of the script's class -> its bound. Raises CheckerError on a loop."""
    (cls,) = classes(parse(source, name), name)
    spans = {m.name: (m.node.start_point[0] + 1, m.node.end_point[0] + 1) for m in cls.methods}
    if len(spans) != len(cls.methods):
        raise CheckerError(f"{name}: overloaded methods are not supported by the bound")
    own: dict[str, int] = {}
    calls: dict[str, list[str]] = {}
    for m in cls.methods:
        first, last = spans[m.name]
        own[m.name] = sum(1 for s in sites if first <= s.line <= last)
        nodes: list = []
        _walk(m.node, nodes)
        loop = next((n for n in nodes if n.type in LOOPS), None)
        if loop is not None:
            raise CheckerError(f"{name}: {m.name} has a loop at line {loop.start_point[0] + 1}; "
                               "the bound needs loop-free code")
        calls[m.name] = [text(n.child_by_field_name("function")) for n in nodes
                         if n.type == "invocation_expression"
                         and n.child_by_field_name("function").type == "identifier"
                         and text(n.child_by_field_name("function")) in spans]
    bounds: dict[str, int] = {}

    def bound(method: str, depth: int = 0) -> int:
        if depth > len(spans):
            raise CheckerError(f"{name}: recursion through {method}")
        if method not in bounds:
            bounds[method] = own[method] + sum(bound(c, depth + 1) for c in calls[method])
        return bounds[method]

    return {m: EventBound(m, bound(m), tuple(calls[m])) for m in spans}
