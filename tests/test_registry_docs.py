"""The registry is consistent, and the generated docs are not stale."""

from __future__ import annotations

from pathlib import Path

from psl import registry
from psl.gen.docs import render_docs

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_registry_invariants():
    registry.validate()
    assert {b.id for b in registry.BUILTINS if not b.extension} == set(range(1, 50))
    assert {b.id for b in registry.BUILTINS if b.extension == "audiolink"} == set(range(65, 76))
    limits = registry.LIMITS
    assert limits.slots == 2 * limits.instructions
    assert limits.slots == limits.upload_arrays * limits.upload_array_length


def test_builtins_doc_is_fresh():
    for name, text in render_docs().items():
        on_disk = (DOCS / name).read_text(encoding="utf-8")
        assert on_disk == text, f"docs/{name} is stale: run `psl-gen docs`"


def test_builtins_doc_lists_every_builtin():
    text = render_docs()["builtins.md"]
    for b in registry.BUILTINS:
        assert f"| {b.id} | `{b.name}` |" in text
