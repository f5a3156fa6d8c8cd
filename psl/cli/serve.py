"""`psl serve`: the browser playground (editor, live diagnostics, WebGL VM)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from psl.cli.common import optimize_option

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


@click.command("serve")
@click.argument("file", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on; anything but loopback exposes FILE to the network")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="port to listen on; 0 picks a free one (the URL shows which)")
@optimize_option
def command(file: Path | None, host: str, port: int, optimize: int) -> None:
    """Start a local playground in the browser for FILE (or a default program).

    The page compiles as you type and renders with a WebGL2 port of the VM. Edits saved to
    FILE by another editor reach the page; the page writes FILE only on Save (Ctrl-S).
    Stop with Ctrl-C.
    """
    try:
        asyncio.run(_serve(file, host, port, optimize))
    except KeyboardInterrupt:
        pass


async def _serve(file: Path | None, host: str, port: int, optimize: int = 1) -> None:
    from psl.serve import ServeOptions, start_server

    allowed = LOOPBACK_NAMES | {host.lower(), f"[{host.lower()}]"}
    # Listening on every address: names are unknown, so the Host check is off there.
    wildcard = host in ("", "0.0.0.0", "::")
    options = ServeOptions(program=file.resolve() if file else None,
                           allowed_hosts=None if wildcard else allowed, optimize=optimize)
    try:
        server = await start_server(options, host, port)
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    what = f"editing {file}" if file else "no FILE: changes are not saved"
    click.echo(f"psl serve: {server.url} ({what}); Ctrl-C stops")
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
