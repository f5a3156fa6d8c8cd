"""`psl fmt`: one canonical layout, comments kept, idempotent, the same bytecode, and never
a write that could lose anything."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from psl.cli import main
from psl.compiler import compile_source
from psl.fmt import FormatError, format_source
from psl.fmt import verify as fmt_verify
from psl.fmt.layout import layout
from psl.fmt.tokens import scan
from psl.registry import LIMITS
from tests.progen import generate
from tests.progen.widths import width_program

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.psl"))


def _slots(source: str) -> bytes:
    return np.asarray(compile_source(source, lint=False).unwrap().slots(), "<f4").tobytes()


def _check(source: str) -> str:
    """Format, then check the guarantees independently of the formatter's own checks."""
    out = format_source(source)
    assert layout(scan(out)[0]) == out, "not idempotent"
    assert format_source(out) == out
    return out


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_is_idempotent_and_keeps_bytecode(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    out = _check(source)
    assert _slots(out) == _slots(source)
    assert [t.text.rstrip() for t in scan(out)[0] if t.is_comment] == \
        [t.text.rstrip() for t in scan(source)[0] if t.is_comment]


def _generated(chunk: int, chunks: int) -> list[tuple[str, str]]:
    out = [(f"compiler{s}", generate(s, True, "compiler")) for s in range(chunk, 420, chunks)]
    out += [(f"vm{s}", generate(s, True, "vm")) for s in range(chunk, 420, chunks)]
    out += [(f"widths{s}", width_program(s)) for s in range(chunk, 220, chunks)]
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_generated_programs_are_idempotent_and_keep_bytecode(chunk: int) -> None:
    programs = _generated(chunk, 4)
    done = 0
    for name, source in programs:
        before = compile_source(source, lint=False)
        if before.ast is None:  # (a few width programs have a syntax error; skip those)
            continue
        # the layout engine straight, checked here independently of format_source's own
        # verification (which would compile both texts a second time)
        out = layout(scan(source)[0])
        assert layout(scan(out)[0]) == out, f"{name}: not idempotent"
        after = compile_source(out, lint=False)
        assert fmt_verify.signature(after) == fmt_verify.signature(before), name
        done += 1
    assert done >= 250  # >= 1000 over the four chunks


def _with_comments(source: str, rng: random.Random) -> str:
    pieces, last = [], 0
    for tok in scan(source)[0]:
        if rng.random() < 0.12:
            pieces.append(source[last:tok.offset])
            last = tok.offset
            pieces.append(rng.choice([" // trailing\n", "\n// own line\n", "\n\n\n//  x \n\n",
                                      "//\n"]))
    pieces.append(source[last:])
    return "".join(pieces)


def test_comments_anywhere_are_kept_in_order() -> None:
    rng = random.Random(7)
    sources = [p.read_text(encoding="utf-8") for p in CORPUS if p.stat().st_size < 2000]
    sources += [generate(s, True, "compiler") for s in range(1000, 1030)]
    for source in sources:
        noisy = _with_comments(source, rng)
        out = _check(noisy)
        assert [t.text.rstrip() for t in scan(out)[0] if t.is_comment] == \
            [t.text.rstrip() for t in scan(noisy)[0] if t.is_comment]
        assert _slots(out) == _slots(source)


def _reflow(source: str, rng: random.Random) -> str:
    """The same tokens with random whitespace between them (no comments in `source`)."""
    tokens = scan(source)[0]
    out = [tokens[0].text]
    for prev, tok in zip(tokens, tokens[1:], strict=False):
        gap = rng.choice(["", " ", "\n", "\t  ", " \r\n "])
        if gap == "" and scan(prev.text + tok.text)[0][0].text != prev.text:
            gap = " "
        out.append(gap + tok.text)
    return "".join(out)


def test_layout_does_not_depend_on_the_whitespace_written() -> None:
    rng = random.Random(3)
    for seed in range(80):
        source = generate(seed, True, "vm")
        canonical = format_source(source)
        once = _reflow(source, rng)
        if "\n\n" in once:  # (a blank line written is kept, so compare without them)
            continue
        assert format_source(once) == canonical


EXAMPLE = """// header

let a=1;   //  note \x20
fun  f( p,q ){p*q}
if(a<2){a+=1;}else if(a>3){a--;}else{a=-a;}
for(let i=0;i<4;i++){a=a+ -i;}
while(0){}


float3(f(a,2),1 .x,- -a).xyz
"""

EXAMPLE_FORMATTED = """// header

let a = 1; //  note
fun f(p, q) {
    p * q
}
if (a < 2) {
    a += 1;
} else if (a > 3) {
    a--;
} else {
    a = -a;
}
for (let i = 0; i < 4; i++) {
    a = a + -i;
}
while (0) {}

float3(f(a, 2), 1 .x, - -a).xyz
"""


def test_canonical_layout() -> None:
    assert format_source(EXAMPLE) == EXAMPLE_FORMATTED
    assert _slots(EXAMPLE) == _slots(EXAMPLE_FORMATTED)


def test_comments_inside_expressions_and_blocks() -> None:
    source = "let x = 1 + // one\n// two\n2;\nif (x) { // open\n}\nx\n"
    out = format_source(source)
    assert out == ("let x = 1 + // one\n    // two\n    2;\nif (x) { // open\n}\nx\n")


def test_empty_and_comment_only_texts() -> None:
    assert format_source("") == ""
    assert format_source("  \n\n") == ""
    assert format_source("// only\n\n\n// two") == "// only\n\n// two\n"


@pytest.mark.parametrize("broken", ["let a = ;", "let a = 1", "a = 1 @ 2;", "x = 1.2.3;",
                                    "if (1) { 2 "])
def test_refuses_syntax_errors(broken: str) -> None:
    with pytest.raises(FormatError) as exc:
        format_source(broken)
    assert exc.value.code.startswith("E00")
    assert exc.value.span.line == 1


def test_semantic_errors_are_formatted_when_the_errors_stay_the_same() -> None:
    assert format_source("x=nope(1);x") == "x = nope(1);\nx\n"


def test_refuses_output_past_the_size_limit() -> None:
    # statements that fit on one line but not once laid out over three, indented
    line = "if(1){a=1;}"
    source = line * (LIMITS.source_chars // len(line))
    assert len(source) <= LIMITS.source_chars
    with pytest.raises(FormatError, match="past the limit"):
        format_source(source)


# ---------------------------------------------------------------------------- CLI
def _run(args: list[str], stdin: str | None = None):
    return CliRunner().invoke(main, ["fmt", *args], input=stdin)


def test_cli_rewrites_in_place_and_check_reports(tmp_path: Path) -> None:
    messy, clean = tmp_path / "messy.psl", tmp_path / "clean.psl"
    messy.write_text("let a=1;a", encoding="utf-8")
    clean.write_text("let a = 1;\na\n", encoding="utf-8")
    result = _run(["--check", str(messy), str(clean)])
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.output and str(clean) not in result.output
    assert messy.read_text(encoding="utf-8") == "let a=1;a"
    assert _run(["--check", str(clean)]).exit_code == 0
    stamp = clean.stat().st_mtime_ns
    result = _run([str(messy), str(clean)])
    assert result.exit_code == 0
    assert messy.read_text(encoding="utf-8") == "let a = 1;\na\n"
    assert clean.stat().st_mtime_ns == stamp  # unchanged files are not rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean.psl", "messy.psl"]


def test_cli_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _run([]).exit_code == 2
    assert _run(["--nope", "x.psl"]).exit_code == 2
    assert _run([str(tmp_path / "missing.psl")]).exit_code == 2
    assert _run([str(tmp_path)]).exit_code == 2


def test_cli_stdin_to_stdout() -> None:
    result = _run(["-"], stdin="x=1;x")
    assert result.exit_code == 0 and result.stdout == "x = 1;\nx\n"
    assert _run(["--check", "-"], stdin="x = 1;\nx\n").exit_code == 0
    assert _run(["--check", "-"], stdin="x=1;x").exit_code == 1


def test_cli_refuses_broken_files_and_leaves_them(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.psl", tmp_path / "good.psl"
    bad.write_text("let a = 1;\nlet b = (a;\n", encoding="utf-8")
    good.write_text("a=1;a", encoding="utf-8")
    result = _run([str(bad), str(good)])
    assert result.exit_code == 1
    assert f"{bad}:2:11: error[E005]" in result.stderr
    assert bad.read_text(encoding="utf-8") == "let a = 1;\nlet b = (a;\n"
    assert good.read_text(encoding="utf-8") == "a = 1;\na\n"  # the others still formatted
    raw = tmp_path / "latin1.psl"
    raw.write_bytes(b"a = 1; // caf\xe9\na")
    assert _run([str(raw)]).exit_code == 1
    assert raw.read_bytes() == b"a = 1; // caf\xe9\na"


def test_cli_never_writes_when_verification_fails(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.psl"
    path.write_text("a=1;a", encoding="utf-8")
    import psl.fmt as fmt

    monkeypatch.setattr(fmt, "difference", lambda *a, **k: "the bytecode would change")
    result = _run([str(path)])
    assert result.exit_code == 1 and "bytecode would change" in result.stderr
    assert path.read_text(encoding="utf-8") == "a=1;a"
    assert [p.name for p in tmp_path.iterdir()] == ["p.psl"]


def test_cli_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.psl"
    path.write_bytes("\ufeffa=1;a".encode())
    assert _run([str(path)]).exit_code == 0
    assert path.read_bytes() == "\ufeffa = 1;\na\n".encode()
