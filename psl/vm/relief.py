"""A frame as the world's screen shows it: a relief (`psl run --relief`).

The world's program screen (Screen.shader's height mode on a grid mesh, psl.gen.unity) moves
each grid vertex along the screen's normal by the program's alpha at its uv, times the
height scale (psl.registry.RELIEF). This module does the same on the CPU and draws the
surface with a small software rasteriser (numpy): perspective camera orbiting the screen,
z-buffer, perspective-correct uv, the frame sampled bilinearly as the world's render texture
is. `psl serve`'s 3D view uses the same grid, height scale and camera (VIEW), so both show
the same picture.

Coordinates are the screen mesh's: the grid spans -0.5..0.5 in x (right) and y (up) at
z = 0, facing -Z, where the viewer stands; a vertex with alpha a moves to z = -a * scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from psl.registry import RELIEF

#: the light of the shaded look: the direction towards the light and the ambient share, as
#: Screen.shader's `_LightDir` and `_Ambient` defaults
LIGHT_DIR = (0.3, 0.6, -0.75)
AMBIENT = 0.35
BACKGROUND = (0.08, 0.08, 0.1)


@dataclass(frozen=True)
class View:
    """An orbit camera around the screen's centre: yaw turns right of the screen's front,
    pitch looks down from above; distance in screen widths; vertical field of view."""

    yaw: float = 30.0  # degrees
    pitch: float = 25.0  # degrees
    distance: float = 1.9
    fov: float = 40.0  # degrees

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(eye, right, up, forward) in screen coordinates."""
        yaw, pitch = math.radians(self.yaw), math.radians(self.pitch)
        eye = np.array([math.sin(yaw) * math.cos(pitch), math.sin(pitch),
                        -math.cos(yaw) * math.cos(pitch)]) * self.distance
        forward = -eye / np.linalg.norm(eye)
        world_up = np.array([0.0, 1.0, 0.0])
        right = np.cross(world_up, forward)  # x right, y up, z away: left-handed, as Unity
        right /= np.linalg.norm(right)
        up = np.cross(forward, right)
        return eye, right, up, forward


VIEW = View()


def bilinear(frame: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The frame at (u, v) as a bilinear, clamped render texture reads it: texel centres at
    (i + 0.5) / width, row 0 at v = 0. Returns [..., 4]."""
    h, w = frame.shape[:2]
    px = np.clip(u * w - 0.5, -1.0, float(w))
    py = np.clip(v * h - 0.5, -1.0, float(h))
    fx, fy = np.floor(px), np.floor(py)
    tx, ty = (px - fx)[..., None], (py - fy)[..., None]
    x0 = np.clip(fx.astype(np.int64), 0, w - 1)
    y0 = np.clip(fy.astype(np.int64), 0, h - 1)
    x1 = np.clip(fx.astype(np.int64) + 1, 0, w - 1)
    y1 = np.clip(fy.astype(np.int64) + 1, 0, h - 1)
    bottom = frame[y0, x0] + (frame[y0, x1] - frame[y0, x0]) * tx
    top = frame[y1, x0] + (frame[y1, x1] - frame[y1, x0]) * tx
    return bottom + (top - bottom) * ty


def clean(frame: np.ndarray) -> np.ndarray:
    """NaN reads as 0 and infinities as +-1e4 (a GPU would tear the mesh apart instead)."""
    return np.nan_to_num(np.asarray(frame, np.float64), nan=0.0, posinf=1e4, neginf=-1e4)


def grid_heights(frame: np.ndarray, side: int) -> np.ndarray:
    """Alpha at every vertex of a side x side grid: [j][i] with uv (i, j) / (side - 1)."""
    t = np.linspace(0.0, 1.0, side)
    u, v = np.meshgrid(t, t)
    return bilinear(clean(frame), u, v)[..., 3]


def grid_positions(frame: np.ndarray, side: int, height_scale: float) -> np.ndarray:
    """The displaced grid's vertices [side*side][3], index j*side + i (psl.gen.unity.mesh)."""
    t = np.linspace(0.0, 1.0, side)
    u, v = np.meshgrid(t, t)
    # Screen.shader's clamp: at most RELIEF.max_displacement either way (NaN: 0, clean())
    z = -np.clip(grid_heights(frame, side) * height_scale, -RELIEF.max_displacement,
                 RELIEF.max_displacement)
    return np.stack([u - 0.5, v - 0.5, z], axis=-1).reshape(-1, 3)


def grid_triangles(side: int) -> np.ndarray:
    """The grid's triangles, as psl.gen.unity.mesh writes them."""
    i, j = np.meshgrid(np.arange(side - 1), np.arange(side - 1))
    a = (j * side + i).ravel()
    b, c, d = a + 1, a + side, a + side + 1
    return np.stack([np.stack([a, d, b], 1), np.stack([d, a, c], 1)], 1).reshape(-1, 3)


def _project(points: np.ndarray, view: View, width: int, height: int) -> np.ndarray:
    """Screen x, y (pixels, y down) and camera depth of points [n][3]."""
    eye, right, up, forward = view.basis()
    rel = points - eye
    xc, yc, zc = rel @ right, rel @ up, rel @ forward
    focal = (height / 2) / math.tan(math.radians(view.fov) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        sx = width / 2 + xc / zc * focal
        sy = height / 2 - yc / zc * focal
    return np.stack([sx, sy, zc], axis=-1)


#: fragments per vectorised batch (memory stays in the tens of MB)
_BATCH = 1 << 21


def _fragments(tri: np.ndarray, width: int, height: int):
    """Yield (triangle index, pixel x, pixel y, barycentrics [n][3]) of the pixel centres
    inside each triangle, batched by bounding-box size."""
    x, y = tri[..., 0], tri[..., 1]
    x0 = np.clip(np.floor(x.min(1) - 0.5).astype(np.int64) + 1, 0, width)
    x1 = np.clip(np.floor(x.max(1) - 0.5).astype(np.int64), -1, width - 1)
    y0 = np.clip(np.floor(y.min(1) - 0.5).astype(np.int64) + 1, 0, height)
    y1 = np.clip(np.floor(y.max(1) - 0.5).astype(np.int64), -1, height - 1)
    bw, bh = x1 - x0 + 1, y1 - y0 + 1
    live = (bw > 0) & (bh > 0)
    size = np.maximum(bw, bh)
    bucket = np.zeros_like(size)
    bucket[live] = np.ceil(np.log2(np.maximum(size[live], 1))).astype(np.int64)
    for k in np.unique(bucket[live]):
        side = 1 << int(k)
        ids = np.nonzero(live & (bucket == k))[0]
        oy, ox = np.divmod(np.arange(side * side), side)
        per = max(1, _BATCH // (side * side))
        for start in range(0, len(ids), per):
            t = ids[start:start + per]
            px = x0[t, None] + ox[None, :]
            py = y0[t, None] + oy[None, :]
            keep = (px <= x1[t, None]) & (py <= y1[t, None])
            tt = np.broadcast_to(t[:, None], px.shape)[keep]
            px, py = px[keep], py[keep]
            cx, cy = px + 0.5, py + 0.5
            a, b, c = tri[tt, 0], tri[tt, 1], tri[tt, 2]
            area = ((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1])
                    - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
            with np.errstate(divide="ignore", invalid="ignore"):
                w0 = ((b[:, 0] - cx) * (c[:, 1] - cy) - (b[:, 1] - cy) * (c[:, 0] - cx)) / area
                w1 = ((c[:, 0] - cx) * (a[:, 1] - cy) - (c[:, 1] - cy) * (a[:, 0] - cx)) / area
            w2 = 1.0 - w0 - w1
            inside = (area != 0) & (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
            yield tt[inside], px[inside], py[inside], np.stack(
                [w0[inside], w1[inside], w2[inside]], axis=-1)


@dataclass(frozen=True)
class ReliefImage:
    rgb: np.ndarray  # float64 [height][width][3], row 0 at the top
    depth: np.ndarray  # camera depth per pixel, inf where the screen is not


def render_relief(frame: np.ndarray, *, side: int = RELIEF.resolutions[0],
                  height_scale: float = RELIEF.height_scale, view: View = VIEW,
                  size: tuple[int, int] = (640, 480), shaded: bool = False) -> ReliefImage:
    """Draw the frame (float32 [H][W][4], row 0 at v = 0) on a side x side grid displaced by
    its alpha, seen from `view`. Unlit (the original's look) or shaded (normals from the
    neighbouring texels' heights, as Screen.shader's Shaded option)."""
    if side < 2:
        raise ValueError("the grid needs at least 2 vertices per side")
    frame = clean(frame)
    width, height = size
    points = grid_positions(frame, side, height_scale)
    t = np.linspace(0.0, 1.0, side)
    u, v = np.meshgrid(t, t)
    uvs = np.stack([u.ravel(), v.ravel()], axis=-1)
    screen = _project(points, view, width, height)
    tris = grid_triangles(side)
    tri = screen[tris]
    ok = np.all(np.isfinite(tri), axis=(1, 2)) & np.all(tri[..., 2] > 1e-3, axis=1)
    tris, tri = tris[ok], tri[ok]
    depth = np.full(height * width, np.inf)
    best_u = np.zeros(height * width)
    best_v = np.zeros(height * width)
    for tt, px, py, bary in _fragments(tri, width, height):
        inv_z = bary / tri[tt, :, 2]  # perspective-correct weights
        norm = inv_z.sum(axis=1)
        z = 1.0 / norm
        corner_uv = uvs[tris[tt]]
        fu = (inv_z * corner_uv[..., 0]).sum(axis=1) / norm
        fv = (inv_z * corner_uv[..., 1]).sum(axis=1) / norm
        pix = py * width + px
        order = np.lexsort((z, pix))  # nearest first within each pixel
        pix, z, fu, fv = pix[order], z[order], fu[order], fv[order]
        first = np.ones(len(pix), bool)
        first[1:] = pix[1:] != pix[:-1]
        pix, z, fu, fv = pix[first], z[first], fu[first], fv[first]
        nearer = z < depth[pix]
        pix = pix[nearer]
        depth[pix], best_u[pix], best_v[pix] = z[nearer], fu[nearer], fv[nearer]
    hit = np.isfinite(depth)
    rgb = np.empty((height * width, 3))
    rgb[:] = BACKGROUND
    colour = bilinear(frame, best_u[hit], best_v[hit])[:, :3]
    if shaded:
        colour = colour * _shade(frame, best_u[hit], best_v[hit], height_scale)[:, None]
    rgb[hit] = colour
    return ReliefImage(rgb.reshape(height, width, 3), depth.reshape(height, width))


def _shade(frame: np.ndarray, u: np.ndarray, v: np.ndarray, height_scale: float) -> np.ndarray:
    h, w = frame.shape[:2]
    tu, tv = 1.0 / w, 1.0 / h

    def alpha(du: float, dv: float) -> np.ndarray:
        return bilinear(frame, u + du, v + dv)[:, 3]

    dhdu = (alpha(tu, 0) - alpha(-tu, 0)) / (2 * tu)
    dhdv = (alpha(0, tv) - alpha(0, -tv)) / (2 * tv)
    n = np.stack([-height_scale * dhdu, -height_scale * dhdv, -np.ones_like(u)], axis=-1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    light = np.asarray(LIGHT_DIR) / np.linalg.norm(LIGHT_DIR)
    return AMBIENT + (1 - AMBIENT) * np.abs(n @ light)


def to_picture(image: ReliefImage) -> np.ndarray:
    """uint8 RGB, top row first (the colour clamped to 0-1, as psl run's pictures)."""
    return np.round(np.clip(image.rgb, 0.0, 1.0) * 255.0).astype(np.uint8)
