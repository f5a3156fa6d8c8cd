"""The world's sliders as players meet them (issue 42, item 3), in sessions of simulated
players (tests/csharp_support/Players.cs: each client has its own ProgramSliders over its VM
material, wired to SyncCode as the prefab does):

- a new program resets the sliders to its defaults (the Compile button, examples, shares);
  a program that does not compile leaves them as they were;
- moving a slider sets the VM material's _Sliders for that player only (nothing is sent);
- a Share carries the sharer's values: followers, and late joiners who follow, start the
  shared program's sliders at them once it compiled; a share of a text the sliders do not
  belong to carries none (the defaults); a refused share keeps the sharer's values.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from psl.gen import udonsharp
from psl.registry import SLIDERS
from psl.syntax.sliders import parse_sliders
from tests.csharp_support import build as csbuild

pytestmark = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")

ZOOM = ("//@slider 0 zoom 0.5..4 = 1\n//@slider 2 angle -3.1416..3.1416\n"
        "u = uv(); float3(u.x * slider(0), u.y, slider(2))")
OTHER = "//@slider 1 gain 0..10 = 7.5\n//@slider 0 bias -1..1\nfloat3(slider(1), slider(0), 0)"
PLAIN = "u = uv(); float3(u.x, u.y, 0.5)"
BROKEN = "//@slider 0 nope 0..9 = 9\nfloat3(1, 2"


def bits(x: float) -> int:
    return int(np.array(x, dtype=np.float32).view(np.uint32))


def defaults(text: str) -> list[int]:
    return [bits(v) for v in parse_sliders(text).values()]


def names(text: str) -> list[str | None]:
    table = parse_sliders(text)
    return [s.name if (s := table.by_index(k)) else None for k in range(SLIDERS.count)]


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    return csbuild.shared_host(tmp_path_factory)


def session(host: Path, *commands: tuple[str, ...]) -> list[dict]:
    """Runs the commands; returns the JSON line of every `state`/`sliders` command."""
    text = "".join("\t".join(c).replace("\n", "\\n") + "\n" for c in commands)
    proc = subprocess.run(["mono", str(host), "--players"], input=text, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_the_default_program_sets_its_sliders_at_start(host):
    (s,) = session(host, ("join", "A", ZOOM), ("sliders", "A"))
    assert s["program"] == ZOOM
    assert s["names"] == names(ZOOM)
    assert s["values"] == s["uniform"] == defaults(ZOOM)
    assert s["rows"] == [n is not None for n in names(ZOOM)]
    # the UI slider shows the range and the default; setting them fired no onValueChanged
    assert s["min"][0] == bits(0.5) and s["max"][0] == bits(4) and s["ui"][0] == bits(1)
    assert s["labels"][0].startswith("zoom")
    assert s["notified"] == 0


def test_a_program_without_sliders_hides_them_all(host):
    (s,) = session(host, ("join", "A", PLAIN), ("sliders", "A"))
    assert s["names"] == [None] * SLIDERS.count and not any(s["rows"])
    assert s["uniform"] == [0] * SLIDERS.count


def test_moving_a_slider_sets_the_material_locally(host):
    a, b, a_state = session(host, ("join", "A", ZOOM), ("join", "B", ZOOM),
                            ("slide", "A", "0 2.5"), ("sliders", "A"), ("sliders", "B"),
                            ("state", "A"))
    assert a["values"][0] == a["uniform"][0] == bits(2.5)
    assert a["values"][2] == defaults(ZOOM)[2]
    assert b["values"] == b["uniform"] == defaults(ZOOM), "a slider moved another player's"
    assert a_state["serializations"] == 0, "a slider move was sent"
    # the UI clamps a drag past the end into the range
    (clamped,) = session(host, ("join", "A", ZOOM), ("slide", "A", "0 99"), ("sliders", "A"))
    assert clamped["values"][0] == bits(4)


def test_a_new_program_resets_the_sliders_to_its_defaults(host):
    moved, other, again, broken = session(
        host, ("join", "A", ZOOM), ("slide", "A", "0 3"), ("sliders", "A"),
        ("type", "A", OTHER), ("compile", "A"), ("sliders", "A"),
        # the same text compiled again is a new program too: its defaults
        ("slide", "A", "1 2"), ("compile", "A"), ("sliders", "A"),
        # a program that does not compile changes nothing: the running program's sliders stay
        ("slide", "A", "1 4"), ("type", "A", BROKEN), ("compile", "A"), ("sliders", "A"))
    assert moved["values"][0] == bits(3)
    assert other["program"] == OTHER and other["names"] == names(OTHER)
    assert other["values"] == other["uniform"] == defaults(OTHER)
    assert other["rows"] == [n is not None for n in names(OTHER)]
    assert again["values"] == defaults(OTHER)
    assert broken["program"] == OTHER and broken["names"] == names(OTHER)
    assert broken["values"][1] == broken["uniform"][1] == bits(4)


def test_an_example_resets_the_sliders(host):
    _, s = session(host, ("join", "A", ZOOM), ("slide", "A", "0 3"), ("sliders", "A"),
                   ("example", "A", OTHER), ("sliders", "A"))
    assert s["program"] == OTHER and s["values"] == defaults(OTHER)


def test_a_share_carries_the_sharers_values(host):
    b, c, b_state, a_after = session(
        host,
        ("join", "A", PLAIN), ("join", "B", PLAIN),
        ("type", "A", ZOOM), ("compile", "A"),
        ("slide", "A", "0 3.25"), ("slide", "A", "2 -1.5"),
        ("send", "A", "Share"),
        ("sliders", "B"),
        # a late joiner who follows gets the shared program at the sharer's values
        ("join", "C", PLAIN), ("sliders", "C"),
        ("state", "B"),
        # after the share, moving a slider sends nothing: B keeps the shared values
        ("slide", "A", "0 1"), ("sliders", "B"))
    want = defaults(ZOOM)
    want[0], want[2] = bits(3.25), bits(-1.5)
    assert b["program"] == ZOOM and b["names"] == names(ZOOM)
    assert b["values"] == b["uniform"] == want
    assert b["ui"][0] == bits(3.25) and b["rows"][0] and b["rows"][2]
    assert c["values"] == c["uniform"] == want
    assert b_state["text"] == ZOOM, "an unedited box shows the shared program"
    assert a_after["values"] == want


def test_a_follower_with_edited_text_gets_the_values_too(host):
    (b,) = session(
        host, ("join", "A", PLAIN), ("join", "B", PLAIN), ("type", "B", "x = 1; float3(x, x, x)"),
        ("type", "A", ZOOM), ("compile", "A"), ("slide", "A", "0 2"), ("send", "A", "Share"),
        ("sliders", "B"))
    assert b["program"] == ZOOM and b["values"][0] == b["uniform"][0] == bits(2)


def test_sharing_new_text_carries_the_defaults(host):
    # A typed OTHER but runs ZOOM (moved): the values belong to ZOOM, not to the shared text
    a, b = session(
        host, ("join", "A", ZOOM), ("join", "B", PLAIN), ("slide", "A", "0 3"),
        ("type", "A", OTHER), ("send", "A", "Share"), ("sliders", "A"), ("sliders", "B"))
    assert a["program"] == b["program"] == OTHER
    assert a["values"] == b["values"] == b["uniform"] == defaults(OTHER)


def test_a_refused_share_keeps_the_sharers_values(host):
    # the second share comes within the share interval: refused, the text runs locally and
    # its sliders keep their values (the same program)
    (a,) = session(
        host, ("join", "A", ZOOM), ("join", "B", PLAIN), ("send", "A", "Share"),
        ("slide", "A", "0 2"), ("send", "A", "Share"), ("sliders", "A"))
    assert a["values"][0] == bits(2)
    assert udonsharp.SHARE_INTERVAL_S > 0


def test_a_player_who_does_not_follow_keeps_their_sliders(host):
    (b,) = session(
        host, ("join", "A", PLAIN), ("join", "B", ZOOM), ("follow", "B", "0"),
        ("slide", "B", "0 2"), ("type", "A", OTHER), ("send", "A", "Share"), ("sliders", "B"))
    assert b["program"] == ZOOM and b["values"][0] == bits(2)
