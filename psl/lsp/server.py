"""The PSL language server (pygls): one `Document` per open text, rebuilt when the text
changes, and every feature answered from it. The full analysis (width inference included)
runs off the request path (psl/lsp/analysis.py): requests never wait for it. Handlers never
let an exception out: on text that breaks a feature the server logs it and answers with
nothing."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from psl._version import __version__
from psl.fmt import FormatError
from psl.lsp import completion, editing, hover, navigation
from psl.lsp.analysis import Analyses, Job
from psl.lsp.diagnostics import diagnostics
from psl.lsp.document import Document, analyse
from psl.lsp.guard import GuardedProtocol, GuardedReader, NotOpen, opened_text
from psl.registry import DEFAULT_OPTIMIZE_LEVEL

#: Seconds a change waits before its diagnostics are computed, so a burst of keystrokes
#: compiles once.
DEBOUNCE = 0.05

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])


class PslLanguageServer(LanguageServer):
    def __init__(self, optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> None:
        super().__init__("psl", __version__, protocol_cls=GuardedProtocol)
        self.optimize = optimize  # compile level (SPEC §10), `psl lsp -O`
        self.documents: dict[str, Document] = {}  # the last finished full analysis
        self.quick: dict[str, Document] = {}  # the current text without width inference
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.analyses = Analyses(self.finished)

    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def document(self, uri: str) -> Document:
        """What requests are answered from, without waiting for an analysis: the last full
        analysis when it is of the current text, else a quick one of the current text."""
        text, _ = opened_text(self.workspace, uri)  # NotOpen: never read from disk
        doc = self.documents.get(uri)
        if doc is not None and doc.text == text:
            return doc
        quick = self.quick.get(uri)
        if quick is None or quick.text != text:
            quick = self.quick[uri] = analyse(uri, text, self.encoding(), lint=False,
                                                optimize=self.optimize)
        return quick

    def publish(self, uri: str) -> None:
        """Start the full analysis of the current text; `finished` publishes it."""
        self.timers.pop(uri, None)
        try:
            text, version = opened_text(self.workspace, uri)
            self.analyses.start(uri, text, version, self.encoding(), self.optimize)
        except NotOpen:
            return
        except Exception:  # a crash here would end the server's diagnostics for good
            log.exception("diagnostics failed for %s", uri)

    def finished(self, job: Job, doc: Document) -> None:
        self.documents[job.uri] = doc
        self.quick.pop(job.uri, None)
        try:
            found = diagnostics(doc)
        except Exception:
            log.exception("diagnostics failed for %s", job.uri)
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=job.uri, diagnostics=found,
                                           version=job.version))
        # Hints asked for while the analysis ran had no widths: ask the editor again.
        workspace = self.client_capabilities.workspace
        hints = workspace.inlay_hint if workspace is not None else None
        if hints is not None and hints.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    def schedule(self, uri: str) -> None:
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        self.timers[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, self.publish, uri)


def _safe(default: object = None) -> Callable[[F], F]:
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except JsonRpcInvalidParams:
                raise
            except NotOpen:  # an editor asks about open documents only
                return default
            except Exception:
                log.exception("%s failed", fn.__name__)
                return default
        return run  # type: ignore[return-value]
    return wrap


def create_server(optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> PslLanguageServer:
    server = PslLanguageServer(optimize)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PslLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PslLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PslLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.documents.pop(uri, None)
        ls.quick.pop(uri, None)
        ls.analyses.cancel(uri)
        timer = ls.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_safe()
    def on_hover(ls: PslLanguageServer, params: types.HoverParams) -> types.Hover | None:
        return hover.hover(ls.document(params.text_document.uri), params.position)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    @_safe()
    def on_completion(ls: PslLanguageServer,
                      params: types.CompletionParams) -> types.CompletionList | None:
        return completion.completion(ls.document(params.text_document.uri), params.position)

    @server.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP,
                    types.SignatureHelpOptions(trigger_characters=["(", ","]))
    @_safe()
    def on_signature(ls: PslLanguageServer,
                     params: types.SignatureHelpParams) -> types.SignatureHelp | None:
        return completion.signature_help(ls.document(params.text_document.uri),
                                         params.position)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @_safe()
    def on_definition(ls: PslLanguageServer,
                      params: types.DefinitionParams) -> types.Location | None:
        return navigation.definition(ls.document(params.text_document.uri), params.position)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @_safe([])
    def on_references(ls: PslLanguageServer,
                      params: types.ReferenceParams) -> list[types.Location]:
        return navigation.references(ls.document(params.text_document.uri), params.position,
                                     params.context.include_declaration)

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    @_safe()
    def on_prepare_rename(ls: PslLanguageServer,
                          params: types.PrepareRenameParams) -> types.Range | None:
        return navigation.prepare_rename(ls.document(params.text_document.uri),
                                         params.position)

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    @_safe()
    def on_rename(ls: PslLanguageServer,
                  params: types.RenameParams) -> types.WorkspaceEdit | None:
        try:
            return navigation.rename(ls.document(params.text_document.uri), params.position,
                                     params.new_name)
        except navigation.RenameError as exc:
            raise JsonRpcInvalidParams(str(exc)) from None

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe([])
    def on_symbols(ls: PslLanguageServer,
                   params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        return navigation.document_symbols(ls.document(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @_safe()
    def on_formatting(ls: PslLanguageServer,
                      params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        try:
            return editing.formatting(ls.document(params.text_document.uri))
        except FormatError as exc:
            ls.window_show_message(types.ShowMessageParams(
                types.MessageType.Warning, f"psl fmt: not formatted: {exc}"))
            return None

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    @_safe([])
    def on_inlay(ls: PslLanguageServer,
                 params: types.InlayHintParams) -> list[types.InlayHint]:
        return editing.inlay_hints(ls.document(params.text_document.uri), params.range)

    return server


def main(optimize: int = DEFAULT_OPTIMIZE_LEVEL) -> None:
    """Serve on stdin/stdout until the client says exit."""
    import sys

    server = create_server(optimize)
    try:
        server.start_io(GuardedReader(sys.stdin.buffer))  # type: ignore[arg-type]
    finally:
        server.analyses.close()  # a running analysis stops instead of holding up the exit
