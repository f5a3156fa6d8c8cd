"""Upper bounds on the Udon externs one event of a behaviour with counted loops executes.

event_cost.py bounds loop-free behaviours. This extends it to `for` loops whose trip count is
a constant: the condition is `i < N` or `i <= N` (or that `&& ...`), N an integer literal or
a `const int` of the class, `i` starting at a literal >= 0, stepped by `i++` and never assigned
in the body. Such a loop runs its body at most N (N + 1 for `<=`) times and its header once
more, so its bound is (trips + 1) x its header's extern sites (the `for (...)` lines) + trips x
the bound of its body (its extern sites, the calls of the class's own methods, the loops
nested in it). Any other loop (while, do,
foreach, a `for` of another shape) is refused with CheckerError: the bound must never guess.
Sites are attributed by line, so a bounded behaviour keeps one statement per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from tests.udon_support.checker import Site
from tests.udon_support.syntax import CheckerError, classes, parse, text

OTHER_LOOPS = ("while_statement", "do_statement", "foreach_statement")


@dataclass(frozen=True)
class LoopBound:
    name: str
    externs: int  # upper bound on the externs one call of the method executes


def _consts(source: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"\bconst\s+int\s+(\w+)\s*=\s*(\d+)\s*;", source)}


def _trips(loop: Node, consts: dict[str, int], where: str) -> int:
    """The most times the loop's body runs; CheckerError when that is not a constant."""
    init = loop.child_by_field_name("initializer")
    cond = loop.child_by_field_name("condition")
    update = loop.child_by_field_name("update")
    body = loop.child_by_field_name("body")
    m = re.fullmatch(r"int\s+(\w+)\s*=\s*(\d+)", text(init) if init is not None else "")
    if m is None or cond is None or update is None or body is None:
        raise CheckerError(f"{where}: a loop that is not `for (int i = K; i < N; i++)`")
    var, start = m.group(1), int(m.group(2))
    while cond.type == "binary_expression" and text(cond.child_by_field_name("operator")) == "&&":
        cond = cond.child_by_field_name("left")
    c = re.fullmatch(rf"{var}\s*(<=?)\s*(\w+)", text(cond))
    if c is None or text(update) != f"{var}++":
        raise CheckerError(f"{where}: the loop's condition is not `{var} < N` (N constant)")
    limit = int(c.group(2)) if c.group(2).isdigit() else consts.get(c.group(2))
    if limit is None:
        raise CheckerError(f"{where}: {c.group(2)} is not a const int of the class")
    if re.search(rf"\b{var}\s*(=[^=]|\+\+|--|[-+*/]=)", text(body)):
        raise CheckerError(f"{where}: the loop assigns its counter {var} in its body")
    return max(0, limit - start + (c.group(1) == "<="))


def loop_bounds(name: str, source: str, sites: list[Site]) -> dict[str, LoopBound]:
    """Every method of the script's class -> its bound. Raises CheckerError on a loop it
    cannot count or on recursion."""
    (cls,) = classes(parse(source, name), name)
    methods = {m.name: m.node for m in cls.methods}
    if len(methods) != len(cls.methods):
        raise CheckerError(f"{name}: overloaded methods are not supported by the bound")
    consts = _consts(source)
    bounds: dict[str, int] = {}
    active: set[str] = set()

    def lines(node: Node) -> range:
        return range(node.start_point[0] + 1, node.end_point[0] + 2)

    def inside(node: Node, stop_at_loops: bool) -> tuple[list[Node], list[str]]:
        """The loops directly inside `node` and the own-method calls outside them."""
        loops: list[Node] = []
        calls: list[str] = []
        stack = list(reversed(node.children))
        while stack:
            n = stack.pop()
            if n.type in OTHER_LOOPS:
                raise CheckerError(f"{name}: a {n.type} at line {n.start_point[0] + 1}; the "
                                   "bound needs counted for loops")
            if n.type == "for_statement" and stop_at_loops:
                loops.append(n)
                continue
            if n.type == "invocation_expression":
                f = n.child_by_field_name("function")
                if f is not None and f.type == "identifier" and text(f) in methods:
                    calls.append(text(f))
            stack.extend(reversed(n.children))
        return loops, calls

    def cost(node: Node, own_lines: range) -> int:
        loops, calls = inside(node, True)
        excluded: set[int] = set()
        for loop in loops:
            excluded.update(lines(loop))
        total = sum(1 for s in sites if s.line in own_lines and s.line not in excluded)
        total += sum(bound(c) for c in calls)
        for loop in loops:
            trips = _trips(loop, consts, f"{name}:{loop.start_point[0] + 1}")
            body = loop.child_by_field_name("body")
            total += header(loop, trips) + trips * cost(body, lines(body))
        return total

    def header(loop: Node, trips: int) -> int:
        # the `for (...)` lines run once per trip and once more (the test that ends it)
        body = loop.child_by_field_name("body")
        first, last = loop.start_point[0] + 1, body.start_point[0] + 1
        if any(s.line == last for s in sites) and first != last:
            raise CheckerError(f"{name}:{last}: a loop body that starts on a line with code")
        if first == last:
            raise CheckerError(f"{name}:{first}: a loop body on its header's line")
        return (trips + 1) * sum(1 for s in sites if first <= s.line < last)

    def bound(method: str) -> int:
        if method in active:
            raise CheckerError(f"{name}: recursion through {method}")
        if method not in bounds:
            active.add(method)
            node = methods[method]
            bounds[method] = cost(node, lines(node))
            active.discard(method)
        return bounds[method]

    return {m: LoopBound(m, bound(m)) for m in methods}
