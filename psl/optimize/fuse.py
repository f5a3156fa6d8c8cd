"""Superinstructions (`-O2`, docs/spec.md §11): after the whole of -O1, runs of instructions
that match a pattern of registry.FUSED become one fused instruction, which the VM runs in
one dispatch exactly as the run it replaces.

Linear and table-driven: each instruction is classified as one step token
(registry.FUSED_TOKENS; a swizzle pick and its CALL swizzle make one W), and at each position
the longest run of at most FUSED_MAX_STEPS tokens that is a pattern of the table is fused
(left to right, never across a block start, a jump only as the last step). Jump targets
move to the fused instruction that starts at them."""

from __future__ import annotations

from psl import registry
from psl.bytecode import Instruction, fuse, instruction
from psl.optimize.code import (
    BINOP,
    CALL,
    CONDJUMP,
    JUMP,
    PUSHCONST,
    PUSHVAR,
    SETVAR,
    UNOP,
    Code,
    leaders,
)
from psl.registry import FUSED, FUSED_BY_TOKENS, FUSED_MAX_STEPS, Fused, Op

_SIMPLE = {PUSHVAR: "V", BINOP: "B", UNOP: "U", CALL: "C", CONDJUMP: "J", JUMP: "G"}
_SWIZZLE = registry.SWIZZLE.id


def token(code: Code, k: int, lead: list[bool]) -> tuple[str, int]:
    """The step token instruction k starts and how many instructions it takes; ("", 1)
    when it cannot be part of a fused instruction."""
    op, a = code.ops[k], code.args[k]
    if op == PUSHCONST:
        if (k + 1 < len(code) and code.ops[k + 1] == CALL and int(code.args[k + 1][0]) == _SWIZZLE
                and not lead[k + 1] and all(x in (0.0, 1.0, 2.0, 3.0, 4.0) for x in a)):
            return "W", 2
        if a[0] == a[0] and all(x != x for x in a[1:]):
            return "K", 1
        return "", 1
    if op == SETVAR:
        return ("S", 1) if code.mask(k) == 0 else ("", 1)
    return _SIMPLE.get(op, ""), 1


def plan(code: Code, table: dict[str, Fused] | None = None) -> list[tuple[int, int]]:
    """The instruction runs [start, end) of the result, in order: fused runs and single
    instructions. `table` (tokens -> Fused, default the registry's) lets the bench try
    other sets."""
    table = FUSED_BY_TOKENS if table is None else table
    longest = max((len(t) for t in table), default=0)
    lead = leaders(code)
    n = len(code)
    groups: list[tuple[int, int]] = []
    k = 0
    while k < n:
        text = ""
        ends: list[int] = []  # ends[i]: the end of the run of the first i + 1 tokens
        j = k
        while j < n and len(text) < min(longest, FUSED_MAX_STEPS):
            if j > k and lead[j]:
                break
            t, size = token(code, j, lead)
            if not t:
                break
            text += t
            j += size
            ends.append(j)
            if t in "JG":
                break
        best = 1
        for i in range(len(text), 1, -1):
            if text[:i] in table:
                best = i
                break
        end = ends[best - 1] if best > 1 else k + 1
        groups.append((k, end))
        k = end
    return groups


def _lanes(code: Code, k: int) -> Instruction:
    return instruction(Op(code.ops[k]), *code.args[k])


def apply(code: Code, groups: list[tuple[int, int]], table: dict[str, Fused] | None = None
          ) -> Code:
    """The code with each run of `groups` longer than one instruction fused. A fused
    jump's field is the target's new instruction index (to_program makes it a slot)."""
    table = FUSED_BY_TOKENS if table is None else table
    lead = leaders(code)
    n = len(code)
    new_at = [0] * (n + 1)
    for i, (s, e) in enumerate(groups):
        for k in range(s, e):
            new_at[k] = i
    new_at[n] = len(groups)
    ops: list[int] = []
    args: list = []
    origin: list[int] = []
    for s, e in groups:
        if e - s == 1:
            a = code.args[s]
            if code.ops[s] in (JUMP, CONDJUMP):
                a = (float(new_at[code.target(s)]), *a[1:])
            ops.append(code.ops[s])
            args.append(a)
        else:
            text = "".join(token(code, k, lead)[0] for k in _starts(code, s, e, lead))
            f = table[text]
            parts = [_lanes(code, k) for k in range(s, e)]
            if code.ops[e - 1] in (JUMP, CONDJUMP):
                parts[-1] = instruction(Op(code.ops[e - 1]), float(new_at[code.target(e - 1)]))
            ins = fuse(f.op, parts)
            ops.append(f.op)
            args.append(ins.operand)
        origin.append(code.origin[s])
    return Code(ops, args, origin, dict(code.names))


def _starts(code: Code, s: int, e: int, lead: list[bool]) -> list[int]:
    out = []
    k = s
    while k < e:
        out.append(k)
        k += token(code, k, lead)[1]
    return out


def run(code: Code) -> Code:
    return apply(code, plan(code))


def candidate_tables() -> dict[str, dict[str, Fused]]:
    """Sets the bench compares (bench/bench_sequences.py): the issue's crude estimate (up to
    two plain pushes folded into the operator that pops them, a following SETVAR into its
    destination) and the registry's set. Opcodes of the crude set are placeholders."""
    crude: dict[str, Fused] = {}
    for loads in ("", "V", "K", "VV", "VK", "KV", "KK"):
        for tail in ("", "S"):
            text = loads + "B" + tail
            if len(text) > 1:
                crude[text] = Fused(0, text)
    return {"crude (issue 41's estimate)": crude, "-O2 (registry.FUSED)": dict(FUSED_BY_TOKENS)}


def cs_tables() -> dict[str, object]:
    """The in-world half's tables (psl/optimize/fuse.cs.j2), from the registry: the step
    tokens in registry.FUSED_TOKENS order, the token of each plain opcode whose token needs
    no look at its operand (-1: none, or decided by its operand), and the patterns as a trie
    over token numbers: next[node * len(tokens) + t] is the child (0: none; the root, 0, is
    nobody's child), op_of[node] the fused opcode of the pattern ending there (0: none)."""
    tokens = list(registry.FUSED_TOKENS)
    nt = len(tokens)
    nxt: list[int] = [0] * nt
    op_of = [0]
    for f in FUSED:
        node = 0
        for ch in f.tokens:
            t = tokens.index(ch)
            if nxt[node * nt + t] == 0:
                nxt[node * nt + t] = len(op_of)
                op_of.append(0)
                nxt.extend([0] * nt)
            node = nxt[node * nt + t]
        op_of[node] = f.op
    by_op = [-1] * (max(int(o) for o in Op) + 1)
    for op, t in _SIMPLE.items():
        by_op[op] = tokens.index(t)
    return {
        "tokens": tokens,
        "next": nxt,
        "op_of": op_of,
        "token_of_op": by_op,
        "longest": min(max(len(f.tokens) for f in FUSED), FUSED_MAX_STEPS),
        "swizzle": _SWIZZLE,
    }
