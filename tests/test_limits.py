"""VRChat's limits, one number everywhere: the InputField, SyncCode, both compilers, `psl check`.

The behaviour side (the largest text compiles and is shared in the world; one character more
is not shared and shows E004 in the output text) runs in the mono host:
`tests/test_udonsharp_diff.py::test_behaviours`.
"""

from __future__ import annotations

import re

from click.testing import CliRunner

from psl.cli import main as psl_main
from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.registry import LIMITS

HEAD = "float3(uv().x, uv().y, 0.5)\n// "


def largest_text(extra: str = "") -> str:
    """A real program padded to exactly LIMITS.source_chars UTF-16 units (plus `extra`)."""
    # the pad ends in a character outside the BMP: two UTF-16 units, one code point
    pad = "x" * (LIMITS.source_chars - len(HEAD) - 2) + "\U0001F600"
    return HEAD + pad + extra


def test_every_accepted_text_fits_one_serialization() -> None:
    # UTF-8 needs at most 3 bytes per UTF-16 unit (4 per surrogate pair = 2 units)
    assert 3 * LIMITS.source_chars <= LIMITS.sync_bytes
    assert LIMITS.source_chars < LIMITS.tokens


def test_psl_check_accepts_the_largest_text_and_rejects_one_more(tmp_path) -> None:
    runner = CliRunner()
    ok = tmp_path / "largest.psl"
    ok.write_text(largest_text(), encoding="utf-8")
    assert len(largest_text().encode("utf-16-le")) // 2 == LIMITS.source_chars
    result = runner.invoke(psl_main, ["check", str(ok)])
    assert result.exit_code == 0, result.output

    over = tmp_path / "over.psl"
    over.write_text(largest_text(" "), encoding="utf-8")
    result = runner.invoke(psl_main, ["check", str(over)])
    assert result.exit_code == 1
    assert "1:1: error[E004]" in result.output
    assert (f"program text too long: {LIMITS.source_chars + 1} characters "
            f"(limit {LIMITS.source_chars})") in result.output


def test_sync_code_caps_at_the_limit() -> None:
    cs = udonsharp.TARGET.render()
    assert f"text.Length > {LIMITS.source_chars})" in cs["SyncCode.cs"]
    assert f"LIMIT_SOURCE_CHARS = {LIMITS.source_chars};" in cs["Compiler.cs"]


def test_prefab_input_field_holds_the_limit() -> None:
    package = pkg.build_package()
    prefab = next(text for path, text in package.files.items() if path.endswith(".prefab"))
    limits = re.findall(r"m_CharacterLimit: (\d+)", prefab.decode())
    # the code box holds the limit; the Programs panel's URL field and the video URL field
    # under the screen have none (0): VRCUrlInputField bounds a URL itself
    assert sorted(limits) == sorted([str(LIMITS.source_chars), "0", "0"])
