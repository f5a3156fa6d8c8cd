"""Spelling of tokens: plain in the VM mode, every legal variant in the compiler mode."""

from __future__ import annotations

import random
from dataclasses import dataclass

from psl import registry
from tests.progen import tables

#: Numbers whose arithmetic stays readable in a failing VM comparison.
PLAIN_NUMBERS = ("0", "1", "2", "3", "0.5", "0.25", "1.5", "10", "0.1", "4", "7.5", "100")
#: Layout the scanner must skip; " // note\n" is a comment between two tokens.
LAYOUT = ("", "  ", "\t", "\n", "\r\n", " // note\n", "\n\t")


@dataclass
class Lexicon:
    rng: random.Random
    wild: bool

    def space(self) -> str:
        """What goes between two tokens that need no separation."""
        if not self.wild or self.rng.random() < 0.85:
            return " "
        return self.rng.choice(LAYOUT)

    def number(self) -> str:
        r = self.rng
        if not self.wild:
            return r.choice(PLAIN_NUMBERS)
        k = r.random()
        if k < 0.4:
            return str(r.randint(0, 10))
        if k < 0.7:
            return f"{r.randint(0, 99)}.{r.randint(0, 999)}"
        if k < 0.8:
            return f"{r.randint(0, 9)}."  # a trailing dot
        if k < 0.88:
            return "0" + str(r.randint(0, 99))  # leading zeros
        if k < 0.95:  # more digits than float32 holds: rounding must agree
            digits = "".join(r.choice("0123456789") for _ in range(r.randint(1, 12)))
            return f"{r.randint(0, 999)}.{digits}"
        return r.choice(["0.1", "0.2", "0.3", "0.00001", "3.14159265358979", "16777217",
                         "10000000000"])

    def builtin(self, b: registry.Builtin) -> str:
        """Builtin names match case-insensitively."""
        k = self.rng.random()
        if k < (0.8 if self.wild else 0.9):
            return b.name
        if not self.wild or k < 0.9:
            return b.name.upper()
        return b.name[:1].upper() + b.name[1:]

    def swizzle(self) -> str:
        r = self.rng
        if self.wild:
            letters = r.choice((*tables.SWIZZLE_SETS, tables.MIXED_SWIZZLE))
            n = r.choice([1, 1, 1, 2, 2, 3, tables.MAX_SWIZZLE])
        else:
            letters = r.choice(tables.SWIZZLE_SETS)
            n = r.randint(1, tables.MAX_SWIZZLE)
        return "".join(r.choice(letters) for _ in range(n))

    def target_swizzle(self) -> str:
        """Lanes to assign; repeated letters (the last write wins) only in the wild."""
        if self.wild:
            return self.swizzle()
        letters = list(self.rng.choice(tables.SWIZZLE_SETS))
        self.rng.shuffle(letters)
        return "".join(letters[: self.rng.randint(1, tables.MAX_SWIZZLE)])
