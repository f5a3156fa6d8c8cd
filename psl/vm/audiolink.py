"""The AudioLink extension builtins (ids 65-75), as AudioLink's shader include defines them.

Followed: `AudioLink.cginc` of llealloo/audiolink (Packages/com.llealloo.audiolink/Runtime/
Shaders/AudioLink.cginc): AudioLinkData is a texel fetch `_AudioTexture[uint2(xy)]`;
AudioLinkDataMultiline wraps x at AUDIOLINK_WIDTH (128) onto the next row; AudioLinkLerp /
AudioLinkLerpMultiline lerp the texel at xy and xy + (1, 0) by frac(x);
AudioLinkDecodeDataAsUInt packs a texel as x + y*1024 + z*1048576 + w*1073741824 (uint
arithmetic); AudioLinkDecodeDataAsSeconds keeps the low 27 bits and returns
float(t / 1000) + float(t % 1000) / 1000; AudioLinkGetVersion reads ALPASS_GENERALVU.x when
the texture is at least 128 wide (1 if wider than 16, else 0);
AudioLinkGetAmplitudeAtFrequency lerps ALPASS_DFT at 24 * log2(hz / 13.75);
AudioLinkGetAmplitudeAtNote lerps ALPASS_DFT at octave * 24 + note * 2; the chronotensity
functions decode ALPASS_CHRONOTENSITY + (index, band) / 100000, then frac(. * speed), then
* interval. Shaderception's VM passes `uint2(a.xy)` / `uint(a.x)` for integer parameters.

The texture is an array `tex[row][column][4]` with row 0 = AudioLink row 0; reads outside it
(or without a texture) give zeros, as a texel fetch out of range does.
"""

from __future__ import annotations

import numpy as np

from psl.bytecode import F32

WIDTH = 128  # AUDIOLINK_WIDTH
ALPASS_DFT = (0, 4)
ALPASS_GENERALVU = (0, 22)
ALPASS_CHRONOTENSITY = (16, 28)
EXPBINS = 24  # AUDIOLINK_EXPBINS
BOTTOM_FREQUENCY = F32(13.75)
UINT_MAX = 2**32 - 1


def to_uint(x: np.ndarray) -> np.ndarray:
    """HLSL float -> uint: truncate; NaN and negatives give 0; saturate at the top."""
    x = np.asarray(x, np.float64)
    return np.clip(np.nan_to_num(np.trunc(x), nan=0.0, posinf=UINT_MAX, neginf=0.0),
                   0, UINT_MAX).astype(np.int64)


def data(tex: np.ndarray | None, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """AudioLinkData at integer coordinates (int64 arrays): float32 [4][m]."""
    shape = np.broadcast_shapes(np.shape(x), np.shape(y))
    if tex is None:
        return np.zeros((4, *shape), F32)
    h, w = tex.shape[0], tex.shape[1]
    x = np.broadcast_to(x, shape)
    y = np.broadcast_to(y, shape)
    inside = (x < w) & (y < h)
    flat = tex.reshape(h * w, 4)
    got = flat[np.where(inside, y * w + x, 0)].T
    return np.where(inside, got, F32(0)).astype(F32, copy=False)


def data_multiline(tex, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return data(tex, x % WIDTH, (y + x // WIDTH) & UINT_MAX)


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a + (b - a) * t


def _frac(x: np.ndarray) -> np.ndarray:
    return x - np.floor(x)


def lerp(tex, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    fx, fy = F32(0) + fx, F32(0) + fy
    a = data(tex, to_uint(fx), to_uint(fy))
    b = data(tex, to_uint(fx + F32(1)), to_uint(fy))  # xy + int2(1, 0), then uint2()
    return _lerp(a, b, _frac(fx)).astype(F32, copy=False)


def lerp_multiline(tex, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    fx, fy = F32(0) + fx, F32(0) + fy
    a = data_multiline(tex, to_uint(fx), to_uint(fy))
    b = data_multiline(tex, to_uint(fx + F32(1)), to_uint(fy))
    return _lerp(a, b, _frac(fx)).astype(F32, copy=False)


def decode_uint(tex, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    px = to_uint(data(tex, x, y))
    total = px[0] + px[1] * 1024 + px[2] * 1048576 + px[3] * 1073741824
    return total & UINT_MAX


def decode_seconds(tex, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = decode_uint(tex, x, y) & 0x7FFFFFF
    return ((t // 1000).astype(F32) + (t % 1000).astype(F32) / F32(1000)).astype(F32)


def version(tex) -> np.ndarray:
    if tex is None or tex.shape[1] <= 16:
        return np.zeros((1,), F32)
    if tex.shape[1] >= WIDTH:
        return data(tex, np.array([ALPASS_GENERALVU[0]]), np.array([ALPASS_GENERALVU[1]]))[0]
    return np.ones((1,), F32)


def amplitude_at_frequency(tex, hz: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        note = F32(EXPBINS) * np.log2((hz / BOTTOM_FREQUENCY).astype(np.float64)).astype(F32)
    return lerp_multiline(tex, F32(ALPASS_DFT[0]) + note, F32(ALPASS_DFT[1]) + F32(0) * note)


def amplitude_at_note(tex, octave: np.ndarray, note: np.ndarray) -> np.ndarray:
    quarter = note * F32(2)
    x = F32(ALPASS_DFT[0]) + (octave * F32(EXPBINS) + quarter)
    return lerp_multiline(tex, x, F32(ALPASS_DFT[1]) + F32(0) * x)


def chrono_time(tex, index: np.ndarray, band: np.ndarray) -> np.ndarray:
    x = ALPASS_CHRONOTENSITY[0] + to_uint(index)
    y = ALPASS_CHRONOTENSITY[1] + to_uint(band)
    # uint / 100000.0: the uint converts to float32 first, then a float32 division
    return (decode_uint(tex, x & UINT_MAX, y & UINT_MAX).astype(F32) / F32(100000.0)).astype(F32)


def chrono_time_normalized(tex, index, band, speed) -> np.ndarray:
    return _frac(chrono_time(tex, index, band) * speed).astype(F32, copy=False)


def chrono_time_interval(tex, index, band, speed, interval) -> np.ndarray:
    return (chrono_time_normalized(tex, index, band, speed) * interval).astype(F32, copy=False)
