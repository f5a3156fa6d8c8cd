"""A synchronous LSP client over a subprocess's stdio: JSON-RPC with Content-Length framing
(the LSP base protocol), written from the specification so the tests exercise the server
exactly as an editor does."""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class ResponseError(Exception):
    def __init__(self, error: dict[str, Any]):
        super().__init__(error.get("message", "error"))
        self.error = error


@dataclass
class Client:
    proc: subprocess.Popen[bytes]
    timeout: float = 20.0
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _responses: dict[int, queue.Queue] = field(default_factory=dict)
    notifications: queue.Queue = field(default_factory=queue.Queue)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(cls, *args: str) -> Client:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, "-m", "psl.cli", "lsp", *args],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT, env=env)
        client = cls(proc)
        threading.Thread(target=client._read, daemon=True).start()
        threading.Thread(target=client._drain_stderr, daemon=True).start()
        return client

    # ------------------------------------------------------------------ wire
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        with self._lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(out.read(length))
            if "id" in message and "method" not in message:
                self._responses.setdefault(message["id"], queue.Queue()).put(message)
            elif "id" in message:  # a request from the server: answer it with nothing
                self._send({"id": message["id"], "result": None})
                self.notifications.put(message)
            else:
                self.notifications.put(message)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = b""
        for chunk in iter(lambda: self.proc.stderr.read(4096), b""):  # type: ignore[union-attr]
            self.stderr += chunk

    # ------------------------------------------------------------------- api
    def request(self, method: str, params: Any = None) -> Any:
        rid = next(self._ids)
        box = self._responses.setdefault(rid, queue.Queue())
        self._send({"id": rid, "method": method, "params": params})
        message = box.get(timeout=self.timeout)
        del self._responses[rid]
        if "error" in message:
            raise ResponseError(message["error"])
        return message.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"method": method, "params": params})

    def wait_for(self, method: str, predicate=lambda p: True) -> dict[str, Any]:
        """The next notification of `method` whose params satisfy `predicate` (others of
        that method are dropped; other methods are kept for later)."""
        kept = []
        try:
            while True:
                message = self.notifications.get(timeout=self.timeout)
                if message.get("method") == method and predicate(message.get("params")):
                    return message["params"]
                if message.get("method") != method:
                    kept.append(message)
        finally:
            for m in kept:
                self.notifications.put(m)

    def initialize(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": None,
            "capabilities": capabilities or {}})
        self.notify("initialized", {})
        return result

    def shutdown(self) -> int:
        try:
            self.request("shutdown")
            self.notify("exit")
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    # ------------------------------------------------------------- documents
    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "psl", "version": version, "text": text}})

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict[str, Any]]:
        params = self.wait_for("textDocument/publishDiagnostics",
                               lambda p: p["uri"] == uri
                               and (version is None or p.get("version") == version))
        return params["diagnostics"]

    def at(self, method: str, uri: str, line: int, character: int, **extra: Any) -> Any:
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character},
                                     **extra})
