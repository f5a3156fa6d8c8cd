"""The registry is consistent, and the generated docs are not stale."""

from __future__ import annotations

import re
from pathlib import Path

from psl import registry
from psl.diagnostics import CATALOGUE
from psl.gen import docs

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_registry_invariants():
    registry.validate()
    # 1-49 from the original; 50-59 added (atan2 ... log10); 60 slider; 61-64 free for core
    # builtins
    assert {b.id for b in registry.BUILTINS if not b.extension} == set(range(1, 61))
    assert {b.id for b in registry.BUILTINS if b.extension == "audiolink"} == set(range(65, 76))
    limits = registry.LIMITS
    assert limits.slots == 2 * limits.instructions
    assert limits.slots == limits.texture_width * limits.texture_height
    assert limits.original_slots == 2 * limits.original_instructions
    assert limits.original_slots == limits.upload_arrays * limits.upload_array_length


def test_builtins_doc_is_fresh():
    for name, text in docs.TARGET.render().items():
        on_disk = (DOCS / name).read_text(encoding="utf-8")
        assert on_disk == text, f"docs/{name} is stale: run `psl-gen docs`"


def test_builtins_doc_lists_every_builtin():
    text = docs.TARGET.render()["builtins.md"]
    for b in registry.BUILTINS:
        assert f"| {b.id} | `{b.name}` |" in text


def test_spec_tables_come_from_the_registry():
    text = docs.TARGET.render()["spec.md"]
    for op in registry.Op:
        assert f"| {op.value} | {op.name} |" in text
    for o in registry.BINARY_OPERATORS:
        assert f"| {o.id} | `{o.symbol.replace('|', chr(92) + '|')}` |" in text
    for u in registry.UNARY_OPERATORS:
        assert f"| {u.code} | `{u.symbol}` |" in text
    for b in registry.BUILTINS:
        assert f"| {b.id} | `{b.name}` | {b.arity} |" in text
    for code in CATALOGUE:
        assert f"| {code} |" in text
    limits = registry.LIMITS
    for value in (limits.instructions, limits.slots, limits.registers, limits.stack,
                  limits.jumps, limits.source_chars, limits.tokens, limits.nesting):
        assert f"| {value} |" in text


SECTION = re.compile(r"^## (\d+)\. ", re.MULTILINE)
SUBSECTION = re.compile(r"^### (\d+\.\d+) ", re.MULTILINE)
CITATION = re.compile(r"(?:SPEC|spec\.md)((?:(?:,| and)? ?§\d+(?:\.\d+)?(?:-\d+)?)+)")
CITED = re.compile(r"§(\d+(?:\.\d+)?)(?:-(\d+))?")


def test_spec_sections_exist_for_every_citation():
    """docs/spec.md keeps sections 1-11 in order, and every "SPEC §n" or "spec.md §n.m"
    cited in the code, templates, tests and docs names a section it has."""
    text = docs.TARGET.render()["spec.md"]
    assert [int(n) for n in SECTION.findall(text)] == list(range(1, 12))
    sections = set(SECTION.findall(text)) | set(SUBSECTION.findall(text))
    root = DOCS.parent
    missing = []
    for folder in ("psl", "templates", "tests", "docs"):
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or path.suffix in {".npy", ".png", ".gif", ".bin"}:
                continue
            try:
                source = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for cite in CITATION.finditer(source):
                for first, last in CITED.findall(cite.group(1)):
                    numbers = [first]
                    if last:  # a range such as §7-9
                        numbers += [str(n) for n in range(int(first) + 1, int(last) + 1)]
                    missing += [f"{path.relative_to(root)}: §{n}" for n in numbers
                                if n not in sections]
    assert not missing, missing
