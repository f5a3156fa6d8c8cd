"""One home per shading language (issue 40): what psl writes in GLSL ES, HLSL and MSL.

Each dialect (psl.dialect.glsl, psl.dialect.hlsl, psl.dialect.metal; a folder each, with
`keywords`, `formulas`, `natives` and `vm`) holds the language's words and reserved
prefixes, its text for every VM operation, its intrinsics and the VM helper templates an
export may take. The formulas the languages write alike are written once
(psl.dialect.formulas). The VM generators (psl.gen.glsl, psl.gen.hlsl) and the exporters
(psl.export) both read it; a new language is one more folder and one more entry in
DIALECTS.
"""

from __future__ import annotations

from psl.dialect.base import Dialect
from psl.dialect.glsl import DIALECT as GLSL
from psl.dialect.hlsl import DIALECT as HLSL
from psl.dialect.metal import DIALECT as METAL

#: dialect name -> Dialect (the export target table names its dialect by this key)
DIALECTS: dict[str, Dialect] = {GLSL.name: GLSL, HLSL.name: HLSL, METAL.name: METAL}

#: the exported function's parameter: a name every export's code already uses
EXPORT_PARAMETER = "uv"


def all_words() -> frozenset[str]:
    """Every dialect's words: a program's variable is renamed in every export when it is
    one of these (so the exports of one program read alike)."""
    return frozenset().union(*(d.words for d in DIALECTS.values()))


def all_renamed_prefixes() -> tuple[str, ...]:
    """Every dialect's renamed prefixes, in dialect order, without repeats."""
    return tuple(dict.fromkeys(p for d in DIALECTS.values() for p in d.renamed_prefixes))


__all__ = ["DIALECTS", "EXPORT_PARAMETER", "GLSL", "HLSL", "METAL", "Dialect",
           "all_renamed_prefixes", "all_words"]
