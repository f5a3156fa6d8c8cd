"""Locate the data folders (templates/, unity_package/) in a checkout or an installed wheel.

In a wheel they are shipped as psl/_data/<name> (see pyproject force-include); in a
checkout they sit at the repository root next to the psl package.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    for candidate in (_PKG / "_data" / name, _PKG.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"psl data folder {name!r} not found next to {_PKG}")


def templates_dir() -> Path:
    return data_dir("templates")


def unity_package_dir() -> Path:
    return data_dir("unity_package")
