"""Start and stop the playground server (used by `psl serve` and the browser tests)."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from psl.serve.app import ServeOptions, create_app


@dataclass
class RunningServer:
    runner: web.AppRunner
    url: str  # http://host:port/ with the real port when 0 was asked for

    async def stop(self) -> None:
        await self.runner.cleanup()


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


async def start_server(options: ServeOptions, host: str = "127.0.0.1",
                       port: int = 0) -> RunningServer:
    """Bind and start serving; raises OSError when the address is taken or invalid."""
    runner = web.AppRunner(create_app(options), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    bound_host, bound_port = runner.addresses[0][:2]
    return RunningServer(runner, _url(host if host not in ("", "0.0.0.0") else bound_host,
                                      bound_port))
