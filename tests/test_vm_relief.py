"""`psl run --relief` and psl.vm.relief: a frame drawn as the world's relief screen (issue 24).

The rasteriser's depth buffer is checked against the geometry: a vertex with alpha a sits
a * height_scale in front of the screen plane, so seen straight from the front at distance d
the surface is at depth d - a * scale; the grid is the one psl.gen.unity.mesh ships."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from psl import api, registry
from psl.cli.run import command
from psl.gen.unity import mesh
from psl.vm import relief

FRONT = replace(relief.VIEW, yaw=0.0, pitch=0.0)
SCALE = registry.RELIEF.height_scale


def constant(alpha: float, size: int = 8) -> np.ndarray:
    frame = np.zeros((size, size, 4), np.float32)
    frame[..., :3] = 0.5
    frame[..., 3] = alpha
    return frame


@pytest.mark.parametrize("alpha", [0.0, 1.0, 2.5, -1.0])
def test_depth_is_the_alpha_height(alpha: float) -> None:
    image = relief.render_relief(constant(alpha), side=33, view=FRONT, size=(160, 120))
    centre = image.depth[60, 80]
    assert centre == pytest.approx(FRONT.distance - alpha * SCALE, abs=1e-9)


def test_a_half_raised_frame_is_a_step() -> None:
    """alpha 1 on the right half (u > 0.5): from the front the right half is nearer by the
    height scale, the left half is at the plane; colour comes from the frame."""
    frame = np.zeros((64, 64, 4), np.float32)
    frame[:, 32:, 3] = 1.0
    frame[:, 32:, 1] = 1.0  # green where raised
    frame[:, :32, 0] = 1.0  # red where flat
    image = relief.render_relief(frame, view=FRONT, size=(320, 240))
    left, right = image.depth[120, 100], image.depth[120, 220]
    assert left == pytest.approx(FRONT.distance, abs=1e-9)
    assert right == pytest.approx(FRONT.distance - SCALE, abs=1e-9)
    assert image.rgb[120, 100].tolist() == [1.0, 0.0, 0.0]
    assert image.rgb[120, 220].tolist() == [0.0, 1.0, 0.0]
    # the background is where the screen is not
    assert not np.isfinite(image.depth[0, 0])
    assert image.rgb[0, 0].tolist() == list(relief.BACKGROUND)


def test_grid_is_the_worlds_grid() -> None:
    for side in registry.RELIEF.resolutions:
        g = mesh.grid(side)
        np.testing.assert_array_equal(relief.grid_triangles(side), g.triangles)
        flat = relief.grid_positions(constant(0.0), side, SCALE)
        np.testing.assert_allclose(flat, g.positions, atol=1e-7)


def test_vertex_heights_match_the_screen_shader_sampling() -> None:
    """Vertices on texel centres carry exactly that texel's alpha (as the Slang test of
    Screen.shader's vertex stage finds on the GPU side)."""
    rng = np.random.default_rng(3)
    frame = rng.random((64, 64, 4)).astype(np.float32)
    heights = relief.grid_heights(frame, 257)
    idx = np.arange(2, 257, 4)
    np.testing.assert_allclose(heights[np.ix_(idx, idx)], frame[..., 3], atol=1e-6)


def test_nan_alpha_reads_flat_and_shaded_darkens_slopes() -> None:
    frame = constant(float("nan"))
    image = relief.render_relief(frame, side=9, view=FRONT, size=(80, 60))
    assert image.depth[30, 40] == pytest.approx(FRONT.distance)
    ramp = np.zeros((16, 16, 4), np.float32)
    ramp[..., :3] = 1.0
    ramp[..., 3] = np.linspace(0, 4, 16)[None, :]
    lit = relief.render_relief(ramp, side=33, view=FRONT, size=(80, 60), shaded=True)
    unlit = relief.render_relief(ramp, side=33, view=FRONT, size=(80, 60))
    assert unlit.rgb[30, 40].tolist() == [1.0, 1.0, 1.0]
    assert 0.3 < lit.rgb[30, 40, 0] < 1.0


def test_cli_writes_a_relief_png(tmp_path) -> None:
    prog = tmp_path / "p.psl"
    prog.write_text("float4(uv().x, uv().y, 0.5, uv().x > 0.5)\n")
    out, rel = tmp_path / "flat.png", tmp_path / "relief.png"
    result = CliRunner().invoke(command, [str(prog), "--size", "32x32", "-o", str(out),
                                          "--relief", str(rel), "--relief-grid", "33",
                                          "--view", "0,0"])
    assert result.exit_code == 0, result.output
    pic = np.asarray(Image.open(rel))
    assert pic.shape == (480, 640, 3)
    frame = api.run(prog.read_text(), size=(32, 32))
    expected = relief.to_picture(relief.render_relief(frame, side=33, view=FRONT))
    np.testing.assert_array_equal(pic, expected)
    # --relief alone is enough; neither is a usage error; bad values are reported
    only = CliRunner().invoke(command, [str(prog), "--size", "8x8", "--relief",
                                        str(tmp_path / "only.png"), "--relief-grid", "33"])
    assert only.exit_code == 0 and (tmp_path / "only.png").exists()
    for bad in ([], ["--relief", str(tmp_path / "x.gif")], ["--relief", str(rel), "--view", "1"],
                ["--relief", str(rel), "--view", "0,95"],
                ["--relief", str(rel), "--height-scale", "nan"], ["--relief", str(rel),
                                                          "--relief-grid", "100"]):
        r = CliRunner().invoke(command, [str(prog), *bad])
        assert r.exit_code == 2 and "Traceback" not in r.output, (bad, r.output)


def test_relief_clamps_hostile_alpha_as_the_screen_does() -> None:
    """psl run --relief moves no vertex further than the world's screen does."""
    from psl.registry import RELIEF
    from psl.vm.relief import grid_positions

    frame = np.zeros((4, 4, 4), np.float32)
    frame[0, :, 3] = 1000.0
    frame[1, :, 3] = -np.inf
    frame[2, :, 3] = np.nan
    z = grid_positions(frame, 9, 500.0)[:, 2]
    assert np.isfinite(z).all() and np.abs(z).max() <= RELIEF.max_displacement
