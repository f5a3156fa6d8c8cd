"""Random PSL programs for differential tests: one generator, three modes, valid or not.

    generate(seed, valid=True, mode="compiler") -> str
    generate_many(count, valid, start=0, mode="compiler") -> list[str]

Modes (tests/progen/modes.py): "compiler" walks the whole surface syntax (for comparing the
two compilers); "vm" writes programs whose values flow, with `self()` feedback, loops ended
by the jump limit and every builtin, AudioLink's included (for comparing the VMs); "deep"
nests control flow many levels deep and wide (for the width inference's work budget).

`valid=True` gives a program that follows the grammar and the semantic rules; it usually
fits the VM limits but is not guaranteed to (very rarely E030/E031). `valid=False` gives
that program with one mutation (tests/progen/mutations.py), mostly an error somewhere.
The same (seed, valid, mode) always gives the same text.
"""

from __future__ import annotations

import random

from tests.progen.generator import Generator
from tests.progen.modes import COMPILER, DEEP, MODES, VM, Mode
from tests.progen.mutations import mutate

__all__ = ["COMPILER", "DEEP", "MODES", "VM", "Mode", "generate", "generate_many"]


def generate(seed: int, valid: bool = True, mode: str = "compiler") -> str:
    """One random program; the same (seed, valid, mode) always gives the same text."""
    # A string seed is hashed with SHA-512, so it does not depend on PYTHONHASHSEED.
    rng = random.Random(f"{mode}:{'valid' if valid else 'invalid'}:{seed}")
    text = Generator(rng, MODES[mode]).program()
    return text if valid else mutate(rng, text)


def generate_many(count: int, valid: bool, start: int = 0, mode: str = "compiler") -> list[str]:
    return [generate(start + k, valid, mode) for k in range(count)]
