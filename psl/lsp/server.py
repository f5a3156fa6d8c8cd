"""The PSL language server (pygls): one `Document` per open text, rebuilt when the text
changes, and every feature answered from it. Handlers never let an exception out: on
text that breaks a feature the server logs it and answers with nothing."""

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
from psl.lsp.diagnostics import diagnostics
from psl.lsp.document import Document, analyse

#: Seconds a change waits before its diagnostics are computed, so a burst of keystrokes
#: compiles once.
DEBOUNCE = 0.05

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])


class PslLanguageServer(LanguageServer):
    def __init__(self, optimize: int = 1) -> None:
        super().__init__("psl", __version__)
        self.optimize = optimize  # compile level (SPEC §10), `psl lsp -O`
        self.documents: dict[str, Document] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def document(self, uri: str) -> Document:
        text = self.workspace.get_text_document(uri).source
        doc = self.documents.get(uri)
        if doc is None or doc.text != text:
            encoding = str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)
            doc = analyse(uri, text, encoding, self.optimize)
            self.documents[uri] = doc
        return doc

    def publish(self, uri: str) -> None:
        self.timers.pop(uri, None)
        try:
            version = self.workspace.get_text_document(uri).version
            found = diagnostics(self.document(uri))
        except Exception:  # a crash here would end the server's diagnostics for good
            log.exception("diagnostics failed for %s", uri)
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version))

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
            except Exception:
                log.exception("%s failed", fn.__name__)
                return default
        return run  # type: ignore[return-value]
    return wrap


def create_server(optimize: int = 1) -> PslLanguageServer:
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


def main(optimize: int = 1) -> None:
    """Serve on stdin/stdout until the client says exit."""
    create_server(optimize).start_io()
