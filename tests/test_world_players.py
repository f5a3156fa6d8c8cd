"""The world as players meet it, in sessions of simulated players (tests/csharp_support/
Players.cs drives the generated SyncCode, Compiler, ExampleButton and TypingLock of each
client, with one shared network object and VRChat's late-joiner behaviour):

- sharing with manners: Compile is local; Share reaches followers' screens but never replaces
  text they edited; the editor says who shared and can load it, and the replaced text comes
  back with Restore; late joiners get the current shared program; examples stay local;
- a program at load: each client compiles the editor's default program at Start;
- typing without walking: focus immobilizes, blur releases, the toggle and the pad pin it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from psl import registry
from psl.gen import udonsharp
from tests.csharp_support import build as csbuild

pytestmark = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")

DEFAULT = "u = uv(); float3(u.x, u.y, 0.5)"
MINE = "x = uv().x; float3(x, x, x)"
THEIRS = "float3(1, 0, 0)"
OTHER = "float3(0, 0, 1)"


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    return csbuild.shared_host(tmp_path_factory)


def session(host: Path, *commands: tuple[str, ...]) -> list[dict]:
    """Runs the commands; returns the JSON line of every `state` command, in order."""
    text = "".join("\t".join(c).replace("\n", "\\n") + "\n" for c in commands)
    proc = subprocess.run(["mono", str(host), "--players"], input=text, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_follow_is_on_by_default():
    assert udonsharp.FOLLOW_DEFAULT is True
    assert "public bool followByDefault = true;" in udonsharp.TARGET.render()["SyncCode.cs"]


def test_start_compiles_the_default_program_locally(host):
    a, ref = session(host, ("join", "A", DEFAULT), ("state", "A"),
                     ("join", "R", DEFAULT), ("state", "R"))
    assert a["text"] == DEFAULT and a["out"].startswith("compiled:")
    assert a["upload"] and a["serializations"] == 0 and not a["owner"]
    assert a["upload"] == ref["upload"]


def test_share_runs_on_a_follower_without_touching_their_text(host):
    a, b, a2, b_after, a3 = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("type", "A", MINE), ("state", "A"),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("state", "B"),
        ("state", "A"),
        # B shares again after A edits more: still A's text, now B's other program runs
        ("clock", str(udonsharp.SHARE_INTERVAL_S)),
        ("type", "B", OTHER), ("send", "B", "Share"), ("state", "B"),
        ("state", "A"),
    )
    mine_default = a["upload"]  # A typed but did not compile: the default still runs
    assert b["owner"] and b["serializations"] == 1 and b["out"].startswith("compiled:")
    assert a2["text"] == MINE, "a share replaced text the player had edited"
    assert a2["upload"] == b["upload"] != mine_default, "a follower's screen runs the share"
    assert "B" in a2["info"] and "your text is kept" in a2["info"]
    assert a3["text"] == MINE and a3["upload"] == b_after["upload"]
    assert a3["serializations"] == 0


def test_a_player_who_does_not_follow_keeps_their_screen(host):
    a0, a, b = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("follow", "A", "0"), ("type", "A", MINE), ("state", "A"),
        ("type", "B", THEIRS), ("send", "B", "Share"),
        ("state", "A"), ("state", "B"),
    )
    assert a["text"] == MINE and a["upload"] == a0["upload"] != b["upload"]
    assert "B shared a program (not followed)" in a["info"]


def test_follow_again_runs_the_current_share(host):
    a, b = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("follow", "A", "0"),
        ("type", "A", MINE), ("type", "B", THEIRS), ("send", "B", "Share"),
        ("follow", "A", "1"), ("state", "A"), ("state", "B"),
    )
    assert a["text"] == MINE and a["upload"] == b["upload"]


def test_unfollowing_gives_the_screens_back_to_the_players_own_program(host):
    """Issue 37: a follower who unticks Follow runs their own program again (the text they
    typed; where the share had taken their unedited editor, the text it replaced), instead
    of the share staying on their screens until they compile."""
    mine, dflt, a_shared, b, a_back, c_shared, c_back = session(
        host,
        ("join", "M", MINE), ("state", "M"), ("join", "D", DEFAULT), ("state", "D"),
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("join", "C", DEFAULT),
        ("type", "A", MINE),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("state", "A"), ("state", "B"),
        ("follow", "A", "0"), ("state", "A"),
        ("state", "C"), ("follow", "C", "0"), ("state", "C"),
    )
    assert a_shared["upload"] == b["upload"] != mine["upload"]
    assert a_back["text"] == MINE and a_back["upload"] == mine["upload"]
    assert "your own program" in a_back["info"] and a_back["serializations"] == 0
    # C had not edited: the share took the editor; unfollowing brings the default back
    assert c_shared["text"] == THEIRS and c_shared["upload"] == b["upload"]
    assert c_back["text"] == DEFAULT and c_back["upload"] == dflt["upload"]


def test_shares_are_rate_limited_across_the_instance(host):
    """One share every SHARE_INTERVAL_S seconds in the instance, whoever shares: a share too
    soon is not sent (the note says when the next may go; the text still runs for its
    author), and after the interval it goes out."""
    interval = udonsharp.SHARE_INTERVAL_S
    a1, b_soon, a2, a3, c3 = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("join", "C", DEFAULT),
        ("type", "A", THEIRS), ("send", "A", "Share"), ("state", "A"),
        ("clock", str(interval / 2)),
        ("type", "B", OTHER), ("send", "B", "Share"), ("state", "B"),
        ("state", "A"),
        ("clock", str(interval)),
        ("send", "B", "Share"), ("state", "A"), ("state", "C"),
    )
    assert a1["serializations"] == 1
    assert b_soon["serializations"] == 0 and "Not shared" in b_soon["info"]
    assert "share again in" in b_soon["info"] and b_soon["upload"] != a1["upload"]
    assert a2["upload"] == a1["upload"], "a refused share reached a follower"
    assert a3["upload"] == c3["upload"] == b_soon["upload"], "the later share went out"
    assert f"shareInterval = {interval}f;" in udonsharp.TARGET.render()["SyncCode.cs"]


def test_load_shared_and_restore(host):
    loaded, restored, again = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("follow", "A", "0"),
        ("type", "A", MINE), ("type", "B", THEIRS), ("send", "B", "Share"),
        ("send", "A", "LoadShared"), ("state", "A"),
        ("send", "A", "Restore"), ("state", "A"),
        ("send", "A", "Restore"), ("state", "A"),
    )
    assert loaded["text"] == THEIRS and loaded["serializations"] == 0
    assert restored["text"] == MINE, "Restore brings back the text the load replaced"
    assert again["text"] == THEIRS  # Restore swaps: pressed again, the load is back
    assert restored["upload"] != loaded["upload"]  # what the editor shows is what runs


def test_an_unedited_editor_follows_the_share(host):
    a, b = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("type", "B", THEIRS), ("send", "B", "Share"),
        ("state", "A"), ("state", "B"),
    )
    assert a["text"] == THEIRS and a["upload"] == b["upload"]
    (back,) = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("send", "A", "Restore"),
        ("state", "A"),
    )
    assert back["text"] == DEFAULT


@pytest.mark.parametrize("join", ["join", "joinearly"])
def test_a_late_joiner_gets_the_current_shared_program(host, join):
    b, c = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("type", "B", THEIRS), ("send", "B", "Share"),
        ("clock", str(udonsharp.SHARE_INTERVAL_S)),
        ("type", "B", OTHER), ("send", "B", "Share"), ("state", "B"),
        (join, "C", DEFAULT), ("state", "C"),
    )
    assert c["text"] == OTHER and c["upload"] == b["upload"]
    assert "B" in c["info"] and c["serializations"] == 0


def test_a_late_joiner_without_a_share_shows_the_default(host):
    (c,) = session(host, ("join", "A", DEFAULT), ("join", "C", DEFAULT), ("state", "C"))
    assert c["text"] == DEFAULT and c["upload"] and c["info"] == ""


def test_examples_are_local_unless_shared(host):
    a, b, a2, b2 = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("example", "B", THEIRS), ("state", "A"), ("state", "B"),
        ("send", "B", "Share"), ("state", "A"), ("state", "B"),
    )
    assert b["text"] == THEIRS and b["serializations"] == 0
    assert a["text"] == DEFAULT and a["upload"] != b["upload"]
    assert b2["serializations"] == 1 and a2["upload"] == b2["upload"]


def test_an_example_keeps_the_replaced_text(host):
    loaded, back = session(
        host,
        ("join", "A", DEFAULT), ("type", "A", MINE), ("example", "A", THEIRS),
        ("state", "A"), ("send", "A", "Restore"), ("state", "A"),
    )
    assert loaded["text"] == THEIRS and back["text"] == MINE


def test_typing_immobilizes_and_leaving_the_box_releases(host):
    start, focused, typed, blurred = session(
        host,
        ("join", "A", DEFAULT), ("state", "A"),
        ("focus", "A", "1"), ("state", "A"),
        ("type", "A", MINE), ("state", "A"),
        ("focus", "A", "0"), ("state", "A"),
    )
    assert not start["immobilized"] and start["immobilize_calls"] == 0
    assert focused["immobilized"] and typed["immobilized"]
    assert typed["immobilize_calls"] == 1, "Immobilize is called on changes, not every frame"
    assert not blurred["immobilized"] and blurred["immobilize_calls"] == 2


def test_the_toggle_and_the_pad_pin_the_player(host):
    pinned, focus_out, unpinned, pad, pad_off = session(
        host,
        ("join", "A", DEFAULT),
        ("pin", "A", "1"), ("state", "A"),
        ("focus", "A", "1"), ("focus", "A", "0"), ("state", "A"),
        ("pin", "A", "0"), ("state", "A"),
        ("pad", "A"), ("state", "A"),
        ("pad", "A"), ("state", "A"),
    )
    assert pinned["immobilized"] and pinned["pin"]
    assert focus_out["immobilized"], "leaving the box does not release a pinned player"
    assert not unpinned["immobilized"]
    assert pad["immobilized"] and pad["pin"]  # the pad flips the toggle with it
    assert not pad_off["immobilized"] and not pad_off["pin"]


def test_world_events_stay_within_the_extern_budget():
    """Each event of the small behaviours reaches few externs of its own (an upper bound);
    with the Compiler's largest measured event (udon_cost, bench/results) added where the
    event starts a compile, every event stays under 2,500 externs (bench/world_events.py)."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "bench" / "world_events.py"
    spec = importlib.util.spec_from_file_location("world_events", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("world_events", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    # the Compiler at its default level (-O2: registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL)
    compile_max = module.compile_event_max(
        path.parent / "results" / "udon-cost-o2" / "udon-cost-corpus.json")
    assert compile_max is not None and compile_max <= 2500
    table = module.rows(compile_max)
    events = {(cls, event) for cls, event, *_ in table}
    assert {("SyncCode", "Share"), ("SyncCode", "OnDeserialization"), ("SyncCode", "Start"),
            ("TypingLock", "Update"), ("ScreenQuality", "Apply"),
            ("ListingView", "Update"), ("ReliefQuality", "Apply")} <= events
    for cls, event, own, _compiles, total in table:
        if (cls, event) != ("ListingView", "Update"):  # the listing's frame: a fixed loop
            assert own <= 100, (cls, event, own)
        assert total <= 2500, (cls, event, total)


def _same_step(got: str, want: str) -> bool:
    """One listed plain instruction, C#'s against psl's: the same text, but a constant's
    lanes as numbers (C# prints 0.25 and 1 where psl prints 0.25 and 1.0)."""
    if not want.startswith("PUSHCONST ("):
        return got == want
    if not got.startswith("PUSHCONST (") or not got.endswith(")"):
        return False
    a = [float(x) for x in got[11:-1].split(", ")]
    b = [float(x) for x in want[11:-1].split(", ")]
    return len(a) == len(b) == 4 and all(
        (x != x and y != y) or x == pytest.approx(y, rel=1e-6) for x, y in zip(a, b, strict=True))


def _same_line(got: str, want: str) -> bool:
    """One listing line; a fused one (`F_TOKENS { step; step }`) step by step."""
    if want.startswith("F_"):
        head, _, rest = want.partition(" { ")
        ghead, _, grest = got.partition(" { ")
        if ghead != head or not grest.endswith(" }"):
            return False
        steps, gsteps = rest[:-2].split("; "), grest[:-2].split("; ")
        return len(steps) == len(gsteps) and all(
            _same_step(g, w) for g, w in zip(gsteps, steps, strict=True))
    return _same_step(got, want)


def _listed(host: Path, program: str) -> list[str]:
    (shown,) = session(host, ("join", "A", program), ("listing", "A"), ("state", "A"))
    return shown["out"].split("\n")


def test_the_listing_shows_the_program_on_the_screen(host):
    """The Listing button reads the uploaded program back from the VM material: one line per
    instruction in psl's listing notation (numbers as C# prints them)."""
    from psl.bytecode import disassemble
    from psl.compiler import compile_source

    program = "v = uv(); v.x += 0.25; float3(v.x, -v.y, sin(time().y))"
    # the Compiler compiles at registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL (-O2): once the
    # compile is done the listing is that program, fused instructions and all
    expected = [disassemble(ins) for ins in compile_source(
        program, optimize=registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL).program.instructions]
    got = _listed(host, program)
    assert len(got) == len(expected)
    for line, want in zip(got, expected, strict=True):
        assert _same_line(line, want), (line, want)


#: corpus programs that together use most fused kinds at -O2 (pong alone 31 of them)
LISTED_CORPUS = ("scene_pong_by_fuopy.psl", "scene_mandelbrot.psl", "scene_line_by_moon.psl",
                 "scene_spiral.psl", "scene_raymarch.psl", "scene_audiolink.psl")


def test_the_listing_lists_fused_instructions_as_psl(host):
    """-O2 programs with many fused kinds: every line is psl's listing line (`psl compile
    --format asm`), the mnemonic and each step in braces."""
    from psl.bytecode import disassemble
    from psl.compiler import compile_source

    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    if not corpus.is_dir():
        pytest.skip("the shared corpus is not here")
    kinds: set[int] = set()
    for name in LISTED_CORPUS:
        # tabs separate the host's fields: spaces instead (the same program)
        source = (corpus / name).read_text(encoding="utf-8").replace("\t", "    ")
        instructions = compile_source(source, optimize=2).program.instructions
        assert len(instructions) <= udonsharp.LISTING_LINES
        expected = [disassemble(ins) for ins in instructions]
        got = _listed(host, source)
        if sum(len(line) + 1 for line in expected) > udonsharp.LISTING_CHARS:
            # a long listing stops before the uGUI Text's limit, at a whole line
            stop = f"... (the listing stops after {len(got) - 1} instructions)"
            assert got[-1] == stop and len(got) - 1 < len(expected), name
            got = got[:-1]
            assert sum(len(line) + 1 for line in got) <= udonsharp.LISTING_CHARS
            expected = expected[:len(got)]
        assert len(got) == len(expected), name
        for line, want in zip(got, expected, strict=True):
            assert _same_line(line, want), (name, line, want)
        kinds |= {int(i.op) for i in instructions[:len(got)] if int(i.op) in registry.FUSED_BY_OP}
    assert len(kinds) >= 50, len(kinds)


@pytest.mark.parametrize("lanes", [
    # an unknown opcode between the plain ones and the fused ones ends the listing
    "1 0 0 0 0.5 NaN NaN NaN 20 0 0 0",
    # every fused opcode's fields NaN, huge, negative and fractional; then past the last one
    " ".join(f"{op} NaN 1e30 -1e30 3e9 -2.5 0.5 1e38"
             for op in [*registry.FUSED_BY_OP, max(registry.FUSED_BY_OP) + 1]),
    # plain opcodes with hostile operands and an opcode of 1e30
    "1 15 0 0 NaN 1e30 -1e30 Infinity 3 0 0 0 1e30 1e30 0 0 4 0 0 0 -7 0 0 0 "
    "5 0 0 0 -Infinity 0 0 0 6 0 0 0 3e9 0 0 0 1e30 0 0 0 1 0 0 0",
    "NaN NaN NaN NaN 1 1 1 1",
])
def test_the_listing_never_throws_on_any_texture(host, lanes):
    """Whatever the program texture holds (unknown opcodes, NaN, huge values), the listing
    ends without an exception: the host fails on any."""
    (shown,) = session(host, ("join", "A", DEFAULT), ("texels", "A", lanes), ("listing", "A"),
                       ("state", "A"))
    assert shown["out"] != "listing..."


def test_the_listing_stops_at_an_unknown_opcode(host):
    (shown,) = session(host, ("join", "A", DEFAULT),
                       ("texels", "A", "1 0 0 0 0.5 1 2 3 20 0 0 0 1 0 0 0"),
                       ("listing", "A"), ("state", "A"))
    assert shown["out"] == "PUSHCONST (0.5, 1, 2, 3)"


def test_the_listing_without_a_program(host):
    (empty,) = session(host, ("join", "A", "x = ;"), ("listing", "A"), ("state", "A"))
    assert empty["out"] == "No program on this screen yet: press Compile first."


@pytest.mark.parametrize("pressed", range(4))
def test_a_quality_button_switches_every_screen(host, pressed):
    """ScreenQuality: every screen gets the button's material; its render texture updates in
    real time, the others on demand (no GPU time for unseen resolutions)."""
    (got,) = session(host, ("quality", str(pressed)))
    assert got["screens"] == [pressed] * 3
    assert got["modes"] == ["Realtime" if k == pressed else "OnDemand" for k in range(4)]


# ------------------------------------------------------------------ owner controls (issue 37)


def test_the_owner_locks_sharing_and_others_are_refused(host):
    """The instance owner's lock: others' Share is refused with a note (their text still
    runs for them, nothing reaches the followers); the owner can still share, rate limited
    like anyone; unlocked, others share again."""
    interval = str(udonsharp.SHARE_INTERVAL_S)
    o_locked, a_refused, b_before, o_shared, b_after, o_soon, a_open = session(
        host,
        ("join", "A", DEFAULT), ("join", "O", DEFAULT), ("join", "B", DEFAULT),
        ("instanceowner", "O"),
        ("send", "O", "ToggleLock"), ("state", "O"),
        ("type", "A", THEIRS), ("send", "A", "Share"), ("state", "A"), ("state", "B"),
        ("type", "O", OTHER), ("send", "O", "Share"), ("state", "O"), ("state", "B"),
        ("send", "O", "Share"), ("state", "O"),
        ("send", "O", "ToggleLock"), ("clock", interval), ("send", "A", "Share"),
        ("state", "B"),
    )
    assert o_locked["owner"] and "You locked sharing" in o_locked["info"]
    assert a_refused["serializations"] == 0 and "Not shared" in a_refused["info"]
    assert "O locked sharing" in a_refused["info"]
    assert a_refused["upload"] != b_before["upload"], "the refused text runs for its author"
    assert b_before["text"] == DEFAULT
    assert b_after["upload"] == o_shared["upload"] and "O" in b_after["info"]
    assert "Not shared: one share every" in o_soon["info"], "the owner is rate limited too"
    assert a_open["upload"] == a_refused["upload"] and "A" in a_open["info"]


def test_a_player_who_is_not_the_owner_cannot_lock_or_clear(host):
    a_lock, a_clear, c = session(
        host,
        ("join", "M", DEFAULT), ("join", "O", DEFAULT), ("join", "A", DEFAULT),
        ("join", "B", DEFAULT), ("join", "C", DEFAULT),
        ("instanceowner", "O"),  # present: the master (M) is no owner then
        ("send", "A", "ToggleLock"), ("state", "A"),
        ("send", "M", "ToggleLock"),
        ("type", "B", THEIRS), ("send", "B", "Share"),
        ("send", "A", "ClearShared"), ("state", "A"),
        ("send", "M", "ClearShared"), ("state", "C"),
    )
    assert "Only the instance owner" in a_lock["info"] and a_lock["serializations"] == 0
    assert "Only the instance owner" in a_clear["info"] and a_clear["serializations"] == 0
    assert c["text"] == THEIRS and "Running B's shared program" in c["info"]


def test_the_master_moderates_where_no_instance_owner_is_present(host):
    a, b, m = session(
        host,
        ("join", "M", DEFAULT), ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("send", "M", "ToggleLock"), ("type", "A", THEIRS), ("send", "A", "Share"),
        ("state", "A"), ("state", "B"), ("state", "M"),
    )
    assert a["serializations"] == 0 and "M locked sharing" in a["info"]
    assert b["text"] == DEFAULT and m["serializations"] == 1


def test_clearing_gives_every_follower_their_own_program_back(host):
    """The owner clears B's share: a follower who had edited runs their own text again, one
    whose editor the share had taken gets their text back; the info line says who cleared."""
    mine, dflt, a, c, a_back, c_back = session(
        host,
        ("join", "M", MINE), ("state", "M"), ("join", "D", DEFAULT), ("state", "D"),
        ("join", "O", DEFAULT), ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("join", "C", DEFAULT), ("instanceowner", "O"),
        ("type", "A", MINE), ("type", "B", THEIRS), ("send", "B", "Share"),
        ("state", "A"), ("state", "C"),
        ("send", "O", "ClearShared"), ("state", "A"), ("state", "C"),
    )
    assert a["text"] == MINE and a["upload"] == c["upload"] != mine["upload"]
    assert a_back["text"] == MINE and a_back["upload"] == mine["upload"]
    assert c_back["text"] == DEFAULT and c_back["upload"] == dflt["upload"]
    for got in (a_back, c_back):
        assert "O cleared the shared program" in got["info"] and got["serializations"] == 0


@pytest.mark.parametrize("join", ["join", "joinearly"])
def test_a_late_joiner_after_a_clear_gets_nothing_to_run(host, join):
    dflt, c, loaded = session(
        host,
        ("join", "D", DEFAULT), ("state", "D"), ("join", "O", DEFAULT),
        ("join", "B", DEFAULT), ("instanceowner", "O"),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("send", "O", "ClearShared"),
        (join, "C", DEFAULT), ("state", "C"),
        ("send", "C", "LoadShared"), ("state", "C"),
    )
    assert c["text"] == DEFAULT and c["upload"] == dflt["upload"]
    assert "cleared" in c["info"] and "Running" not in c["info"]
    assert loaded["text"] == DEFAULT and "nothing to load" in loaded["info"]


def test_a_cleared_share_carries_no_text():
    """The synced state after a clear holds no program: SyncCode empties the text."""
    text = udonsharp.TARGET.render()["SyncCode.cs"]
    clear = text[text.index("public void ClearShared()"):]
    clear = clear[:clear.index("\n    }\n")]
    assert 'syncedSource = "";' in clear and "syncedCleared = true;" in clear
    assert "RequestSerialization();" in clear


# ------------------------------------------------------------------ issue 39: history, typing


def test_share_counts_as_the_players_own_compile(host):
    """Share runs the text as the player's own compile (ProgramSaves keeps it as psl.last),
    refused or not; Compile-less text received from a share is not the follower's own."""
    b, a, b_refused = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT),
        ("type", "B", THEIRS), ("send", "B", "Share"), ("state", "B"), ("state", "A"),
        ("type", "B", OTHER), ("send", "B", "Share"), ("state", "B"),
    )
    assert b["serializations"] == 1 and b["own"] == THEIRS and b["own_compiles"] == 1
    assert a["own_compiles"] == 0 and a["own"] == "", "a received share counted as own"
    assert "Not shared" in b_refused["info"], "the second share is inside the interval"
    assert b_refused["own"] == OTHER and b_refused["own_compiles"] == 2


def test_two_loads_in_a_row_keep_the_typed_text(host):
    """Issue 39's reproduction, with examples and a share: the player types, two loads follow
    (an example, then Load shared); Restore steps back to the example, then to the typed text,
    which runs as the player's own compile."""
    first, second, back = session(
        host,
        ("join", "A", DEFAULT), ("join", "B", DEFAULT), ("follow", "A", "0"),
        ("type", "B", OTHER), ("send", "B", "Share"),
        ("type", "A", MINE), ("example", "A", THEIRS), ("send", "A", "LoadShared"),
        ("send", "A", "Restore"), ("state", "A"),
        ("send", "A", "Restore"), ("state", "A"),
        ("send", "A", "Restore"), ("state", "A"),
    )
    assert first["text"] == THEIRS
    assert second["text"] == MINE and second["own"] == MINE, "the typed text was lost"
    assert "Your own text is back" in second["info"]
    assert back["text"] == OTHER, "pressed on, Restore comes around to the newest load"


def test_typing_zeroes_the_jump_impulse_and_restores_it(host):
    start, focused, released, pinned, unpinned = session(
        host,
        ("join", "A", DEFAULT), ("state", "A"),
        ("focus", "A", "1"), ("state", "A"),
        ("focus", "A", "0"), ("state", "A"),
        ("pin", "A", "1"), ("state", "A"),
        ("pin", "A", "0"), ("state", "A"),
    )
    assert start["jump"] == 3 and not start["immobilized"]
    assert focused["jump"] == 0 and focused["immobilized"]
    assert released["jump"] == 3 and not released["immobilized"]
    assert pinned["jump"] == 0 and unpinned["jump"] == 3


@pytest.mark.parametrize("keeps_focus", ["0", "1"])
def test_the_stick_releases_a_vr_player(host, keeps_focus):
    """In VR, moving the stick past the dead zone while the box holds focus takes the focus
    from the box and releases the player (jump impulse back), even where the InputField keeps
    its focus (VRChat's keyboard closed); within the dead zone nothing happens; the box locks
    again once the focus has left and come back."""
    dead = udonsharp.STICK_DEAD_ZONE
    small, moved, later, again = session(
        host,
        ("join", "A", DEFAULT), ("vr", "A", "1"), ("keepsfocus", "A", keeps_focus),
        ("focus", "A", "1"),
        ("stick", "A", f"{dead * 0.8} {-dead * 0.8}"), ("state", "A"),
        ("stick", "A", f"0 {-(dead + 0.3)}"), ("state", "A"),
        ("stick", "A", "0 0"), ("state", "A"),
        ("focus", "A", "0"), ("focus", "A", "1"), ("state", "A"),
    )
    assert small["immobilized"] and small["jump"] == 0
    assert not moved["immobilized"] and moved["jump"] == 3
    assert moved["focused"] == (keeps_focus == "1")
    assert not later["immobilized"], "a box that kept its focus locked the player again"
    assert again["immobilized"] and again["jump"] == 0
    assert f"stickDeadZone = {dead}f;" in udonsharp.TARGET.render()["TypingLock.cs"]


def test_the_stick_types_on_desktop(host):
    """On desktop the move axes come from WASD, which type into the box: no release."""
    (typing,) = session(
        host,
        ("join", "A", DEFAULT), ("focus", "A", "1"), ("stick", "A", "1 1"), ("state", "A"),
    )
    assert typing["immobilized"] and typing["focused"] and typing["jump"] == 0


def test_a_pinned_vr_player_stays_pinned_when_the_stick_moves(host):
    (pinned,) = session(
        host,
        ("join", "A", DEFAULT), ("vr", "A", "1"), ("pin", "A", "1"), ("focus", "A", "1"),
        ("stick", "A", "1 0"), ("state", "A"),
    )
    assert pinned["immobilized"] and not pinned["focused"] and pinned["pin"]
