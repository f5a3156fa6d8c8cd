"""`psl run` and `psl.api.run`."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from psl import api
from psl.cli.run import command
from psl.diagnostics import PslError

GRADIENT = "float4(uv().x, uv().y, 0.25, 1)"
COUNTER = "self(uv()) + float4(0.125, 0, 0, 0)"


def invoke(*args: str):
    return CliRunner().invoke(command, list(args))


def test_npy_output_is_raw_bottom_row_first(prog, tmp_path):
    out = tmp_path / "o.npy"
    r = invoke(prog(GRADIENT), "--size", "4x2", "-o", str(out))
    assert r.exit_code == 0, r.output
    img = np.load(out)
    assert img.shape == (2, 4, 4) and img.dtype == np.float32
    assert img[0, 0].tolist() == [0.125, 0.25, 0.25, 1.0]  # row 0 = smallest v


def test_png_output_is_flipped_and_clamped(prog, tmp_path):
    out = tmp_path / "o.png"
    r = invoke(prog("float3(uv().y * 4 - 1, 0, 0)"), "--size", "2x4", "-o", str(out))
    assert r.exit_code == 0, r.output
    pic = np.asarray(Image.open(out))
    assert pic.shape == (4, 2, 3)
    assert pic[0, 0, 0] == 255 and pic[3, 0, 0] == 0  # top row = largest v; clamped
    r = invoke(prog(GRADIENT), "--size", "2x2", "--alpha", "-o", str(out))
    assert np.asarray(Image.open(out)).shape == (2, 2, 4)


def test_frames_feed_self_and_gif_has_all_frames(prog, tmp_path):
    out = tmp_path / "o.gif"
    r = invoke(prog(COUNTER), "--size", "3x3", "--frames", "4", "-o", str(out))
    assert r.exit_code == 0, r.output
    with Image.open(out) as im:
        assert im.n_frames == 4
    npy = tmp_path / "o.npy"
    invoke(prog(COUNTER), "--size", "3x3", "--frames", "4", "-o", str(npy))
    assert np.allclose(np.load(npy)[..., 0], 0.5)


def test_time_fps_and_inputs(prog, tmp_path):
    out = tmp_path / "o.npy"
    r = invoke(prog("float4(time().y, deltatime().y, button().z, axis().y)"), "--size", "1x1",
               "--time", "2", "--frames", "3", "--fps", "10", "--button", "0,0,1,0",
               "--axis", "0,-0.5,0,0", "-o", str(out))
    assert r.exit_code == 0, r.output
    np.testing.assert_allclose(np.load(out)[0, 0], [2.2, 10, 1, -0.5], rtol=1e-6)


def test_texture_inputs(prog, tmp_path):
    cam = np.zeros((2, 2, 4), np.float32)
    cam[0, 0] = (1, 0, 0, 1)  # bottom-left texel
    np.save(tmp_path / "cam.npy", cam)
    out = tmp_path / "o.npy"
    r = invoke(prog("camera(float2(0.25, 0.25))"), "--size", "1x1", "--camera",
               str(tmp_path / "cam.npy"), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert np.load(out)[0, 0].tolist() == [1, 0, 0, 0]
    # a PNG's top row is the largest v
    pic = np.zeros((2, 2, 3), np.uint8)
    pic[1, 0] = (255, 0, 0)  # bottom-left in the picture
    Image.fromarray(pic).save(tmp_path / "cam.png")
    r = invoke(prog("camera(float2(0.25, 0.25))"), "--size", "1x1", "--camera",
               str(tmp_path / "cam.png"), "-o", str(out))
    assert np.load(out)[0, 0].tolist() == [1, 0, 0, 0]
    r = invoke(prog("video(float2(0.25, 0.75))"), "--size", "1x1", "--video",
               str(tmp_path / "cam.png"), "--avpro", "-o", str(out))
    assert np.load(out)[0, 0].tolist() == [1, 0, 0, 0]


def test_audiolink_input(prog, tmp_path):
    al = np.zeros((64, 128, 4), np.float32)
    al[27, 3] = (0.5, 0.25, 0, 1)
    np.save(tmp_path / "al.npy", al)
    out = tmp_path / "o.npy"
    r = invoke(prog("audiolinkdata(float2(3, 27))"), "--size", "1x1", "--audiolink",
               str(tmp_path / "al.npy"), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert np.load(out)[0, 0].tolist() == [0.5, 0.25, 0, 1]


def test_stats_and_max_jumps(prog, tmp_path):
    src = prog("let i = 0; while (i < 10) { i = i + 1; } i")
    # -O0: at -O1 the counted loop unrolls and folds away (test_optimizer.py)
    r = invoke(src, "-O0", "--size", "2x2", "--max-jumps", "5", "--stats", "-o",
               str(tmp_path / "o.npy"))
    assert r.exit_code == 0, r.output
    assert "pixels that hit the jump limit: 4" in r.output
    assert "jumps per pixel: mean 6.000, max 6" in r.output
    assert "registers used: 1" in r.output


def test_compile_error_is_reported_without_traceback(prog, tmp_path):
    r = invoke(prog("let x = ;\n"), "-o", str(tmp_path / "o.png"))
    assert r.exit_code == 1
    assert "p.psl:1:9: error[E005]" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("args", [
    ["--size", "0x5"], ["--size", "abc"], ["--button", "1,2,3"], ["--axis", "a,b,c,d"],
    ["--frames", "0"], ["--fps", "0"], ["--max-jumps", "-1"], ["--camera", "/nonexistent.png"],
])
def test_bad_options_are_usage_errors(prog, tmp_path, args):
    r = invoke(prog(GRADIENT), *args, "-o", str(tmp_path / "o.png"))
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output


def test_bad_output_extension(prog, tmp_path):
    r = invoke(prog(GRADIENT), "-o", str(tmp_path / "o.bmp"))
    assert r.exit_code == 2 and ".png, .gif or .npy" in r.output


def test_bad_texture_file(prog, tmp_path):
    (tmp_path / "bad.npy").write_bytes(b"not numpy")
    r = invoke(prog(GRADIENT), "--camera", str(tmp_path / "bad.npy"), "-o",
               str(tmp_path / "o.png"))
    assert r.exit_code == 2 and "Traceback" not in r.output
    np.save(tmp_path / "flat.npy", np.zeros((4, 4), np.float32))
    r = invoke(prog(GRADIENT), "--camera", str(tmp_path / "flat.npy"), "-o",
               str(tmp_path / "o.png"))
    assert r.exit_code == 2 and "[H][W][4]" in r.output


def test_api_run_mirrors_cli():
    img = api.run(GRADIENT, size=(4, 2))
    assert img.shape == (2, 4, 4) and img[0, 0].tolist() == [0.125, 0.25, 0.25, 1.0]
    img, stats = api.run(COUNTER, size=(2, 2), frames=3, stats=True)
    assert np.allclose(img[..., 0], 0.375)
    assert stats.summary()["exec_instructions_per_pixel_max"] > 0
    from psl.compiler import compile_source

    program = compile_source(GRADIENT).unwrap()
    np.testing.assert_array_equal(api.run(program, size=(4, 2)), api.run(GRADIENT, size=(4, 2)))
    np.testing.assert_array_equal(api.run(program.slots(), size=(4, 2)),
                                  api.run(GRADIENT, size=(4, 2)))


def test_api_run_reports_compile_errors():
    with pytest.raises(PslError):
        api.run("let x = ;")


def test_every_corpus_program_renders_something_with_default_options(tmp_path) -> None:
    """With no option but the output, `psl run` shows every corpus program: inputs default
    to the playground's test patterns (camera, video, an AudioLink pattern) and the time to
    SPEC §9's frame (mandelbrot divides by zero at t = 0); no note says it is black."""
    from tests.conftest import corpus_programs

    programs = corpus_programs()
    assert len(programs) >= 13
    for path in programs:
        out = tmp_path / f"{path.stem}.png"
        result = invoke(str(path), "-o", str(out), "--size", "24x24")
        assert result.exit_code == 0, (path.name, result.output)
        picture = np.asarray(Image.open(out))[..., :3]
        assert picture.max() > 0, path.name
        assert "is black" not in result.output, (path.name, result.output)


def test_a_black_input_and_a_black_frame_are_noted(tmp_path) -> None:
    from tests.conftest import corpus_programs

    sobel = next(p for p in corpus_programs() if p.stem == "apps_Sobel")
    result = invoke(str(sobel), "-o", str(tmp_path / "s.png"), "--size", "8x8",
                     "--camera", "black")
    assert "reads camera() and --camera is black" in result.output
    src = tmp_path / "zero.psl"
    src.write_text("float3(0, 0, 0)")
    result = invoke(str(src), "-o", str(tmp_path / "z.png"), "--size", "8x8")
    assert result.exit_code == 0 and "every pixel came out zero" in result.output
