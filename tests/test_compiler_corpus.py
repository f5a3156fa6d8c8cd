"""Every corpus program checks clean and compiles to the original compiler's instructions."""

from __future__ import annotations

import pytest

from psl.bytecode import parse_listing, same_as_original
from psl.compiler import check_source, compile_source
from tests.conftest import CORPUS, corpus_programs

#: Intended differences from the original listings (program -> reason). None so far: no
#: corpus program uses `v.sw op= e`, the only construct where psl's code differs (SPEC §6).
INTENDED_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("path", corpus_programs(), ids=lambda p: p.stem)
def test_corpus_checks_clean(path):
    result = check_source(path.read_text(encoding="utf-8"))
    assert not result.errors, [d.message for d in result.errors]


@pytest.mark.parametrize("path", corpus_programs(), ids=lambda p: p.stem)
def test_corpus_matches_original(path):
    program = compile_source(path.read_text(encoding="utf-8")).unwrap()
    original = parse_listing((CORPUS / "original" / f"{path.stem}.asm").read_text())
    ours = program.instructions
    assert len(ours) == len(original)
    diffs = [i for i, (a, b) in enumerate(zip(ours, original, strict=True))
             if not same_as_original(a, b)]
    if path.stem in INTENDED_DIFFERENCES:
        assert diffs, f"{path.stem} is listed as different but matches"
        return
    assert diffs == [], [(i, str(ours[i]), str(original[i])) for i in diffs[:5]]


def test_register_count_matches_manifest():
    import json

    manifest = json.loads((CORPUS / "golden" / "manifest.json").read_text())
    for name, info in manifest["programs"].items():
        source = (CORPUS / info["source"]).read_text(encoding="utf-8")
        program = compile_source(source).unwrap()
        assert program.registers == info["max_registers"], name
        assert len(program.instructions) == info["static_instructions"], name
