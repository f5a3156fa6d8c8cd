"""Inlining, scope resolution, register allocation and label linking (SPEC §3, §6)."""

from __future__ import annotations

from dataclasses import dataclass

from psl.compiler.codegen import BodyCode
from psl.compiler.ir import CallUser, Ins, Item, Label
from psl.registry import Op

TOP = ""  # function name of top-level code in register keys


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[str, ...]
    code: BodyCode


def inlined_size(top: BodyCode, functions: dict[str, Function]) -> int:
    """Instruction count after inlining, without expanding (memoised per function).

    A call of f costs one SETVAR per parameter plus f's inlined body. Iterative so that a
    long chain of functions calling each other cannot exhaust Python's stack.
    """
    memo: dict[str, int] = {}

    def own(code: BodyCode) -> tuple[int, list[str]]:
        n = sum(1 for item in code.code if isinstance(item, Ins))
        return n, [item.name for item in code.code if isinstance(item, CallUser)]

    stack = [name for name in functions]
    while stack:
        name = stack[-1]
        if name in memo:
            stack.pop()
            continue
        n, callees = own(functions[name].code)
        missing = [c for c in callees if c not in memo]
        if missing:
            stack.extend(missing)
            continue
        memo[name] = n + sum(len(functions[c].params) + memo[c] for c in callees)
        stack.pop()
    n, callees = own(top)
    return n + sum(len(functions[c].params) + memo[c] for c in callees)


@dataclass
class _Frame:
    code: list[Item]
    pos: int
    function: str  # TOP for top-level code
    params: frozenset[str]
    label_base: int
    site: tuple = ()  # spans of the calls that inlined this body, outermost first


def inline(top: BodyCode, functions: dict[str, Function],
           sites: list[tuple] | None = None,
           registers: dict[tuple[str, str], int] | None = None) -> list[Ins | Label]:
    """Expand user calls and resolve every variable to a register key (function, name).

    Scope rule (SPEC §3, resolved in emission order): a name inside f is f's parameter,
    else the global if top-level code emitted so far has used it, else private to f.
    With `sites`, it receives for every output item the spans of the calls it was inlined
    through (outermost first; () for top-level code). With `registers`, variables are
    numbered as they first appear (SPEC §6) and the dict maps keys to those numbers.
    """
    out: list[Ins | Label] = []
    seen_globals: set[str] = set()
    next_label = top.labels
    stack = [_Frame(top.code, 0, TOP, frozenset(), 0)]

    def scoped(frame: _Frame, name: str) -> tuple[str, str]:
        if frame.function == TOP:
            seen_globals.add(name)
            return (TOP, name)
        if name in frame.params or name not in seen_globals:
            return (frame.function, name)
        return (TOP, name)

    if registers is None:
        key = scoped
    else:
        numbers = registers

        def key(frame: _Frame, name: str) -> int:  # type: ignore[misc]
            k = scoped(frame, name)
            n = numbers.get(k)
            if n is None:
                n = numbers[k] = len(numbers)
            return n

    while stack:
        frame = stack[-1]
        if frame.pos >= len(frame.code):
            stack.pop()
            continue
        item = frame.code[frame.pos]
        frame.pos += 1
        if isinstance(item, Label):
            out.append(Label(item.id + frame.label_base))
        elif isinstance(item, CallUser):
            fn = functions[item.name]
            site = (*frame.site, item.span)
            # Arguments are on the stack; pop them into the parameters, last first.
            for p in reversed(fn.params):
                reg: object = (fn.name, p)
                if registers is not None:
                    reg = registers.setdefault(reg, len(registers))  # type: ignore[arg-type]
                out.append(Ins(Op.SETVAR, name=reg, span=item.span))
                if sites is not None:
                    sites.append(site)
            stack.append(_Frame(fn.code.code, 0, fn.name, frozenset(fn.params), next_label,
                                site))
            next_label += fn.code.labels
            continue
        elif item.op == Op.PUSHVAR or item.op == Op.SETVAR:
            # (a direct constructor: dataclasses.replace is several times slower)
            out.append(Ins(item.op, item.value, key(frame, item.name), item.mask, item.code,
                           item.label, item.span))
        elif item.op == Op.JUMP or item.op == Op.CONDJUMP:
            out.append(Ins(item.op, item.value, item.name, item.mask, item.code,
                           item.label + frame.label_base, item.span))
        else:
            out.append(item)
        if sites is not None:
            sites.append(frame.site)
    return out


@dataclass(frozen=True)
class Linked:
    code: list[Ins]  # PUSHVAR/SETVAR `name` is the register number; jump `label` the slot
    registers: dict[tuple[str, str], int]


def allocate_and_link(items: list[Ins | Label],
                      registers: dict[tuple[str, str], int] | None = None) -> Linked:
    """Registers in order of first appearance; labels become slot indices (2 per instruction).
    `registers`: the numbering `inline` already gave the variables (then kept as it is)."""
    numbered = registers is not None
    registers = {} if registers is None else registers
    slots: dict[int, int] = {}
    count = 0
    for item in items:
        if isinstance(item, Label):
            slots[item.id] = 2 * count
            continue
        count += 1
        if not numbered and item.op in (Op.PUSHVAR, Op.SETVAR) \
                and item.name not in registers:
            registers[item.name] = len(registers)  # type: ignore[index]
    code: list[Ins] = []
    for item in items:
        if isinstance(item, Label):
            continue
        if not numbered and (item.op == Op.PUSHVAR or item.op == Op.SETVAR):
            item = Ins(item.op, item.value, registers[item.name], item.mask,  # type: ignore[index]
                       item.code, item.label, item.span)
        elif item.op == Op.JUMP or item.op == Op.CONDJUMP:
            item = Ins(item.op, item.value, item.name, item.mask, item.code,
                       slots[item.label], item.span)
        code.append(item)
    return Linked(code, registers)
