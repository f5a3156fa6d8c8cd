"""The WebGL2 VM shader, rendered by the `glsl` generator (psl.gen.glsl) from the registry
at run time, so the page always runs the VM of the installed psl."""

from __future__ import annotations

from functools import lru_cache


class ShaderUnavailable(RuntimeError):
    """The GLSL generator is missing or failed; the page shows the message."""


@lru_cache(maxsize=1)
def shader_sources() -> dict[str, str]:
    """Output file name (e.g. `vm.frag`) -> GLSL ES 3.00 text."""
    try:
        from psl.gen.glsl import TARGET
    except ImportError as exc:
        raise ShaderUnavailable(f"the GLSL VM generator is not available: {exc}") from exc
    try:
        return dict(TARGET.render())
    except Exception as exc:  # a template error should reach the page, not kill the server
        raise ShaderUnavailable(f"rendering the GLSL VM failed: {exc}") from exc
