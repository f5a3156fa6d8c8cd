"""Register renumbering (docs/spec.md §10.10): registers are numbered 0, 1, 2, … in the order
in which they first appear (PUSHVAR or SETVAR) in the optimized code, as SPEC §6.3 numbers
them for -O0; registers no instruction names any more disappear."""

from __future__ import annotations

from psl.optimize.code import PUSHVAR, SETVAR, Code


def run(code: Code) -> Code:
    number: dict[int, int] = {}
    args = list(code.args)
    for k, op in enumerate(code.ops):
        if op == PUSHVAR or op == SETVAR:
            r = code.reg(k)
            if r not in number:
                number[r] = len(number)
            args[k] = (float(number[r]), *args[k][1:])  # type: ignore[assignment]
    names = {new: code.names[old] for old, new in number.items() if old in code.names}
    return Code(list(code.ops), args, list(code.origin), names)
