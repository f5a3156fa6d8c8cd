"""Programs in and out of the world (issue 26): ProgramLoader (URL field, gallery, bring-back)
and ProgramSaves (PlayerData) with the in-world Compiler, under mono against stand-ins that
behave as VRChat documents (tests/csharp_support/UdonStubs.cs, WorldHost.cs), and their Udon
cost per event; the prefab's and the setup menu's parts are in test_world_programs_package.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from psl.gen import udonsharp, world_programs
from tests.csharp_support.build import STUBS, tools_available
from tests.udon_support.event_cost import event_bounds
from tests.udon_support.inventory import build as inventory_build
from tests.udon_support.scripts import generated_scripts

HERE = Path(__file__).resolve().parent
WORLD_HOST = HERE / "csharp_support" / "WorldHost.cs"
EXAMPLES = HERE.parent / "unity_package" / "Examples"

SCENARIOS = (
    "load_compiles",
    "error_404", "error_untrusted_host", "error_html_page", "error_too_long",
    "error_invalid_utf8", "error_empty", "valid_replacement_character", "untrusted_allowed",
    "empty_url",
    "two_loads_in_a_row", "stale_result_dropped",
    "load_during_compile",
    "gallery_entry",
    "restore_into_empty_box", "restore_over_starting_text", "restore_over_received_program",
    "restore_with_typed_text",
    "restore_remote_player_ignored",
    "save_and_load_every_slot",
    "save_over_budget", "storage_exceeded_event",
    "share_after_load_keeps_loaded_text",
    # issue 39: one history, own compiles, debounced writes, over-long stored text
    "history_across_sources", "two_loads_keep_typed_text", "typed_text_survives_many_loads",
    "restore_on_visit_in_history", "share_and_restore_count_as_own", "last_write_debounced",
    "stored_text_too_long",
)

#: Udon externs an event of the loader or the saves may spend by itself (VRChat's limit
#: for one event is 2,500 with the compile slice it may start; see docs/world-setup.md)
OWN_EVENT_LIMIT = 200


@pytest.fixture(scope="module")
def scenario_results(tmp_path_factory) -> dict[str, str]:
    if not tools_available():
        pytest.skip("mono / mcs not installed")
    out = tmp_path_factory.mktemp("world")
    sources = []
    for name, text in udonsharp.TARGET.render().items():
        (out / name).write_text(text, encoding="utf-8")
        sources.append(str(out / name))
    exe = out / "WorldHost.exe"
    proc = subprocess.run(["mcs", "-nologo", "-nowarn:414,169,649,219", f"-out:{exe}",
                           str(STUBS), str(WORLD_HOST), *sources],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = subprocess.run(["mono", str(exe), str(EXAMPLES / "scene_spiral.psl"),
                          str(EXAMPLES / "scene_simple.psl"),
                          str(EXAMPLES / "scene_pong_by_fuopy.psl")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    results: dict[str, str] = {}
    for line in run.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        name, _, why = rest.partition(": ")
        results[name] = "" if verdict == "PASS" else why or line
    return results


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario(scenario_results: dict[str, str], scenario: str) -> None:
    assert scenario in scenario_results, f"the host ran no scenario {scenario}"
    assert scenario_results[scenario] == "", scenario_results[scenario]


def test_no_scenario_left_unchecked(scenario_results: dict[str, str]) -> None:
    assert set(scenario_results) == set(SCENARIOS)


# ------------------------------------------------------------------------ Udon cost


@pytest.fixture(scope="module")
def bounds() -> dict[str, dict[str, int]]:
    scripts = generated_scripts()
    inventory = inventory_build(scripts)
    return {name: {m: b.externs for m, b in event_bounds(
        name, scripts[name], inventory.sites[name]).items()}
        for name in ("ProgramLoader.cs", "ProgramSaves.cs")}


def test_every_event_is_cheap(bounds: dict[str, dict[str, int]]) -> None:
    events = {
        "ProgramLoader.cs": [world_programs.LOAD_URL_EVENT, world_programs.BRING_BACK_EVENT,
                             "OfferText", "OnStringLoadSuccess", "OnStringLoadError", "Update",
                             *(world_programs.gallery_event(k)
                               for k in range(world_programs.GALLERY_MAX))],
        "ProgramSaves.cs": ["Start", "Update", "OnPlayerRestored", "OnPlayerDataStorageExceeded",
                            "OnPlayerDataStorageWarning", world_programs.LOAD_LAST_EVENT,
                            *(world_programs.save_event(n)
                              for n in range(1, world_programs.SAVE_SLOTS + 1)),
                            *(world_programs.load_slot_event(n)
                              for n in range(1, world_programs.SAVE_SLOTS + 1))],
    }
    for script, names in events.items():
        for name in names:
            assert name in bounds[script], f"{script} has no event {name}"
            # a slot Load runs the loader's OfferText in the same event
            extra = bounds["ProgramLoader.cs"]["OfferText"] if "Load" in name and \
                script == "ProgramSaves.cs" else 0
            assert bounds[script][name] + extra <= OWN_EVENT_LIMIT, (script, name)
