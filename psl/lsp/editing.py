"""Formatting through psl fmt, and inlay hints with each assigned variable's width."""

from __future__ import annotations

from lsprotocol import types

from psl.fmt import format_source
from psl.lsp.document import Document
from psl.lsp.widths import width_name


def formatting(doc: Document) -> list[types.TextEdit]:
    """One edit covering only what changes (the cursor and folds elsewhere stay put).
    Raises psl.fmt.FormatError when the text has syntax errors."""
    old = doc.text
    new = format_source(old)
    if new == old:
        return []
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    # widen to whole lines, so an edit never starts or ends inside a CRLF pair
    start = old.rfind("\n", 0, start) + 1
    stop = old.find("\n", end_old)
    stop = len(old) if stop < 0 else stop
    new_stop = len(new) - (len(old) - stop)
    return [types.TextEdit(doc.index.range(start, stop), new[start:new_stop])]


def inlay_hints(doc: Document, rng: types.Range) -> list[types.InlayHint]:
    if doc.result.inference is None:
        return []
    first, last = doc.index.offset(rng.start), doc.index.offset(rng.end)
    hints = []
    for occ in doc.symbols.occurrences:
        tok = occ.token
        if not occ.plain or not first <= tok.offset <= last:
            continue
        ws = doc.width_at(tok)
        if ws:
            hints.append(types.InlayHint(doc.index.position(tok.end), f": {width_name(ws)}",
                                         kind=types.InlayHintKind.Type))
    return hints
