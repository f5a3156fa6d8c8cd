"""The real `psl serve` server (aiohttp on 127.0.0.1, port 0) in a background thread, so
the browser tests talk to it as a user's browser would."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from psl.serve import RunningServer, ServeOptions, start_server


class ServerThread:
    def __init__(self, program: Path | None = None, poll_seconds: float = 0.05) -> None:
        self.options = ServeOptions(program=program, poll_seconds=poll_seconds,
                                    allowed_hosts=frozenset({"127.0.0.1"}))
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.server: RunningServer = asyncio.run_coroutine_threadsafe(
            start_server(self.options, "127.0.0.1", 0), self.loop).result(timeout=30)
        self.url = self.server.url

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
