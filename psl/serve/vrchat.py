"""What the playground's "for VRChat" view needs: the world's string-loading facts and
limits (psl.gen.world_programs, psl.registry), so the page and the world say the same; and
the text handed to the world, whose sliders start where the player left them."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from psl import registry
from psl.gen import world_programs as wp
from psl.syntax.sliders import Slider, parse_sliders


def vrchat_description() -> dict[str, object]:
    return {
        "source_limit": registry.LIMITS.source_chars,
        "trusted_hosts": list(wp.TRUSTED_HOSTS),
        "trusted_wildcards": list(wp.TRUSTED_WILDCARDS),
        "trusted_display": list(wp.TRUSTED_DISPLAY),
        "download_interval_s": wp.DOWNLOAD_INTERVAL_S,
        "save_slots": wp.SAVE_SLOTS,
    }


@dataclass(frozen=True)
class StartValue:
    index: int
    name: str
    value: float  # where the world's slider starts: the default the text now gives
    changed: bool  # the slider line's default was rewritten to the player's value


@dataclass(frozen=True)
class WorldText:
    text: str
    sliders: tuple[StartValue, ...]

    def as_dict(self) -> dict[str, object]:
        return {"text": self.text,
                "sliders": [{"index": s.index, "name": s.name, "value": s.value,
                             "changed": s.changed} for s in self.sliders]}


def clean_values(given: object) -> dict[str, float]:
    """The page's slider values ({index as text or name: number}) as SliderTable.values
    takes them; anything else (not a mapping, junk keys, non-numbers, NaN, infinities) is
    left out, so the slider keeps its default."""
    if not isinstance(given, Mapping):
        return {}
    out: dict[str, float] = {}
    for key, value in list(given.items())[: 4 * registry.SLIDERS.count]:
        if not isinstance(key, str) or len(key) > registry.SLIDERS.name_chars:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        v = float(value)
        if math.isfinite(v):
            out[key] = v
    return out


def _decimals(v: float) -> list[str]:
    """Slider-line numbers (at most SLIDERS.frac_digits after the point) for the float32 v:
    the shortest that reads back as v first, then v rounded at each length."""
    exact, near = [], []
    for d in range(registry.SLIDERS.frac_digits + 1):
        t = f"{v:.{d}f}"
        if t.startswith("-") and float(t) == 0:
            t = t[1:]
        (exact if float(np.float32(float(t))) == v else near).append(t)
    return exact[:1] + near[::-1]


def _rewritten(line: str, slider: Slider, value: float) -> tuple[str, float] | None:
    """`line` (a slider line the table holds) with its default set to `value`, and the
    default it now gives; None when no number of the line's format does it cleanly."""
    cr = "\r" if line.endswith("\r") else ""
    body = line[: len(line) - len(cr)]
    c = slider.span.column - 1  # the line's first `//`
    tail = body[c:]
    # A valid slider line has no '=' but the one before its default (names and numbers
    # have none), so the default is what follows the last '='.
    eq = tail.rfind("=")
    head = tail[: eq + 1] if eq >= 0 else tail.rstrip(" \t") + " ="
    for number in _decimals(value):
        candidate = body[:c] + head + " " + number + cr
        table = parse_sliders(candidate)
        if table.diagnostics or len(table.sliders) != 1:
            continue
        s = table.sliders[0]
        if (s.index, s.name, s.low, s.high) == (slider.index, slider.name, slider.low,
                                                slider.high):
            return candidate, s.default
    return None


def world_text(source: str, values: object) -> WorldText:
    """The program as handed to the world: each slider line whose slider the player moved
    gets the player's value as its default (clamped into the range), so the world's
    sliders start there; every other byte is the source's."""
    table = parse_sliders(source)
    wanted = table.values(clean_values(values))
    lines = source.split("\n")
    started = []
    for s in table.sliders:
        value, changed = s.default, False
        if wanted[s.index] != s.default:
            done = _rewritten(lines[s.span.line - 1], s, wanted[s.index])
            if done is not None:
                lines[s.span.line - 1], value = done
                changed = True
        started.append(StartValue(s.index, s.name, value, changed))
    return WorldText("\n".join(lines), tuple(started))
