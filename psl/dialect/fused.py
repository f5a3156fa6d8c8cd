"""The fused instructions (-O2, docs/spec.md §11) as the generated HLSL and WebGL VMs run
them: one table row per fused opcode, generated from registry.FUSED (no hand-kept copy).

A VM runs a fused instruction as the plain instructions it stands for, one after another
through its existing per-opcode code, decoding each from the row and the instruction's
fields instead of fetching it from the program: a row is (weight, steps, W bits), where
`steps` holds the plain opcode of each step, 4 bits each, the first step lowest (a W is two
steps: a PUSHCONST of its pick, then a CALL swizzle), and bit k of `W bits` says that step
k belongs to a W. Step k reads field f (fields 0-2: the opcode slot's y, z, w; 3-6: the
operand slot's x-w), f counting the steps before it that are not a W's PUSHCONST. A row's
weight is its number of steps (the instructions it replaces, §11.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from psl import registry

#: steps a row holds: 4 bits each in a 32-bit word
MAX_ROW_STEPS = 8


@dataclass(frozen=True)
class FusedRow:
    op: int
    name: str  # F_ and the pattern
    weight: int  # the instructions it counts as (= its steps)
    steps: int  # plain opcodes, 4 bits each, the first lowest
    wbits: int  # bit k: step k belongs to a W


def fused_rows() -> list[FusedRow]:
    """The rows of opcodes FUSED_FIRST_OP, FUSED_FIRST_OP + 1, ... in order."""
    assert set(registry.FUSED_TOKEN_OPS) == set(registry.FUSED_TOKENS), \
        "a step letter without opcodes"
    rows = []
    for k, f in enumerate(registry.FUSED):
        assert f.op == registry.FUSED_FIRST_OP + k, "fused opcodes are consecutive"
        ops: list[int] = []
        wbits = 0
        for t in f.tokens:
            for op in registry.FUSED_TOKEN_OPS[t]:
                if t == "W":
                    wbits |= 1 << len(ops)
                ops.append(int(op))
        if len(ops) > MAX_ROW_STEPS or not all(0 < op < 16 for op in ops):
            raise ValueError(f"{f.name}: {len(ops)} steps do not fit a row")
        assert len(ops) == f.weight
        rows.append(FusedRow(f.op, f.name, f.weight,
                             sum(op << (4 * i) for i, op in enumerate(ops)), wbits))
    return rows


def context() -> dict[str, object]:
    """Template variables of the VMs' fused-instruction code."""
    return {"fused": fused_rows(), "fused_first": registry.FUSED_FIRST_OP,
            "swizzle_id": registry.SWIZZLE.id}


__all__ = ["MAX_ROW_STEPS", "FusedRow", "context", "fused_rows"]
