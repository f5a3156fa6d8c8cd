"""The generated VM.cginc, run unmodified on the CPU through Slang, against the Python
reference VM (psl.vm.execute) and the goldens of the original VM.

One Slang build per configuration serves every program (programs are buffers).
Tolerance: 1e-5 per lane, absolute below 1 and relative above (float32 has ~7 digits);
equal infinities match. In practice every program here matches exactly.
"""

from __future__ import annotations

import functools
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("slangpy")

from psl import registry  # noqa: E402
from psl.compiler import compile_source  # noqa: E402
from psl.gen import hlsl  # noqa: E402
from psl.vm import execute, execute_texture  # noqa: E402
from tests import hostile, progen  # noqa: E402
from tests.hlsl_support import programs as hand  # noqa: E402
from tests.hlsl_support.harness import (  # noqa: E402
    SLIDER_VALUES,
    Inputs,
    SlangVM,
    audiolink_texture,
    optimized_breaks,
    reference_inputs,
)
from tests.vm_support import big  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text())
CACHE_DIR = Path(tempfile.gettempdir()) / "psl-slang-cache"
TOLERANCE = 1e-5
RANDOM_PROGRAMS = 160  # tests/progen, mode "vm" (self, loops ended by the jump limit, AudioLink)
SHARED_PROGRAMS = 320  # tests/progen, mode "compiler" (the whole surface syntax)
RANDOM_CHUNK = 40
AUDIOLINK_IDS = {b.id for b in registry.BUILTINS if b.extension == "audiolink"}
#: Programs that need more than TOLERANCE, and why. Some transcendentals (atan, tan, asin,
#: acos, log2) differ in the last bit between Slang's C++ (the C library's float functions)
#: and the reference VM (float64, rounded to float32).
WIDER_TOLERANCE = {
    # atan's last-bit difference, scaled by 120 into an AudioLinkLerp coordinate (CCSTRIP),
    # moves the lerp weight by ~1e-5; without the atan the two VMs agree bit for bit
    # (test_audiolink_corpus_difference_comes_from_atan).
    "scene_audiolink": 5e-4,
}


@functools.cache
def build(max_jumps: int = registry.LIMITS.jumps, audiolink: bool = False,
          max_steps: int = registry.LIMITS.steps) -> SlangVM:
    """Generate VM.cginc with psl-gen's library function and build it once per process."""
    out = Path(tempfile.mkdtemp(prefix="psl-hlsl-"))
    hlsl.TARGET.write(out, max_jumps=max_jumps, max_steps=max_steps)
    return SlangVM(out, cache_dir=CACHE_DIR, audiolink=audiolink)


def close(hl: np.ndarray, py: np.ndarray, tol: float = TOLERANCE) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return (hl == py) | (np.abs(hl - py) <= tol * np.maximum(1.0, np.abs(py)))


def assert_same(hl, py, stats=None, what: str = "", tol: float = TOLERANCE) -> None:
    ok = close(hl.image, py, tol)
    if not ok.all():
        where = tuple(np.argwhere(~ok)[0])
        raise AssertionError(f"{what}: {(~ok).sum()} of {ok.size} lanes differ; first at "
                             f"[y, x, lane] = {where}: hlsl {hl.image[where]!r} "
                             f"python {py[where]!r}")
    if stats is not None:
        np.testing.assert_array_equal(hl.executed, stats.exec_instructions, err_msg=what)
        np.testing.assert_array_equal(hl.jumps, stats.jumps, err_msg=what)


def run_both(vm: SlangVM, slots: np.ndarray, frames: list[Inputs], max_jumps: int | None = None):
    """Run frames on both VMs (each frame's output is the next one's self texture)."""
    renders = vm.render_frames(slots, frames)
    previous = frames[0].self_texture
    results = []
    for inputs in frames:
        kwargs = {} if max_jumps is None else {"max_jumps": max_jumps}
        img, stats = execute(slots, replace(inputs, self_texture=previous), **kwargs)
        results.append((img, stats))
        previous = img
    return renders, results


def check_program(vm: SlangVM, slots: np.ndarray, frames: list[Inputs], what: str,
                  max_jumps: int | None = None, tol: float = TOLERANCE) -> None:
    renders, results = run_both(vm, slots, frames, max_jumps)
    for k, (hl, (py, stats)) in enumerate(zip(renders, results, strict=True)):
        assert_same(hl, py, stats, f"{what} frame {k}", tol)


def compiled(source: str) -> np.ndarray:
    result = compile_source(source)
    assert result.ok, (source, result.diagnostics)
    return result.program.slots()


def frames_for(source: str, n: int = 3, width: int = 16, height: int = 16,
               **kw: object) -> list[Inputs]:
    count = n if "self(" in source.lower() else 1
    kw.setdefault("sliders", SLIDER_VALUES)  # slider(k) reads values, not zeros
    return [replace(reference_inputs(k, width, height), **kw) for k in range(count)]


# ---- corpus ------------------------------------------------------------------------

RENDERED = [name for name, info in MANIFEST["programs"].items() if info["status"] == "rendered"]


@pytest.mark.parametrize("name", RENDERED)
def test_corpus_matches_golden(name):
    info = MANIFEST["programs"][name]
    vm = build()
    slots = compiled((CORPUS / info["source"]).read_text())
    start = time.perf_counter()
    last = vm.render_frames(slots, [reference_inputs(k) for k in range(info["frames"])])[-1]
    elapsed = time.perf_counter() - start
    golden = np.load(CORPUS / info["golden"])
    within = np.abs(last.image - golden) <= 1e-4
    assert within.mean() >= 0.995, f"{name}: {within.mean():.4%} of lanes within 1e-4"
    # executed instructions and jumps per pixel equal the original VM's
    assert last.executed.mean() == pytest.approx(info["exec_instructions_per_pixel_mean"])
    assert last.executed.max() == info["exec_instructions_per_pixel_max"]
    assert last.jumps.mean() == pytest.approx(info["jumps_per_pixel_mean"])
    assert last.jumps.max() == info["jumps_per_pixel_max"]
    assert (last.jumps > registry.LIMITS.jumps).any() == info["hit_jump_limit"]
    assert elapsed < 30


@pytest.mark.parametrize("name", list(MANIFEST["programs"]))
def test_corpus_matches_reference_vm(name):
    info = MANIFEST["programs"][name]
    source = (CORPUS / info["source"]).read_text()
    uses_audiolink = "audiolink" in source.lower()
    vm = build(audiolink=uses_audiolink)
    frames = [replace(reference_inputs(k), audiolink=audiolink_texture() if uses_audiolink
                      else None) for k in range(max(1, info["frames"]))]
    check_program(vm, compiled(source), frames, name, tol=WIDER_TOLERANCE.get(name, TOLERANCE))


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("name", list(MANIFEST["programs"]))
def test_corpus_optimized_is_identical(name, level):
    """-O1 and -O2 against -O0 in the HLSL VM (docs/spec.md §10, §11.4): every frame, bit
    for bit on the pixels that finish within the jump budget at -O0, and never more jumps."""
    info = MANIFEST["programs"][name]
    source = (CORPUS / info["source"]).read_text()
    result = compile_source(source, lint=False, optimize=level)
    assert result.unoptimized is not None
    uses_audiolink = "audiolink" in source.lower()
    vm = build(audiolink=uses_audiolink)
    frames = [replace(reference_inputs(k), audiolink=audiolink_texture() if uses_audiolink
                      else None) for k in range(max(1, info["frames"]))]
    previous = frames[0].self_texture
    for k, inputs in enumerate(frames):  # each frame fed the -O0 run's previous frame
        o0 = vm.render(result.unoptimized.slots(), replace(inputs, self_texture=previous))
        o1 = vm.render(result.program.slots(), replace(inputs, self_texture=previous))
        more_jumps, differ = optimized_breaks(o0, o1)
        assert more_jumps == 0, f"{name} -O{level} frame {k}"
        assert differ == 0, f"{name} -O{level} frame {k}: {differ} pixels differ"
        previous = o0.image


def fused_ops(slots: np.ndarray) -> set[int]:
    """The fused opcodes (docs/spec.md §11) among a program's instructions."""
    ops = np.round(slots[0::2, 0].astype(np.float64))
    return {int(op) for op in ops if int(op) in registry.FUSED_BY_OP}


@pytest.mark.parametrize("name", list(MANIFEST["programs"]))
def test_corpus_o2_matches_reference_vm(name):
    """-O2 (docs/spec.md §11): the HLSL VM runs the fused instructions as the reference VM
    does, every frame's colours, executed instructions (a fused one counting as the
    instructions it replaces) and jumps."""
    info = MANIFEST["programs"][name]
    source = (CORPUS / info["source"]).read_text()
    result = compile_source(source, lint=False, optimize=2)
    assert result.ok, result.diagnostics
    slots = result.program.slots()
    assert fused_ops(slots), f"{name}: nothing fused at -O2"
    uses_audiolink = "audiolink" in source.lower()
    vm = build(audiolink=uses_audiolink)
    frames = [replace(reference_inputs(k), audiolink=audiolink_texture() if uses_audiolink
                      else None) for k in range(max(1, info["frames"]))]
    check_program(vm, slots, frames, f"{name} -O2", tol=WIDER_TOLERANCE.get(name, TOLERANCE))


def test_every_fused_instruction_runs():
    """Each fused opcode of the registry, at the end of a hand-made program that fills its
    fields (registers, constants, picks, operators, builtins, jump targets), in the HLSL VM
    against the reference VM: one case per pattern, generated from the table."""
    vm = build()
    programs = hand.fused_programs()
    assert len(programs) == len(registry.FUSED)
    for name, slots in programs.items():
        check_program(vm, slots, [reference_inputs(0, 4, 4)], name)


@pytest.mark.parametrize(("name", "function", "stand_in"), [
    ("scene_audiolink", "atan(uvCenter.y / uvCenter.x)", "(uvCenter.y / uvCenter.x)"),
])
def test_wider_tolerance_comes_from_transcendentals(name, function, stand_in):
    """Without the transcendental call the two VMs agree bit for bit."""
    assert name in WIDER_TOLERANCE
    source = (CORPUS / f"{name}.psl").read_text()
    variant = source.replace(function, stand_in)
    assert variant != source
    slots = compiled(variant)
    uses_audiolink = "audiolink" in name
    inputs = replace(reference_inputs(0), audiolink=audiolink_texture())
    expected, _ = execute(slots, inputs)
    got = build(audiolink=uses_audiolink).render(slots, inputs).image
    np.testing.assert_array_equal(got, expected)


# ---- hand-written programs -----------------------------------------------------------

BUILTIN_SOURCES = hand.builtin_sources()
OPERATOR_SOURCES = hand.operator_sources()
CONTROL_SOURCES = hand.control_sources()


def test_hand_programs_cover_registry():
    called = set()
    for source in (*BUILTIN_SOURCES.values(), *OPERATOR_SOURCES.values()):
        for instr in compile_source(source).unwrap().instructions:
            if instr.op == registry.Op.CALL:
                called.add(int(instr.operand[0]))
            elif instr.op in (registry.Op.BINOP, registry.Op.UNOP):
                called.add((int(instr.op), int(instr.operand[0])))
    assert {b.id for b in registry.BUILTINS} <= called
    assert {(int(registry.Op.BINOP), o.id) for o in registry.BINARY_OPERATORS} <= called
    assert {(int(registry.Op.UNOP), u.code) for u in registry.UNARY_OPERATORS} <= called


@pytest.mark.parametrize("name", sorted(BUILTIN_SOURCES))
def test_builtin_programs(name):
    source = BUILTIN_SOURCES[name]
    vm = build(audiolink=True)
    slots = compiled(source)
    for avpro in (False, True) if name.startswith("video") else (False,):
        frames = frames_for(source, is_avpro=avpro, audiolink=audiolink_texture())
        check_program(vm, slots, frames, f"{name} avpro={avpro}: {source}")


@pytest.mark.parametrize("name", sorted(OPERATOR_SOURCES))
def test_operator_programs(name):
    source = OPERATOR_SOURCES[name]
    check_program(build(), compiled(source), frames_for(source), f"{name}: {source}")


@pytest.mark.parametrize("name", sorted(CONTROL_SOURCES))
def test_control_programs(name):
    source = CONTROL_SOURCES[name]
    check_program(build(), compiled(source), frames_for(source, width=9, height=7),
                  f"{name}: {source}")


@pytest.mark.parametrize("name", sorted(hand.bytecode_programs()))
def test_bytecode_corners(name):
    slots = hand.bytecode_programs()[name]
    check_program(build(), slots, [reference_inputs(0, 8, 8)], name)


def test_jump_limit_is_a_template_parameter():
    vm = build(max_jumps=5)
    for source in (CONTROL_SOURCES["infinite_loop"], CONTROL_SOURCES["while"],
                   CONTROL_SOURCES["loop_until_limit_then_value"]):
        check_program(vm, compiled(source), [reference_inputs(0, 8, 8)], source, max_jumps=5)
    r = vm.render(compiled(CONTROL_SOURCES["infinite_loop"]), reference_inputs(0, 2, 2))
    assert (r.jumps == 6).all()  # stops once more than 5 jumps were taken


def test_state_is_reset_for_every_pixel():
    # If registers or the stack survived from the previous pixel, v would count up.
    vm = build()
    r = vm.render(compiled("v += 1; w = w + v; w"), reference_inputs(0, 8, 8))
    assert (r.image[..., 0] == 1).all()
    r2 = vm.render(hand.assemble((hand.C, 5), (hand.C, 6)), reference_inputs(0, 2, 2))
    r3 = vm.render(hand.assemble(), reference_inputs(0, 2, 2))  # pops an all-zero stack
    assert (r2.image[..., 0] == 6).all() and (r3.image == 0).all()


def test_sentinel_value_does_not_matter():
    vm = build()
    slots = compiled((CORPUS / "scene_raymarch.psl").read_text())
    a = vm.render(slots, reference_inputs(0, 16, 16))
    b = vm.render(slots, reference_inputs(0, 16, 16), sentinel=0x2A5)
    np.testing.assert_array_equal(a.image, b.image)


def test_audiolink_disabled_pops_arguments_and_returns_zero():
    vm = build()
    source = ("a = audiolinkdata(uv() * 50) + audiolinkgetversion() + float3(1, 2, 3);\n"
              "b = audiolinkgetchronotimeinterval(1, 2, 3, 4) + uv();\n"
              "c = audiolinkgetamplitudeatfrequency(0);\n"
              "a + float4(b.x, b.y, c.x, 0)")
    r = vm.render(compiled(source), reference_inputs(0, 4, 4))
    u, v = np.meshgrid((np.arange(4) + 0.5) / 4, (np.arange(4) + 0.5) / 4)
    expected = np.stack([1 + u, 2 + v, 3 + 0 * u, 0 * u], axis=-1)
    np.testing.assert_allclose(r.image, expected, rtol=0, atol=1e-7)


def test_big_program_from_the_texture():
    """A program of 15,000 instructions (7x the original format's limit) read from the
    program texture as Udon uploads it (`psl compile --format texture`) renders as the
    Python VM renders it from the same texels."""
    program = compile_source(big.source(15000), lint=False).unwrap()
    assert len(program.instructions) == 15000
    texels = program.texture()
    assert not np.isnan(texels).any()
    inputs = reference_inputs(0, 8, 8)
    py, _ = execute_texture(texels, inputs)
    hl = build().render_texture(texels, inputs)
    assert_same(hl, py, what="big program")
    assert (hl.executed == 15000).all()


# ---- generated programs --------------------------------------------------------------

def check_generated(source: str, what: str, texture: np.ndarray) -> bool:
    """Both builds against the reference VM; False when the compiler rejects the program."""
    result = compile_source(source)
    if not result.ok:
        return False
    slots = result.program.slots()
    frames = frames_for(source, n=2, width=12, height=12, audiolink=texture)
    check_program(build(audiolink=True), slots, frames, f"{what}:\n{source}")
    ids = {int(i.operand[0]) for i in result.program.instructions if i.op == registry.Op.CALL}
    if not ids & AUDIOLINK_IDS:  # without AUDIOLINK those builtins return zeros by design
        check_program(build(), slots, frames, f"{what} (no AUDIOLINK):\n{source}")
    return True


@pytest.mark.parametrize("chunk", range(RANDOM_PROGRAMS // RANDOM_CHUNK))
def test_random_programs(chunk):
    texture = audiolink_texture(chunk)
    for seed in range(chunk * RANDOM_CHUNK, (chunk + 1) * RANDOM_CHUNK):
        assert check_generated(progen.generate(seed, mode="vm"), f"progen vm seed {seed}",
                               texture)


@pytest.mark.parametrize("chunk", range(SHARED_PROGRAMS // RANDOM_CHUNK))
def test_shared_generator_programs(chunk):
    texture = audiolink_texture(100 + chunk)
    checked = 0
    for seed in range(chunk * RANDOM_CHUNK, (chunk + 1) * RANDOM_CHUNK):
        # valid programs may rarely exceed a VM limit (E030/E031): those are skipped
        checked += check_generated(progen.generate(seed, mode="compiler"),
                                   f"progen compiler seed {seed}", texture)
    assert checked >= RANDOM_CHUNK * 0.9


# ---- the work budget (docs/spec.md §7.2; hostile programs, tests/hostile.py) ----------

@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("name", sorted(hostile.programs()))
def test_hostile_programs_stop_at_the_same_budget(name, level):
    """Every pixel stops at the work budget (or the jump limit) where the reference VM
    stops it, with the same colour and counts."""
    result = compile_source(hostile.programs()[name], optimize=level)
    assert result.ok, result.diagnostics
    check_program(build(), result.program.slots(), [reference_inputs(0, 8, 8)],
                  f"{name} -O{level}")


def test_work_budget_is_a_template_parameter():
    vm = build(max_steps=100)
    source = hostile.DEEP["per_pixel_counts"]
    slots = compiled(source)
    renders = vm.render_frames(slots, [reference_inputs(0, 8, 8)])
    img, stats = execute(slots, reference_inputs(0, 8, 8), max_steps=100)
    assert_same(renders[0], img, stats, "max_steps=100")
    assert stats.exec_instructions.max() == 100
