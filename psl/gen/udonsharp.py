"""`psl-gen udonsharp`: render the in-world UdonSharp compiler and its helper behaviours.

The C# tables (builtins, opcodes, operator ids, limits, swizzle letters, diagnostic
messages) are computed here from `psl.registry` and `psl.diagnostics.CATALOGUE` and handed
to the templates, so a registry change reaches the C# without a template edit.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from psl import registry
from psl.diagnostics import CATALOGUE, Severity
from psl.gen.target import Target

#: The UdonSharp behaviours of the world (one class per file, named like the file).
BEHAVIOURS: tuple[str, ...] = ("Compiler", "SyncCode", "ExampleButton")
#: Events the world's UI sends (the prefab's buttons, the setup menu): the Compile button
#: -> Compiler.Compile; an example button -> ExampleButton.Load. The templates define them.
COMPILE_EVENT = "Compile"
LOAD_EVENT = "Load"

#: output file name -> template (relative to templates/)
TEMPLATES: dict[str, str] = {f"{name}.cs": f"udonsharp/{name}.cs.j2" for name in BEHAVIOURS}


def cs_string(text: str) -> str:
    """A C# regular string literal (ASCII only, so the file's encoding never matters)."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


@dataclass(frozen=True)
class Message:
    """A diagnostic template as a C# concatenation of literals and `f_<field>` strings."""

    code: str
    expression: str
    fields: tuple[str, ...]


def _message(code: str, template: str) -> Message:
    parts: list[str] = []
    fields: list[str] = []
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        if literal:
            parts.append(cs_string(literal))
        if field is not None:
            parts.append(f"f_{field}")
            fields.append(field)
    return Message(code, " + ".join(parts) or '""', tuple(fields))


def messages() -> list[Message]:
    return [_message(k.code, k.template) for k in CATALOGUE.values()
            if k.severity is Severity.ERROR]


def swizzle_lane_string() -> str:
    """Lane number (0 = not a swizzle letter) of each letter 'a'..'z', as one digit string."""
    return "".join(str(registry.SWIZZLE_LANES.get(chr(ord("a") + i), 0)) for i in range(26))


def context() -> dict[str, object]:
    msgs = messages()
    fields = sorted({f for m in msgs for f in m.fields})
    builtins = sorted(registry.BUILTINS, key=lambda b: b.id)
    by_length = sorted(range(len(builtins)), key=lambda k: (len(builtins[k].name), k))
    longest = max(len(b.name) for b in builtins)
    by_length_start = [sum(1 for b in builtins if len(b.name) < n) for n in range(longest + 2)]
    return {
        "builtins": builtins,
        "by_length": by_length,
        "by_length_start": by_length_start,
        "messages": msgs,
        "message_fields": fields,
        "swizzle_lanes": swizzle_lane_string(),
        "cs_string": cs_string,
        "binop": {b.symbol: b.id for b in registry.BINARY_OPERATORS},
        "unop": {u.symbol: u.code for u in registry.UNARY_OPERATORS},
        "compound": {k: registry.BINOP_BY_SYMBOL[v].id
                     for k, v in registry.COMPOUND_ASSIGN.items()},
        "increment": {k: registry.BINOP_BY_SYMBOL[v].id for k, v in registry.INCREMENT.items()},
        "nan_bits": f"0x{registry.PAD_NAN_BITS:08X}",
    }


TARGET = Target("udonsharp", TEMPLATES, context)
