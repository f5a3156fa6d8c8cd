"""`psl-gen docs`: documentation generated from the registry and the diagnostic catalogue."""

from __future__ import annotations

from psl import registry
from psl.diagnostics import CATALOGUE
from psl.gen.target import Target
from psl.gen.unity.reference import reference_text


def _result(b: registry.Builtin) -> str:
    if b.result is registry.ResultDim.LARGEST:
        return "largest"
    if b.result is registry.ResultDim.MASK:
        return "mask"
    if b.result is registry.ResultDim.FULL:
        return "float4"
    return str(b.dim)


#: output file -> template. spec.md is the project's normative reference; the TextMate
#: grammar serves VS Code, Sublime and GitHub linguist.
OUTPUTS: dict[str, str] = {
    "builtins.md": "docs/builtins.md.j2",
    "diagnostics.md": "docs/diagnostics.md.j2",
    "spec.md": "docs/spec.md.j2",
    "editors/psl.tmLanguage.json": "docs/psl.tmLanguage.json.j2",
    "editors/language-configuration.json": "vscode/language-configuration.json.j2",
    # the text of the world's reference panel (psl.gen.unity.reference), kept here so a
    # registry change shows in review and the freshness test catches a stale copy
    "world-reference.txt": "docs/world-reference.txt.j2",
}


def context() -> dict[str, object]:
    return {
        "builtins": registry.BUILTINS,
        "binops": registry.BINARY_OPERATORS,
        "unops": registry.UNARY_OPERATORS,
        "result": _result,
        "catalogue": list(CATALOGUE.values()),
        "core": [b.name for b in registry.BUILTINS if not b.extension],
        "extension": [b.name for b in registry.BUILTINS if b.extension],
        "world_reference": reference_text(),
        **editor_context(),
    }


def editor_context() -> dict[str, object]:
    """What the editors' language configuration needs: bracket pairs and a word."""
    from psl.syntax.parser import terminal_regexp

    names = {name: symbol for symbol, name in registry.PUNCTUATION.items()}
    return {
        "brackets": [(names["LBRACE"], names["RBRACE"]), (names["LPAREN"], names["RPAREN"])],
        "word_pattern": "|".join(terminal_regexp(t) for t in ("IDENT", "NUMBER")),
    }


TARGET = Target("docs", OUTPUTS, context)
