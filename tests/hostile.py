"""Hostile programs (issue 37): what one shared program could do to every follower's GPU.
Each is legal PSL that both compilers accept; the VMs must stop every pixel at the same
work budget (docs/spec.md §7.2) with the same colour, and `psl check` must name the cost.

The names say the attack: loops far past the budget, functions inlined inside loops,
per-pixel loop counts (pixels of one group stop at different instructions), an alpha that
would throw the relief surface kilometres, NaN and inf everywhere, a program at the
instruction limit that loops."""

from __future__ import annotations

from tests.vm_support import big

#: loops that would run millions of instructions a pixel without the work budget
DEEP = {
    # the shape: three small functions called inside a while (10.3 M before)
    "three_functions_in_a_while": """
fun a(x) { return sin(x) * 0.5 + cos(x * 1.3); }
fun b(x) { return a(x) + a(x + 1.0) * 0.25; }
fun c(x) { return b(x) * b(x * 0.5); }
u = uv();
s = 0.0;
i = 0.0;
while (i < 100000.0) {
  s = s + c(u.x + i) * 0.001;
  i = i + 1.0;
}
float4(s, s, s, 1.0)
""",
    "nested_loops_with_inlining": """
fun f(p) { return p * 0.999 + p.yzxw * 0.001; }
fun g(p) { return f(f(f(p))); }
c = float4(uv().x, uv().y, 0.5, 1.0);
i = 0.0;
while (i < 1000.0) {
  j = 0.0;
  while (j < 1000.0) { c = g(c); j = j + 1.0; }
  i = i + 1.0;
}
c
""",
    # columns differ in their loop count: some pixels stop at the budget, others finish
    "per_pixel_counts": """
n = floor(uv().x * 8.0) * 300.0;
s = float4(0.0, 0.0, 0.0, 0.0);
i = 0.0;
while (i < n) {
  s = s + float4(sin(i), cos(i * 1.1), sin(i * 0.7) * cos(i), 1.0) * 0.001;
  s = s * 0.999 + s.yzwx * 0.001 + float4(i, i * 0.5, i * 0.25, 0.0) * 0.000001;
  i = i + 1.0;
}
float4(s.x, s.y, i / 2100.0, 1.0)
""",
    # an endless loop of short iterations: the jump limit stops it first
    "endless_short_loop": """
x = 0.0;
while (1) { x = x + 1.0; if (x > 1000000000.0) { x = 0.0; } }
float4(x / 4096.0, 0.0, 0.0, 1.0)
""",
}

#: cheap programs whose values are the attack
VALUES = {
    "huge_alpha": "float4(uv().x, uv().y, 0.5, 1000.0)",
    "negative_infinite_alpha": "float4(1.0, 0.5, 0.25, -1.0 / 0.0)",
    "nan_and_inf_flood": """
u = uv();
a = float4(0.0 / 0.0, 1.0 / 0.0, -1.0 / 0.0, sqrt(-1.0));
i = 0.0;
while (i < 50.0) { a = a * a + log(u.xyxy - 2.0) + pow(-u.x, 0.5); i = i + 1.0; }
a
""",
}


def max_size_loop() -> str:
    """A program close to the instruction limit whose body loops: the largest program a
    player can share, run for as long as the budget lets it."""
    functions = big._functions()  # f0 and its doublings f1..f6 (f6 applies f0 64 times)
    body = "c = f6(c);\n" * 15
    return (functions + big.HEAD + "i = 0.0;\nwhile (i < 1000.0) {\n" + body +
            "i = i + 1.0;\n}\n" + big.TAIL)


def programs() -> dict[str, str]:
    return {**DEEP, **VALUES, "max_size_loop": max_size_loop()}
