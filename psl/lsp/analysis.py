"""Analyses off the request path: each document's full analysis (compile and width
inference) runs on one worker thread, so the server keeps answering while it runs.

A newer text of a document cancels its older analysis: one not started yet is dropped, one
running stops at the inference's next look at its stop event (psl.cancel.cancellable),
and a result that arrives anyway is thrown away. Requests meanwhile are answered from a
quick analysis of the current text (tokens, names, the compile without width inference) or
from the last finished full analysis when it is of the current text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from psl.cancel import Cancelled, cancellable
from psl.lsp.document import Document, analyse
from psl.registry import DEFAULT_OPTIMIZE_LEVEL

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Job:
    uri: str
    text: str
    version: int | None
    encoding: str
    optimize: int = DEFAULT_OPTIMIZE_LEVEL
    stop: threading.Event = field(default_factory=threading.Event)
    future: Future | None = None


def _run(job: Job) -> Document:
    with cancellable(job.stop):
        return analyse(job.uri, job.text, job.encoding, optimize=job.optimize)


class Analyses:
    """The full analyses in flight, one at most per document, run one at a time."""

    def __init__(self, done: Callable[[Job, Document], None]) -> None:
        self.done = done  # called on the event loop with each analysis still wanted
        self.jobs: dict[str, Job] = {}
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="psl-analysis")

    def start(self, uri: str, text: str, version: int | None, encoding: str,
              optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> Job:
        self.cancel(uri)
        job = self.jobs[uri] = Job(uri, text, version, encoding, optimize)
        loop = asyncio.get_running_loop()
        job.future = self.executor.submit(_run, job)

        def back_on_the_loop(future: Future) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server exits
                loop.call_soon_threadsafe(self._finished, job, future)

        job.future.add_done_callback(back_on_the_loop)
        return job

    def cancel(self, uri: str) -> None:
        job = self.jobs.pop(uri, None)
        if job is not None:
            job.stop.set()
            if job.future is not None:
                job.future.cancel()  # only stops one that has not started

    def running(self, uri: str) -> bool:
        return uri in self.jobs

    def _finished(self, job: Job, future: Future) -> None:
        if self.jobs.get(job.uri) is not job or future.cancelled():
            return  # a newer text superseded it
        del self.jobs[job.uri]
        try:
            doc = future.result()
        except Cancelled:
            return
        except Exception:  # a crash here would end the document's diagnostics for good
            log.exception("analysis failed for %s", job.uri)
            return
        self.done(job, doc)

    def close(self) -> None:
        for uri in list(self.jobs):
            self.cancel(uri)
        self.executor.shutdown(wait=False, cancel_futures=True)
