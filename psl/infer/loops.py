"""Loops against the jump budget (W008, W009), from the fixed point's constants.

The VM stops a pixel once it has taken more than LIMITS.jumps jumps, coloured by whatever
is on top of the stack. A loop's cost in jumps is at least its iterations times the
fewest jumps one iteration can take (a `while` takes one, a `for` three, an `if` inside
one more on either branch). Iterations are counted by running the loop's condition and
counter updates on the constants the loop starts with, with the reference VM's float32
operators, when the condition reads only:
  - counters: registers that the loop changes only by `r = r op c` (`i++`, `i += 0.5`,
    `i = i * 2`) once on every iteration, not inside an inner loop; and
  - registers the loop does not change, with a constant value on entry.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from psl.cancel import check_cancelled
from psl.infer import domain
from psl.infer.flow import Decoded, Flow
from psl.infer.graph import Loop
from psl.registry import LIMITS, Op

#: iterations counted at most (and at most 4 times what the budget holds); a loop still
#: running after them is reported as "more than" that many
SIMULATED = 10 * LIMITS.jumps


@dataclass(frozen=True)
class LoopCost:
    loop: Loop
    exit_test: int  # the header's CONDJUMP (instruction index)
    iterations: int | None  # None: not constant-bounded; LIMITS.jumps + 1 means "more"
    per_iteration: int  # fewest jumps of one iteration
    never_ends: str  # why the loop can never end ("" when it can)

    @property
    def jumps(self) -> int | None:
        """Fewest jumps the whole loop takes (its exit included), if bounded."""
        if self.iterations is None:
            return None
        return self.iterations * self.per_iteration + 1


#: The counting's work budget: condition and update instructions run over every loop. One
#: loop may run SIMULATED iterations, so sixty loops in a row would run a million; the floor
#: lets any one loop of the corpus and the tests be counted to its cap (the most, 24,000).
COUNT_FLOOR = 100_000
COUNT_PER_INSTRUCTION = 100


def count_budget(instructions: int) -> int:
    return COUNT_FLOOR + COUNT_PER_INSTRUCTION * instructions


class Counting:
    """The counting's work so far; the loops left uncounted (iterations None) once it
    reached its budget."""

    def __init__(self, limit: int):
        self.limit = limit
        self.work = 0
        self.uncounted: list[Loop] = []


def loop_costs(flow: Flow, limit: int | None = None) -> tuple[list[LoopCost], Counting]:
    """Costs of every loop, inner loops before the loops around them, and the counting's
    work (`limit`: its budget, default count_budget(instructions))."""
    counting = Counting(count_budget(len(flow.code)) if limit is None else limit)
    costs: dict[int, LoopCost] = {}
    for loop in reversed(flow.loops):
        check_cancelled()
        cost = _cost(flow, loop, costs, counting)
        if cost is not None:
            costs[loop.index] = cost
    return [costs[i] for i in sorted(costs, reverse=True)], counting


def _cost(flow: Flow, loop: Loop, inner: dict[int, LoopCost], counting: Counting
          ) -> LoopCost | None:
    h = loop.header
    test = flow.starts[h + 1] - 1
    d = flow.code[test]
    if d.op != Op.CONDJUMP:
        return None
    exits = flow.edges[h]
    if not (exits[0][0] in loop.members and exits[1][0] not in loop.members):
        return None  # not the compiler's loop shape
    per = _fewest_jumps(flow, loop, inner)
    never = _never_ends(flow, loop, test)
    iterations = None if never else _iterations(flow, loop, test, per, counting)
    return LoopCost(loop, test, iterations, per, never)


def _fewest_jumps(flow: Flow, loop: Loop, inner: dict[int, LoopCost]) -> int:
    """Fewest jumps from the header around to the header (Dijkstra over the loop's blocks;
    entering an inner loop costs that loop's fewest jumps when it is bounded)."""
    h = loop.header
    headers = {c.loop.header: c for c in inner.values() if c.loop.parent == loop.index}
    dist = {h: 0}
    heap = [(0, h)]
    best = None
    while heap:
        dd, b = heapq.heappop(heap)
        if dd > dist.get(b, 1 << 60):
            continue
        for t, w in flow.edges[b]:
            if t is None or t not in loop.members:
                continue
            cost = dd + w
            if t == h:
                best = cost if best is None else min(best, cost)
                continue
            c = headers.get(t)
            if c is not None and b not in c.loop.members:
                cost += (c.jumps or 1) - 1  # its exit jump is the edge out of it
            if cost < dist.get(t, 1 << 60):
                dist[t] = cost
                heapq.heappush(heap, (cost, t))
    return max(best or 1, 1)


def _never_ends(flow: Flow, loop: Loop, test: int) -> str:
    """Why no path leaves the loop, from what the recording pass saw; "" if one can."""
    reached = {b for (b, _, _) in flow.states}
    if loop.header not in reached:
        return ""
    for b in loop.members:
        if b not in reached:
            continue
        last = flow.starts[b + 1] - 1
        seen = flow.seen.get(last)
        for i, (t, _w) in enumerate(flow.edges[b]):
            if t in loop.members:
                continue
            if flow.code[last].op == Op.CONDJUMP:
                if seen is not None and seen.outcomes >> i & 1:
                    return ""
            else:
                return ""
    cond = flow.seen.get(test)
    if cond is not None and cond.inputs and cond.inputs[0][1] is None:
        return "its condition's x is NaN on every path, and NaN counts as true"
    return "its condition is always true"


def _iterations(flow: Flow, loop: Loop, test: int, per: int, counting: Counting
                ) -> int | None:
    """Iterations before the condition fails, run on constants; LIMITS.jumps + 1 (more
    than the budget allows) when it does not fail in time; None when not constant."""
    code = flow.code
    h = loop.header
    cond_code = code[flow.starts[h]:test]
    ok_ops = (Op.PUSHCONST, Op.PUSHVAR, Op.BINOP, Op.UNOP, Op.CALL)
    if any(c.op not in ok_ops for c in cond_code):
        return None
    read = {c.n for c in cond_code if c.op == Op.PUSHVAR}
    body = [k for b in sorted(loop.members) for k in range(flow.starts[b], flow.starts[b + 1])]
    updates: dict[int, list[tuple[int, domain.Val, bool]]] = {}
    for k in body:
        c = code[k]
        if c.op == Op.SETVAR and c.n in read:
            upd = _update(flow, loop, k)
            if upd is None:
                return None
            updates.setdefault(c.n, []).append(upd)
    entry = flow.header_states(loop, first=True)
    if not entry:
        return None
    values: dict[int, domain.Val] = {}
    for r in read:
        v = _same_const([s.regs[r] for s in entry])
        if v is None:
            return None
        values[r] = v
    # Count exactly up to a few times what the budget holds (the message gives the real
    # count), and no further: the counting is plain Python.
    cap = min(SIMULATED, 4 * (LIMITS.jumps // per + 1))
    step = len(cond_code) + sum(len(ups) for ups in updates.values())
    for count in range(cap + 1):
        counting.work += step
        if counting.work > counting.limit:
            counting.work -= step
            counting.uncounted.append(loop)
            return None
        cond = _evaluate(cond_code, values)
        if cond is None or cond[1] is None:
            return None
        if domain.jumps(cond):
            return count
        for r, ups in updates.items():
            for op_id, c, const_first in ups:
                values[r] = (domain.binop(op_id, c, values[r]) if const_first
                             else domain.binop(op_id, values[r], c))
    return cap + 1  # still running: more than `cap`


def _same_const(vals: Sequence[domain.Val]) -> domain.Val | None:
    first = vals[0]
    if first[1] is None or any(v[1] != first[1] for v in vals):
        return None
    return first


def _update(flow: Flow, loop: Loop, k: int) -> tuple[int, domain.Val, bool] | None:
    """SETVAR k as `r = r op c` or `r = c op r` run once per iteration: (op, c, c first)."""
    code = flow.code
    d = code[k]
    if d.pairs is not None or k < 3:
        return None
    a, b, op = code[k - 3], code[k - 2], code[k - 1]
    if op.op != Op.BINOP:
        return None
    if a.op == Op.PUSHVAR and a.n == d.n and b.op == Op.PUSHCONST:
        const, first = b.const, False
    elif b.op == Op.PUSHVAR and b.n == d.n and a.op == Op.PUSHCONST:
        const, first = a.const, True
    else:
        return None
    block = max(bb for bb in loop.members if flow.starts[bb] <= k)
    if flow.starts[block] > k - 3:
        return None  # the update's instructions span blocks
    if not _on_every_iteration(flow, loop, block):
        return None
    return op.n, const, first  # type: ignore[return-value]


def _on_every_iteration(flow: Flow, loop: Loop, block: int) -> bool:
    """Is `block` on every path from the header back to it, and outside inner loops?"""
    for other in flow.loops:
        if block in other.members and other.members < loop.members:
            return False  # inside an inner loop: runs any number of times
    if block == loop.header:
        return True
    todo, seen = [loop.header], {loop.header}
    while todo:
        b = todo.pop()
        for t, _w in flow.edges[b]:
            if t is None or t not in loop.members or t == block:
                continue
            if t == loop.header:
                return False  # around the loop without passing `block`
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return True


def _evaluate(cond_code: Sequence[Decoded], values: dict[int, domain.Val]
              ) -> domain.Val | None:
    stack: list[domain.Val] = []
    for c in cond_code:
        if c.op == Op.PUSHCONST:
            stack.append(c.const)  # type: ignore[arg-type]
        elif c.op == Op.PUSHVAR:
            stack.append(values[c.n])
        elif c.op == Op.BINOP:
            r, left = stack.pop(), stack.pop()
            stack.append(domain.binop(c.n, left, r))
        elif c.op == Op.UNOP:
            stack.append(domain.unop(c.n, stack.pop()))
        else:
            args = [stack.pop() for _ in range(c.arity)][::-1]
            stack.append(domain.call(c.n, args))
        if len(stack) > LIMITS.stack:
            return None
    return stack[-1] if stack else None


def loop_findings(costs: Sequence[LoopCost]) -> list[tuple[str, int, dict[str, object], str]]:
    """(code, instruction, message fields, hint) for the loops the VM will cut off:
    a loop over budget whose inner loops are not already reported."""
    out = []
    reported: set[int] = set()
    for c in costs:  # inner loops first
        inside = {o.loop.index for o in costs if o.loop.members < c.loop.members}
        if inside & reported:
            reported.add(c.loop.index)
            continue
        limit = LIMITS.jumps
        if c.never_ends:
            out.append(("W009", c.exit_test, {"why": c.never_ends, "limit": limit},
                        "give the loop a condition that becomes false"))
            reported.add(c.loop.index)
            continue
        jumps = c.jumps
        if jumps is None or jumps <= limit:
            continue
        cut = limit // c.per_iteration + 1
        s = "s" if c.per_iteration > 1 else ""
        cap = min(SIMULATED, 4 * (limit // c.per_iteration + 1))
        if c.iterations is not None and c.iterations > cap:
            need = f"more than {cap} iterations of at least {c.per_iteration} jump{s}"
        else:
            need = (f"{c.iterations} iterations of at least {c.per_iteration} jump{s} "
                    f"({jumps} jumps)")
        out.append(("W008", c.exit_test,
                    {"need": need, "limit": limit,
                     "where": f"it is cut off by iteration {cut} at the latest"},
                    "run fewer iterations, or do more work per iteration"))
        reported.add(c.loop.index)
    return out


__all__ = ["Counting", "LoopCost", "count_budget", "loop_costs", "loop_findings"]
