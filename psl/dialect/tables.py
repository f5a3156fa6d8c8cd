"""The rows every VM dialect builds its operation tables from (psl.dialect.*.vm): the
registry's operators and builtins in id order, each with the dialect's text, refusing a
registry entry the dialect has no text for. Written once so that a dialect's vm module
holds only what its language spells differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from psl import registry


def require(table: Mapping[str, str], names: Iterable[str], error: Callable[[str], Exception],
            what: str) -> None:
    """Raise error("<what>: a, b") naming the `names` the dialect's table lacks."""
    missing = [n for n in names if n not in table]
    if missing:
        raise error(f"{what}: {', '.join(missing)}")


def binary_rows(table: Mapping[str, str], error: Callable[[str], Exception], language: str
                ) -> list[tuple[int, str, str]]:
    """(operator id, symbol, the dialect's text) of every binary operator."""
    ops = registry.BINARY_OPERATORS
    require(table, [o.symbol for o in ops], error, f"binary operators without {language}")
    return [(o.id, o.symbol, table[o.symbol]) for o in ops]


def unary_rows(table: Mapping[str, str], error: Callable[[str], Exception], language: str
               ) -> list[tuple[int, str, str]]:
    """(operator code, symbol, the dialect's text) of every unary operator."""
    ops = registry.UNARY_OPERATORS
    require(table, [o.symbol for o in ops], error, f"unary operators without {language}")
    return [(o.code, o.symbol, table[o.symbol]) for o in ops]


def arity_groups(most: int | None = None) -> list[tuple[int, list[int]]]:
    """(arity, builtin ids of that arity), for the arity switch of a VM's CALL step;
    ValueError for a builtin with more than `most` arguments."""
    groups: dict[int, list[int]] = {}
    for b in sorted(registry.BUILTINS, key=lambda b: b.id):
        if most is not None and b.arity > most:
            raise ValueError(f"builtin {b.name}: the VM takes at most {most} arguments")
        if b.arity:
            groups.setdefault(b.arity, []).append(b.id)
    return sorted(groups.items())


def common_context(max_jumps: int, max_steps: int) -> dict[str, object]:
    """The template variables every VM dialect's context starts from: the limits it runs
    under, the opcodes and the builtins whose arguments are padded."""
    if max_jumps < 0:
        raise ValueError("max_jumps must be >= 0")
    if not 0 <= max_steps < 2**32:
        raise ValueError("max_steps must be between 0 and 2^32 - 1")
    limits = registry.LIMITS
    return {
        "max_jumps": max_jumps,
        "max_steps": max_steps,
        "slots": limits.slots,
        "registers": limits.registers,
        "stack": limits.stack,
        "op": {o.name: int(o) for o in registry.Op},
        "padded": [b for b in sorted(registry.BUILTINS, key=lambda b: b.id) if b.pad],
    }
