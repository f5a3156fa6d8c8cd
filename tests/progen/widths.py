"""Random valid PSL programs for the width-inference property test.

The programs exercise what decides a value's width: constructors, swizzles (also past a
value's width), masked assignments, scalar broadcast and mixed widths, padded and unpadded
builtins, reads before assignment, values left in `if` blocks (uneven stack depths),
functions with private variables called several times, pixel-dependent branches and small
constant loops. They avoid arithmetic that can make a NaN from numbers (log, sqrt, asin,
normalize, 0/0, pow, mod by 0, overflow): the VM cannot tell such a NaN from a sentinel,
and the inference, by design, does not model it. Every assigned value is clamped to
[-100, 100], so nothing overflows.
"""

from __future__ import annotations

import random

_LANES = "xyzw"
_BINOPS = ("+", "-", "*", "<", ">", "==", "<=", ">=", "!=", "&&", "||")
_UNARY_BUILTINS = ("sin", "cos", "abs", "floor", "frac", "round", "saturate", "trunc",
                   "length", "all", "any", "tanh")
_BINARY_BUILTINS = ("min", "max", "step", "dot", "cross", "distance", "atan2")
_TERNARY_BUILTINS = ("clamp", "lerp")


class WidthPrograms:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.functions: list[tuple[str, int]] = []
        self.names: list[str] = []

    def program(self) -> str:
        rng = self.rng
        out: list[str] = []
        for k in range(rng.randint(0, 2)):
            out.extend(self.function(f"f{k}"))
        self.names = []
        for _ in range(rng.randint(2, 6)):
            out.extend(self.statement(depth=0))
        out.extend(self.ending())
        return "\n".join(out) + "\n"

    # ----------------------------------------------------------------- structure
    def function(self, name: str) -> list[str]:
        rng = self.rng
        params = [f"{name}p{i}" for i in range(rng.randint(1, 2))]
        outer = self.names
        self.names = list(params)
        body = [f"fun {name}({', '.join(params)}) {{"]
        for _ in range(rng.randint(0, 3)):
            body.extend("    " + line for line in self.statement(depth=1))
        body.append(f"    {self.expr(2)}")
        body.append("}")
        self.names = outer
        self.functions.append((name, len(params)))
        return body

    def ending(self) -> list[str]:
        rng = self.rng
        if rng.random() < 0.3:
            return [f"if ({self.condition()}) {{", f"    {self.expr(2)}", "} else {",
                    f"    {self.expr(2)}", "}"]
        return [self.expr(3)]

    def statement(self, depth: int) -> list[str]:
        rng = self.rng
        roll = rng.random()
        if depth < 2 and roll < 0.15:
            lines = [f"if ({self.condition()}) {{"]
            lines.extend("    " + s for s in self.block(depth + 1, value=rng.random() < 0.2))
            if rng.random() < 0.5:
                lines.append("} else {")
                lines.extend("    " + s for s in self.block(depth + 1,
                                                            value=rng.random() < 0.2))
            lines.append("}")
            return lines
        if depth < 2 and roll < 0.25:
            i = f"i{rng.randint(0, 9)}"
            lines = [f"for (let {i} = 0; {i} < {rng.randint(0, 4)}; {i}++) {{"]
            self.names.append(i)
            lines.extend("    " + s for s in self.block(depth + 1, value=False))
            lines.append("}")
            return lines
        if depth < 2 and roll < 0.3:
            j = f"j{rng.randint(0, 9)}"
            lines = [f"{j} = 0;", f"while ({j} < {rng.randint(0, 3)}) {{"]
            self.names.append(j)
            lines.extend("    " + s for s in self.block(depth + 1, value=False))
            lines.append(f"    {j} += 1;")
            lines.append("}")
            return lines
        return [self.assignment()]

    def block(self, depth: int, value: bool) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 2)):
            lines.extend(self.statement(depth))
        if value:
            lines.append(self.expr(1))  # a value left on the stack (W005)
        return lines

    def assignment(self) -> str:
        rng = self.rng
        fresh = not self.names or rng.random() < 0.4
        name = f"v{rng.randint(0, 5)}" if fresh else rng.choice(self.names)
        value = f"clamp({self.expr(2)}, -100, 100)"
        roll = rng.random()
        if not fresh and roll < 0.2:
            lanes = "".join(rng.sample(_LANES, rng.randint(1, 3)))
            line = f"{name}.{lanes} = {value};"
        elif not fresh and roll < 0.35:
            line = f"{name} {rng.choice(['+=', '-='])} {value};"
        else:
            line = f"{name} = {value};"
        if name not in self.names:
            self.names.append(name)
        return line

    # --------------------------------------------------------------- expressions
    def condition(self) -> str:
        rng = self.rng
        if rng.random() < 0.6:
            return f"uv().{rng.choice('xy')} > {rng.choice(['0.3', '0.5', '0.7'])}"
        return self.expr(1)

    def expr(self, depth: int) -> str:
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf()
        roll = rng.random()
        d = depth - 1
        if roll < 0.3:
            return f"({self.expr(d)} {rng.choice(_BINOPS)} {self.expr(d)})"
        if roll < 0.4:
            return f"{rng.choice(['-', '!'])}{self.expr(d)}"
        if roll < 0.5:
            return f"({self.expr(d)} / (abs({self.expr(d)}) + 1))"
        if roll < 0.6:
            lanes = "".join(rng.choice(_LANES) for _ in range(rng.randint(1, 4)))
            return f"({self.expr(d)}).{lanes}"
        if roll < 0.7:
            n = rng.randint(2, 4)
            return f"float{n}({', '.join(self.expr(d) for _ in range(n))})"
        if roll < 0.8:
            return f"{rng.choice(_UNARY_BUILTINS)}({self.expr(d)})"
        if roll < 0.87:
            return f"{rng.choice(_BINARY_BUILTINS)}({self.expr(d)}, {self.expr(d)})"
        if roll < 0.92:
            args = ", ".join(self.expr(d) for _ in range(3))
            return f"{rng.choice(_TERNARY_BUILTINS)}({args})"
        if self.functions:
            name, arity = rng.choice(self.functions)
            return f"{name}({', '.join(self.expr(d) for _ in range(arity))})"
        return self.leaf()

    def leaf(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35 and self.names:
            return rng.choice(self.names)
        if roll < 0.4:
            return f"u{rng.randint(0, 2)}"  # never assigned: reads (0, 0, 0, 0)
        if roll < 0.6:
            return rng.choice(["uv()", "xy()", "time()"])
        return rng.choice(["0", "0.5", "1", "2", "3"])


def width_program(seed: int) -> str:
    return WidthPrograms(random.Random(f"widths:{seed}")).program()
