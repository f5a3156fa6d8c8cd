"""`psl-gen`: render generated files. Each target module defines a click command `command`."""

from __future__ import annotations

import importlib

import click

from psl._version import __version__

#: subcommand name -> module defining `command`
TARGETS: dict[str, str] = {
    "udonsharp": "psl.gen.udonsharp",
    "hlsl": "psl.gen.hlsl",
    "unity-package": "psl.gen.package",
    "docs": "psl.gen.docs",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in TARGETS if self.get_command(ctx, name) is not None)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = TARGETS.get(name)
        if module is None:
            return None
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:  # target not written yet
                return None
            raise
        return getattr(mod, "command", None)


@click.group(cls=_LazyGroup)
@click.version_option(__version__, prog_name="psl-gen")
def main() -> None:
    """Generate the in-world compiler, the VM shader, the Unity package and the docs."""
