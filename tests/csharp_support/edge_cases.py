"""Hand-picked programs that probe the corners of the compiler contract (ties between
errors, positions, limits, scope order, number parsing, Unicode, deep chains)."""

from __future__ import annotations

EDGE_CASES: list[str] = [
    # E018 and its ties with call errors (lower code wins at the same position)
    "foo() = 1;", "sin(1,2) = 1;", "(x) = 1;", "((1+2)) = 3;", "(-x) = 1;", "x.y.z = 1;",
    "(x.y).z = 1;", "f(1).x = 2; fun f(a){a}", "1 .x = 2;", "x.q.z = 1;", "x.xyzwx = 1;",
    # recursion, nested and duplicate functions, builtin names
    "fun f(a){ f(a) } x = f(1)(2);",
    "fun f(a){ if (1) { fun g() { f(1) } } a } y = f(2);",
    "fun f(a){ g(a) } fun g(b){ h(b) } fun h(c){ f(c) + g(c) } z = f(1);",
    "fun f(a){ f() }", "fun f(a){ 1 } fun f(b){ 2 } x = f(1,2);",
    "x = f(1,2); fun f(a){ 1 } fun f(b, c){ 2 }",
    "x = sin(1,2); fun sin(a,b){a}", "fun sin(a){a} fun sin(b){b}", "fun SIN(a){a}",
    # characters, Unicode, numbers
    "x = 1; // \U0001F600 comment", "x = // \U0001F600", "x = \U0001F600;", "x = \u00e9;",
    "x = \x07;", "x = &1;", "x = a | b;", "x = 1.2.3 + @;", "x = @ + 1.2.3;",
    "x = 123456789012345678901234567890;",
    "x = 0.000000000000000000000000000000000000000000001;",
    "x = 1" + "0" * 400 + ";", "x = 0." + "0" * 400 + "1;",
    "x = 0.1000000000000000055511151231257827;", "x = 16777217;", "x = 9007199254740993;",
    "x = 1.00000005960464477539062;", "x = 1.000000059604644775390625;",
    "x = 1.0000000596046447753906251;", "x = 0.1; y = 0.2; z = 0.3; w = 3.14159265358979;",
    "x = 00012.500; y = 7.; z = 0.000001;",
    # long flat chains (no recursion per element)
    "x = " + "-" * 5000 + "1;", "x = " + "!" * 3000 + "+1;",
    "if (1) {1} " + " else if (2) {2}" * 1500,
    "x = " + "(" * 64 + "1" + ")" * 64 + ";", "x = " + "(" * 65 + "1" + ")" * 65 + ";",
    # syntax positions
    "", " ", "\n\n", "x", "x;", "return x;", "return x; y", "}", "{", "fun", "fun f", "fun f(",
    "fun f(a,", "fun f(a,)", "if", "if (", "if (1)", "if (1) {", "if (1) {} else",
    "if (1) {} else x", "while (1) {} 3", "for (;;) {}", "for (x=1; x<3; x++) { }",
    "for (let x=1; x<3; set x++) { x }", "for (x=1; x<3; x) {}", "let x;", "let x y",
    "let -x = 1;", "x = 1 = 2;", "a.b", "a.", "a.1", "1.x", "1..x", "x = .5;",
    "x.xy += 1; x.y++; x--; x *= 2; x /= 3; x -= 1;", "x = 1 x = 2", "x == 1;", "x = (1;",
    "x = 1);", "f(", "\ufeffx = 1;", "x = 1\u00a0;", "x = 1;\r\ny = 2;\r\n\tz",
    "x\t=\t1;\n  y = x +",
    # scope in emission order, registers, inlining
    "x = f(); fun f() {}", "fun f(){} fun g(){f()} x = g() + g();",
    "fun f(a, a) { a } x = f(1, 2);", "x = 1; x",
    "v = 1; fun f() { v = v + 1; w = 2; w } a = f(); w = 3; b = f(); w",
    "fun f() { w } w = f(); w = f();", "fun f() { w } a = f(); w = 1; b = f();",
    "fun f(x) { x.y = 2; x } q = f(1);",
    "x = audiolinkgetversion(); y = AudioLinkData(uv()); z = swizzle(1, 2);", "x = SWIZZLE(1);",
    "fun g0(){1}\n" + "".join(f"fun g{i}(){{ g{i - 1}() }}\n" for i in range(1, 300))
    + "x = g299() + g299();",
    # limits
    "x = 1;" * 5000, "x = 1;" * 3000 + "y", " " * 32769, "\U0001F600" * 20000,
    "//" + "\U0001F600" * 16383 + "\nx", "//" + "\U0001F600" * 16384 + "\nx",
    "x=1;" + "x" * 40000, "\n".join(f"v{i} = {i};" for i in range(257)) + "\nv0",
    "\n".join(f"v{i} = {i};" for i in range(256)) + "\nv0",
    "x = 1;" + "x = x + 1;" * 511, "x = 1;" + "x = x + 1;" * 510 + "x",
]

EDGE_CASES += [
    # float32 rounding ties and near-ties reached through the exact slow path
    "x = 340282356779733661637539395458142568448;",
    "x = 340282356779733661637539395458142568447.99999999;",
    "x = 340282356779733642748073463979561713664;",
    "x = 1.00000005960464477539062500000000000000001;",
    # half the smallest float32 denormal, exactly and just below
    "x = 0." + "0" * 45 + "70064923216240853546186479164495806564013097093825788587853414"
    "1944895541342930300743319094181060791015625;",
    "x = 0." + "0" * 45 + "70064923216240853546186479164495806564013097093825788587853414"
    "194489554134293030074331909418106079101562;",
    "x = 3.14159265358979323846264338327950288419716939937510582097494459;",
    "x = 1" + "0" * 38 + ".5;", "x = 9" * 1 + "9" * 60 + ";",
]

EDGE_CASES += [
    # loops nested LIMITS.optimize_loop_nesting deep are optimized, one deeper left as -O0
    "x = 0;\n" + "".join(f"for (let i{d} = 0; i{d} < 2; i{d}++) {{\n" for d in range(8))
    + "x = x + 1;\n" + "}\n" * 8 + "x",
    "x = 0;\n" + "".join(f"for (let i{d} = 0; i{d} < 2; i{d}++) {{\n" for d in range(9))
    + "x = x + 1;\n" + "}\n" * 9 + "x",
]

EDGE_CASES += [
    # forward near LIMITS.stack (128): the stack reaches 127 where t is read, so moving
    # t's tree there would reach 128 and forward is not applied (docs/spec.md §10.6); one
    # level less, it is
    "let a = uv().x; let b = uv().y; let t = a * b" + " + b" * extra + "; return float4("
    + "float4(1, 1, 1, " * levels + "t" + ").w" * levels + ", 0, 0, 1);"
    for levels in (41, 42) for extra in (0, 2)
]

EDGE_CASES += [
    # backward jumps one after another, with an expression of the frame in each body (hoist
    # counts it 16 times in a loop): the in-world optimizer counts a few loops' spans pair by
    # pair for the nesting check and asks them for hoist's in_loop; with more than 8 of them,
    # or more than the square root of the instruction count, it sums difference arrays
    "let a = 0;\n" + "for (let i = 0; i < 3; i++) { a = a + sin(time().x * 3.0) * 0.5 + i; }\n"
    * loops + "return float4(a, 0, 0, 1);"
    for loops in (1, 3, 9, 40)
]

#: Documented divergence (docs/compiler-contract.md): counts beyond 10^18 (saturated in C#).
KNOWN_DIVERGENCES: list[str] = [
    "fun a0(q){q*q+q}\n" + "".join(f"fun a{i}(q){{a{i - 1}(q)+a{i - 1}(q)}}\n"
                                    for i in range(1, 80)) + "x = a79(1);",
    "fun a0(q){q}\n" + "".join(f"fun a{i}(q){{a{i - 1}(q)*a{i - 1}(q)*a{i - 1}(q)}}\n"
                                for i in range(1, 60)) + "x = 1 + a59(1) + a3(2);\nx",
    "fun b0(q){q+1}\n" + "".join(f"fun b{i}(q){{b{i - 1}(q)+b{i - 1}(q)}}\n"
                                  for i in range(1, 70)) + "y = b69(b69(1));\ny",
]
