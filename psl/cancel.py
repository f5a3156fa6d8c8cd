"""Cancelling a long analysis from another thread: `psl lsp` and `psl serve` abandon the
work of an edit a newer one supersedes.

A small utility on its own (not part of the inference engine that happens to look at it
most often), so the servers and the exporter import it without reaching into psl.infer.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator


class Cancelled(BaseException):
    """The caller abandoned the analysis (`psl lsp`: a newer edit came). A BaseException, so
    the compiler's guard against inference bugs (N002) lets it through."""


_caller = threading.local()


@contextlib.contextmanager
def cancellable(stop: threading.Event) -> Iterator[None]:
    """Analyses run in this thread inside the block stop soon after `stop` is set, raising
    Cancelled."""
    _caller.stop = stop
    try:
        yield
    finally:
        _caller.stop = None


def check_cancelled() -> None:
    """Raise Cancelled when this thread's `cancellable` stop event is set (cheap: call it
    in the loops of long analyses)."""
    stop = getattr(_caller, "stop", None)
    if stop is not None and stop.is_set():
        raise Cancelled
