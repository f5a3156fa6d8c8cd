"""A small grammar-based generator of random valid PSL programs (SPEC §2-3).

Programs use every callable builtin of the registry (arity from the registry), every
operator, swizzles, swizzle assignments, compound assignments, if/else, bounded while and
for loops, the occasional unbounded loop (which ends at the jump limit) and user functions.
The same seed always gives the same program.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from psl import registry

CALLABLE = [b for b in registry.BUILTINS if not b.internal]
NUMBERS = ("0", "1", "2", "3", "0.5", "0.25", "1.5", "10", "0.1", "4", "7.5", "100")
BINOPS = [o.symbol for o in registry.BINARY_OPERATORS]
UNOPS = [u.symbol for u in registry.UNARY_OPERATORS]


@dataclass
class _Gen:
    rng: random.Random
    functions: list[tuple[str, int]] = field(default_factory=list)
    globals_: list[str] = field(default_factory=lambda: ["g0", "g1", "g2", "g3"])
    loop_id: int = 0
    budget: int = 0  # expression nodes left, keeps programs small

    def swizzle(self) -> str:
        letters = self.rng.choice(registry.SWIZZLE_SETS)
        return "".join(self.rng.choice(letters) for _ in range(self.rng.randint(1, 4)))

    def expr(self, depth: int, names: list[str]) -> str:
        self.budget -= 1
        r = self.rng.random()
        if depth <= 0 or self.budget <= 0 or r < 0.22:
            return self.leaf(names)
        if r < 0.50:
            b = self.rng.choice(CALLABLE)
            args = ", ".join(self.expr(depth - 1, names) for _ in range(b.arity))
            name = b.name if self.rng.random() < 0.9 else b.name.upper()
            return f"{name}({args})"
        if r < 0.72:
            op = self.rng.choice(BINOPS)
            return f"{self.expr(depth - 1, names)} {op} {self.expr(depth - 1, names)}"
        if r < 0.80:
            operand = self.expr(depth - 1, names)
            space = " " if operand[0] in "+-!" else ""  # `- -x`, not the `--` token
            return f"{self.rng.choice(UNOPS)}{space}{operand}"
        if r < 0.90:
            return f"({self.expr(depth - 1, names)}).{self.swizzle()}"
        if r < 0.96 and self.functions:
            name, arity = self.rng.choice(self.functions)
            args = ", ".join(self.expr(depth - 1, names) for _ in range(arity))
            return f"{name}({args})"
        return f"({self.expr(depth - 1, names)})"

    def leaf(self, names: list[str]) -> str:
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice(NUMBERS)
        if r < 0.75 and names:
            name = self.rng.choice(names)
            return f"{name}.{self.swizzle()}" if self.rng.random() < 0.3 else name
        return self.rng.choice(["uv()", "xy()", "time()", "uv().x", "xy().yx", "float2(1, 2)",
                                "float3(0.5, 1, 2)", "float4(1, 2, 3, 4)", "resolution()"])

    def statements(self, depth: int, names: list[str], count: int) -> list[str]:
        out = []
        for _ in range(count):
            out.extend(self.statement(depth, names))
        return out

    def statement(self, depth: int, names: list[str]) -> list[str]:
        target = self.rng.choice(names)
        r = self.rng.random()
        e = self.expr(3, names)
        if r < 0.40 or depth <= 0:
            kw = self.rng.choice(["", "", "let ", "set "])
            return [f"{kw}{target} = {e};"]
        if r < 0.52:
            return [f"{target}.{self.distinct_swizzle()} = {e};"]
        if r < 0.62:
            op = self.rng.choice(list(registry.COMPOUND_ASSIGN))
            sw = f".{self.distinct_swizzle()}" if self.rng.random() < 0.3 else ""
            return [f"{target}{sw} {op} {e};"]
        if r < 0.66:
            return [f"{target}{self.rng.choice(list(registry.INCREMENT))};"]
        if r < 0.80:
            lines = [f"if ({self.expr(2, names)}) {{"]
            lines += ["    " + s for s in self.statements(depth - 1, names, 2)]
            if self.rng.random() < 0.5:
                lines.append("} else {")
                lines += ["    " + s for s in self.statements(depth - 1, names, 1)]
            lines.append("}")
            return lines
        self.loop_id += 1
        counter = f"i{self.loop_id}"
        bound = self.rng.randint(0, 4)
        body = ["    " + s for s in self.statements(depth - 1, names + [counter], 2)]
        if self.rng.random() < 0.5:
            return [f"for ({counter} = 0; {counter} < {bound}; {counter}++) {{", *body, "}"]
        if self.rng.random() < 0.06:  # never ends: stopped by the jump limit
            return ["while (1) {", *body, "}"]
        return [f"{counter} = 0;", f"while ({counter} < {bound}) {{", *body,
                f"    {counter} += 1;", "}"]

    def distinct_swizzle(self) -> str:
        letters = list(self.rng.choice(registry.SWIZZLE_SETS))
        self.rng.shuffle(letters)
        return "".join(letters[: self.rng.randint(1, 4)])

    def function(self, index: int) -> list[str]:
        arity = self.rng.randint(0, 3)
        params = [f"p{k}" for k in range(arity)]
        names = params + [f"t{index}"] + self.globals_[:2]
        lines = [f"fun f{index}({', '.join(params)}) {{"]
        lines += ["    " + s for s in self.statements(1, names, self.rng.randint(0, 2))]
        final = self.expr(3, names)
        lines.append(f"    return {final};" if self.rng.random() < 0.5 else f"    {final}")
        lines.append("}")
        self.functions.append((f"f{index}", arity))
        return lines


def generate(seed: int) -> str:
    """A random valid PSL program (the compiler may still reject a rare one)."""
    rng = random.Random(seed)
    g = _Gen(rng, budget=rng.randint(20, 70))
    lines: list[str] = []
    for k in range(rng.randint(0, 2)):
        lines += g.function(k)
    lines += g.statements(2, g.globals_, rng.randint(1, 5))
    if rng.random() < 0.2:
        lines.append(f"g0 = self({g.expr(2, g.globals_)}) * 0.5 + g0;")
    final = g.expr(4, g.globals_)
    lines.append(f"return {final};" if rng.random() < 0.3 else final)
    return "\n".join(lines) + "\n"
