"""The relief screen (issue 24): Screen.shader's height mode and the grid meshes.

- the generated Screen.shader's pass compiles with glslang's HLSL front end (vertex and
  fragment stage, flat / height / shaded) to SPIR-V that spirv-val accepts, and only the height
  variant's vertex stage samples the render texture;
- its vertex stage, run on the CPU with Slang over the 257 x 257 grid and a known frame (the
  original VM's golden render of scene_mandelbrot), puts every vertex at its uv's alpha times
  the height scale along the mesh normal; flat leaves the grid flat;
- the grid mesh assets: vertex and triangle counts, bounds, uvs, normals, winding, 32-bit
  indices, and the same bytes on every run.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from psl import registry
from psl.gen import hlsl
from psl.gen.unity import mesh

SUPPORT = Path(__file__).resolve().parent / "hlsl_support"
GOLDEN = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "golden"
KEYWORDS = {
    "flat": [],
    "height": ["PSL_SCREEN_HEIGHT"],
    "shaded": ["PSL_SCREEN_HEIGHT", "PSL_SCREEN_SHADED", "PSL_SCREEN_GAMMA"],
}


def screen_pass() -> str:
    """The CGPROGRAM block of the generated Screen.shader."""
    text = hlsl.TARGET.render()["Screen.shader"]
    start = text.index("CGPROGRAM") + len("CGPROGRAM")
    return text[start:text.index("ENDCG")]


# --- glslang --------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("glslangValidator") is None, reason="glslang-tools missing")
@pytest.mark.parametrize("variant", sorted(KEYWORDS))
@pytest.mark.parametrize("stage", ["vert", "frag"])
def test_screen_pass_compiles_with_glslang(tmp_path: Path, stage: str, variant: str) -> None:
    src = tmp_path / "pass.hlsl"
    src.write_text(screen_pass())
    spv = tmp_path / "pass.spv"
    cmd = ["glslangValidator", "-D", *[f"-D{k}" for k in KEYWORDS[variant]],
           f"-I{SUPPORT / 'glslang_unitycg'}", "-S", stage, "-e", stage, "-V", "-o", str(spv),
           str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if shutil.which("spirv-val"):
        val = subprocess.run(["spirv-val", str(spv)], capture_output=True, text=True)
        assert val.returncode == 0, val.stdout + val.stderr
    if stage == "vert" and shutil.which("spirv-dis"):
        dis = subprocess.run(["spirv-dis", str(spv)], capture_output=True, text=True).stdout
        samples = dis.count("OpImageSampleExplicitLod")
        assert samples == (0 if variant == "flat" else 1), "only relief samples per vertex"


# --- the vertex stage on the CPU (Slang) ----------------------------------------------------


def bilinear_alpha(texture: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """unity_stub.slang's tex2Dlod in numpy (clamp to edge, texel centres at (i + 0.5) / w)."""
    h, w = texture.shape[:2]
    px = np.clip(uv[:, 0] * w - 0.5, -1, w)
    py = np.clip(uv[:, 1] * h - 0.5, -1, h)
    fx, fy = np.floor(px), np.floor(py)
    tx, ty = px - fx, py - fy
    x0, y0 = fx.astype(int), fy.astype(int)
    a = texture[..., 3]

    def at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return a[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]

    bottom = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx
    top = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx
    return bottom + (top - bottom) * ty


@pytest.fixture(scope="module")
def golden_frame() -> np.ndarray:
    path = GOLDEN / "scene_mandelbrot.npy"
    if not path.exists():
        pytest.skip("shared corpus golden renders not available")
    frame = np.load(path).astype(np.float32)
    assert frame[..., 3].max() > 0.5 and frame[..., 3].min() < 0.1  # a real relief
    return frame


def run_vertex_stage(tmp_path: Path, keywords: list[str], frame: np.ndarray, g: mesh.Grid,
                     height_scale: float) -> np.ndarray:
    spy = pytest.importorskip("slangpy")
    shutil.copy(SUPPORT / "screen_harness.slang", tmp_path / "screen_harness.slang")
    (tmp_path / "ScreenPass.hlsl").write_text(screen_pass())
    options = {
        "include_paths": [str(tmp_path), str(SUPPORT / "slang_unitycg"), str(SUPPORT)],
        "defines": {k: "1" for k in keywords},
    }
    device = spy.Device(type=spy.DeviceType.cpu, compiler_options=options,
                        enable_hot_reload=False)
    program = device.load_program("screen_harness.slang", ["psl_vertex"])
    kernel = device.create_compute_kernel(program)

    def buf(data: np.ndarray, size: int, writable: bool = False):
        usage = spy.BufferUsage.unordered_access if writable else spy.BufferUsage.shader_resource
        return device.create_buffer(element_count=len(data), struct_size=size, usage=usage,
                                    data=np.ascontiguousarray(data))

    n = len(g.positions)
    pos4 = np.concatenate([g.positions, np.ones((n, 1), np.float32)], axis=1)
    nrm4 = np.concatenate([g.normals, np.zeros((n, 1), np.float32)], axis=1)
    out = buf(np.zeros((n, 4), np.float32), 16, writable=True)
    h, w = frame.shape[:2]
    kernel.dispatch([n, 1, 1], vars={
        "psl_positions": buf(pos4, 16),
        "psl_normals": buf(nrm4, 16),
        "psl_uvs": buf(g.uvs, 8),
        "psl_out": out,
        "psl_count": n,
        "psl_texels": buf(frame.reshape(-1, 4), 16),
        "_MainTex": {"offset": 0, "width": w, "height": h},
        "_MainTex_ST": spy.float4(1, 1, 0, 0),
        "_MainTex_TexelSize": spy.float4(1 / w, 1 / h, w, h),
        "_HeightScale": float(height_scale),
    })
    return out.to_numpy().view(np.float32).reshape(n, 4)


def test_vertex_stage_moves_each_vertex_to_its_alpha(tmp_path: Path,
                                                     golden_frame: np.ndarray) -> None:
    side = registry.RELIEF.resolutions[0]
    g = mesh.parse_grid_mesh_asset(mesh.grid_mesh_asset(side))
    scale = 1.0  # the original's: one mesh unit per unit of alpha
    out = run_vertex_stage(tmp_path, KEYWORDS["height"], golden_frame, g, scale)
    alpha = bilinear_alpha(golden_frame, g.uvs)
    expected = g.positions + g.normals * (alpha * scale)[:, None]
    np.testing.assert_allclose(out[:, :3], expected, atol=1e-5)
    # where a vertex sits on a texel centre (every 4th of 257 over 64 texels, from 2) its
    # height is exactly that texel's alpha: the relief is the frame's alpha, texel for texel
    idx = np.arange(2, side, 4)
    j, i = np.meshgrid(idx, idx, indexing="ij")
    heights = -out[(j * side + i).ravel(), 2].reshape(len(idx), len(idx))
    np.testing.assert_allclose(heights, golden_frame[..., 3], atol=1e-6)
    assert np.ptp(out[:, 2]) > 0.5  # mandelbrot really is a relief


def test_vertex_stage_clamps_hostile_alpha_to_the_bounds(tmp_path: Path) -> None:
    """alpha = +-1000, +-inf and NaN (a program's to choose) move no vertex further than
    RELIEF.max_displacement, whatever the height scale, and NaN moves none: every displaced
    vertex stays inside the grid mesh's bounds, which Unity culls by."""
    g = mesh.grid(registry.RELIEF.resolutions[-1])
    frame = np.zeros((8, 8, 4), np.float32)
    hostile = [1000.0, -1000.0, np.inf, -np.inf, np.nan, 0.5, -0.25, 3e38]
    for row, a in enumerate(hostile):
        frame[row, :, 3] = a
    limit = registry.RELIEF.max_displacement
    half = mesh.BOUNDS_HALF_DEPTH
    assert half >= limit
    for scale in (registry.RELIEF.height_scale, 1.0, 500.0):
        out = run_vertex_stage(tmp_path, KEYWORDS["height"], frame, g, scale)
        moved = out[:, :3] - g.positions
        assert np.isfinite(out[:, :3]).all()
        assert np.abs(moved).max() <= limit + 1e-6
        assert np.abs(out[:, 2]).max() <= half + 1e-6  # inside the bounds (z: +-half)
    # small alphas still move by alpha * scale
    out = run_vertex_stage(tmp_path, KEYWORDS["height"], frame, g, 1.0)
    alpha = bilinear_alpha(frame, g.uvs)
    ok = np.isfinite(alpha) & (np.abs(alpha) < 0.9)
    expected = g.positions + g.normals * alpha[:, None]
    np.testing.assert_allclose(out[ok, :3], expected[ok], atol=1e-5)


def test_flat_vertex_stage_leaves_the_grid_flat(tmp_path: Path,
                                                golden_frame: np.ndarray) -> None:
    g = mesh.grid(registry.RELIEF.resolutions[-1])
    out = run_vertex_stage(tmp_path, KEYWORDS["flat"], golden_frame, g, 1.0)
    np.testing.assert_array_equal(out[:, :3], g.positions)


# --- the grid meshes ------------------------------------------------------------------------


@pytest.mark.parametrize("side", registry.RELIEF.resolutions)
def test_grid_mesh_asset(side: int) -> None:
    text = mesh.grid_mesh_asset(side)
    assert text == mesh.grid_mesh_asset(side), "deterministic"
    assert f"m_Name: PSL_Grid_{side}\n" in text and "m_IndexFormat: 1\n" in text
    g = mesh.parse_grid_mesh_asset(text)
    assert g.positions.shape == (side * side, 3)
    assert g.triangles.shape == (2 * (side - 1) ** 2, 3)
    assert f"indexCount: {g.triangles.size}\n" in text
    assert f"m_DataSize: {side * side * mesh.STRIDE}\n" in text
    assert g.triangles.max() == side * side - 1 and g.triangles.min() == 0
    # bounds: the unit square at z = 0, as Unity's Quad
    np.testing.assert_array_equal(g.positions.min(axis=0), [-0.5, -0.5, 0])
    np.testing.assert_array_equal(g.positions.max(axis=0), [0.5, 0.5, 0])
    # uvs follow the position (0..1 across), every vertex faces -Z
    np.testing.assert_allclose(g.uvs, g.positions[:, :2] + 0.5, atol=1e-7)
    np.testing.assert_array_equal(g.normals, np.tile([0, 0, -1], (side * side, 1)))
    # winding: each triangle's (b - a) x (c - a) points along the normal (clockwise seen
    # from -Z, Unity's front face) and has the area of half a cell
    p = g.positions.astype(np.float64)[g.triangles]
    cross = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    cell = 1.0 / (side - 1)
    np.testing.assert_allclose(cross[:, 2], -cell * cell, rtol=1e-4)
    np.testing.assert_allclose(cross[:, :2], 0, atol=1e-12)
    # every cell is covered once: the triangles' uv area sums to the unit square
    assert np.isclose(np.abs(cross[:, 2]).sum() / 2, 1.0)


def test_the_finest_grid_is_the_originals() -> None:
    side = registry.RELIEF.resolutions[0]
    assert side == 257 and side * side == 66049 and 2 * (side - 1) ** 2 == 131072
    assert list(registry.RELIEF.resolutions) == sorted(registry.RELIEF.resolutions,
                                                       reverse=True)
