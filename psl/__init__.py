"""psl: toolchain for PSL, the shading language of the Shaderception VRChat world.

    >>> import psl
    >>> program = psl.compile_source("uv().xyxy").unwrap()
    >>> image = psl.run(program, size=(64, 64))          # numpy float32 [H][W][4]

Importing `psl` loads nothing else: the names below load their modules on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from psl.compiler import check_source, compile_source

from psl._version import __version__

__all__ = ["__version__", "check_source", "compile_source", "run"]


def __getattr__(name: str) -> Any:
    # PEP 562: the compiler (and lark) load when first asked for, not on `import psl`
    if name in ("compile_source", "check_source"):
        from psl import compiler

        return getattr(compiler, name)
    raise AttributeError(f"module 'psl' has no attribute {name!r}")


def run(*args: Any, **kwargs: Any) -> Any:
    """Render a program with the reference VM (see psl.api.run)."""
    from psl.api import run as _run

    return _run(*args, **kwargs)
