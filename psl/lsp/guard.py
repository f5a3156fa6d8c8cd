"""Guards around pygls (2.x) for input it does not survive; each is a fault of the library,
handled here so that the server keeps answering:

- a Content-Length far above any real message made pygls read (and hold) that many bytes:
  the message is replaced by a notification nobody handles, and what follows is skipped
  line by line (64 KB at most each) up to the next Content-Length header;
- a header line without an end is read 64 KB at a time, not whole;
- a negative (or above 2**31) line or character made pygls drop the request without a
  reply: positions are clamped into range before pygls sees them;
- a request whose params do not fit the method's types got no reply (pygls logged it and
  dropped it): `GuardedProtocol` answers it with an InvalidParams error;
- a document that is not open: pygls reads its URI from disk, whatever it is (file:///dev/zero
  grew without end); `opened_text` answers only for documents the editor opened.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification

log = logging.getLogger(__name__)

#: The largest message read (a 16,000-character program is a few hundred KB of JSON at most).
MAX_MESSAGE = 8 << 20
MAX_HEADER_LINE = 64 << 10
_UINT_MAX = 2**31 - 1
_CONTENT_LENGTH = re.compile(rb"^Content-Length: *(\d+)\r\n$", re.IGNORECASE)
_DROPPED = b'{"jsonrpc": "2.0", "method": "$/psl/droppedMessage"}'


class NotOpen(LookupError):
    """A request about a document the editor has not opened."""


def opened_text(workspace: Any, uri: str) -> tuple[str, int | None]:
    """Text and version of an open document, or NotOpen (never a read from disk)."""
    from urllib.parse import unquote

    doc = workspace.text_documents.get(unquote(uri)) or workspace.text_documents.get(uri)
    if doc is None:
        raise NotOpen(uri)
    return doc.source, doc.version


def _clamp(node: Any) -> Any:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("line", "character") and isinstance(value, int) \
                    and not isinstance(value, bool):
                node[key] = min(max(value, 0), _UINT_MAX)
            else:
                _clamp(value)
    elif isinstance(node, list):
        for item in node:
            _clamp(item)
    return node


class GuardedReader:
    """stdin for pygls' reader loop (readline / read), with the guards above."""

    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner
        self.dropped = False  # the next read answers _DROPPED
        self.resync = False  # skipping to the next header

    def readline(self) -> bytes:
        line = self.inner.readline(MAX_HEADER_LINE)
        while self.resync and line:
            at = line.find(b"Content-Length:")
            if at >= 0:
                self.resync = False
                line = line[at:]
                break
            line = self.inner.readline(MAX_HEADER_LINE)
        m = _CONTENT_LENGTH.match(line)
        if m is not None and int(m.group(1)) > MAX_MESSAGE:
            log.warning("psl lsp: refused a message of %s bytes (limit %d)", m.group(1),
                        MAX_MESSAGE)
            self.dropped = True
            return b"Content-Length: %d\r\n" % len(_DROPPED)
        return line

    def read(self, n: int) -> bytes:
        if self.dropped:
            self.dropped, self.resync = False, True
            return _DROPPED
        body = self.inner.read(n)
        if b'"line"' in body or b'"character"' in body:
            try:
                body = json.dumps(_clamp(json.loads(body))).encode("utf-8")
            except (ValueError, RecursionError):
                pass  # pygls says what is wrong with it
        return body


class _NoDeserializeTracebacks(logging.Filter):
    """pygls logs a traceback for every message it cannot read; GuardedProtocol answers
    those and logs one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unable to deserialize message")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_NoDeserializeTracebacks())


class GuardedProtocol(LanguageServerProtocol):
    """pygls' protocol, answering the requests it cannot deserialize instead of dropping
    them (the client would otherwise wait for ever)."""

    def structure_message(self, data: dict[str, Any]):  # type: ignore[no-untyped-def]
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            if "id" in data and isinstance(method, str) and isinstance(data["id"], (int, str)):
                log.warning("psl lsp: %s: invalid params, answered with an error", method)
                self._send_response(data["id"], error=exc.to_response_error())
            else:
                log.warning("psl lsp: dropped a message pygls cannot read")
            return JsonRPCNotification(method="$/psl/droppedMessage", jsonrpc="2.0",
                                       params=None)
