"""Semantic analysis (SPEC §3, contract stage 5): functions, calls, recursion, swizzles,
assignment targets; plus the lint warnings of `psl check`."""

from __future__ import annotations

import difflib
import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from psl import registry
from psl.bytecode import f32
from psl.diagnostics import Diagnostic, Span, make
from psl.syntax import ast


@dataclass
class Analysis:
    functions: dict[str, ast.FunDef] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def walk(node: object) -> Iterator[object]:
    """Pre-order walk in source order, iterative (no recursion limit concerns)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(ast.children(n)))


def swizzle_problem(part: ast.Name) -> Diagnostic | None:
    text = part.text
    if any(ch not in registry.SWIZZLE_LANES for ch in text):
        return make("E016", part.span, text=text)
    if len(text) > registry.MAX_SWIZZLE:
        return make("E017", part.span, text=text)
    return None


def swizzle_mixes_sets(text: str) -> bool:
    return sum(1 for s in registry.SWIZZLE_SETS if any(ch in s for ch in text)) > 1


def _describe_target(target: ast.Expr) -> str | None:
    """None when the target is assignable; else what it is (for E018)."""
    if isinstance(target, ast.Var):
        return None
    if isinstance(target, ast.Swizzle):
        if not isinstance(target.base, ast.Var):
            return _describe_target(target.base) or "an expression"
        return None if len(target.parts) == 1 else "a chained swizzle"
    if isinstance(target, ast.Call):
        return "a function call"
    if isinstance(target, ast.Number):
        return "a number"
    return "an expression"


def _calls(node: object) -> list[ast.Call]:
    return [n for n in walk(node) if isinstance(n, ast.Call)]


def _cycle_path(start: str, goal: str, graph: dict[str, list[str]]) -> list[str] | None:
    """Shortest call path start -> … -> goal (BFS, callees in call-site order)."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            path = []
            node: str | None = cur
            while node is not None:
                path.append(node)
                node = parent[node]
            return path[::-1]
        for nxt in graph.get(cur, ()):
            if nxt not in parent:
                parent[nxt] = cur
                queue.append(nxt)
    return None


def analyse(program: ast.Program) -> Analysis:
    result = Analysis()
    diags = result.diagnostics
    body = program.body
    nodes = list(walk(body))  # every pass below reads this one pre-order list

    # Functions: top level only, no builtin names, no duplicates.
    top_level = {id(s) for s in body.statements if isinstance(s, ast.FunDef)}
    for node in nodes:
        if not isinstance(node, ast.FunDef):
            continue
        if id(node) not in top_level:
            diags.append(make("E015", node.span,
                              hint="move this function out of the block"))
            continue
        name = node.name.text
        if registry.lookup_builtin(name) is not None:
            diags.append(make("E013", node.name.span, name=name))
        elif name in result.functions:
            first = result.functions[name].name.span.line
            diags.append(make("E014", node.name.span, name=name, line=first))
        else:
            result.functions[name] = node
    funcs = result.functions

    # Calls, swizzles and assignment targets everywhere.
    for node in nodes:
        if isinstance(node, ast.Call):
            name = node.name.text
            user = funcs.get(name)
            builtin = registry.lookup_builtin(name)
            if user is None and builtin is None:
                diags.append(make("E010", node.name.span, name=name))
                continue
            expected = builtin.arity if builtin is not None else len(user.params)  # type: ignore[union-attr]
            if len(node.args) != expected:
                diags.append(make("E011", node.name.span, name=name, expected=expected,
                                  s="" if expected == 1 else "s", got=len(node.args)))
        elif isinstance(node, ast.Swizzle):
            for part in node.parts:
                problem = swizzle_problem(part)
                if problem is not None:
                    diags.append(problem)
                    break
                if swizzle_mixes_sets(part.text):
                    diags.append(make("W001", part.span, text=part.text,
                                      hint="use either xyzw or rgba"))
        elif isinstance(node, ast.Number) and math.isinf(f32(node.value)):
            diags.append(make("W012", node.span, text=node.text, value="infinity",
                              hint="the VM and the shaders compute with float32"))
        elif isinstance(node, ast.Assign):
            what = _describe_target(node.target)
            if what is not None:
                diags.append(make("E018", node.target.span, what=what))

    # Recursion: a call in f to g from which f is reachable.
    calls = {name: _calls(f.body) for name, f in funcs.items()}
    graph = {name: [c.name.text for c in cs if c.name.text in funcs] for name, cs in calls.items()}
    for name in funcs:
        for call in calls[name]:
            callee = call.name.text
            if callee not in funcs:
                continue
            path = _cycle_path(callee, name, graph)
            if path is not None:
                diags.append(make("E012", call.name.span, cycle=" -> ".join([name, *path]),
                                  hint="PSL inlines every call, so functions cannot recurse"))

    _lint(program, nodes, result)
    # Errors first, earliest position first; ties go to the lower code (contract stage 5).
    diags.sort(key=lambda d: (not d.is_error, d.span.line, d.span.column, d.code))
    return result


def _has_value(block: ast.Block) -> bool:
    """Does running this block leave a value (directly or through a final if/else)?"""
    if block.final is not None:
        return True
    if not block.statements:
        return False
    last = block.statements[-1]
    while isinstance(last, ast.If):
        if last.orelse is None or not _has_value(last.then):
            return False
        if isinstance(last.orelse, ast.Block):
            return _has_value(last.orelse)
        last = last.orelse
    return False


def _never_assigned_hint(name: str, known: list[str]) -> str:
    """The end of W006's message: a builtin meant as a call, or the closest assigned name."""
    if registry.lookup_builtin(name) is not None:
        return f"; did you mean the builtin {name.lower()}()?"
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[name.lower()]] if name.lower() in lowered else []
    return f"; did you mean '{close[0]}'?" if close else ""


def _lint(program: ast.Program, nodes: list[object], result: Analysis) -> None:
    diags = result.diagnostics
    body = program.body
    if not _has_value(body):
        diags.append(make("W004", body.span if body.span.line else Span.start()))

    # W002 / W003: names assigned but never read anywhere; function names as variables.
    assigned: dict[str, ast.Assign] = {}
    read: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            target = node.target
            base = target.base if isinstance(target, ast.Swizzle) else target
            if isinstance(base, ast.Var):
                assigned.setdefault(base.name, node)
                if node.op.text != "=" or isinstance(target, ast.Swizzle):
                    read.add(base.name)  # op= reads it; a swizzle keeps the other lanes
        elif isinstance(node, ast.Var):
            if node.name in result.functions:
                diags.append(make("W003", node.span, name=node.name))
    # A variable is read wherever it appears, except as the plain target of an assignment.
    targets = {id(n.target) for n in nodes if isinstance(n, ast.Assign)}
    for node in nodes:
        if isinstance(node, ast.Var) and id(node) not in targets:
            read.add(node.name)
    params = {p.text for f in result.functions.values() for p in f.params}
    for name, node in assigned.items():
        if name not in read and name not in params:
            diags.append(make("W002", node.target.span, name=name))

    # W006: a name read but assigned nowhere (no assignment, parameter or function of that
    # name): every read gives 0. Reported at the first read, with the closest known name.
    known = sorted(set(assigned) | params)
    reported: set[str] = set()
    for node in nodes:
        if not isinstance(node, ast.Var) or id(node) in targets:
            continue
        name = node.name
        if name in assigned or name in params or name in result.functions or name in reported:
            continue
        reported.add(name)
        diags.append(make("W006", node.span, name=name,
                          suggestion=_never_assigned_hint(name, known),
                          hint="assign it before reading it, or check the spelling"))

    # W005: values left inside loops, or inside ifs that are not in tail position.
    for f in result.functions.values():
        _lint_block_values(f.body, used=True, diags=diags)


def _lint_block_values(block: ast.Block, used: bool, diags: list[Diagnostic]) -> None:
    last = len(block.statements) - 1
    for i, stmt in enumerate(block.statements):
        tail = used and i == last and block.final is None
        if isinstance(stmt, ast.If):
            node: ast.If | ast.Block | None = stmt
            while isinstance(node, ast.If):
                _check_value(node.then, tail, "an if block", diags)
                node = node.orelse
            if isinstance(node, ast.Block):
                _check_value(node, tail, "an else block", diags)
        elif isinstance(stmt, (ast.While, ast.For)):
            kind = "a while loop" if isinstance(stmt, ast.While) else "a for loop"
            _check_value(stmt.body, False, kind, diags)


def _check_value(block: ast.Block, used: bool, what: str, diags: list[Diagnostic]) -> None:
    if block.final is not None and not used:
        diags.append(make("W005", block.final.span, what=what,
                          hint="assign the value to a variable and make it the function's "
                               "final expression"))
    _lint_block_values(block, used, diags)
