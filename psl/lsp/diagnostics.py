"""`psl check`'s diagnostics as LSP diagnostics."""

from __future__ import annotations

from lsprotocol import types

from psl.diagnostics import Severity
from psl.lsp.document import Document

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTE: types.DiagnosticSeverity.Information,
}


def diagnostics(doc: Document) -> list[types.Diagnostic]:
    out = []
    for d in doc.result.diagnostics:
        # Editors show the message only, so the notes and the hint go into it.
        message = "\n".join([d.message, *(f"note: {n}" for n in d.notes),
                             *([f"help: {d.hint}"] if d.hint else [])])
        out.append(types.Diagnostic(
            range=doc.index.span_range(d.span),
            message=message,
            severity=_SEVERITY[d.severity],
            code=d.code,
            source="psl",
        ))
    return out
