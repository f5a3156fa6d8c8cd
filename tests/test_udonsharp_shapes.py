"""The in-world compiler against psl on programs made from the spec's shapes and limits
(tests/shapegen), not the grammar: joins right before calls with forwarded arguments,
counted loops at the unroll budget before and after hoist, programs at the instruction,
register, stack, nesting and text limits. Byte for byte at -O0 and -O1, no exception.
bench/bench_shapes.py runs the long campaign (bench/results/shapes-campaign.md)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests import shapegen
from tests.csharp_support import build as csbuild
from tests.test_udonsharp_diff import mismatches

pytestmark = pytest.mark.skipif(not csbuild.tools_available(),
                                reason="mono-mcs/mono-runtime not installed")

#: programs per cheap kind and per limit kind in CI (the campaign runs 20,000+ in all)
COUNT = int(os.environ.get("PSL_SHAPES_COUNT", "240"))
LIMIT_COUNT = int(os.environ.get("PSL_SHAPES_LIMIT_COUNT", "24"))

# The three cases the issue reported, then what the shape generator found beside them
REGRESSIONS = [
    # A: a jump to the join before a call whose first argument forwarding moves (its
    # SETVAR comes after the second argument's tree) landed inside pow(10, 2)
    "fun f(p, y) { p * 2 + y }\nif (uv().x < 0.5) { k = uv().y; }\nf(uv().x + 1, pow(10, 2))\n",
    "fun f(p, y) { p * 2 + y }\nif (uv().x < 0.5) { k = uv().y; } else { m = 1; }\n"
    "f(uv().x + 1, pow(10, 2))\n",
    "fun f(p, y, z) { p * 2 + y - z }\nw = 0; while (w < uv().x) { w = w + 0.25; }\n"
    "f(sin(uv().x), uv().y * 3, pow(2, uv().x))\n",
    # B: unroll's budget counted on the code before hoist (psl: after it)
    "s = 0; for (i = 0; i < 110; i++) { s = s + uv().x; } s\n",
]


@pytest.fixture(scope="module")
def host(tmp_path_factory) -> Path:
    return csbuild.shared_host(tmp_path_factory)


def test_reported_cases(host):
    assert mismatches(host, REGRESSIONS) == []


def test_unroll_split_by_hoist_at_the_limit(host):
    """C's shape: loops whose copies fit the instruction limit on the code before hoist and
    not after it (or the other way round); the in-world compiler decides on hoist's code."""
    found = []
    seed = 0
    while len(found) < 4 and seed < 40:
        shape = shapegen.shapes.unroll_at_limit(random.Random(seed))
        if "unroll_limit_split_by_hoist" in shape.tags:
            found.append(shape.text)
        seed += 1
    assert len(found) == 4
    assert mismatches(host, found) == []


@pytest.mark.parametrize("kind", sorted(k for k in shapegen.KINDS if k != "limit"))
def test_shapes(host, kind):
    sources = [s.text for _, s in shapegen.generate_many(COUNT, kinds=[kind])]
    assert mismatches(host, sources) == []


def test_limits(host):
    sources = [s.text for _, s in shapegen.generate_many(LIMIT_COUNT, start=10_000,
                                                         kinds=["limit"])]
    assert mismatches(host, sources) == []


def test_generator_reaches_its_shapes():
    """Each shape the generator is for appears in a small sample."""
    tags: set[str] = set()
    for _, shape in shapegen.generate_many(160, start=20_000):
        tags.update(shape.tags)
    assert {"join_before_call", "budget_split_by_hoist", "budget_edge_after_hoist",
            "trips_at_max", "instruction_limit", "register_limit", "stack_limit",
            "hoist_in_dead_branch", "hoist_in_loop"} <= tags, tags
