"""Progress lines (psl.cli.progress, issue 38): on a terminal after a delay, never elsewhere."""

from __future__ import annotations

import io

from click.testing import CliRunner

import psl.cli.progress as progress
from psl.cli import main
from psl.cli.progress import DELAY_S, Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_quick_work_draws_nothing_even_on_a_terminal():
    out, clock = Terminal(), Clock()
    with Progress("rendering", 10, stream=out, clock=clock) as bar:
        for _ in range(10):
            clock.now += DELAY_S / 20
            bar.update()
    assert out.getvalue() == ""


def test_long_work_draws_a_line_and_clears_it():
    out, clock = Terminal(), Clock()
    with Progress("rendering", 4, stream=out, clock=clock) as bar:
        clock.now += DELAY_S + 1.5
        bar.update()
        assert bar.shown
        line = out.getvalue()
        assert line.startswith("\rrendering  25% 3 s, about 9 s left")
        clock.now += 1
        bar.update(3)
    text = out.getvalue()
    assert "100% 4 s" in text
    assert text.endswith("\r") and text.rsplit("\r", 2)[-2].strip() == ""  # cleared


def test_redraws_are_rate_limited():
    out, clock = Terminal(), Clock()
    bar = Progress("x", 1000, stream=out, clock=clock)
    clock.now += DELAY_S
    for _ in range(1000):
        bar.update()  # the clock does not move: one draw
    assert out.getvalue().count("\r") == 1


def test_never_on_a_pipe():
    out, clock = io.StringIO(), Clock()
    with Progress("rendering", 2, stream=out, clock=clock) as bar:
        clock.now += 60
        bar.update(2)
        assert not bar.live
    assert out.getvalue() == ""


def test_psl_run_shows_progress_on_a_terminal_only(tmp_path, monkeypatch):
    src = tmp_path / "p.psl"
    src.write_text("return float4(uv().x, uv().y, 0.0, 1.0);\n")
    seen: list[Progress] = []

    class Recording(Progress):
        def __post_init__(self) -> None:
            super().__post_init__()
            seen.append(self)

    monkeypatch.setattr("psl.cli.run.Progress", Recording)
    runner = CliRunner()
    res = runner.invoke(main, ["run", str(src), "-o", str(tmp_path / "a.png"), "--size", "8x8",
                               "--frames", "3"])
    assert res.exit_code == 0, res.output
    assert [(b.label, b.total, b.done) for b in seen] == [("rendering", 3 * 64, 3 * 64)]
    assert "rendering" not in res.output  # CliRunner's stderr is no terminal
    assert progress.DELAY_S >= 1  # quick commands stay quiet
