"""psl: toolchain for PSL, the shading language of the Shaderception VRChat world.

    >>> import psl
    >>> program = psl.compile_source("uv().xyxy").unwrap()
    >>> image = psl.run(program, size=(64, 64))          # numpy float32 [H][W][4]
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

from psl.compiler import check_source, compile_source  # noqa: E402

__all__ = ["__version__", "check_source", "compile_source", "run"]


def run(*args: Any, **kwargs: Any) -> Any:
    """Render a program with the reference VM (see psl.api.run)."""
    from psl.api import run as _run

    return _run(*args, **kwargs)
