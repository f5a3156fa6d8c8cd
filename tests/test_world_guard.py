"""The per-player frame-rate guard (FrameGuard, issue 37), in sessions of simulated players
(tests/csharp_support/Players.cs: each player's guard runs over one screen and the four
resolutions 64..512, with a scripted frame time and their own quality buttons):

- every program change (a share followed, an example, a compile, unfollowing) restarts the
  screens at the lowest resolution;
- a program too heavy for a player pauses their screens within a bounded number of frames,
  never raising the resolution first; "Run anyway" resumes it;
- a light program climbs to the ceiling and no further; the quality buttons set the ceiling;
- frame times near the thresholds never make the resolution oscillate.
"""

from __future__ import annotations

import re

import pytest

from psl import registry
from psl.gen import udonsharp
from tests.csharp_support import build as csbuild
from tests.test_world_players import DEFAULT, MINE, OTHER, THEIRS, session

pytestmark = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")

G = registry.FRAME_GUARD
FAST = str(1 / 90)  # a light program: well under climb_below_s
HEAVY = "0.2"  # 5 fps: over pause_above_s
#: frames for one step up: the settle frames, then hold_up_frames good ones
STEP_UP = G.settle_frames + G.hold_up_frames
#: frames from a switch to a step down or a pause: settle, then hold_down_frames slow ones
STEP_DOWN = G.settle_frames + G.hold_down_frames
SIZES = (64, 128, 256, 512)


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    return csbuild.shared_host(tmp_path_factory)


def test_the_defaults_are_the_registrys():
    """One source of truth: FrameGuard's serialized fields start at registry.FRAME_GUARD."""
    text = udonsharp.TARGET.render()["FrameGuard.cs"]
    fields = {"climbBelow": f"{G.climb_below_s}f", "dropAbove": f"{G.drop_above_s}f",
              "pauseAbove": f"{G.pause_above_s}f", "holdUpFrames": str(G.hold_up_frames),
              "holdDownFrames": str(G.hold_down_frames),
              "settleFrames": str(G.settle_frames), "ceiling": str(G.ceiling)}
    for name, value in fields.items():
        assert re.search(rf"public \w+ {name} = {re.escape(value)};", text), name
    assert G.climb_below_s < G.drop_above_s < G.pause_above_s  # the hysteresis band
    assert G.ceiling in SIZES
    assert udonsharp.GUARD_PAUSED_MESSAGE in text


def test_a_light_program_climbs_to_the_ceiling_and_stops(host):
    start, climbed, later = session(
        host, ("join", "A", DEFAULT), ("guard", "A"), ("frametime", "A", FAST),
        ("frames", str(3 * STEP_UP)), ("guard", "A"), ("frames", "500"), ("guard", "A"))
    assert start["size"] == 64 and start["modes"] == ["Realtime"] + ["OnDemand"] * 3
    assert climbed["size"] == G.ceiling == 256 and climbed["changes"] == 2
    assert climbed["min"] == 64 and climbed["max"] == 256  # one step at a time, up only
    assert climbed["modes"] == ["OnDemand", "OnDemand", "Realtime", "OnDemand"]
    assert later["changes"] == 0 and later["max"] == 256 and not later["paused"]


def test_a_heavy_share_pauses_a_follower_and_never_raises_the_resolution(host):
    """B shares a program A's GPU cannot afford: A's screens drop to the lowest resolution at
    once (the share is a program change), and pause within settle + hold-down frames,
    with the note; the sharer's own guard restarts too."""
    a_high, a_shared, b_shared, a_paused, a_still = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("frametime", "A", FAST),
        ("frametime", "B", FAST), ("frames", str(3 * STEP_UP)), ("guard", "A"),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("guard", "A"), ("guard", "B"),
        ("frametime", "A", HEAVY), ("frames", str(STEP_DOWN)), ("guard", "A"),
        ("frames", "300"), ("guard", "A"),
    )
    assert a_high["size"] == 256
    assert a_shared["size"] == 64 and b_shared["size"] == 64
    assert a_paused["paused"] and a_paused["note"]
    assert a_paused["note_text"] == udonsharp.GUARD_PAUSED_MESSAGE
    assert 0 < a_paused["paused_at"] <= STEP_DOWN
    assert a_paused["max"] == 64 and a_paused["changes"] == 0, "the resolution went up"
    assert a_paused["modes"] == ["OnDemand"] * 4  # no render texture updates at all
    assert a_still["paused"] and a_still["max"] == 64 and a_still["changes"] == 0


def test_a_slow_frame_steps_down_one_resolution_at_a_time(host):
    high, low = session(
        host, ("join", "A", DEFAULT), ("frametime", "A", FAST), ("press", "A", "3"),
        ("frames", str(4 * STEP_UP)), ("guard", "A"),
        ("frametime", "A", str((G.drop_above_s + G.pause_above_s) / 2)),
        ("frames", str(3 * STEP_DOWN)), ("guard", "A"),
    )
    assert high["size"] == 512
    # slower than drop_above_s but not pause_above_s: down to 64, one step per STEP_DOWN
    # frames, and not paused
    assert low["size"] == 64 and low["changes"] == 3 and not low["paused"]


def test_run_anyway_resumes_and_the_next_program_is_guarded_again(host):
    paused, resumed, example, example_paused = session(
        host,
        ("join", "A", DEFAULT), ("frametime", "A", HEAVY), ("frames", str(STEP_DOWN)),
        ("guard", "A"),
        ("anyway", "A"), ("frames", "300"), ("guard", "A"),
        ("example", "A", OTHER), ("guard", "A"), ("frames", str(STEP_DOWN)), ("guard", "A"),
    )
    assert paused["paused"] and paused["note"]
    assert not resumed["paused"] and not resumed["note"] and resumed["paused_at"] == -1
    assert resumed["size"] == 64 and resumed["modes"][0] == "Realtime"
    assert not example["paused"] and example["size"] == 64
    assert example_paused["paused"], "Run anyway is for one program only"


def test_quality_buttons_set_the_ceiling(host):
    top, lowered, one_up = session(
        host, ("join", "A", DEFAULT), ("frametime", "A", FAST), ("press", "A", "3"),
        ("frames", str(4 * STEP_UP)), ("guard", "A"),
        ("press", "A", "0"), ("guard", "A"),
        ("press", "A", "1"), ("frames", str(4 * STEP_UP)), ("guard", "A"),
    )
    assert top["size"] == 512 and top["ceiling"] == 512 and top["changes"] == 3
    assert lowered["size"] == 64 and lowered["ceiling"] == 64  # a lower ceiling: at once
    assert one_up["size"] == 128 and one_up["max"] == 128 and one_up["changes"] == 1


def test_no_oscillation_near_the_thresholds(host):
    """A program cheap at 64 but too slow at 128 steps up once, down once, and stays: the
    guard remembers the resolution it failed at. Frame times inside the band between the
    thresholds, or flickering across the climb threshold, change nothing."""
    just_over = str(G.drop_above_s * 1.04)
    just_under = str(G.climb_below_s * 0.96)
    flicker = []
    for _ in range(20):
        flicker += [("frametime", "A", just_under), ("frames", str(G.hold_up_frames - 1)),
                    ("frametime", "A", str(G.climb_below_s * 1.04)), ("frames", "1")]
    up, down, settled, band, flickered = session(
        host,
        ("join", "A", DEFAULT), ("frametime", "A", just_under), ("frames", str(STEP_UP)),
        ("guard", "A"),
        ("frametime", "A", just_over), ("frames", str(STEP_DOWN)), ("guard", "A"),
        ("frametime", "A", just_under), ("frames", "2000"), ("guard", "A"),
        # a new program at 64, then frame times in the band: no step either way
        ("example", "A", OTHER),
        ("frametime", "A", str((G.climb_below_s + G.drop_above_s) / 2)), ("frames", "2000"),
        ("guard", "A"),
        *flicker, ("guard", "A"),
    )
    assert up["size"] == 128 and up["changes"] == 1
    assert down["size"] == 64 and down["changes"] == 1
    assert settled["size"] == 64 and settled["changes"] == 0, "it climbed back to 128"
    assert band["size"] == 64 and band["changes"] == 0 and not band["paused"]
    assert flickered["size"] == 64 and flickered["changes"] == 0


@pytest.mark.parametrize("change", ["example", "share", "unfollow", "clear"])
def test_every_program_change_restarts_at_the_lowest_resolution(host, change):
    steps = {
        "example": [("example", "A", OTHER)],
        "share": [("type", "B", THEIRS), ("send", "B", "Share")],
        "unfollow": [("follow", "A", "0")],
        "clear": [("send", "B", "ClearShared")],  # B joined first: the master
    }[change]
    before = [] if change in ("example", "share") else [
        ("type", "B", THEIRS), ("send", "B", "Share")]
    high, after = session(
        host, ("join", "B", DEFAULT), ("join", "A", MINE), *before,
        ("frametime", "A", FAST), ("frames", str(3 * STEP_UP)), ("guard", "A"),
        *steps, ("guard", "A"),
    )
    assert high["size"] == 256
    assert after["size"] == 64 and after["modes"][0] == "Realtime"


def test_loaders_tell_the_guard_before_they_compile():
    """ProgramLoader (URL, gallery and slot loads) and the fallback of an example button
    without SyncCode announce the program to the guard before starting its compile."""
    scripts = udonsharp.TARGET.render()
    loader = scripts["ProgramLoader.cs"]
    assert re.search(r"guard\.ProgramChanged\(\);\s*\}\s*if \(compiler != null\)\s*\{\s*"
                     r"compiler\.CompileLocal\(\);", loader)
    example = scripts["ExampleButton.cs"]
    assert re.search(r"guard\.ProgramChanged\(\);\s*\}\s*if \(compiler != null\)\s*\{\s*"
                     r"compiler\.Compile\(\);", example)


@pytest.mark.parametrize("seed", range(8))
def test_random_frame_times_keep_the_guards_promises(host, seed):
    """Scripted frame times drawn at random (light, in the band, just over, heavy, anything,
    in runs of 1 to 150 frames), with now and then a new program or "Run anyway": the
    screen never runs above the ceiling; each program steps at most once up and once down
    per size (at most 2 x (sizes up to the ceiling - 1) changes) and restarts at 64; it
    pauses only at 64, and one buffer at most is Realtime, the one shown."""
    import random

    rng = random.Random(seed)
    pick = [FAST, str(G.climb_below_s * 0.96), str((G.climb_below_s + G.drop_above_s) / 2),
            str(G.drop_above_s * 1.04), HEAVY]
    steps: list[tuple[str, ...]] = [("join", "A", DEFAULT), ("guard", "A")]
    new_program = [True]  # per guard reading: whether a new program started before it
    for k in range(60):
        r = rng.random()
        if r < 0.08:
            steps += [("example", "A", (OTHER, DEFAULT)[k % 2]), ("guard", "A")]
            new_program.append(True)
        elif r < 0.14:
            steps += [("anyway", "A"), ("guard", "A")]
            new_program.append(False)
        t = rng.choice(pick) if rng.random() < 0.8 else f"{rng.uniform(0.004, 0.3):.4f}"
        steps += [("frametime", "A", t), ("frames", str(rng.randint(1, 150))), ("guard", "A")]
        new_program.append(False)
    states = session(host, *steps)
    assert len(states) == len(new_program)
    below = [s for s in SIZES if s <= G.ceiling]
    changes = 0
    for s, fresh in zip(states, new_program, strict=True):
        if fresh:
            assert s["size"] == SIZES[0] and not s["paused"], s
            changes = 0
        else:
            changes += s["changes"]
        assert changes <= 2 * (len(below) - 1), states
        assert s["max"] <= G.ceiling and s["size"] in below
        if s["paused"]:
            assert s["size"] == SIZES[0] and "Realtime" not in s["modes"]
        else:
            assert s["modes"] == ["Realtime" if size == s["size"] else "OnDemand"
                                  for size in SIZES]
