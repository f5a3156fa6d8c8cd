"""The VS Code extension's generated files (editors/vscode/): the TextMate grammar, the
same one `psl-gen docs` writes to docs/editors/, and the language configuration (comment
syntax, brackets, what a word is), both from the registry and grammar.lark.

`psl-gen vscode` (or `python -m psl.gen.vscode [OUT]`, which editors/vscode/build.sh
runs) writes them; `psl-gen docs` writes the same two files to docs/editors/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from psl.gen import docs
from psl.gen.target import Target

GRAMMAR = "syntaxes/psl.tmLanguage.json"
LANGUAGE_CONFIGURATION = "language-configuration.json"

OUTPUTS: dict[str, str] = {
    GRAMMAR: docs.OUTPUTS["editors/psl.tmLanguage.json"],
    LANGUAGE_CONFIGURATION: docs.OUTPUTS["editors/language-configuration.json"],
}


TARGET = Target("vscode", OUTPUTS, docs.context)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("editors/vscode")
    for path in TARGET.write(out):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
