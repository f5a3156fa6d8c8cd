"""CALL: argument masking and padding, then result shaping from the registry (SPEC §7)."""

from __future__ import annotations

import numpy as np

from psl import registry
from psl.registry import ResultDim
from psl.vm import values
from psl.vm.builtins import IMPLS, Ctx
from psl.vm.values import DIRTY, F32, NAN, V, canon, clean_or_canon, full, restore, zero_nan

ZERO4 = values.ZERO4


def arity(builtin_id: int) -> int:
    """Unknown ids take no arguments and return zeros (SPEC §8)."""
    b = registry.BUILTIN_BY_ID.get(builtin_id)
    return b.arity if b else 0


def call(builtin_id: int, args: list[V], ctx: Ctx) -> V:
    b = registry.BUILTIN_BY_ID.get(builtin_id)
    if b is None:
        return ZERO4
    fn = IMPLS[b.id]
    if not values.FORCE_SLOW and all(a.k > 0 for a in args):
        return _call_clean(b, fn, args, ctx)
    return _call_general(b, fn, args, ctx)


def _call_clean(b: registry.Builtin, fn, args: list[V], ctx: Ctx) -> V:
    """Every argument clean: masking is implicit (absent lanes are zero)."""
    dims = [a.k for a in args]
    d = max(dims, default=0)
    if b.pad:
        arrays = [a.a if a.k == d else
                  np.broadcast_to(a.a, (d, a.a.shape[1])) if a.k == 1 else
                  values.zero_extend(a.a, d) for a in args]
    elif b.result is ResultDim.LARGEST and len(args) > 1:
        arrays = [values.zero_extend(a.a, d) for a in args]  # pow: no broadcast
    else:
        arrays = [a.a for a in args]
    res = fn(arrays, dims, ctx)
    if b.result is ResultDim.MASK:
        return res
    if b.result is ResultDim.LARGEST:
        return clean_or_canon(np.asarray(res, F32), d)
    k = b.dim
    return clean_or_canon(np.asarray(res[:k], F32), k)


def _call_general(b: registry.Builtin, fn, args: list[V], ctx: Ctx) -> V:
    """The literal path: per-pixel dimensions, all four lanes."""
    raw = [full(a) for a in args]
    dims = [np.asarray(values.dims(a)) for a in args]
    masked = [zero_nan(a) for a in raw]
    d = np.zeros((), np.int64)
    for x in dims:
        d = np.maximum(d, x)
    if b.pad:
        masked = [values.pad_cast_zeroed(a, x, d) for a, x in zip(masked, dims, strict=True)]
    res = fn(masked, [x if x.ndim else int(x) for x in dims], ctx)
    if b.result is ResultDim.MASK:
        return res
    res = np.asarray(res, F32)
    if b.result is ResultDim.LARGEST:
        return canon(restore(res, d).astype(F32, copy=False))
    if b.result is ResultDim.FULL:
        return canon(res)
    out = np.full((4, res.shape[1]), NAN, F32)
    out[: b.dim] = res[: b.dim]
    return canon(out)


__all__ = ["DIRTY", "arity", "call"]
