"""The command lines: `psl` (check, compile, run) and `psl-gen` (generators).

Subcommands load on first use, so `psl check` never imports the VM or the generators.
"""

from __future__ import annotations

import importlib

import click

from psl._version import __version__


class LazyGroup(click.Group):
    """A group whose subcommands are `command` objects of modules imported when used."""

    def __init__(self, *args, commands_from: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.modules = commands_from  # subcommand name -> module defining `command`

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.modules)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = self.modules.get(name)
        return None if module is None else importlib.import_module(module).command

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        from psl.cli.common import guarded_invoke  # OSError & co. -> a message, no traceback

        return guarded_invoke(super().invoke, ctx)


@click.group(cls=LazyGroup, commands_from={
    "check": "psl.cli.check", "compile": "psl.cli.compile", "run": "psl.cli.run",
    "serve": "psl.cli.serve", "export": "psl.cli.export",
    "fmt": "psl.cli.fmt", "lsp": "psl.cli.lsp"})
@click.version_option(__version__, prog_name="psl")
def main() -> None:
    """psl: check, compile and run PSL programs (the Shaderception shading language)."""
