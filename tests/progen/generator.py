"""The grammar walk: expressions, statements, functions and programs, as a mode asks.

Valid by construction: functions only at the top level, each defined once, called with
its arity and only from later functions (so never recursive), swizzles of at most four
letters of one set or both, assignment targets that are a name or a name's swizzle.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.progen import tables
from tests.progen.lexicon import Lexicon
from tests.progen.modes import Mode

INDENT = "    "


def indent(lines: list[str]) -> list[str]:
    return [INDENT + line for line in lines]


@dataclass
class Generator:
    rng: random.Random
    mode: Mode
    lex: Lexicon = field(init=False)
    functions: list[tuple[str, int]] = field(default_factory=list)  # callable so far
    budget: int = 0  # expression nodes left
    loops: int = 0  # counters are i1, i2, ... so nested loops do not share one

    def __post_init__(self) -> None:
        self.lex = Lexicon(self.rng, self.mode.wild)

    # ------------------------------------------------------------------ expressions
    def expr(self, depth: int, names: list[str]) -> str:
        r = self.rng
        self.budget -= 1
        k = r.random()
        if depth <= 0 or self.budget <= 0 or k < 0.25:
            return self.leaf(names)
        if k < 0.50:
            return self.call(depth - 1, names)
        if k < 0.70:
            return self.binary(r.choice(tables.BINOPS), self.expr(depth - 1, names),
                               self.expr(depth - 1, names))
        if k < 0.78:
            operand = self.postfix(depth - 1, names) if r.random() < 0.5 \
                else self.expr(depth - 1, names)
            op = r.choice(tables.UNOPS)
            return f"{op}{' ' if operand[0] in '+-' else ''}{operand}"  # `- -x`, not `--x`
        if k < 0.90:
            return f"{self.swizzle_base(self.postfix(depth - 1, names))}.{self.lex.swizzle()}"
        return f"({self.expr(depth - 1, names)})"

    def binary(self, op: str, left: str, right: str) -> str:
        before, after = self.lex.space(), self.lex.space()
        if not after and right[0] in "+-":
            after = " "  # `a - -b`, not the `--` token
        return f"{left}{before}{op}{after}{right}"

    def postfix(self, depth: int, names: list[str]) -> str:
        """What a swizzle or a unary operator binds to without parentheses."""
        k = self.rng.random()
        if depth <= 0 or k < 0.5:
            return self.leaf(names)
        if k < 0.8:
            return self.call(depth - 1, names)
        return f"({self.expr(depth - 1, names)})"

    def swizzle_base(self, text: str) -> str:
        """A number directly before `.` would swallow the dot (`5.x` is `5.` then `x`)."""
        if text[:1].isdigit():
            return text + " " if self.mode.wild and self.rng.random() < 0.3 else f"({text})"
        return text

    def leaf(self, names: list[str]) -> str:
        r = self.rng
        k = r.random()
        if k < 0.35:
            return self.lex.number()
        if k < 0.75 and names:
            name = r.choice(names)
            return f"{name}.{self.lex.swizzle()}" if r.random() < 0.25 else name
        if k >= 1.0 - 0.25 * self.mode.slider_reads:
            # the top of k's range, so programs without slider reads keep their draws
            text = f"{self.lex.builtin(tables.SLIDER)}({r.choice(tables.SLIDER_INDICES)})"
        else:
            text = f"{self.lex.builtin(r.choice(tables.INPUTS))}()"
        return f"{text}.{self.lex.swizzle()}" if r.random() < 0.25 else text

    def call(self, depth: int, names: list[str]) -> str:
        r = self.rng
        if self.functions and r.random() < 0.3:
            name, arity = r.choice(self.functions)
        else:
            b = r.choice(tables.CALLABLE)
            name, arity = self.lex.builtin(b), b.arity
        return f"{name}({', '.join(self.expr(depth, names) for _ in range(arity))})"

    # ------------------------------------------------------------------ statements
    def assignment(self, names: list[str]) -> str:
        """Without the `;`: for headers use the same forms."""
        r = self.rng
        prefix = r.choice(["", "", "let ", "set "])
        target = r.choice(names)
        if r.random() < 0.25:
            target += "." + self.lex.target_swizzle()
        k = r.random()
        if k < 0.6:
            return f"{prefix}{target}{self.lex.space()}={self.lex.space()}{self.expr(3, names)}"
        if k < 0.85:
            return f"{prefix}{target} {r.choice(tables.COMPOUND)} {self.expr(3, names)}"
        return f"{prefix}{target}{r.choice(tables.INCREMENT)}"

    def block(self, depth: int, names: list[str], count: int, last: str = "") -> list[str]:
        """Statements, then `last` (a loop's step), then maybe a value (it must end a block)."""
        lines = self.statements(depth, names, count)
        if last:
            lines.append(last)
        if self.rng.random() < self.mode.block_values:
            value = self.expr(2, names)
            lines.append(f"return {value};" if self.rng.random() < 0.3 else value)
        return indent(lines)

    def statements(self, depth: int, names: list[str], count: int) -> list[str]:
        lines: list[str] = []
        for _ in range(count):
            lines += self.statement(depth, names)
        return lines

    def statement(self, depth: int, names: list[str]) -> list[str]:
        r = self.rng
        k = r.random()
        if depth <= 0 or self.budget <= 0 or k < self.mode.assign_below:
            return [self.assignment(names) + ";"]
        if k < self.mode.if_below:
            return self.if_chain(depth, names)
        return self.loop(depth, names)

    def if_chain(self, depth: int, names: list[str]) -> list[str]:
        r = self.rng
        lines = [f"if ({self.expr(2, names)}) {{", *self.block(depth - 1, names, r.randint(0, 2))]
        while r.random() < self.mode.else_if:
            lines += [f"}} else if ({self.expr(2, names)}) {{",
                      *self.block(depth - 1, names, r.randint(0, 2))]
        if r.random() < 0.5:
            lines += ["} else {", *self.block(depth - 1, names, r.randint(0, 2))]
        return [*lines, "}"]

    def loop(self, depth: int, names: list[str]) -> list[str]:
        r = self.rng
        if r.random() < self.mode.free_loops:
            # any condition: most never hold, some hold forever (the jump limit ends them)
            body = self.block(depth - 1, names, r.randint(0, 2))
            if r.random() < 0.5:
                return [f"while ({self.expr(2, names)}) {{", *body, "}"]
            init, step = self.assignment(names), self.assignment(names)
            return [f"for ({init}; {self.expr(2, names)}; {step}) {{", *body, "}"]
        self.loops += 1
        i = f"i{self.loops}"
        bound = r.randint(0, 4)
        inner = [*names, i]
        if r.random() < self.mode.endless_loops:
            return ["while (1) {", *self.block(depth - 1, inner, r.randint(1, 2)), "}"]
        if r.random() < 0.5:
            body = self.block(depth - 1, inner, r.randint(1, 2))
            return [f"for ({i} = 0; {i} < {bound}; {i}++) {{", *body, "}"]
        body = self.block(depth - 1, inner, r.randint(1, 2), last=f"{i} += 1;")
        return [f"{i} = 0;", f"while ({i} < {bound}) {{", *body, "}"]

    def arguments(self, count: int, names: list[str]) -> str:
        return ", ".join(self.expr(1, names) for _ in range(count))

    # ------------------------------------------------------------------ program
    def function(self, index: int) -> list[str]:
        r = self.rng
        mode = self.mode
        name = r.choice(mode.function_names) + str(index)
        params = r.sample(mode.params, r.randint(0, min(3, len(mode.params))))
        names = [*params, f"t{index}", *mode.function_globals]
        body = indent(self.statements(mode.function_nesting, names, r.randint(0, 3)))
        final = self.expr(3, names)
        body.append(f"{INDENT}return {final};" if r.random() < 0.4 else INDENT + final)
        # added after the body: a function calls only earlier ones, so never itself
        self.functions.append((name, len(params)))
        return [f"fun {name}({', '.join(params)}) {{", *body, "}"]

    def slider_lines(self) -> list[str]:
        """`//@slider` lines for some of the indices (comments to the compilers; the VMs
        read the values a host sets); in the wild, odd spacing and now and then a line
        the world ignores (W015) or a default outside the range (W016)."""
        r = self.rng
        out = []
        for index in r.sample(tables.SLIDER_INDICES[:-1], r.randint(1, 3)):
            low = r.choice(("0", "-1", "0.5", "-2.25", "10"))
            high = r.choice(("1", "4", "100.5"))
            default = r.choice(("0", "0.5", "1", "3", "-7"))
            gap = r.choice(("", " ", "\t")) if self.mode.wild else ""
            name = f"s{index}"
            line = f"//{gap}{tables.SLIDER_MARKER} {index} {name} {low}..{high} = {default}"
            if self.mode.wild and r.random() < 0.15:
                line = r.choice((f"//{tables.SLIDER_MARKER} {index}",  # no name: W015
                                 f"//{tables.SLIDER_MARKER} {index} {name} 2..1",
                                 f"//{tables.SLIDER_MARKER} {index + 8} far"))
            out.append(line)
        return out

    def program(self) -> str:
        r = self.rng
        mode = self.mode
        self.budget = r.randint(*mode.budget)
        names = list(mode.globals_)
        definitions = [self.function(k) for k in range(r.choice(mode.function_counts))]
        calls = [[f"{r.choice(names)} += {name}({self.arguments(n, names)});"]
                 for name, n in self.functions for _ in range(mode.function_calls)]
        body = [self.statements(mode.nesting, names, 1)
                for _ in range(r.randint(*mode.statements))]
        for call in calls:
            body.insert(r.randint(0, len(body)), call)
        if r.random() < mode.self_feedback:
            g = r.choice(names)
            body.append([f"{g} = {self.lex.builtin(tables.SELF)}({self.expr(2, names)}) * 0.5 "
                         f"+ {g};"])
        # functions may be defined before or after their calls (top level only)
        for d in definitions:
            body.insert(r.randint(0, len(body)), d)
        lines = [line for part in body for line in part]
        final = r.random()
        if final >= mode.no_final:
            value = self.expr(4, names)
            lines.append(f"return {value};" if r.random() < 0.25 else value)
        if mode.slider_lines and r.random() < mode.slider_lines:  # (no draw when 0)
            lines[:0] = self.slider_lines()
        text = "\n".join(lines)
        if mode.wild and r.random() < 0.1:
            text = "// generated\n" + text
        if mode.wild and r.random() < 0.5:
            return text  # the last token ends the text
        return text + "\n"
