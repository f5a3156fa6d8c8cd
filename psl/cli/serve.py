"""`psl serve`: the browser playground (editor, live diagnostics, WebGL VM)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from psl.cli.common import optimize_option
from psl.registry import DEFAULT_OPTIMIZE_LEVEL


@click.command("serve")
@click.argument("file", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on; anything but loopback exposes FILE to the network")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="also answer requests for this host name (repeatable); the page answers "
                   "only its own names, so a rebound DNS name cannot reach FILE")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="port to listen on; 0 picks a free one (the URL shows which)")
@optimize_option
def command(file: Path | None, host: str, port: int, allow_hosts: tuple[str, ...],
            optimize: int) -> None:
    """Start a local playground in the browser for FILE (or a default program).

    The page compiles as you type and renders with a WebGL2 port of the VM. Edits saved to
    FILE by another editor reach the page; the page writes FILE only on Save (Ctrl-S).
    Stop with Ctrl-C.
    """
    try:
        asyncio.run(_serve(file, host, port, optimize, allow_hosts))
    except KeyboardInterrupt:
        pass


async def _serve(file: Path | None, host: str, port: int, optimize: int = DEFAULT_OPTIMIZE_LEVEL,
                 allow_hosts: tuple[str, ...] = ()) -> None:
    from psl.serve import ServeOptions, start_server
    from psl.serve.hosts import allowed_hosts

    # every bind keeps a Host allow-list (a wildcard one: this machine's names and addresses)
    options = ServeOptions(program=file.resolve() if file else None,
                           allowed_hosts=allowed_hosts(host, allow_hosts), optimize=optimize)
    try:
        server = await start_server(options, host, port)
    except (OSError, UnicodeError) as exc:  # UnicodeError: a host name IDNA cannot encode
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise click.ClickException(f"cannot listen on {host}:{port}: {why}") from None
    what = f"editing {file}" if file else "no FILE: changes are not saved"
    click.echo(f"psl serve: {server.url} ({what}); Ctrl-C stops")
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
