"""Reading input textures and writing rendered frames (PNG, JPEG, GIF, .npy)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from psl.bytecode import F32

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
OUTPUT_SUFFIXES = (".png", ".gif", ".npy")


class ImageError(ValueError):
    """A file that cannot be used as a texture or output; the message says why."""


def load_texture(path: str | Path, flip: bool = True) -> np.ndarray:
    """An input texture as float32 [rows][columns][4].

    `.npy` files are used as they are (float32 [H][W][4] or [H][W][3], row 0 = smallest v).
    Pictures are scaled to 0-1 and, with `flip`, turned upside down so that the bottom row
    of the picture is v = 0 like in Unity.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".npy":
        try:
            arr = np.load(p, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ImageError(f"cannot read {p}: {exc}") from exc
        if arr.ndim != 3 or arr.shape[2] not in (3, 4) or arr.shape[0] < 1 or arr.shape[1] < 1:
            raise ImageError(f"{p}: expected an array [H][W][4], got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.number):
            raise ImageError(f"{p}: expected numbers, got {arr.dtype}")
        arr = arr.astype(F32)
        if arr.shape[2] == 3:
            arr = np.concatenate([arr, np.ones((*arr.shape[:2], 1), F32)], axis=2)
        return np.ascontiguousarray(arr)
    if suffix not in PICTURE_SUFFIXES:
        raise ImageError(f"{p}: unsupported image type '{suffix}' (use .png, .jpg or .npy)")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(p) as im:
            rgba = np.asarray(im.convert("RGBA"), dtype=F32) / F32(255)
    except (OSError, UnidentifiedImageError) as exc:
        raise ImageError(f"cannot read {p}: {exc}") from exc
    if flip:
        rgba = rgba[::-1]
    return np.ascontiguousarray(rgba)


def to_picture(frame: np.ndarray, alpha: bool) -> np.ndarray:
    """uint8 picture of a frame: clamped to 0-1, top row = largest v."""
    x = np.clip(np.nan_to_num(frame[::-1], nan=0.0), 0.0, 1.0)
    x = np.round(x * 255.0).astype(np.uint8)
    return x if alpha else x[..., :3]


def save_picture(path: str | Path, picture: np.ndarray) -> None:
    """Write a uint8 RGB picture (top row first) as .png."""
    from PIL import Image

    Image.fromarray(picture, "RGB").save(Path(path))


def save_frames(path: str | Path, frames: list[np.ndarray], fps: float,
                alpha: bool = False) -> None:
    """Write by extension: .png the last frame, .gif all frames, .npy the raw last frame."""
    from PIL import Image

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".npy":
        np.save(p, np.asarray(frames[-1], F32))
    elif suffix == ".png":
        pic = to_picture(frames[-1], alpha)
        Image.fromarray(pic, "RGBA" if alpha else "RGB").save(p)
    elif suffix == ".gif":
        pics = [Image.fromarray(to_picture(f, False), "RGB") for f in frames]
        pics[0].save(p, save_all=True, append_images=pics[1:],
                     duration=max(1, round(1000.0 / fps)), loop=0)
    else:
        raise ImageError(f"{p}: unsupported output type '{suffix}' (use .png, .gif or .npy)")
