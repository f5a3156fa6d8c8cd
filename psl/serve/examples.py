"""The playground's example programs: the world's (unity_package/Examples, shipped in the
wheel as psl/_data/unity_package), so the page offers the programs of the world's example
buttons."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from psl.resources import unity_package_dir
from psl.syntax.sliders import parse_sliders


@lru_cache(maxsize=1)
def examples() -> dict[str, Path]:
    """Example name (the file's stem) -> its file, in the world's order (sorted)."""
    try:
        folder = unity_package_dir() / "Examples"
    except FileNotFoundError:
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.psl"))}


def example_list() -> list[dict[str, object]]:
    return [{"name": name, "sliders": len(parse_sliders(example_source(name)).sliders)}
            for name in examples()]


def example_source(name: str) -> str:
    """The example's text; KeyError for a name that is not one (never a path)."""
    return examples()[name].read_text("utf-8")
