"""`psl run`: render a PSL program with the reference VM to PNG, GIF or NPY."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np

from psl.cli.common import optimize_option, print_diagnostics, read_source
from psl.compiler import compile_source
from psl.registry import LIMITS
from psl.vm.images import OUTPUT_SUFFIXES, ImageError, load_texture, save_frames
from psl.vm.machine import Stats
from psl.vm.render import RenderSettings, render


def _size(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    try:
        w, h = value.lower().split("x")
        width, height = int(w), int(h)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not WIDTHxHEIGHT (e.g. 256x256)") from None
    if not (1 <= width <= 8192 and 1 <= height <= 8192):
        raise click.BadParameter(f"'{value}': width and height must be 1 to 8192")
    return width, height


def _four(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return (0.0, 0.0, 0.0, 0.0)
    parts = value.split(",")
    try:
        nums = tuple(float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not four numbers like 1,0,1,0") from None
    if len(nums) != 4:
        raise click.BadParameter(f"'{value}' has {len(nums)} numbers, expected 4 (a,b,c,d)")
    return nums


def _texture(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    try:
        return load_texture(value, flip=param.name != "audiolink")
    except ImageError as exc:
        raise click.BadParameter(str(exc)) from None


def _output(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if Path(value).suffix.lower() not in OUTPUT_SUFFIXES:
        raise click.BadParameter(f"'{value}': the output must end in .png, .gif or .npy")
    return value


def format_stats(stats: Stats) -> str:
    s = stats.summary()
    return "\n".join([
        f"executed instructions per pixel: mean {s['exec_instructions_per_pixel_mean']:.3f}, "
        f"max {s['exec_instructions_per_pixel_max']}",
        f"jumps per pixel: mean {s['jumps_per_pixel_mean']:.3f}, max {s['jumps_per_pixel_max']}",
        f"pixels that hit the jump limit: {s['pixels_hit_jump_limit']}",
        f"deepest stack: {s['max_stack']}",
        f"registers used: {s['registers']}",
    ])


@click.command("run")
@click.argument("file")
@click.option("-o", "--output", required=True, callback=_output, metavar="OUT",
              help=".png (last frame), .gif (all frames) or .npy (last frame, raw float32)")
@click.option("--size", default="256x256", show_default=True, callback=_size, metavar="WxH",
              help="WIDTHxHEIGHT in pixels")
@click.option("--time", "time_", type=float, default=0.0, show_default=True,
              help="time of the first frame in seconds")
@click.option("--frames", type=click.IntRange(min=1), default=1, show_default=True,
              help="frames to render; each feeds self() of the next")
@click.option("--fps", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, help="frame rate: frame k runs at time + k/fps")
@click.option("--camera", callback=_texture, metavar="IMG", help="camera texture (.png/.jpg/.npy)")
@click.option("--video", callback=_texture, metavar="IMG", help="video texture (.png/.jpg/.npy)")
@click.option("--avpro", is_flag=True, help="the video is an AVPro texture (flipped)")
@click.option("--audiolink", callback=_texture, metavar="IMG",
              help="AudioLink texture, 128 columns (.png with row 0 on top, or .npy [row][col])")
@click.option("--button", callback=_four, metavar="A,B,C,D",
              help="use,jump,grab,drop flags, e.g. 1,0,0,0")
@click.option("--axis", callback=_four, metavar="A,B,C,D",
              help="move h,move v,look h,look v, e.g. 0.5,0,0,0")
@click.option("--max-jumps", type=click.IntRange(min=0), default=LIMITS.jumps,
              show_default=True, help="jumps after which a pixel stops")
@click.option("--stats", "show_stats", is_flag=True,
              help="print execution statistics of the last frame")
@click.option("--alpha", is_flag=True, help=".png: keep the alpha channel")
@optimize_option
def command(file: str, output: str, size: tuple[int, int], time_: float, frames: int,
            fps: float, camera: np.ndarray | None, video: np.ndarray | None, avpro: bool,
            audiolink: np.ndarray | None, button, axis, max_jumps: int, show_stats: bool,
            alpha: bool, optimize: int) -> None:
    """Render a PSL program with the reference VM (FILE may be - for stdin)."""
    source = read_source(file)
    result = compile_source(source, optimize=optimize)
    print_diagnostics(result.diagnostics, source, file, err=True)
    if result.program is None:
        sys.exit(1)
    settings = RenderSettings(
        width=size[0], height=size[1], time=time_, frames=frames, fps=fps, button=button,
        axis=axis, camera=camera, video=video, is_avpro=avpro, audiolink=audiolink,
        max_jumps=max_jumps)
    keep = Path(output).suffix.lower() == ".gif"
    slots = result.program.slots()
    if frames > 1 and sys.stderr.isatty():
        with click.progressbar(length=frames, label="rendering", file=sys.stderr) as bar:
            rendered = render(slots, settings, on_frame=lambda k: bar.update(1),
                              keep_frames=keep)
    else:
        rendered = render(slots, settings, keep_frames=keep)
    try:
        save_frames(output, rendered.frames, fps, alpha=alpha)
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
    if show_stats:
        click.echo(format_stats(rendered.stats[-1]))
