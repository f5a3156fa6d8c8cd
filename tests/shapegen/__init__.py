"""A second program generator, written from the spec's shapes and limits instead of the
grammar (tests/progen walks the grammar). Each kind aims at a place where the optimizer
(docs/spec.md §10) decides something on the code, and at the bounds it decides against:

    join_call   a join point (end of an `if`, `if`/`else`, loop exit) right before a call
                of a user function whose arguments dse's forwarding moves (§10.6 landings)
    unroll      counted loops whose trip count puts `count × body` at the unroll budget,
                one below and one above it, measured on the code before and after hoist
                (§10.8, §10.9), trip counts at MAX_TRIPS, loops with hoistable inputs
    limit       programs at and just under the instruction limit (with loops that would
                unroll past it, and hoists that grow the code), the register limit, the
                stack limit (forwarding that would deepen the stack past it) and the loop
                nesting the optimizer accepts, and one past it
    hoist       hoistable inputs in loops, in branches never taken, in loop conditions

    generate(seed, kind) -> Shape                 # .text, .tags (what it holds)
    generate_many(count, start=0, kinds=KINDS) -> list[tuple[str, Shape]]   # kinds in turn

The same (seed, kind) always gives the same text. The measuring kinds compile with psl to
put a program on a boundary (tests/shapegen/measure.py)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from tests.shapegen.shapes import KINDS, Shape


def generate(seed: int, kind: str) -> Shape:
    rng = random.Random(f"shape:{kind}:{seed}")
    return KINDS[kind](rng)


def generate_many(count: int, start: int = 0,
                  kinds: Iterable[str] = KINDS) -> list[tuple[str, Shape]]:
    """`count` programs, the kinds taken in turn (seed start + k)."""
    order = sorted(kinds)
    return [(order[k % len(order)], generate(start + k, order[k % len(order)]))
            for k in range(count)]


__all__ = ["KINDS", "Shape", "generate", "generate_many"]
