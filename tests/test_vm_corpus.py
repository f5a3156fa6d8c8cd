"""The corpus against the original VM's golden renders and statistics (SPEC §9)."""

from __future__ import annotations

import numpy as np
import pytest

from psl.compiler import compile_source
from psl.vm import values
from psl.vm.render import render
from tests.vm_support.reference import CORPUS, MANIFEST, reference_settings

RENDERED = sorted(k for k, v in MANIFEST["programs"].items() if v["status"] == "rendered")
#: Programs allowed to meet the golden at only >= 99.5 % of lanes (the issue's bound)
#: instead of every lane. None needs it now. scene_line_by_moon did while the VM used
#: numpy's float32 sin(): it draws 1 / (150 y) near y = 0, which turned 1-ulp differences
#: of sin() into ~8e-4 (2e-5 relative) in 5 of 16384 lanes; evaluating transcendentals in
#: float64 and rounding to float32 (as C's sinf effectively does) matches every lane.
LOOSE: set[str] = set()


def frames_for(source: str) -> int:
    # manifest rule: sources containing 'self(' (case-insensitive) run 8 frames
    return 8 if "self(" in source.lower() else 1


def _renders(optimize: int) -> dict:
    out = {}
    for name in RENDERED:
        entry = MANIFEST["programs"][name]
        source = (CORPUS / entry["source"]).read_text(encoding="utf-8")
        slots = compile_source(source, optimize=optimize).unwrap().slots()
        out[name] = render(slots, reference_settings(frames_for(source)), keep_frames=False)
    return out


@pytest.fixture(scope="session")
def corpus_renders():
    return _renders(0)


@pytest.fixture(scope="session")
def corpus_renders_o1():
    """The corpus at -O1 (docs/spec.md §10): the same goldens must hold."""
    return _renders(1)


def test_frames_rule_matches_manifest():
    for name in RENDERED:
        entry = MANIFEST["programs"][name]
        assert frames_for((CORPUS / entry["source"]).read_text()) == entry["frames"], name


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("name", RENDERED)
def test_matches_golden(request, name, level):
    renders = request.getfixturevalue("corpus_renders" if level == 0 else "corpus_renders_o1")
    golden = np.load(CORPUS / MANIFEST["programs"][name]["golden"])
    img = renders[name].last
    assert img.shape == golden.shape and img.dtype == np.float32
    close = np.abs(img - golden) <= 1e-4
    assert close.mean() >= 0.995, f"{name}: {close.mean():.5f} of lanes within 1e-4"
    if name not in LOOSE:
        assert close.all(), f"{name}: {np.count_nonzero(~close)} lanes off (add to LOOSE?)"


@pytest.mark.parametrize("name", RENDERED)
def test_stats_match_manifest(corpus_renders, name):
    entry = MANIFEST["programs"][name]
    s = corpus_renders[name].stats[-1].summary()
    for key in ("exec_instructions_per_pixel_mean", "exec_instructions_per_pixel_max",
                "jumps_per_pixel_mean", "jumps_per_pixel_max", "hit_jump_limit"):
        assert s[key] == entry[key], key
    assert s["registers"] == entry["max_registers"]
    for k, frame in enumerate(entry.get("per_frame") or []):
        fs = corpus_renders[name].stats[k].summary()
        for key, value in frame.items():
            if key in fs:
                assert fs[key] == value, (k, key)


def test_stats_cli_output_matches_manifest(tmp_path):
    from click.testing import CliRunner

    from psl.cli.run import command

    name = "scene_mandelbrot"
    entry = MANIFEST["programs"][name]
    result = CliRunner().invoke(command, [
        str(CORPUS / entry["source"]), "-O0", "--size", "64x64", "--time", "1.25", "--stats",
        "-o", str(tmp_path / "m.npy")])  # -O0: the manifest counts the original's code
    assert result.exit_code == 0, result.output
    assert (f"executed instructions per pixel: mean "
            f"{entry['exec_instructions_per_pixel_mean']:.3f}, "
            f"max {entry['exec_instructions_per_pixel_max']}") in result.output
    assert f"jumps per pixel: mean {entry['jumps_per_pixel_mean']:.3f}" in result.output
    assert f"registers used: {entry['max_registers']}" in result.output
    golden = np.load(CORPUS / entry["golden"])
    assert (np.abs(np.load(tmp_path / "m.npy") - golden) <= 1e-4).all()


@pytest.mark.parametrize("name", RENDERED)
def test_literal_path_gives_identical_results(corpus_renders, name, monkeypatch):
    """The clean-value fast paths must not change a single bit: rerun the literal path."""
    entry = MANIFEST["programs"][name]
    source = (CORPUS / entry["source"]).read_text(encoding="utf-8")
    slots = compile_source(source).unwrap().slots()
    settings = reference_settings(frames_for(source))
    settings.width, settings.height = 16, 12
    monkeypatch.setattr(values, "FORCE_SLOW", False)
    fast = render(slots, settings, keep_frames=False)
    monkeypatch.setattr(values, "FORCE_SLOW", True)
    slow = render(slots, settings, keep_frames=False)
    np.testing.assert_array_equal(fast.last, slow.last)
    assert fast.stats[-1].summary() == slow.stats[-1].summary()


def test_audiolink_program_runs_with_and_without_a_texture():
    """scene_audiolink has no golden (the original build had no AUDIOLINK): it must run,
    read zeros without a texture, and react to one."""
    source = (CORPUS / "scene_audiolink.psl").read_text(encoding="utf-8")
    slots = compile_source(source).unwrap().slots()
    settings = reference_settings(1)
    settings.width = settings.height = 16
    without = render(slots, settings, keep_frames=False).last
    tex = np.zeros((64, 128, 4), np.float32)
    tex[27, :, 0] = np.linspace(0.2, 1.0, 128)  # ALPASS_AUTOCORRELATOR
    tex[24, :, :3] = np.linspace(0, 1, 128)[:, None]  # ALPASS_CCSTRIP
    settings.audiolink = tex
    with_tex = render(slots, settings, keep_frames=False).last
    assert np.isfinite(without).all() and np.isfinite(with_tex).all()
    assert not np.array_equal(without, with_tex)
    assert with_tex[..., :3].max() > 0
