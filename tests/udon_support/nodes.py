"""VRChat's Udon node list (udon_nodes.txt): the externs an Udon program may call."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from tests.udon_support.checker import Site

NODES_FILE = Path(__file__).with_name("udon_nodes.txt")


@lru_cache(maxsize=1)
def udon_nodes() -> frozenset[str]:
    return frozenset(line.strip() for line in NODES_FILE.read_text(encoding="utf-8").splitlines()
                     if line.strip())


def not_exposed(sites: Iterable[Site]) -> list[Site]:
    """The sites whose extern Udon does not expose: UdonSharp refuses such a script."""
    nodes = udon_nodes()
    return [s for s in sites if s.extern not in nodes]
