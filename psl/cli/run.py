"""`psl run`: render a PSL program with the reference VM to PNG, GIF or NPY."""

from __future__ import annotations

import io
import math
import sys
from dataclasses import replace
from pathlib import Path

import click
import numpy as np

from psl.cli.common import Finite, optimize_option, print_diagnostics, read_source
from psl.cli.progress import Progress
from psl.compiler import compile_source
from psl.registry import LIMITS, RELIEF
from psl.userfiles import same_file, write_bytes
from psl.vm.images import (
    OUTPUT_SUFFIXES,
    ImageError,
    check_frame_size,
    check_gif_size,
    frame_bytes,
    gif_bytes,
    load_texture,
    to_picture,
)
from psl.vm.machine import Stats
from psl.vm.relief import VIEW, View, render_relief
from psl.vm.relief import to_picture as relief_picture
from psl.vm.render import RenderSettings
from psl.vm.render import frames as render_frames
from psl.vm.samples import REFERENCE_TIME


def _size(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    try:
        w, h = value.lower().split("x")
        if len(w) > 6 or len(h) > 6:
            raise ValueError(value)
        width, height = int(w), int(h)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not WIDTHxHEIGHT (e.g. 256x256)") from None
    if not (1 <= width <= 8192 and 1 <= height <= 8192):
        raise click.BadParameter(f"'{value}': width and height must be 1 to 8192")
    try:
        check_frame_size(width, height)
    except ImageError as exc:
        raise click.BadParameter(f"'{value}': {exc}") from None
    return width, height


def _four(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return (0.0, 0.0, 0.0, 0.0)
    parts = value.split(",")
    try:
        nums = tuple(float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not four numbers like 1,0,1,0") from None
    if not all(math.isfinite(x) for x in nums):
        raise click.BadParameter(f"'{value}': every number must be finite")
    if len(nums) != 4:
        raise click.BadParameter(f"'{value}' has {len(nums)} numbers, expected 4 (a,b,c,d)")
    return nums


def _slider(ctx: click.Context, param: click.Parameter,
            value: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """--slider NAME=VALUE or INDEX=VALUE pairs (checked against the program's slider lines
    once it is read)."""
    out = []
    for item in value:
        key, eq, number = item.partition("=")
        key = key.strip()
        try:
            x = float(number) if eq else math.nan
        except ValueError:
            x = math.nan
        if not key or not math.isfinite(x):
            raise click.BadParameter(f"'{item}' is not NAME=VALUE or INDEX=VALUE with a finite "
                                     "number, e.g. zoom=2 or 0=2")
        out.append((key, x))
    return tuple(out)


def slider_values(source: str, given: tuple[tuple[str, float], ...]) -> tuple[float, ...]:
    """The SLIDERS.count values of a render: the program's defaults, then each --slider."""
    from psl.api import slider_values as values

    try:
        return values(source, dict(given))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--slider") from None


#: What an input is without its option: the playground's test patterns (SPEC §9's camera
#: and video textures, samples.test_audiolink), so a first render shows the program's shape;
#: `black` gives the all-zero texture the VM reads without one.
BLACK = "black"


def _texture(ctx: click.Context, param: click.Parameter, value: str | None):
    from psl.vm import samples

    if value is None:
        return {"camera": samples.reference_camera, "video": samples.reference_video,
                "audiolink": samples.test_audiolink}[param.name]()
    if value == BLACK:
        return None
    try:
        return load_texture(value, flip=param.name != "audiolink")
    except ImageError as exc:
        raise click.BadParameter(str(exc)) from None


def _output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    if Path(value).suffix.lower() not in OUTPUT_SUFFIXES:
        raise click.BadParameter(f"'{value}': the output must end in .png, .gif or .npy")
    return value


def _relief_output(ctx: click.Context, param: click.Parameter,
                   value: str | None) -> str | None:
    if value is not None and Path(value).suffix.lower() != ".png":
        raise click.BadParameter(f"'{value}': the relief render is a .png")
    return value


def _view(ctx: click.Context, param: click.Parameter, value: str | None) -> View:
    if value is None:
        return VIEW
    parts = value.split(",")
    try:
        yaw, pitch = (float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"'{value}' is not two angles in degrees like 30,25") from None
    if not (math.isfinite(yaw) and abs(yaw) <= 1e6 and -89 <= pitch <= 89):
        raise click.BadParameter(f"'{value}': the pitch must be -89 to 89 degrees")
    return replace(VIEW, yaw=yaw, pitch=pitch)


def relief_png(frame: np.ndarray, side: int, height_scale: float, view: View,
               shaded: bool) -> bytes:
    """The relief render of a frame (psl.vm.relief) as .png bytes."""
    from PIL import Image

    image = render_relief(frame, side=side, height_scale=height_scale, view=view,
                          shaded=shaded)
    buf = io.BytesIO()
    Image.fromarray(relief_picture(image), "RGB").save(buf, format="PNG")
    return buf.getvalue()


def format_stats(stats: Stats) -> str:
    s = stats.summary()
    return "\n".join([
        f"executed instructions per pixel: mean {s['exec_instructions_per_pixel_mean']:.3f}, "
        f"max {s['exec_instructions_per_pixel_max']}",
        *([f"dispatched instructions per pixel: mean {s['dispatched_per_pixel_mean']:.3f}, "
           f"max {s['dispatched_per_pixel_max']} (a fused instruction once, SPEC §11)"]
          if "dispatched_per_pixel_mean" in s else []),
        *([f"stack and register memory operations per pixel: mean "
           f"{s['memory_ops_per_pixel_mean']:.3f}, max {s['memory_ops_per_pixel_max']}"]
          if "memory_ops_per_pixel_mean" in s else []),
        f"jumps per pixel: mean {s['jumps_per_pixel_mean']:.3f}, max {s['jumps_per_pixel_max']}",
        f"pixels that hit the jump limit: {s['pixels_hit_jump_limit']}",
        f"pixels that hit the work budget: {s['pixels_hit_work_budget']}",
        f"deepest stack: {s['max_stack']}",
        f"registers used: {s['registers']}",
    ])


@click.command("run")
@click.argument("file")
@click.option("-o", "--output", callback=_output, metavar="OUT",
              help=".png (last frame), .gif (all frames) or .npy (last frame, raw float32)")
@click.option("--relief", "relief_out", callback=_relief_output, metavar="PNG",
              help="also draw the last frame as the world's screen shows it: a grid whose "
                   "height is the alpha (a 3D render, .png)")
@click.option("--relief-grid", type=click.Choice([str(n) for n in RELIEF.resolutions]),
              default=str(RELIEF.resolutions[0]), show_default=True,
              help="--relief: vertices per side of the grid (the world's relief buttons)")
@click.option("--height-scale", type=Finite(-100, 100), default=RELIEF.height_scale,
              show_default=True,
              help="--relief: height of one unit of alpha, in screen widths")
@click.option("--shaded", is_flag=True,
              help="--relief: light the relief (the world's Shaded option; default unlit)")
@click.option("--view", callback=_view, metavar="YAW,PITCH",
              help=f"--relief: camera angles in degrees [default: {VIEW.yaw:g},{VIEW.pitch:g}]")
@click.option("--size", default="256x256", show_default=True, callback=_size, metavar="WxH",
              help="WIDTHxHEIGHT in pixels")
@click.option("--time", "time_", type=Finite(-1e30, 1e30), default=REFERENCE_TIME,
              show_default=True, help="time of the first frame in seconds (SPEC §9's frame)")
@click.option("--frames", type=click.IntRange(min=1, max=10**6), default=1, show_default=True,
              help="frames to render; each feeds self() of the next")
@click.option("--fps", type=Finite(0, 1e6, low_open=True), default=60.0,
              show_default=True, help="frame rate: frame k runs at time + k/fps")
@click.option("--camera", callback=_texture, metavar="IMG",
              help="camera texture (.png/.jpg/.npy; 'black': none) [default: the playground's "
                   "test pattern]")
@click.option("--video", callback=_texture, metavar="IMG",
              help="video texture (.png/.jpg/.npy; 'black': none) [default: the test pattern]")
@click.option("--avpro", is_flag=True, help="the video is an AVPro texture (flipped)")
@click.option("--audiolink", callback=_texture, metavar="IMG",
              help="AudioLink texture, 128 columns (.png with row 0 on top, or .npy [row][col]; "
                   "'black': none) [default: a test pattern]")
@click.option("--button", callback=_four, metavar="A,B,C,D",
              help="use,jump,grab,drop flags, e.g. 1,0,0,0")
@click.option("--axis", callback=_four, metavar="A,B,C,D",
              help="move h,move v,look h,look v, e.g. 0.5,0,0,0")
@click.option("--slider", "slider", multiple=True, callback=_slider, metavar="NAME=VALUE",
              help="set a slider by its name or index (repeatable); others keep the "
                   "program's defaults (its `//@slider` lines)")
@click.option("--max-jumps", type=click.IntRange(min=0, max=10**9), default=LIMITS.jumps,
              show_default=True, help="jumps after which a pixel stops")
@click.option("--max-steps", type=click.IntRange(min=0, max=2**32 - 1), default=LIMITS.steps,
              show_default=True,
              help="executed instructions after which a pixel stops (the work budget)")
@click.option("--stats", "show_stats", is_flag=True,
              help="print execution statistics of the last frame")
@click.option("--alpha", is_flag=True, help=".png: keep the alpha channel")
@optimize_option
def command(file: str, output: str | None, relief_out: str | None, relief_grid: str,
            height_scale: float, shaded: bool, view: View, size: tuple[int, int],
            time_: float, frames: int, fps: float, camera: np.ndarray | None,
            video: np.ndarray | None, avpro: bool, audiolink: np.ndarray | None, button, axis,
            slider: tuple[tuple[str, float], ...], max_jumps: int, max_steps: int,
            show_stats: bool, alpha: bool, optimize: int) -> None:
    """Render a PSL program with the reference VM (FILE may be - for stdin)."""
    if output is None and relief_out is None:
        raise click.UsageError("give -o/--output, --relief or both")
    source = read_source(file)
    result = compile_source(source, optimize=optimize)
    print_diagnostics(result.diagnostics, source, file, err=True)
    if result.program is None:
        sys.exit(1)
    settings = RenderSettings(
        width=size[0], height=size[1], time=time_, frames=frames, fps=fps, button=button,
        axis=axis, camera=camera, video=video, is_avpro=avpro, audiolink=audiolink,
        sliders=slider_values(source, slider), max_jumps=max_jumps,
        max_steps=max_steps)
    suffix = Path(output).suffix.lower() if output is not None else ""
    for path, hint in ((output, "-o"), (relief_out, "--relief")):
        if path is not None and file != "-" and same_file(path, file):
            raise click.BadParameter("the output would overwrite the source program",
                                     param_hint=hint)
    if suffix == ".gif":
        try:
            check_gif_size(size[0], size[1], frames)
        except ImageError as exc:
            raise click.BadParameter(str(exc), param_hint="--frames") from None
    slots = result.program.slots()
    pictures: list[np.ndarray] = []  # GIF: 8-bit frames, a quarter of the float ones
    last: tuple[np.ndarray, Stats] | None = None
    # a line on a terminal once the render has run past a moment (psl.cli.progress);
    # tiles of 16,384 pixels there, so it moves a few times a frame
    with Progress("rendering", frames * size[0] * size[1]) as bar:
        for img, stats in render_frames(slots, settings, on_tile=bar.update,
                                        tile=16384 if bar.live else None):
            if suffix == ".gif":
                pictures.append(to_picture(img, False))
            last = img, stats
    assert last is not None
    if output is not None:
        data = gif_bytes(pictures, fps) if suffix == ".gif" else \
            frame_bytes(last[0], suffix, alpha)
        write_bytes(output, data, sources=[file])
    if relief_out is not None:
        write_bytes(relief_out, relief_png(last[0], int(relief_grid), height_scale, view, shaded),
                    sources=[file])
    for note in black_notes(result.program, last[0], {"camera": camera, "video": video,
                                                       "audiolink": audiolink}):
        click.echo(f"note: {note}", err=True)
    if show_stats:
        click.echo(format_stats(last[1]))


def black_notes(program, frame: np.ndarray, inputs: dict[str, np.ndarray | None]) -> list[str]:
    """Why a render may show nothing: an input the program reads that is black (given as
    `black`), or a frame whose every pixel came out zero or NaN."""
    from psl.bytecode import unfuse
    from psl.registry import BUILTIN_BY_ID, Op

    read = set()
    for ins in unfuse(program).instructions:  # -O2: a CALL may be a fused instruction's step
        if ins.op == Op.CALL:
            b = BUILTIN_BY_ID.get(int(ins.operand[0]))
            if b is not None:
                read.add("audiolink" if b.extension == "audiolink" else b.name)
    notes = [f"the program reads {name}() and --{name} is black: give it a texture"
             for name in ("camera", "video", "audiolink") if name in read and inputs[name] is None]
    rgb = np.nan_to_num(np.asarray(frame, np.float64)[..., :3], nan=0.0)
    if not rgb.any():
        notes.append("every pixel came out zero or NaN: the picture is black")
    return notes
