"""What the editor needs to know about PSL, built from psl.registry at run time
(served as /api/language.json, so highlighting never drifts from the language)."""

from __future__ import annotations

from psl import registry


def language_description() -> dict[str, object]:
    builtins = [b for b in registry.BUILTINS if not b.internal]
    return {
        "keywords": list(registry.KEYWORDS),
        # the language matches builtin names case-insensitively (SPEC §3)
        "builtins_case_insensitive": True,
        "builtins": {b.name: {"arity": b.arity, "doc": b.doc, "extension": b.extension}
                     for b in builtins},
        # longest first, so a tokenizer trying them in order finds `<=` before `<`
        "operators": sorted(registry.PUNCTUATION, key=lambda s: (-len(s), s)),
        "swizzle_letters": "".join(registry.SWIZZLE_SETS),
        "line_comment": "//",
        "limits": {"source_chars": registry.LIMITS.source_chars,
                   "instructions": registry.LIMITS.instructions,
                   "jumps": registry.LIMITS.jumps},
    }
