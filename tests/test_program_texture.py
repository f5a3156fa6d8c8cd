"""The program texture (docs/spec.md §5.5) and the original format (`--pad`): layout,
no NaN, the Python VM reading the texture, `psl compile --format texture`, the limits, and
`psl check`'s note for programs the original world cannot run (N004)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from psl.bytecode import FormatError, assemble, from_texture, pad_original, to_texture
from psl.compiler import check_source, compile_source
from psl.registry import LIMITS, PAD_NAN_BITS, Op
from psl.vm import execute, execute_texture
from tests.hlsl_support.harness import reference_inputs
from tests.vm_support import big

CORPUS = Path(__file__).resolve().parent / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.psl"))


def test_limits_fill_the_texture():
    assert LIMITS.texture_width * LIMITS.texture_height == LIMITS.slots == 2 * LIMITS.instructions
    assert LIMITS.instructions >= 16000
    assert LIMITS.original_slots == 2 * LIMITS.original_instructions
    assert LIMITS.original_slots == LIMITS.upload_arrays * LIMITS.upload_array_length


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_texture_layout_of_the_corpus(path):
    slots = compile_source(path.read_text(), lint=False).unwrap().slots()
    tex = to_texture(slots)
    assert tex.shape == (LIMITS.texture_height, LIMITS.texture_width, 4)
    flat = tex.reshape(-1, 4)
    assert not np.isnan(tex).any() and not flat[len(slots):].any()
    ops, operands = slots[0::2], slots[1::2]
    # opcode texels: (op, mask, 0, 0); the mask names a PUSHCONST's NaN lanes
    assert np.array_equal(flat[0:len(slots):2, 0], ops[:, 0])
    masks = (np.isnan(operands) * [1, 2, 4, 8]).sum(axis=1)
    pushconst = ops[:, 0] == Op.PUSHCONST
    assert np.array_equal(flat[0:len(slots):2, 1], np.where(pushconst, masks, 0))
    assert not flat[0:len(slots):2, 2:].any()
    # operand texels: the operand, NaN lanes 0 (z and w 0 but for a PUSHCONST)
    expected = np.nan_to_num(operands, nan=0.0)
    expected[~pushconst, 2:] = 0
    assert np.array_equal(flat[1:len(slots):2], expected)
    # read back as the VM reads it: every PUSHCONST exactly, NaN lanes where they were
    back = from_texture(tex)[: len(slots)]
    assert np.array_equal(back[0::2, 0], ops[:, 0])
    expected = np.where(np.isnan(operands) & ~pushconst[:, None], 0, operands)
    expected[~pushconst, 2:] = 0
    assert np.array_equal(back[1::2], expected, equal_nan=True)


@pytest.mark.parametrize("name", ["scene_simple", "apps_Sobel", "scene_spiral"])
def test_python_vm_reads_the_texture_as_the_slots(name):
    slots = compile_source((CORPUS / f"{name}.psl").read_text(), lint=False).unwrap().slots()
    inputs = reference_inputs(0, 16, 16)
    a, sa = execute(slots, inputs)
    b, sb = execute_texture(to_texture(slots), inputs)
    assert np.array_equal(a.view(np.uint32), b.view(np.uint32))
    assert np.array_equal(sa.exec_instructions, sb.exec_instructions)


def test_sentinel_lanes_in_any_position():
    slots = assemble([(Op.PUSHCONST, [1.0, np.nan, 3.0, np.nan])])
    tex = to_texture(slots).reshape(-1, 4)
    assert list(tex[0]) == [Op.PUSHCONST, 0b1010, 0, 0] and list(tex[1]) == [1, 0, 3, 0]
    back = from_texture(tex)
    assert back[1].view(np.uint32)[1] == PAD_NAN_BITS and back[1][2] == 3.0


def test_original_format_is_the_padded_slots():
    program = compile_source("float2(1, 2)").unwrap()
    data = np.frombuffer(program.to_bytes(pad=True), "<f4").reshape(-1, 4)
    assert data.shape == (LIMITS.original_slots, 4)
    n = 2 * len(program.instructions)
    assert data[:n].tobytes() == program.slots().tobytes() and not data[n:].any()
    with pytest.raises(FormatError):
        pad_original(np.zeros((LIMITS.original_slots + 2, 4), np.float32))


@pytest.fixture(scope="module")
def big_sources() -> dict[int, str]:
    return {n: big.source(n) for n in (15000, LIMITS.instructions, LIMITS.instructions + 1)}


def test_big_programs_compile_up_to_the_limit(big_sources):
    for n in (15000, LIMITS.instructions):
        program = compile_source(big_sources[n], lint=False).unwrap()
        assert len(program.instructions) == n
        tex = program.texture().reshape(-1, 4)
        assert tex[2 * n - 2].any() and not tex[2 * n:].any()
    over = compile_source(big_sources[LIMITS.instructions + 1], lint=False)
    assert [d.code for d in over.errors] == ["E030"]
    assert over.errors[0].message == (f"program too large: {LIMITS.instructions + 1} "
                                      f"instructions after inlining (limit {LIMITS.instructions})")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "psl.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_compile_format_texture_and_pad(tmp_path, big_sources):
    src = tmp_path / "big.psl"
    src.write_text(big_sources[15000])
    out = tmp_path / "big.tex"
    result = run_cli("compile", "-O0", str(src), "--format", "texture", "-o", str(out))
    assert result.returncode == 0
    program = compile_source(big_sources[15000], lint=False).unwrap()
    data = out.read_bytes()
    assert len(data) == 16 * LIMITS.slots and data == program.texture().astype("<f4").tobytes()
    # the original format cannot hold it: a clear error, nothing written
    padded = tmp_path / "big.bin"
    result = run_cli("compile", "-O0", str(src), "--pad", "-o", str(padded))
    assert result.returncode == 1 and not padded.exists()
    assert (f"15000 instructions: the original format holds {LIMITS.original_instructions}"
            in result.stderr)


def test_check_notes_programs_beyond_the_original(big_sources):
    small = check_source("float4(uv().x, 0, 0, 1)")
    assert "N004" not in {d.code for d in small.diagnostics}
    large = check_source(big.source(LIMITS.original_instructions + 1))
    notes = [d for d in large.diagnostics if d.code == "N004"]
    assert len(notes) == 1 and not large.errors
    assert notes[0].message == (
        "the original Shaderception world cannot run this program: "
        f"{LIMITS.original_instructions + 1} instructions, more than its "
        f"{LIMITS.original_instructions}; it runs in worlds with psl's program texture")
    exactly = check_source(big.source(LIMITS.original_instructions))
    assert "N004" not in {d.code for d in exactly.diagnostics}
