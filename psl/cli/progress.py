"""Progress for work that turns out long (issue 38): one line on a terminal's stderr once the
work has run past a short delay, redrawn a few times a second and cleared at the end;
nothing at all when stderr is not a terminal (pipes, CI logs, tests) or the work is quick.

Time decides, not size: how long a render takes depends on what each pixel executes, which
only running it tells (a 79-instruction loop can outlast a 10,000-instruction program).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

DELAY_S = 1.5    # quiet for work shorter than this: a bar that flashes helps no one
REDRAW_S = 0.2   # at most five redraws a second: a terminal is not a benchmark


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 100 else f"{s / 60:.0f} min"


@dataclass
class Progress:
    """`with Progress("rendering", total) as p: ... p.update(n)`; `total` in any unit."""

    label: str
    total: int
    stream: TextIO | None = None
    delay: float = DELAY_S
    clock: Callable[[], float] = time.monotonic
    done: int = 0
    shown: bool = field(default=False, init=False)
    _start: float = field(default=0.0, init=False)
    _drawn_at: float = field(default=float("-inf"), init=False)
    _width: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.stream is None:
            self.stream = sys.stderr
        self._start = self.clock()

    @property
    def live(self) -> bool:
        """Whether a line may be drawn at all: stderr is a terminal."""
        isatty = getattr(self.stream, "isatty", None)
        try:
            return bool(isatty and isatty())
        except (OSError, ValueError):  # a closed stream
            return False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        now = self.clock()
        elapsed = now - self._start
        if elapsed < self.delay or now - self._drawn_at < REDRAW_S or not self.live:
            return
        self._drawn_at = now
        self._write(self.line(elapsed))

    def line(self, elapsed: float) -> str:
        """`rendering  42% 3 s, about 4 s left`: the line after `elapsed` seconds."""
        part = self.done / self.total if self.total > 0 else 0.0
        text = f"{self.label} {part * 100:3.0f}% {_seconds(elapsed)}"
        if 0 < part < 1:
            text += f", about {_seconds(elapsed * (1 - part) / part)} left"
        return text

    def close(self) -> None:
        """Clear the line, so the command's own output starts on a clean one."""
        if self.shown:
            self._write("")
            self.shown = False

    def _write(self, text: str) -> None:
        assert self.stream is not None
        pad = " " * max(0, self._width - len(text))
        self.stream.write("\r" + text + pad + ("\r" if not text else ""))
        self.stream.flush()
        self._width = len(text)
        self.shown = bool(text)
