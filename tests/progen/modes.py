"""The things generated programs are for, as settings of the one generator.

- `compiler`: the whole surface syntax, to compare the two compilers (tests/
  test_udonsharp_diff.py) and feed the VMs odd but valid shapes: any layout (tabs, CRLF,
  comments between tokens), every spelling of a number, builtin names in other cases,
  mixed-set swizzles, variables named like builtins, loops with any condition, values left
  inside blocks, programs without a final value.
- `vm`: programs whose values flow, to compare the VMs (tests/test_hlsl_vm.py): few
  variables that are written before they are read, counted loops (and now and then one
  that never ends and is stopped by the jump limit), a `self()` feedback statement,
  plain numbers, distinct-letter swizzle targets. Every callable builtin, AudioLink's
  included, comes from the registry in both modes.
- `deep`: control flow many levels deep and wide (nested `while`/`for`/`if`, long `else if`
  chains, loops in functions called several times), for the width inference's work budget
  (tests/test_width_inference.py) and the compiler differential (tests/test_udonsharp_diff.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.progen import tables


@dataclass(frozen=True)
class Mode:
    name: str
    #: layout between tokens, unusual number spellings, builtin names in other cases,
    #: mixed swizzle sets and repeated letters in swizzle targets
    wild: bool
    #: top-level variables
    globals_: tuple[str, ...]
    #: the globals a function body uses besides its parameters and one local
    function_globals: tuple[str, ...]
    #: parameter names functions draw from (they may shadow globals)
    params: tuple[str, ...]
    #: function names, numbered: f0, helper1, ...
    function_names: tuple[str, ...]
    function_counts: tuple[int, ...]
    #: expression nodes per program, a range (keeps programs within the VM's limits)
    budget: tuple[int, int]
    #: top-level statements, a range
    statements: tuple[int, int]
    #: how deep statements nest
    nesting: int
    #: share of loops with an arbitrary condition; the others count to a small bound
    free_loops: float
    #: share of counted loops written `while (1)`: they end at the jump limit
    endless_loops: float
    #: chance of a `g = self(...) * 0.5 + g;` statement (feedback across frames)
    self_feedback: float
    #: chance that an inner block ends with a value or a `return` (W005, stack effects)
    block_values: float
    #: chance that the program has no final value (W004)
    no_final: float
    #: a statement that may nest is an assignment below the first share, an `if` below the
    #: second, else a loop
    assign_below: float = 0.55
    if_below: float = 0.75
    #: chance of one more `else if` in a chain
    else_if: float = 0.3
    #: how deep a function body's statements nest
    function_nesting: int = 1
    #: statements `gN += f(...);` the program adds per function, so that its loops are
    #: inlined that many times (0: functions are called only where expressions happen to)
    function_calls: int = 0
    #: share of builtin leaves that read a slider with a constant index, `slider(3)` (about;
    #: taken from the top of the leaf's own draw)
    slider_reads: float = 0.3
    #: chance that the program starts with `//@slider` lines naming some sliders (comments:
    #: only in the mode whose programs have comments anyway)
    slider_lines: float = 0.0


# "X" and "x" differ (names are case-sensitive); one variable shares a builtin's name
_COMPILER_NAMES = ("x", "y", "v", "col", "t", "p", "q", "acc", "i", "n", "tmp", "X", "_a1",
                   tables.INPUTS[0].name)

COMPILER = Mode(
    name="compiler",
    wild=True,
    globals_=_COMPILER_NAMES,
    function_globals=_COMPILER_NAMES,
    params=("a", "b", "c", "d", "x", "pos", "size", "t"),
    function_names=("f", "g", "Draw", "helper", "fn"),
    function_counts=(0, 0, 1, 1, 2, 3, 4),
    budget=(20, 160),
    statements=(1, 8),
    nesting=3,
    free_loops=0.8,
    endless_loops=0.05,
    self_feedback=0.0,
    block_values=0.4,
    no_final=0.15,
    slider_lines=0.3,
)

VM = Mode(
    name="vm",
    wild=False,
    globals_=("g0", "g1", "g2", "g3"),
    function_globals=("g0", "g1"),
    params=("p0", "p1", "p2"),
    function_names=("f",),
    function_counts=(0, 1, 2),
    budget=(20, 70),
    statements=(1, 5),
    nesting=2,
    free_loops=0.0,
    endless_loops=0.06,
    self_feedback=0.2,
    block_values=0.1,
    no_final=0.0,
)

#: deep and wide control flow, for the width inference's work budget (issue 21): nests of
#: `while`, `for` and `if` many levels deep, long `else if` chains, and functions that hold
#: loops and are called more than once (each call is inlined with its loops)
DEEP = Mode(
    name="deep",
    wild=False,
    globals_=("g0", "g1", "g2", "g3"),
    function_globals=("g0", "g1"),
    params=("p0", "p1"),
    function_names=("h",),
    function_counts=(1, 2, 2, 3),
    budget=(60, 160),
    statements=(1, 3),
    nesting=24,
    free_loops=0.3,
    endless_loops=0.0,
    self_feedback=0.0,
    block_values=0.03,
    no_final=0.0,
    assign_below=0.12,
    if_below=0.42,
    else_if=0.75,
    function_nesting=8,
    function_calls=2,
    slider_reads=0.0,  # about statements; keeps the programs this budget was measured on
)

MODES: dict[str, Mode] = {m.name: m for m in (COMPILER, VM, DEEP)}
