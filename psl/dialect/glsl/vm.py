"""The WebGL VM's operations in GLSL ES 3.00: each builtin's and operator's case, the
shared units of its CALL step and the template context that templates/glsl/ reads.

Both the VM generator (psl.gen.glsl renders vm.frag from it) and the GLSL export (which
includes the VM's helper templates) read this context; the builtin dispatch, arity/pad
tables, sentinel rules, opcodes and limits come from psl.registry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from psl import registry
from psl.dialect.glsl.formulas import BINOP_GLSL, BUILTIN_GLSL, UNIT_INPUTS, UNITS, UNOP_GLSL
from psl.dialect.sentinels import with_result_rule
from psl.dialect.tables import arity_groups, binary_rows, common_context, unary_rows

#: Argument names inside builtin expressions (psl.dialect.glsl.formulas), in argument order.
ARG_NAMES = ("a", "b", "c", "d")

#: u_mode values of vm.frag: what its output 0 holds (render.js uses MODE_COLOR and reads
#: the cost from output 1)
MODE_COLOR = 0
MODE_COST = 1


class MissingGlslError(ValueError):
    """A registry entry has no GLSL expression in psl.dialect.glsl.formulas."""


@dataclass(frozen=True)
class Case:
    id: int
    name: str  # builtin name or operator symbol, for the comment beside the case
    code: str  # the vec4 result (for builtins: with the sentinel rule applied)


def builtin_cases() -> list[Case]:
    """Every registry builtin's result expression, sentinel rule applied, in id order."""
    missing = [b.name for b in registry.BUILTINS if b.name not in BUILTIN_GLSL]
    if missing:
        raise MissingGlslError(f"builtins without a GLSL expression: {', '.join(missing)}")
    return [Case(b.id, b.name, with_result_rule(b, BUILTIN_GLSL[b.name]))
            for b in sorted(registry.BUILTINS, key=lambda b: b.id)]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", text))


def _unit_inputs() -> dict[str, dict[str, str]]:
    names = {u.name for u in UNITS}
    stray = [n for n in UNIT_INPUTS if registry.lookup_builtin(n) is None]
    if stray:
        raise MissingGlslError(f"unit inputs for unknown builtins: {', '.join(stray)}")
    for builtin, inputs in UNIT_INPUTS.items():
        unknown = set(inputs) - names
        if unknown:
            raise MissingGlslError(f"{builtin}: unknown units {', '.join(sorted(unknown))}")
    return UNIT_INPUTS


def _uses(builtins: list[registry.Builtin]) -> set[str]:
    """Names of the units the builtins read, directly or through other units."""
    by_name = {u.name: u for u in UNITS}
    used: set[str] = set()
    for b in builtins:
        used |= _words(BUILTIN_GLSL[b.name]) & set(by_name)
        for unit, expr in _unit_inputs().get(b.name, {}).items():
            used |= ({unit} | _words(expr)) & set(by_name)
    while True:
        more = set()
        for name in used:
            unit = by_name[name]
            more |= _words(unit.default + " " + unit.eval) & set(by_name)
            for b in builtins:
                more |= _words(_unit_inputs().get(b.name, {}).get(name, "")) & set(by_name)
        if more <= used:
            return used
        used |= more


def textured(b: registry.Builtin) -> bool:
    """Whether a builtin reads a texture (one of the texture units)."""
    return any(u.texture and u.name in _uses([b]) for u in UNITS)


def call_variants() -> list[dict[str, object]]:
    """The two CALL steps of vm.frag: texture-reading builtins and all others, each with the
    units its builtins use (in UNITS order) and the builtins that choose each unit's input."""
    cases = {c.id: c for c in builtin_cases()}
    ordered = sorted(registry.BUILTINS, key=lambda b: b.id)
    variants = []
    for suffix, with_texture in (("math", False), ("texture", True)):
        builtins = [b for b in ordered if textured(b) == with_texture]
        used = _uses(builtins)
        units = [{"name": u.name, "type": u.type, "in_type": u.in_type, "default": u.default,
                  "eval": u.eval,
                  "cases": [Case(b.id, b.name, _unit_inputs()[b.name][u.name]) for b in builtins
                            if u.name in _unit_inputs().get(b.name, {})]}
                 for u in UNITS if u.name in used]
        variants.append({"suffix": suffix, "textured": with_texture, "units": units,
                         "cases": [cases[b.id] for b in builtins]})
    return variants


def context(max_jumps: int = registry.LIMITS.jumps,
            max_steps: int = registry.LIMITS.steps) -> dict[str, object]:
    """Template variables of every GLSL output."""
    common = common_context(max_jumps, max_steps)
    max_arity = max(b.arity for b in registry.BUILTINS)
    if max_arity > len(ARG_NAMES):
        raise MissingGlslError(f"a builtin takes {max_arity} arguments; vm.frag names "
                               f"{len(ARG_NAMES)}")
    cases = builtin_cases()
    return {
        **common,
        "mode_cost": MODE_COST,
        "arity_groups": arity_groups(),
        "call_variants": call_variants(),
        "textured_cases": [c for c in cases if textured(registry.BUILTIN_BY_ID[c.id])],
        "arg_names": ARG_NAMES,
        "binops": [Case(*row) for row in binary_rows(BINOP_GLSL, MissingGlslError, "GLSL")],
        "unops": [{"code": code, "symbol": symbol, "code_glsl": text}
                  for code, symbol, text in unary_rows(UNOP_GLSL, MissingGlslError, "GLSL")],
    }
