"""The sentinel rule of a builtin's result (SPEC §7), as shader text: the HLSL and GLSL VMs
both name their helpers psl_restore / psl_mask and the widest argument's mask largest_mask,
so one function serves both dialects."""

from __future__ import annotations

from psl import registry


def with_result_rule(b: registry.Builtin, expr: str) -> str:
    """Wrap a builtin's expression with the sentinel rule of its `ResultDim`."""
    if b.result is registry.ResultDim.LARGEST:
        return f"psl_restore({expr}, largest_mask)"
    if b.result is registry.ResultDim.FIXED and b.dim < 4:
        return f"psl_restore({expr}, psl_mask({b.dim}u))"
    return expr  # FULL, MASK, FIXED 4: the expression gives every lane
