"""Every keyword, reserved word, type and built-in function of GLSL ES 3.00 and HLSL
(psl.export.names.LANGUAGE_WORDS), and names with the languages' reserved prefixes, used as
a program's variable and function names: the exports rename them, and glslang compiles the
GLSL, Shadertoy and Unity exports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from psl.compiler import compile_source
from psl.export import build_text
from psl.export.names import LANGUAGE_WORDS, RESERVED_PREFIXES
from tests.test_export import SHADERTOY_MAIN, SHADERTOY_PRELUDE, _glslang, _unity_compiles

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="glslang-tools not installed")

PREFIXED = [f"{p}x" for p in RESERVED_PREFIXES] + ["gl_FragCoord", "gl_Position", "a__b",
                                                  "__x", "x__", "psl_program", "SV_Target"]


def _accepted_names() -> list[str]:
    """The words psl accepts as a variable name (keywords of PSL itself are not)."""
    return [w for w in sorted(LANGUAGE_WORDS | set(PREFIXED))
            if compile_source(f"{w} = uv().x; float3({w}, 0, 1)").ok]


def _programs(names: list[str], per: int = 120) -> list[str]:
    """Programs of `per` variables each (the VM's register limit is 256), every one read,
    and one function per program named by one of the words."""
    out = []
    for k in range(0, len(names), per):
        chunk = names[k:k + per]
        fn = chunk[0]
        lines = [f"fun {fn}(a) {{ a * 2 }}" if compile_source(
            f"fun {fn}(a) {{ a * 2 }} {fn}(1)").ok else ""]
        lines += [f"{w} = uv().x + {i};" for i, w in enumerate(chunk)]
        lines.append("s = 0;")
        lines += [f"s = s + {w};" for w in chunk]
        lines.append(f"float3(s, {fn}(s), 1)" if lines[0] else "float3(s, s, 1)")
        out.append("\n".join(lines) + "\n")
    return out


def test_every_reserved_word_exports_and_compiles(tmp_path: Path) -> None:
    names = _accepted_names()
    assert len(names) > 500  # the lists, less PSL's own keywords
    for k, source in enumerate(_programs(names)):
        result = compile_source(source)
        assert result.ok, result.errors[:1]
        glsl = tmp_path / f"p{k}.frag"
        glsl.write_text(build_text(result, "glsl"))
        _glslang(glsl, "-S", "frag")
        toy = tmp_path / f"toy{k}.frag"
        toy.write_text(SHADERTOY_PRELUDE + build_text(result, "shadertoy") + SHADERTOY_MAIN)
        _glslang(toy, "-S", "frag")
        _unity_compiles(tmp_path, build_text(result, "unity", source_name=f"p{k}.psl"))
