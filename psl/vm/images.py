"""Reading input textures and writing rendered frames (PNG, JPEG, GIF, .npy)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from psl.bytecode import F32
from psl.userfiles import UserFileError, read_bytes, write_bytes

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
OUTPUT_SUFFIXES = (".png", ".gif", ".npy")


class ImageError(ValueError):
    """A file that cannot be used as a texture or output; the message says why."""


#: A texture file is read whole, so its size is bounded (a 4096x4096 float32 .npy is 256 MB).
MAX_TEXTURE_BYTES = 256 << 20 | 1024
#: Pixels a picture may have once decoded: a small PNG can claim a huge size.
MAX_TEXTURE_PIXELS = 4096 * 4096
#: Bytes of 8-bit frames a GIF may hold before it is written (PIL keeps every frame).
MAX_GIF_BYTES = 512 << 20


def load_texture(path: str | Path, flip: bool = True) -> np.ndarray:
    """An input texture as float32 [rows][columns][4].

    `.npy` files are used as they are (float32 [H][W][4] or [H][W][3], row 0 = smallest v).
    Pictures are scaled to 0-1 and, with `flip`, turned upside down so that the bottom row
    of the picture is v = 0 like in Unity. Files over MAX_TEXTURE_BYTES and pictures over
    MAX_TEXTURE_PIXELS are refused (ImageError).
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in PICTURE_SUFFIXES and suffix != ".npy":
        raise ImageError(f"{p}: unsupported image type '{suffix}' (use .png, .jpg or .npy)")
    try:
        data = read_bytes(p, MAX_TEXTURE_BYTES, "texture")
    except UserFileError as exc:
        raise ImageError(str(exc)) from None
    if suffix == ".npy":
        try:
            arr = np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise ImageError(f"cannot read {p}: {exc}") from None
        if arr.ndim != 3 or arr.shape[2] not in (3, 4) or arr.shape[0] < 1 or arr.shape[1] < 1:
            raise ImageError(f"{p}: expected an array [H][W][4], got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
            raise ImageError(f"{p}: expected real numbers, got {arr.dtype}")
        if arr.shape[0] * arr.shape[1] > MAX_TEXTURE_PIXELS:
            raise ImageError(f"{p}: {arr.shape[1]}x{arr.shape[0]} is larger than a texture "
                             f"may be ({MAX_TEXTURE_PIXELS:,} pixels)")
        with np.errstate(all="ignore"):
            arr = arr.astype(F32)
        if arr.shape[2] == 3:
            arr = np.concatenate([arr, np.ones((*arr.shape[:2], 1), F32)], axis=2)
        return np.ascontiguousarray(arr)
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
            if w * h > MAX_TEXTURE_PIXELS:
                raise ImageError(f"{p}: {w}x{h} is larger than a texture may be "
                                 f"({MAX_TEXTURE_PIXELS:,} pixels)")
            rgba = np.asarray(im.convert("RGBA"), dtype=F32) / F32(255)
    except ImageError:
        raise
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError,
            SyntaxError) as exc:
        raise ImageError(f"cannot read {p}: {exc}") from None
    if flip:
        rgba = rgba[::-1]
    return np.ascontiguousarray(rgba)


def to_picture(frame: np.ndarray, alpha: bool) -> np.ndarray:
    """uint8 picture of a frame: clamped to 0-1, top row = largest v."""
    x = np.clip(np.nan_to_num(frame[::-1], nan=0.0), 0.0, 1.0)
    x = np.round(x * 255.0).astype(np.uint8)
    return x if alpha else x[..., :3]


def frame_bytes(frame: np.ndarray, suffix: str, alpha: bool = False) -> bytes:
    """A .png or .npy file of one frame."""
    buf = io.BytesIO()
    if suffix == ".npy":
        np.save(buf, np.asarray(frame, F32))
    elif suffix == ".png":
        from PIL import Image

        pic = to_picture(frame, alpha)
        Image.fromarray(pic, "RGBA" if alpha else "RGB").save(buf, format="PNG")
    else:
        raise ImageError(f"unsupported output type '{suffix}' (use .png, .gif or .npy)")
    return buf.getvalue()


def gif_bytes(pictures: list[np.ndarray], fps: float) -> bytes:
    """An animated GIF of uint8 RGB pictures (to_picture)."""
    from PIL import Image

    pics = [Image.fromarray(pic, "RGB") for pic in pictures]
    buf = io.BytesIO()
    pics[0].save(buf, format="GIF", save_all=True, append_images=pics[1:],
                 duration=max(1, round(1000.0 / fps)), loop=0)
    return buf.getvalue()


#: What `psl run` holds per pixel of a frame at its peak: colours, counters, the uv grid and
#: the picture written (bench/results/run-memory.md: 2048x2048 peaks at 416 MB, about 72
#: bytes a pixel over a 132 MB base), and the most one frame may hold: sizes past it are
#: refused before anything is allocated (8192x8192 would need about 5 GB).
RUN_BYTES_PER_PIXEL = 80
MAX_RUN_BYTES = 2 << 30


def check_frame_size(width: int, height: int) -> None:
    """Refuse a frame whose memory would pass MAX_RUN_BYTES (a clear limit, no MemoryError
    or swapping machine)."""
    need = width * height * RUN_BYTES_PER_PIXEL
    if need > MAX_RUN_BYTES:
        side = int((MAX_RUN_BYTES / RUN_BYTES_PER_PIXEL) ** 0.5)
        raise ImageError(
            f"a {width}x{height} frame would need about {need / 2**30:.1f} GB of memory; the "
            f"limit is {MAX_RUN_BYTES >> 30} GB (up to about {side}x{side})")


def check_gif_size(width: int, height: int, frames: int) -> None:
    """Refuse a GIF whose frames would not fit in MAX_GIF_BYTES (clear limit, no MemoryError)."""
    need = width * height * 3 * frames
    if need > MAX_GIF_BYTES:
        raise ImageError(
            f"a GIF of {frames:,} frames at {width}x{height} would hold {need / 2**20:,.0f} MB "
            f"of frames; the limit is {MAX_GIF_BYTES >> 20} MB: render fewer frames, a "
            "smaller size, or a .png of the last frame")


def save_frames(path: str | Path, frames: list[np.ndarray], fps: float,
                alpha: bool = False) -> None:
    """Write by extension: .png the last frame, .gif all frames, .npy the raw last frame
    (through psl.userfiles: links, modes and read-only files kept)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".gif":
        data = gif_bytes([to_picture(f, False) for f in frames], fps)
    elif suffix in (".png", ".npy"):
        data = frame_bytes(frames[-1], suffix, alpha)
    else:
        raise ImageError(f"{p}: unsupported output type '{suffix}' (use .png, .gif or .npy)")
    write_bytes(p, data)
