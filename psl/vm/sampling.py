"""Bilinear texture sampling with clamp-to-edge, texel centres at (i + 0.5) / size (SPEC §8)."""

from __future__ import annotations

import numpy as np

from psl.bytecode import F32


def sample_bilinear(tex: np.ndarray | None, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Sample an RGBA texture `tex[j][i][4]` (j = 0 is the smallest v) at (u, v).

    u and v are float32 arrays of one shape [m]; returns float32 [4][m]. No texture reads
    as zero (an unbound sampler).
    """
    shape = np.broadcast_shapes(np.shape(u), np.shape(v))
    if tex is None:
        return np.zeros((4, *shape), F32)
    h, w = tex.shape[0], tex.shape[1]
    u = np.broadcast_to(np.asarray(u, F32), shape)
    v = np.broadcast_to(np.asarray(v, F32), shape)
    # Coordinates beyond one texel outside the texture read the edge texel whatever the
    # weight, so clipping first keeps the integer conversion safe without changing results.
    x = np.clip(u * F32(w) - F32(0.5), F32(-1), F32(w))
    y = np.clip(v * F32(h) - F32(0.5), F32(-1), F32(h))
    x = np.nan_to_num(x, nan=0.0)
    y = np.nan_to_num(y, nan=0.0)
    xf, yf = np.floor(x), np.floor(y)
    fx, fy = (x - xf)[None], (y - yf)[None]
    x0 = xf.astype(np.int64)
    y0 = yf.astype(np.int64)
    x1 = np.clip(x0 + 1, 0, w - 1)
    y1 = np.clip(y0 + 1, 0, h - 1)
    x0 = np.clip(x0, 0, w - 1)
    y0 = np.clip(y0, 0, h - 1)
    flat = tex.reshape(h * w, 4)
    c00 = flat[y0 * w + x0].T
    c10 = flat[y0 * w + x1].T
    c01 = flat[y1 * w + x0].T
    c11 = flat[y1 * w + x1].T
    one = F32(1)
    top = c00 * (one - fx) + c10 * fx
    bottom = c01 * (one - fx) + c11 * fx
    return (top * (one - fy) + bottom * fy).astype(F32, copy=False)
