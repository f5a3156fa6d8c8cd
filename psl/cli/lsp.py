"""`psl lsp`: the language server, for editors (docs/editors.md)."""

from __future__ import annotations

import logging

import click

from psl.cli.common import optimize_option


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only "
              "transport; accepted because editor clients pass it).")
@click.option("--log-file", type=click.Path(dir_okay=False), default=None,
              help="Append the server's log to this file (stderr by default).")
@optimize_option
def command(stdio: bool, log_file: str | None, optimize: int) -> None:
    """Run the PSL language server over stdio (needs the `lsp` extra: in the psl checkout,
    pip install '.[lsp]'; the distribution is shaderception-psl)."""
    try:
        from psl.lsp.server import main
    except ImportError as exc:
        raise click.ClickException(
            f"the language server needs pygls and lsprotocol ({exc}); "
            "install them from the psl checkout with: pip install '.[lsp]' (the "
            "distribution is shaderception-psl; 'psl' on PyPI is another project)") from None
    logging.basicConfig(filename=log_file, level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    main(optimize)
