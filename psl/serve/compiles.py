"""The playground's compiles, coalesced: one at a time, on one worker thread.

The page compiles as the user types, so requests come in bursts. A newer request supersedes
every older one: those still waiting are answered at once without compiling, and the one
running is asked to stop (the width inference looks at its stop event,
psl.cancel.cancellable), so only the newest runs to the end and no burst can pile up
threads or cores. A superseded request is answered 409 with `"superseded": true`; the page
drops it as stale anyway (it only shows the reply to its newest request).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from psl.cancel import Cancelled, cancellable
from psl.registry import DEFAULT_OPTIMIZE_LEVEL
from psl.serve.build import compile_reply


def _run(source: str, native: bool, optimize: int,
         stop: threading.Event) -> dict[str, object] | None:
    try:
        with cancellable(stop):
            return compile_reply(source, native, optimize)
    except Cancelled:
        return None


class Compiles:
    def __init__(self, optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> None:
        self.optimize = optimize  # compile level (SPEC §10), `psl serve -O`
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="psl-compile")
        self.lock = asyncio.Lock()
        self.newest = 0  # number of the newest request
        self.stop: threading.Event | None = None  # the running compile's
        # what happened, for tests and the log: compiles started and run to the end
        self.started = 0
        self.finished = 0

    async def compile(self, source: str, native: bool) -> dict[str, object] | None:
        """The reply, or None when a newer request superseded this one."""
        self.newest += 1
        me = self.newest
        if self.stop is not None:
            self.stop.set()
        async with self.lock:  # waiters get it in order; all but the newest leave at once
            if me != self.newest:
                return None
            stop = self.stop = threading.Event()
            self.started += 1
            try:
                reply = await asyncio.get_running_loop().run_in_executor(
                    self.executor, _run, source, native, self.optimize, stop)
            finally:
                self.stop = None
            if reply is not None:
                self.finished += 1
            return reply

    def close(self) -> None:
        if self.stop is not None:
            self.stop.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
