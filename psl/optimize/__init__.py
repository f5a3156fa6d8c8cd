"""The bytecode optimizer (`-O1`, docs/spec.md §10): a Program in, a Program out that every
pixel finishing within the jump budget computes bit for bit the same, with no more taken
jumps on any path. One module per pass, run in this order:

    loops       for-loop layout: one taken jump per iteration instead of three
    then the passes of registry.OPTIMIZER_PIPELINE, each once, in that order:
      jumps       jump threading, jumps to the next instruction, unreachable code
      constprop   registers that hold one constant on every path become PUSHCONSTs
                  (folding constant operations as it goes)
      copyprop    reads of a copy (`PUSHVAR a; SETVAR p`) read the original
      fold        constant folding with the VM's own operators
      dse         dead stores, with the expression that computed them; then, on the
                  same liveness, forwarding (forward.py): a value stored and read once
                  in a block is computed where it is read
    hoist       register-free, texture-free expressions computed once at the start
    unroll      a loop that runs a count known exactly becomes that many copies
    renumber    registers numbered by first appearance

-O2 (docs/spec.md §11) runs all of that, then the passes of registry.O2_PASSES:
    fuse        runs of instructions that match registry.FUSED become one superinstruction

A program outside what the passes reason about (`code.stack_depths` says which), or whose
loops nest deeper than LIMITS.optimize_loop_nesting, comes back unchanged."""

from __future__ import annotations

import math

from psl.bytecode import Instruction, Program, f32, operand_number, plain
from psl.optimize import (
    constprop,
    copyprop,
    dse,
    fold,
    forward,
    fuse,
    hoist,
    jumps,
    loops,
    renumber,
    unroll,
)
from psl.optimize.code import Code, is_jump, stack_depths
from psl.registry import (
    FUSED_BY_OP,
    LIMITS,
    O2_PASSES,
    OPTIMIZER_PIPELINE,
    PYTHON_OPTIMIZE_LEVELS,
    FusedOp,
    Op,
)

#: The levels `optimize` takes (registry.OPTIMIZE_LEVELS).
LEVELS = PYTHON_OPTIMIZE_LEVELS


def to_code(program: Program) -> Code | None:
    """The working form, or None when the program is outside what the passes handle."""
    n = len(program.instructions)
    ops: list[int] = []
    args: list = []
    for ins in program.instructions:
        op = int(ins.op)
        a = tuple(ins.operand)
        if op == Op.END or op > Op.CONDJUMP:
            return None
        if op in (Op.JUMP, Op.CONDJUMP):
            slot = operand_number(a[0])
            if slot % 2 or slot // 2 > n:
                return None
            a = (float(slot // 2), *a[1:])
        elif op in (Op.PUSHVAR, Op.SETVAR):
            if not (a[0] == a[0] and 0 <= a[0] < LIMITS.registers and a[0] == int(a[0])):
                return None
        elif op in (Op.BINOP, Op.UNOP, Op.CALL):  # an operator or builtin number
            if not (a[0] == a[0] and 0 <= a[0] < 2**31 and a[0] == int(a[0])):
                return None
        ops.append(op)
        args.append(a)
    if loop_nesting(ops, args) > LIMITS.optimize_loop_nesting:
        return None
    code = Code(ops, args, list(range(n)), dict(program.variables))
    return code if stack_depths(code) is not None else None


def loop_nesting(ops: list[int], args: list) -> int:
    """The most loops around one instruction (jump operands are instruction indices): a
    backward jump (target at or before itself) spans [target, jump]; the answer is the most
    spans any instruction lies in."""
    delta = [0] * (len(ops) + 1)
    for i, (op, a) in enumerate(zip(ops, args, strict=True)):
        if op in (Op.JUMP, Op.CONDJUMP):
            target = int(a[0])  # to_code has made it an instruction index
            if target <= i:
                delta[target] += 1
                delta[i + 1] -= 1
    deepest = depth = 0
    for d in delta:
        depth += d
        deepest = max(deepest, depth)
    return deepest


def to_program(code: Code) -> Program:
    out = []
    for op, a in zip(code.ops, code.args, strict=True):
        if is_jump(op):
            a = (float(2 * int(a[0])), *a[1:])
        f = FUSED_BY_OP.get(op)
        if f is not None:
            if f.tokens[-1] in "JG":  # the jump's field: an instruction index -> its slot
                last = len(f.tokens) - 1
                a = (*a[:last], float(2 * int(a[last])), *a[last + 1:])
            out.append(Instruction(FusedOp(op), tuple(f32(x) for x in a)))  # type: ignore[arg-type]
            continue
        lanes = tuple(math.nan if x != x else f32(x) for x in a)
        out.append(Instruction(Op(op), lanes))  # type: ignore[arg-type]
    regs = {int(i.operand[0]) for i in plain(out) if i.op in (Op.PUSHVAR, Op.SETVAR)}
    return Program(out, registers=max(regs) + 1 if regs else 0, variables=dict(code.names))


#: registry.O2_PASSES -> the pass's function
O2_RUN = {"fuse": fuse.run}

#: registry.PIPELINE_PASSES -> the pass's function (each is a module here and a
#: PASS_<NAME> of the in-world optimizer): named functions a reader can follow
PIPELINE_RUN = {"jumps": jumps.run, "constprop": constprop.run, "copyprop": copyprop.run,
                "fold": fold.run, "dse": dse.run, "forward": forward.run}


def run_pass(name: str, code: Code) -> Code:
    """One pipeline entry on `code`."""
    run = PIPELINE_RUN.get(name)
    if run is None:
        raise ValueError(f"no optimizer pass {name!r} (registry.PIPELINE_PASSES)")
    return run(code)


def optimize_code(code: Code, without: str = "",
                  pipeline: tuple[str, ...] = OPTIMIZER_PIPELINE) -> Code:
    """The -O1 pipeline; `without` names one pass to leave out, every time it appears
    (bench/bench_optimizer.py measures each pass's contribution that way), and `pipeline`
    replaces the registry's list of passes between loops and hoist (bench/
    bench_pipeline_cost.py measures other lists)."""
    if without != "loops":
        code = loops.run(code)
    for name in pipeline:
        if name != without:
            code = run_pass(name, code)
    if without != "hoist":
        code = hoist.run(code)
    if without != "unroll":
        code = unroll.run(code)
    return renumber.run(code)


def optimize(program: Program, level: int = 1) -> tuple[Program, list[int]]:
    """The program at optimization `level` (0: unchanged), and for each of its instructions
    the index of the -O0 instruction it comes from."""
    if level not in LEVELS:
        raise ValueError(f"optimization level must be one of {LEVELS}, got {level}")
    code = to_code(program) if level else None
    if code is None:
        return program, list(range(len(program.instructions)))
    code = optimize_code(code)
    if level >= 2:
        for name in O2_PASSES:
            code = O2_RUN[name](code)
    return to_program(code), code.origin


__all__ = ["LEVELS", "O2_RUN", "PIPELINE_RUN", "optimize", "optimize_code", "run_pass"]
