"""Jump cleanup (docs/spec.md §10.7), three rewrites that never add a taken jump on any path:
1. threading: a JUMP or CONDJUMP whose target is a JUMP goes to that JUMP's target
   (followed at most n times, so a loop of jumps stays a loop);
2. a JUMP to the next instruction is deleted (an `if` without `else` makes one);
3. instructions no path from the start reaches are deleted."""

from __future__ import annotations

from psl.optimize.code import JUMP, Code, delete, is_jump, successors


def run(code: Code) -> Code:
    n = len(code)
    args = list(code.args)
    ops = code.ops
    for k in range(n):
        if not is_jump(ops[k]):
            continue
        t = int(args[k][0])
        steps = 0
        while t < n and ops[t] == JUMP and int(args[t][0]) != t and steps < n:
            t = int(args[t][0])
            steps += 1
        args[k] = (float(t), *args[k][1:])  # type: ignore[assignment]
    code = Code(list(ops), args, list(code.origin), dict(code.names))
    seen = [False] * (n + 1)
    todo = [0]
    seen[0] = True
    while todo:
        k = todo.pop()
        if k >= n:
            continue
        for t in successors(code, k):
            if not seen[t]:
                seen[t] = True
                todo.append(t)
    dead = {k for k in range(n) if not seen[k]}
    # a JUMP to the next kept instruction
    for k in range(n):
        if ops[k] == JUMP and k not in dead:
            t = code.target(k)
            if all(j in dead for j in range(k + 1, t)) and t > k:
                dead.add(k)
    return delete(code, dead) if dead else code
