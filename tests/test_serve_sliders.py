"""Sliders in `psl serve` (docs/playground.md "Sliders"): the compile reply's slider table,
the text "For VRChat" hands to the world (the player's values as the lines' defaults), the
example list, and the page's one copy of a registry name (render.js's uniform)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from aiohttp.test_utils import TestClient

from psl.registry import SLIDERS
from psl.resources import unity_package_dir
from psl.serve.vrchat import clean_values, world_text
from psl.syntax.sliders import parse_sliders
from tests.serve_support.client import post_json, with_client

STATIC = Path(__file__).resolve().parents[1] / "psl" / "web" / "static"
EXAMPLES = unity_package_dir() / "Examples"
MANDELBROT = (EXAMPLES / "sliders_mandelbrot_zoom.psl").read_text("utf-8")
LIGHT = (EXAMPLES / "sliders_raymarch_light.psl").read_text("utf-8")



def f32(x: float) -> float:
    return float(np.float32(x))


# ------------------------------------------------------------------ the compile reply

def test_compile_reply_carries_the_slider_table() -> None:
    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile", {"source": MANDELBROT})).json()
        assert reply["ok"] is True
        assert reply["sliders"] == [
            {"index": 0, "name": "zoom", "low": 1.0, "high": 400.0, "default": 1.0, "line": 2},
            {"index": 1, "name": "center_x", "low": -2.0, "high": 1.0, "default": -0.75,
             "line": 3},
            {"index": 2, "name": "center_y", "low": f32(-1.2), "high": f32(1.2),
             "default": 0.0, "line": 4},
            {"index": 3, "name": "steps", "low": 8.0, "high": 60.0, "default": 24.0,
             "line": 5},
        ]
        # no slider lines: an empty table, so the page hides its sliders
        plain = await (await post_json(client, "/api/compile", {"source": "uv()\n"})).json()
        assert plain["ok"] is True and plain["sliders"] == []
    with_client(body)


def test_compile_reply_table_is_psl_syntax_sliders_and_keeps_bad_lines_out() -> None:
    source = ("//@slider 0 a -1..1 = 5\n"      # default clamped (W016)
              "//@slider 0 again 0..1\n"       # index named twice (W015)
              "//@slider 9 far\n"              # past the 8 sliders (W015)
              "//@slider 2 b 3..1\n"           # empty range (W015)
              "//@sliders 3 c\n"               # an ordinary comment
              "float3(slider(0), slider(1), 0)\n")

    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile", {"source": source})).json()
        want = parse_sliders(source)
        assert [s["index"] for s in reply["sliders"]] == [s.index for s in want.sliders] == [0]
        assert reply["sliders"][0]["default"] == 1.0
        codes = [d["code"] for d in reply["diagnostics"]]
        assert codes.count("W015") == 3 and "W016" in codes
        # a program with errors still reports its table (the page keeps the running one's)
        bad = await (await post_json(client, "/api/compile",
                                     {"source": "//@slider 1 k\nsin(1, 2)\n"})).json()
        assert bad["ok"] is False and [s["name"] for s in bad["sliders"]] == ["k"]
    with_client(body)


def test_native_reply_names_the_exported_slider_uniforms() -> None:
    # psl export gives each named slider a uniform of its own, renamed off GLSL's words
    source = "//@slider 0 zoom 1..4\n//@slider 2 float\nfloat3(slider(0), slider(2), 0)\n"

    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile",
                                       {"source": source, "native": True})).json()
        native = reply["native"]
        assert native["sliders"] == {"0": "zoom", "2": "float_"}
        for name in native["sliders"].values():
            assert f"uniform float {name};" in native["fragment"]
        plain = await (await post_json(client, "/api/compile",
                                       {"source": "uv()\n", "native": True})).json()
        assert "sliders" not in plain["native"]
    with_client(body)


# ------------------------------------------------------------------ "For VRChat"

def test_world_text_starts_the_sliders_at_the_players_values() -> None:
    got = world_text(MANDELBROT, {"0": 12.5, "1": -0.75, "3": 33})
    lines = got.text.split("\n")
    assert lines[1] == "//@slider 0 zoom 1..400 = 12.5"
    assert lines[2] == "//@slider 1 center_x -2..1 = -0.75"  # the default: untouched
    assert lines[4] == "//@slider 3 steps 8..60 = 33"
    # every other line is the source's
    assert [x for i, x in enumerate(lines) if i not in (1, 4)] == \
        [x for i, x in enumerate(MANDELBROT.split("\n")) if i not in (1, 4)]
    assert [(s.name, s.value, s.changed) for s in got.sliders] == [
        ("zoom", 12.5, True), ("center_x", -0.75, False), ("center_y", 0.0, False),
        ("steps", 33.0, True)]
    # what the world's compiler reads back is the player's table
    table = parse_sliders(got.text)
    assert not table.diagnostics
    assert table.values() == parse_sliders(MANDELBROT).values({"zoom": 12.5, "steps": 33})


def test_world_text_at_the_defaults_is_the_source() -> None:
    for source in (MANDELBROT, LIGHT, "uv()\n", "//@slider 0 a\r\nslider(0)\r\n"):
        assert world_text(source, {}).text == source
        assert world_text(source, None).text == source
        values = {str(s.index): s.default for s in parse_sliders(source).sliders}
        assert world_text(source, values).text == source


def test_world_text_keeps_the_line_around_the_default() -> None:
    source = "let a = 1; //@slider 0 a 0..1\r\n//  @slider 1 b -2 .. 2 =0.5   \nslider(0)\n"
    got = world_text(source, {"0": 0.25, "b": -1.5})
    assert got.text == ("let a = 1; //@slider 0 a 0..1 = 0.25\r\n"
                        "//  @slider 1 b -2 .. 2 = -1.5\nslider(0)\n")


def test_world_text_values_that_no_line_format_writes_exactly() -> None:
    # a float32 value with more than 4 decimals: the nearest 4-decimal number
    got = world_text("//@slider 0 a 0..1\n", {"0": f32(1 / 3)})
    assert got.text == "//@slider 0 a 0..1 = 0.3333\n"
    assert got.sliders[0].value == f32(0.3333)
    # just above the low end: rounding must not leave the range (W016)
    got = world_text("//@slider 0 a 0.1..1\n", {"0": f32(0.100001)})
    assert not parse_sliders(got.text).diagnostics
    assert f32(0.1) <= got.sliders[0].value <= 1.0


@pytest.mark.parametrize("values", [
    {"0": float("nan"), "1": float("inf"), "3": -float("inf")},
    {"0": "12", "1": None, "2": [1], "3": {"x": 1}, "zoom": True},
    {"0": 1e300, "1": -1e300, "steps": 1e-300},
    {"7": 3, "99": 3, "-1": 3, "": 3, "x" * 10_000: 3, "zoom\n": 3},
    ["0", 1], "junk", 12, None,
])
def test_world_text_hostile_values_are_clamped_or_ignored(values: object) -> None:
    got = world_text(MANDELBROT, values)
    table = parse_sliders(got.text)
    assert not table.diagnostics
    for s, start in zip(table.sliders, got.sliders, strict=True):
        assert s.low <= start.value <= s.high and math.isfinite(start.value)
        assert s.default == start.value
    assert len(got.text.split("\n")) == len(MANDELBROT.split("\n"))


def test_clean_values_bounds_what_it_reads() -> None:
    many = {str(k): k for k in range(10_000)}
    assert len(clean_values(many)) == 4 * SLIDERS.count
    assert clean_values({"1": True, "2": 2, "3": 2.5}) == {"2": 2.0, "3": 2.5}


def test_vrchat_text_endpoint() -> None:
    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/vrchat-text",
                                       {"source": MANDELBROT, "sliders": {"0": 500}})).json()
        assert reply["text"].split("\n")[1] == "//@slider 0 zoom 1..400 = 400"
        assert reply["sliders"][0] == {"index": 0, "name": "zoom", "value": 400.0,
                                       "changed": True}
        junk = await post_json(client, "/api/vrchat-text",
                               {"source": MANDELBROT, "sliders": "not a mapping"})
        assert junk.status == 200 and (await junk.json())["text"] == MANDELBROT
        missing = await post_json(client, "/api/vrchat-text", {"sliders": {}})
        assert missing.status == 400
    with_client(body)


# ------------------------------------------------------------------ examples

def test_examples_are_the_worlds_and_include_the_slider_programs() -> None:
    async def body(client: TestClient) -> None:
        listed = (await (await client.get("/api/examples")).json())["examples"]
        names = [e["name"] for e in listed]
        assert names == sorted(p.stem for p in EXAMPLES.glob("*.psl"))
        counts = {e["name"]: e["sliders"] for e in listed}
        assert counts["sliders_mandelbrot_zoom"] == 4 and counts["sliders_raymarch_light"] == 4
        assert counts["scene_simple"] == 0
        one = await (await client.get("/api/examples/sliders_raymarch_light")).json()
        assert one == {"name": "sliders_raymarch_light", "source": LIGHT}
        for bad in ("nope", "..%2F..%2Fpyproject", "sliders_mandelbrot_zoom.psl", "%00"):
            resp = await client.get(f"/api/examples/{bad}")
            assert resp.status == 404, bad
    with_client(body)


# ------------------------------------------------------------------ one source of truth

def test_render_js_names_the_registry_uniform() -> None:
    js = (STATIC / "render.js").read_text("utf-8")
    assert f"const SLIDER_UNIFORM = '{SLIDERS.uniform}';" in js
