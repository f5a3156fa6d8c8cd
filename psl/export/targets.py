"""The export targets: one table that `psl export --target`'s choices, the export dispatch
(psl.export.build_text) and the naming rules (psl.export.names) all read.

Adding a target is one entry here plus its dialect (psl.dialect) and the module that
writes it; nothing else lists targets.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from psl.dialect import DIALECTS, Dialect

if TYPE_CHECKING:
    from psl.export.ir import Program
    from psl.export.text import Options


@dataclass(frozen=True)
class ExportTarget:
    name: str  # the --target value
    dialect: str  # key of psl.dialect.DIALECTS
    suffix: str  # the file name suffix of what it writes
    template: str  # the wrapper template (under templates/)
    what: str  # what the file is, for the export header
    verified_by: str  # how the tests show it computes what the VM computes
    module: str  # the module whose export(program, options, source) writes it
    #: templates whose identifiers a --name must not take (beside the dialect's words)
    templates: tuple[str, ...]
    #: prefixes this target keeps beside its dialect's (Unity's names)
    prefixes: tuple[str, ...] = ()

    def language(self) -> Dialect:
        return DIALECTS[self.dialect]

    def writer(self) -> Callable[[Program, Options, str], str]:
        return importlib.import_module(self.module).export


_HLSL_NAMES = ("export/program.hlsl.j2", "export/prelude.hlsl.j2", "hlsl/_*.hlsl.j2")
_GLSL_NAMES = ("export/_*.glsl.j2", "glsl/_*.glsl.j2")  # export/_program: the shared body

#: --target value -> target, in the order `psl export --help` lists them
TARGETS: dict[str, ExportTarget] = {t.name: t for t in (
    ExportTarget("unity", "hlsl", ".shader", "export/unity.shader.j2", "a Unity shader",
                 "glslang (Unity stubs); its HLSL function as the hlsl target's",
                 "psl.export.unity", (*_HLSL_NAMES, "export/unity.shader.j2"),
                 ("unity_", "Unity", "_")),
    ExportTarget("hlsl", "hlsl", ".hlsl", "export/program.hlsl.j2", "an HLSL function",
                 "slangpy on the CPU against the Python VM; glslang",
                 "psl.export.hlsl", _HLSL_NAMES),
    ExportTarget("glsl", "glsl", ".frag", "export/program.glsl.j2", "a GLSL ES 3.00 shader",
                 "a browser's WebGL2 (SwiftShader) against the WebGL VM; glslang",
                 "psl.export.glsl", ("export/program.glsl.j2", *_GLSL_NAMES)),
    ExportTarget("shadertoy", "glsl", ".glsl", "export/shadertoy.glsl.j2",
                 "a Shadertoy shader", "glslang (as a Shadertoy pass)",
                 "psl.export.shadertoy", ("export/shadertoy.glsl.j2", *_GLSL_NAMES)),
    # no Metal compiler runs on Linux: docs/export.md says what these checks leave open
    ExportTarget("metal", "metal", ".metal", "export/metal.metal.j2",
                 "a Metal (MSL) fragment function",
                 "g++ on the CPU (a stand-in metal_stdlib) against the Python VM; the "
                 "structure of spirv-cross's MSL of the GLSL export",
                 "psl.export.metal", ("export/metal*.metal.j2", "hlsl/_values.hlsl.j2",
                                      "hlsl/_ops.hlsl.j2")),
)}


def target(name: str) -> ExportTarget:
    """The target named `name`; ValueError naming the choices when there is none."""
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError(f"unknown target {name!r}; one of {', '.join(TARGETS)}") from None
