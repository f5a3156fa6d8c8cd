"""A refactor guard: every psl-gen output of the VM, docs and vscode targets and every
export of every corpus program hashes as recorded in generated_hashes.json.

Why: moving the shading-language text into one dialect layer (issue 40) must leave each
generated file byte-identical; a hash per file names the one that moved.

Regenerated on purpose, with the reason here, never to make this test pass
(`python tests/test_generated_hashes.py`; `... export` for the exports only):
- issue 40 item 5: the HLSL and Unity exports carry only the VM helpers the program calls,
  each guarded by its name;
- issue 37: `--exact` exports of programs whose pixels can reach the VM's work budget hand
  such pixels to the exact path, which counts every instruction (docs/spec.md §7.2);
- issue 41: docs/spec.md gained §11 (-O2) and the registry's fused-instruction tables.
- issue 41: the HLSL and WebGL VMs (VM.cginc, vm.frag) run the fused instructions (-O2,
  docs/spec.md §11.4) from a table generated from registry.FUSED, and spec §11 says so;
  the exports' exact path is unchanged.
- issue 42: the slider builtin (id 60) in the registry, the docs and editor grammars, the
  VMs (`_Sliders`, psl_slider) and the exports' exact path (which defines psl_slider over
  the program's slider parameters); the plain exports of the corpus are unchanged;
- issue 41: 19 more fused instructions (the registry's tables, spec §11) and the HLSL VM's
  top-of-stack register.
- issue 41: -O2 is the default level (registry DEFAULT_OPTIMIZE_LEVEL): spec §10 and §11
  say so, with the figures, and §11.5 says the exports read the -O0 code.
- issue 41: the in-world compiler's default is -O2 too (registry
  INWORLD_DEFAULT_OPTIMIZE_LEVEL), its Listing lists fused instructions, and spec §10, §11 say so.
- issue 38's rule (output for people): the exports' header and helper comments name what a
  shader's user has (VM.cginc, the WebGL VM) instead of psl's template and module paths.
- issue 37: spec §11.4 says a pixel the budget stops at -O2 may stop up to w - 1
  instructions short of the budget (docs/spec.md only).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HASHES = Path(__file__).with_name("generated_hashes.json")
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.psl"))
GEN_TARGETS = ("hlsl", "glsl", "docs", "vscode")
EXPORT_TARGETS = ("unity", "hlsl", "glsl", "shadertoy")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def gen_outputs() -> Iterator[tuple[str, str]]:
    """(key, text) of every psl-gen output of GEN_TARGETS, with default options."""
    import importlib

    for name in GEN_TARGETS:
        target = importlib.import_module(f"psl.gen.{name}").TARGET
        for file, text in sorted(target.render().items()):
            yield f"gen/{name}/{file}", text


def export_outputs() -> Iterator[tuple[str, str]]:
    """(key, text) of every export of every corpus program, default options and --exact."""
    from psl.compiler import compile_source
    from psl.export import ExportError, Options, build_text

    for path in CORPUS:
        result = compile_source(path.read_text(encoding="utf-8"))
        for target in EXPORT_TARGETS:
            for exact in (False, True):
                key = f"export/{path.stem}/{target}{'/exact' if exact else ''}"
                try:
                    yield key, build_text(result, target, Options(exact=exact), path.name)
                except ExportError as exc:  # recorded too: a refusal must not change
                    yield key, f"ExportError: {exc}"


def current() -> dict[str, str]:
    return {k: _sha(t) for k, t in [*gen_outputs(), *export_outputs()]}


@pytest.fixture(scope="module")
def recorded() -> dict[str, str]:
    return json.loads(HASHES.read_text(encoding="utf-8"))


def test_gen_outputs_unchanged(recorded: dict[str, str]) -> None:
    now = {k: _sha(t) for k, t in gen_outputs()}
    want = {k: v for k, v in recorded.items() if k.startswith("gen/")}
    assert sorted(now) == sorted(want)
    assert [k for k in now if now[k] != want[k]] == []


def test_exports_unchanged(recorded: dict[str, str]) -> None:
    now = {k: _sha(t) for k, t in export_outputs()}
    want = {k: v for k, v in recorded.items() if k.startswith("export/")}
    assert sorted(now) == sorted(want)
    assert [k for k in now if now[k] != want[k]] == []


if __name__ == "__main__":  # regenerate: python tests/test_generated_hashes.py [export]
    old = json.loads(HASHES.read_text(encoding="utf-8")) if HASHES.exists() else {}
    new = current()
    if sys.argv[1:] == ["export"]:  # only the exports; the psl-gen hashes stay as taken
        new = {**{k: v for k, v in old.items() if k.startswith("gen/")},
               **{k: v for k, v in new.items() if k.startswith("export/")}}
    HASHES.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(new)} hashes written to {HASHES}")
