"""The in-world reference panel's text (ABOUT, SYNTAX, BUILTINS, AUDIOLINK, INSTRUCTIONS),
generated from the registry so that it lists every builtin with its arity and description
and every opcode. The prefab's reference panel shows it (uGUI rich text); `psl-gen docs`
writes the same text to docs/world-reference.txt, which a freshness test compares."""

from __future__ import annotations

from psl import registry

#: one line per opcode; a test checks that every registry.Op has one
OP_LINES: dict[str, str] = {
    "END": "ends the program (also any slot whose opcode reads 0)",
    "PUSHCONST": "push a constant (number, or swizzle lanes)",
    "PUSHVAR": "push register r",
    "BINOP": "pop b, a; push a op b (operator id)",
    "UNOP": "pop a; push op a (operator code)",
    "CALL": "call builtin id with its arity's arguments",
    "SETVAR": "pop into register r, all lanes or the mask's",
    "JUMP": "go to slot t",
    "CONDJUMP": "pop; go to slot t when its x is 0",
}

#: section titles: bold and coloured (uGUI's legacy Text knows b, i, size=N and color tags;
#: sizes are absolute, so titles keep the panel's size)
_TITLE = "<b><color=#ffd27f>{}</color></b>"


def _section(title: str, lines: list[str]) -> list[str]:
    return [_TITLE.format(title), *lines, ""]


def _builtin_line(b: registry.Builtin) -> str:
    params = ", ".join("abcd"[k] for k in range(b.arity))
    return f"<b>{b.name}</b>({params})  {b.doc}"


def reference_text() -> str:
    limits = registry.LIMITS
    core = [b for b in registry.BUILTINS if not b.extension and not b.internal]
    audiolink = [b for b in registry.BUILTINS if b.extension == "audiolink"]
    binops = "  ".join(f"{b.symbol} {b.id}" for b in registry.BINARY_OPERATORS)
    unops = "  ".join(f"{u.symbol} {u.code}" for u in registry.UNARY_OPERATORS)
    lines: list[str] = []
    lines += _section("ABOUT", [
        "PSL: type a program in the code box, press Compile. The in-world compiler turns it "
        "into stack bytecode; a shader VM runs it for every pixel of the screens.",
        "The last expression is the pixel's colour (float3 or float4). Share sends your "
        "program to everyone who follows shared programs; your text is never replaced.",
    ])
    lines += _section("SYNTAX", [
        "x = expr;   v.xy = expr;   x += 1;   x++;   let x = 1;   set x = 2;",
        "if (c) { ... } else { ... }   while (c) { ... }   for (i = 0; i < 4; i++) { ... }",
        "fun name(a, b) { ...; return a + b; }   // comment",
        "Keywords: " + ", ".join(registry.KEYWORDS),
        "Operators, loosest first: " + "   ".join(" ".join(level)
                                                  for level in registry.PRECEDENCE)
        + "   then prefix - + !",
        "Swizzles: ." + ", .".join(registry.SWIZZLE_SETS)
        + f" (up to {registry.MAX_SWIZZLE} letters, e.g. v.zyx)",
        f"Limits: {limits.source_chars} characters, {limits.instructions} instructions, "
        f"{limits.registers} registers, stack {limits.stack}, nesting {limits.nesting}.",
    ])
    lines += _section("BUILTINS (name(arguments)  what it does)",
                      [_builtin_line(b) for b in core])
    lines += _section("AUDIOLINK (needs AudioLink in the world)",
                      [_builtin_line(b) for b in audiolink])
    lines += _section("INSTRUCTIONS (two float4 slots each: opcode, operand)", [
        *(f"{op.value} <b>{op.name}</b>  {OP_LINES[op.name]}" for op in registry.Op),
        f"BINOP ids: {binops}",
        f"UNOP codes: {unops}",
    ])
    return "\n".join(lines).rstrip("\n") + "\n"
