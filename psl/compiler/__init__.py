"""Reference compiler: source -> AST -> analysis -> labelled code -> inlined, linked,
register-allocated program (SPEC §5-6; contract in docs/compiler-contract.md)."""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass, field

from psl.analysis import analyse
from psl.bytecode import Instruction, Program, decode, instruction
from psl.compiler import codegen, link
from psl.compiler.ir import NAN, Ins
from psl.diagnostics import Diagnostic, PslError, Span, make
from psl.infer import Inference, infer
from psl.optimize import optimize as optimize_program
from psl.registry import LIMITS, ORIGINAL_OPS, Op
from psl.syntax import ast
from psl.syntax.parser import parse
from psl.syntax.sliders import SliderTable, parse_sliders

__all__ = ["CompileResult", "Instruction", "Program", "check_source", "compile_source",
           "decode", "instruction"]

# Brackets nest at most LIMITS.nesting deep and operator chains are flat, so the passes
# need a few hundred frames at most; leave headroom over Python's default of 1000.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))


@dataclass
class CompileResult:
    program: Program | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ast: ast.Program | None = None
    inference: Inference | None = None  # width inference, when the program compiled
    #: the -O0 program when `program` is optimized (else None: `program` is the -O0 code)
    unoptimized: Program | None = None
    #: when `program` is optimized: for each of its instructions, the index of the -O0
    #: instruction it comes from (its source span is that one's)
    origin: list[int] | None = None
    #: the source span of each -O0 instruction (None where it has none)
    spans: list[Span | None] = field(default_factory=list)
    #: the program's `//@slider` lines (docs/spec.md §8.8), read even when it does not compile
    sliders: SliderTable = field(default_factory=lambda: SliderTable((), ()))

    @property
    def ok(self) -> bool:
        return self.program is not None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    def unwrap(self) -> Program:
        if self.program is None:
            raise PslError(self.diagnostics)
        return self.program


def check_source(source: str, optimize: int = 0) -> CompileResult:
    """Diagnostics for `psl check`. The limits are only known after inlining, so checking
    compiles the program too; a program the original world cannot run gets N004."""
    result = compile_source(source, optimize=optimize)
    # the original world compiles the source with its own compiler: judge the -O0 code
    original = result.unoptimized or result.program
    if original is not None:
        why = original_format_problem(original)
        if why:
            hint = ""
            if len(original.instructions) > LIMITS.original_instructions:
                functions = result.ast is not None and any(
                    isinstance(s, ast.FunDef) for s in result.ast.body.statements)
                hint = ("for the original world, call big functions less often: every call is "
                        "inlined" if functions else
                        "for the original world, shorten the program: every operation, value "
                        "and assignment is an instruction")
            result.diagnostics.append(make("N004", Span.start(), why=why, hint=hint))
    if result.program is not None:
        spent = work_budget_diagnostic(result)
        if spent is not None:
            result.diagnostics.append(spent)
            result.diagnostics.sort(
                key=lambda d: (not d.is_error, d.span.line, d.span.column, d.code))
    return result


def _loops(program: Program) -> bool:
    """Whether any jump goes backwards: without one a pixel executes each instruction at
    most once, fewer than the work budget."""
    for k, ins in enumerate(program.instructions):
        if ins.op in (Op.JUMP, Op.CONDJUMP) and ins.operand[0] <= 2 * k:
            return True
    return False


def work_budget_diagnostic(result: CompileResult) -> Diagnostic | None:
    """W014 when sample pixels of the reference frame (psl.vm.samples: the corners and the
    centre) reach the work budget (docs/spec.md §7.2), at the instruction they stop at."""
    from psl.vm.samples import reference_inputs, run_samples

    # the -O0 code, as every diagnostic (the same at each level; -O1 changes no finishing
    # pixel, so the same pixels reach the budget or come near it)
    program = result.unoptimized or result.program
    assert program is not None
    if len(program.instructions) < LIMITS.steps and not _loops(program):
        return None
    # sliders at the program's defaults: what a player sees first
    sampled = run_samples(program.slots(), inputs=reference_inputs(result.sliders.values()))
    spent = [p for p in sampled.pixels if p.hit_work_budget]
    if not spent:
        return None
    index = min(spent[0].stop_index, len(program.instructions) - 1)
    span = result.spans[index] if 0 <= index < len(result.spans) else None
    n = len(sampled.pixels)
    whom = (f"all {n} sample pixels" if len(spent) == n else
            f"{len(spent)} of {n} sample pixels (" +
            ", ".join(f"({p.x}, {p.y})" for p in spent) + ")")
    return make("W014", span or Span.start(), whom=whom, s="" if len(spent) > 1 else "s",
                limit=LIMITS.steps)


def original_format_problem(program: Program) -> str:
    """Why the original world's VM cannot run `program` ("" when it can)."""
    n = len(program.instructions)
    if n > LIMITS.original_instructions:
        return f"{n} instructions, more than its {LIMITS.original_instructions}"
    new = sorted({ins.op.name for ins in program.instructions} - {o.name for o in ORIGINAL_OPS})
    if new:
        return f"it has no opcode {', '.join(new)}"
    return ""


def compile_source(source: str, lint: bool = True, optimize: int = 0) -> CompileResult:
    """Compile PSL source. `lint=False` skips width inference and its warnings (the
    program is the same; `psl run` and the differential tests need only the code).

    `optimize`: 0 gives the code of SPEC §6 (the original compiler's), 1 runs the -O1
    optimizer (SPEC §10) on it, 2 adds -O2's superinstructions (SPEC §11). This function
    defaults to 0, the code both compilers must agree on; the commands and `psl.run` default
    to registry.DEFAULT_OPTIMIZE_LEVEL. Diagnostics are the same at every
    level (they come from the -O0 code), and so is `inference` (the widths of the -O0 code;
    `unoptimized` holds that code)."""
    sliders = parse_sliders(source)
    result = _compile(source, sliders, lint, optimize)
    result.sliders = sliders
    if lint and sliders.diagnostics:
        # W015/W016 of the slider lines, in position order with the rest
        result.diagnostics = sorted(
            [*result.diagnostics, *sliders.diagnostics],
            key=lambda d: (not d.is_error, d.span.line, d.span.column, d.code))
    return result


def _compile(source: str, sliders: SliderTable, lint: bool, optimize: int) -> CompileResult:
    parsed = parse(source)
    if parsed.program is None:
        return CompileResult(None, parsed.diagnostics)
    tree = parsed.program
    analysis = analyse(tree)
    diags = list(analysis.diagnostics)
    if analysis.errors:
        return CompileResult(None, diags, tree)
    functions = {
        name: link.Function(name, tuple(p.text for p in f.params),
                            codegen.generate(f.body, analysis.functions))
        for name, f in analysis.functions.items()
    }
    top = codegen.generate(tree.body, analysis.functions)
    size = link.inlined_size(top, functions)
    if size > LIMITS.instructions:
        count = min(size, LIMITS.count_cap + 1)
        hint = ("functions are inlined at every call; call big ones less"
                if analysis.functions else
                "every operation, value and assignment is an instruction: shorten the program")
        diags.insert(0, make("E030", Span.start(), count=count, limit=LIMITS.instructions,
                             hint=hint))
        return CompileResult(None, diags, tree)
    sites: list[tuple] = []
    registers: dict[tuple[str, str], int] = {}
    items = link.inline(top, functions, sites, registers)
    linked = link.allocate_and_link(items, registers)
    if len(linked.registers) > LIMITS.registers:
        diags.insert(0, make("E031", Span.start(), count=len(linked.registers),
                             limit=LIMITS.registers))
        return CompileResult(None, diags, tree)
    result = _result(linked, diags, tree)
    result.spans = [ins.span for ins in linked.code]
    if lint:
        code_sites = [s for item, s in zip(items, sites, strict=True) if isinstance(item, Ins)]
        _infer(result, [ins.span for ins in linked.code], code_sites,
               frozenset(s.index for s in sliders.sliders))
    if optimize:
        _optimize(result, optimize)
    return result


def _optimize(result: CompileResult, level: int) -> None:
    program = result.program
    assert program is not None
    optimized, origin = optimize_program(program, level)
    if optimized is not program:
        result.unoptimized, result.program, result.origin = program, optimized, origin


def _final_span(body: ast.Block) -> Span | None:
    """Where the program's result comes from: its final expression, or the if/else that
    ends it."""
    if body.final is not None:
        return body.final.span
    if body.statements and isinstance(body.statements[-1], ast.If):
        return body.statements[-1].span
    return None


def _infer(result: CompileResult, spans: list[Span | None], sites: list[tuple],
           sliders: frozenset[int]) -> None:
    program = result.program
    assert program is not None and result.ast is not None
    try:
        inference = infer(program.instructions, program.registers, spans, sites,
                          program.variables, _final_span(result.ast.body),
                          sliders=sliders)
    except Exception as exc:  # noqa: BLE001 - a lint bug must not stop a compile
        result.diagnostics.append(make("N002", Span.start(), error=type(exc).__name__,
                                       hint="please report this with the program"))
        return
    # Out of budget (N003 says so): no widths to offer, as for a program that does not compile.
    result.inference = inference if inference.flow.complete else None
    ours = {(d.code, d.span) for d in result.diagnostics}
    new = [d for d in inference.diagnostics if (d.code, d.span) not in ours]
    result.diagnostics = sorted(
        [*result.diagnostics, *new],
        key=lambda d: (not d.is_error, d.span.line, d.span.column, d.code))


def _operand(ins: link.Ins) -> tuple[float, ...]:
    op = ins.op
    if op == Op.PUSHCONST:
        return ins.value
    if op == Op.PUSHVAR:
        return (ins.name, NAN, NAN, NAN)  # type: ignore[return-value]
    if op == Op.SETVAR:
        return (ins.name, ins.mask or NAN, NAN, NAN)  # type: ignore[return-value]
    if op in (Op.BINOP, Op.UNOP, Op.CALL):
        return (ins.code, NAN, NAN, NAN)
    return (ins.label, NAN, NAN, NAN)


def _result(linked: link.Linked, diags: list[Diagnostic], tree: ast.Program) -> CompileResult:
    # Round every operand to float32 at once: array('f') stores C floats, rounding to
    # nearest as numpy's astype does, and a literal beyond float32's range becomes
    # infinity, as in the shader, without a warning.
    flat: list[float] = []
    for ins in linked.code:
        flat.extend(_operand(ins))
    lanes = array("f", flat).tolist()
    out = [Instruction(ins.op, tuple(lanes[i:i + 4]))  # type: ignore[arg-type]
           for ins, i in zip(linked.code, range(0, len(lanes), 4), strict=True)]
    variables = {reg: (name if fn == link.TOP else f"{fn}.{name}")
                 for (fn, name), reg in linked.registers.items()}
    program = Program(out, registers=len(linked.registers), variables=variables)
    return CompileResult(program, diags, tree)
