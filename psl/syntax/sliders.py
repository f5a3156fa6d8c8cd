"""Slider lines (docs/language.md "Sliders", docs/spec.md §8.8): a comment

    //@slider 0 zoom 0.5..4 = 1

names slider 0 "zoom", with the range 0.5..4 and the default 1; `slider(0)` reads it. A
world or a compiler that knows nothing of sliders takes the line for a comment.

The in-world compiler reads the same lines (templates/udonsharp/ProgramSliders.cs.j2) and
must build the same table from any text; tests compare the two. The format is kept small
for that: one line, space-separated words, numbers with at most six digits before the
point and four after (one exact double division gives the float32, SLIDERS.int_digits).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from psl.diagnostics import Diagnostic, Span, make
from psl.registry import SLIDERS


@dataclass(frozen=True)
class Slider:
    index: int
    name: str
    low: float  # float32 values, held as Python floats
    high: float
    default: float  # inside [low, high] (a line's default outside it is clamped, W016)
    span: Span  # the `//@slider` line, from its `//`


@dataclass(frozen=True)
class SliderTable:
    sliders: tuple[Slider, ...]  # in index order, one per index at most
    diagnostics: tuple[Diagnostic, ...]  # W015/W016, in line order

    def by_index(self, index: int) -> Slider | None:
        return next((s for s in self.sliders if s.index == index), None)

    def by_name(self, name: str) -> Slider | None:
        return next((s for s in self.sliders if s.name == name), None)

    def values(self, overrides: Mapping[str, float] | None = None) -> tuple[float, ...]:
        """The SLIDERS.count values a VM reads: each named slider's default, or the value
        `overrides` gives its name (or its index as text), clamped into its range as the
        world's UI slider would; 0 for every index no line names."""
        out = [0.0] * SLIDERS.count
        given = dict(overrides or {})
        for s in self.sliders:
            v = given.get(s.name, given.get(str(s.index), s.default))
            out[s.index] = float(np.float32(min(max(float(v), s.low), s.high)))
        return tuple(out)


def _number(text: str, k: int) -> tuple[float | None, int]:
    """A slider number at text[k:]: '-'? digits ('.' digits)?. (float32 value or None, end)."""
    j = k + (text[k:k + 1] == "-")
    d0 = j
    while j < len(text) and text[j].isascii() and text[j].isdigit():
        j += 1
    whole = text[d0:j]
    frac = ""
    if j + 1 < len(text) and text[j] == "." and text[j + 1].isascii() and text[j + 1].isdigit():
        f0 = j + 1
        j = f0
        while j < len(text) and text[j].isascii() and text[j].isdigit():
            j += 1
        frac = text[f0:j]
    if not whole or len(whole) > SLIDERS.int_digits or len(frac) > SLIDERS.frac_digits:
        return None, j
    # one correctly rounded double division (both operands exact), then float32: what the
    # in-world compiler computes too
    value = float(np.float32(int(whole + frac) / 10 ** len(frac)))
    return (-value if text[k] == "-" else value), j


SPACE = SLIDERS.spaces


def _skip(text: str, k: int) -> int:
    while k < len(text) and text[k] in SPACE:
        k += 1
    return k


def _word(text: str, k: int) -> str:
    e = k
    while e < len(text) and text[e] not in SPACE:
        e += 1
    return text[k:e]


def _line(text: str, k: int) -> tuple[int, str, float, float, float | None] | str:
    """Parse a slider line's words from text[k:] (after the marker): (index, name, low,
    high, default or None) or the reason it cannot be read."""
    k = _skip(text, k)
    e = k
    while e < len(text) and text[e].isascii() and text[e].isdigit():
        e += 1
    if e == k:
        return f"has {_shown(text, k)} where the slider's index (0-{SLIDERS.count - 1}) belongs"
    if e - k > 2 or int(text[k:e]) >= SLIDERS.count:
        return (f"names slider {text[k:e]}, past the {SLIDERS.count} sliders a screen has "
                f"(0-{SLIDERS.count - 1})")
    if e < len(text) and text[e] not in SPACE:  # `0zoom`: the words are space-separated
        return f"has {_shown(text, k)} where the slider's index (0-{SLIDERS.count - 1}) belongs"
    index = int(text[k:e])
    k = _skip(text, e)
    e = k
    if k < len(text) and (text[k].isascii() and (text[k].isalpha() or text[k] == "_")):
        e += 1
        while e < len(text) and text[e].isascii() and (text[e].isalnum() or text[e] == "_"):
            e += 1
    if e == k:
        return f"has {_shown(text, k)} where the slider's name belongs"
    if e - k > SLIDERS.name_chars:
        return f"gives a name longer than {SLIDERS.name_chars} characters"
    if e < len(text) and text[e] not in SPACE + "=":  # `y-1..2`: a space before the range
        return (f"has {_shown(text, k)} where the slider's name belongs (letters, digits "
                "and _, then a space)")
    name = text[k:e]
    k = _skip(text, e)
    low, high, default = SLIDERS.low, SLIDERS.high, None
    if k < len(text) and text[k] != "=":
        lo, e = _number(text, k)
        if lo is None:
            return f"has {_shown(text, k)} where a range such as 0..1 belongs"
        k = _skip(text, e)
        if text[k:k + 2] != "..":
            return f"has {_shown(text, k)} where the '..' of a range belongs"
        k = _skip(text, k + 2)
        hi, e = _number(text, k)
        if hi is None:
            return f"has {_shown(text, k)} where the range's upper end belongs"
        if not lo < hi:
            return f"has an empty range {_fmt(lo)}..{_fmt(hi)}"
        low, high = lo, hi
        k = _skip(text, e)
    if k < len(text) and text[k] == "=":
        k = _skip(text, k + 1)
        default, e = _number(text, k)
        if default is None:
            return f"has {_shown(text, k)} where the default value belongs"
        k = _skip(text, e)
    if k < len(text):
        return f"has {_shown(text, k)} after its last part"
    return index, name, low, high, default


def _shown(text: str, k: int) -> str:
    word = _word(text, k)
    if not word:
        return "nothing"
    return f"'{word[:16]}'" + ("…" if len(word) > 16 else "")


def _fmt(v: float) -> str:
    return f"{v:g}"


def slider_line_start(line: str) -> int:
    """Where the marker's words begin in a source line (after `//` spaces `@slider`), or -1
    when the line is not a slider line. PSL has no strings: the first `//` starts the
    comment."""
    c = line.find("//")
    if c < 0:
        return -1
    k = _skip(line, c + 2)
    m = SLIDERS.marker
    if not line.startswith(m, k):
        return -1
    k += len(m)
    if k < len(line) and line[k] not in SPACE:
        return -1  # `//@sliders`, `//@slider0`: an ordinary comment
    return k


def parse_sliders(source: str) -> SliderTable:
    """The program's slider table and the diagnostics of its slider lines."""
    found: dict[int, Slider] = {}
    names: dict[str, Slider] = {}
    diags: list[Diagnostic] = []
    for n, line in enumerate(source.split("\n"), start=1):
        k = slider_line_start(line)
        if k < 0:
            continue
        c = line.find("//")
        end = len(line) - (line.endswith("\r"))
        span = Span(n, c + 1, n, end + 1)
        parsed = _line(line, k)
        if isinstance(parsed, str):
            diags.append(make("W015", span, why=parsed))
            continue
        index, name, low, high, default = parsed
        if index in found:
            diags.append(make("W015", span, why=f"names slider {index} again (line "
                                                f"{found[index].span.line} names it first)"))
            continue
        if name in names:
            diags.append(make("W015", span, why=f"gives the name '{name}' of slider "
                                                f"{names[name].index} again"))
            continue
        if default is None:
            default = low
        elif not low <= default <= high:
            clamped = min(max(default, low), high)
            diags.append(make("W016", span, name=name, why=(
                f"the default {_fmt(default)} is outside its range {_fmt(low)}..{_fmt(high)}: "
                f"it starts at {_fmt(clamped)}")))
            default = clamped
        found[index] = names[name] = Slider(index, name, low, high, default, span)
    return SliderTable(tuple(found[i] for i in sorted(found)), tuple(diags))


__all__ = ["Slider", "SliderTable", "parse_sliders", "slider_line_start"]
