"""Emission of statements and control flow: the IR's blocks written as structured code,
`while (true)`/`while (c)`, `if`/`else`, `break` and `continue`, on the block graph's loops
and joins (psl/export/structure.py); expressions come from psl/export/expressions.py.

Taken jumps are counted as the VM counts them (several jumps on one straight path are
added at once: what is cut off there outputs the same top of stack), and left out when the
graph has no loop and fewer jumps than the budget (Readable decides: count_jumps).
"""

from __future__ import annotations

import re

from psl.cancel import check_cancelled
from psl.export.expressions import Expressions, Pending
from psl.export.ir import (
    Assign,
    Binary,
    Block,
    Branch,
    Call,
    Jump,
    Lanes,
    Lit,
    Operand,
    Pick,
    Program,
    Ref,
    Unary,
)
from psl.export.structure import (
    EXIT,
    Graph,
    Unstructured,
    counted_jump_sites,
    operands,
)
from psl.export.text import LANE, Language, Options, Writer, budget_handover
from psl.export.tidy import balanced


class NoCall(Exception):
    """A PSL function's call that its own function cannot hold (it ends the program)."""


class Statements(Expressions):
    """Writes blocks as structured statements. The state a PSL function's body needs to
    end its call (stops, stop_block, end_way: psl/export/functions.py) lives here, since
    the control flow reads it."""

    def __init__(self, lang: Language, program: Program, options: Options, glsl: bool,
                 graph: Graph | None = None, total_size: int | None = None) -> None:
        super().__init__(lang, program, options, glsl)
        self.graph = graph or Graph(program)
        self.cut_top: Operand | None = None
        self.return_width = 0
        self.decl_inline = False
        self.first_writes: set[str] = set()
        self.jumps = 0  # taken jumps counted but not yet written
        self.jump_top: Operand | None = None
        self.written_size = 0
        self.total_size = total_size if total_size is not None else sum(
            len(b.body) + 1 for b in program.blocks.values())
        self.count_jumps = False
        self.depth = 0
        self.stop_block: int | None = None  # where the function's call ends (see call)
        self.stop_k = -1
        self.stopped = False  # a call inside went on at stop_block
        self.stops: dict[int, int] = {}  # the ways out of a function's call -> number
        self.ended = False  # a call inside ended every path (see after_paths)
        self.end_way: int | None = None  # with several ways out: the program's end (-1
        # while unused), and the parameter that takes the program's result
        self.end_param = ""
        self.seq_stop: int | None = None  # where the seq writing now stops
        self.declared: set[str] = set()
        self.local_regs: set[str] = set()

    def write_list(self, items: list[Assign], blk: Block, depth: int, pad: str
                   ) -> tuple[Block, list[Assign]] | None:
        """Statements; None, or where the writing goes on (a PSL function's call written
        as a call ends in a later block: psl/export/functions.py)."""
        for a in items:
            self.statement(a, pad)
        return None

    def cut_return(self, top: Operand | None) -> str:
        """Leaving at the jump budget: main outputs the top of the stack, as the VM; a
        function returns at once and its caller does the same."""
        if not self.function:
            return f"return {self.result_text(top)};"
        if not self.return_width:
            return "return;"
        w = self.return_width
        return f"return {self.lang.construct(w, ['0.0'] * w)};"



    def statement(self, a: Assign, pad: str) -> None:
        t = a.target
        e = a.expr
        checked = a.check and self.options.exact
        if a.declare and not checked and self.uses.get(t.name, 0) == 1:
            got = self.inline(e, t.width)
            if got is not None:
                self.pending[t.name] = Pending(got, t.width)
                return
        if isinstance(e, Ref | Lit | Binary | Unary | Pick | Call) and not a.declare:
            got = self.inline(e, t.width)
            if got is not None:  # the value first: it may read what it replaces
                self.flush_reads(t.name, pad)
                c = got.compound
                if c is not None and c[0] == self.name(t) and got.reads >= {t.name} \
                        and t.name not in self.local_regs - self.declared:
                    self.emit(pad, f"{c[0]} {c[1]}= {c[2]};")  # x = x + y as x += y
                    if checked:
                        self.check_exit(self.name(t), pad)
                    return
                decl = ""
                if self.function and self.decl_inline and t.name in self.local_regs \
                        and t.name not in self.declared:
                    self.declared.add(t.name)
                    decl = f"{self.lang.vec(t.width)} "
                elif not self.function and self.decl_inline and t.name in self.first_writes \
                        and t.name not in self.declared:
                    # main's first statements: declared where first assigned, unless a
                    # function turns out to share it (then it is at file scope)
                    self.declared.add(t.name)
                    decl = f"\x01{t.name}\x01{self.lang.vec(t.width)} "
                self.emit(pad, f"{decl}{self.name(t)} = {got.text};")
                if checked:
                    self.check_exit(self.name(t), pad)
                return
        if not a.declare:
            self.flush_reads(t.name, pad)
        if isinstance(e, Lanes) and e.current is not None and e.current.name == t.name:
            written = [(j, s) for j, s in enumerate(e.sources) if s is not None]
            value = self.pick_text(Pick(e.value, tuple(s for _, s in written)))
            lanes = "".join(LANE[j] for j, _ in written)
            # (a float has no lanes to name in GLSL ES or MSL)
            target = self.name(t) if t.width == 1 else f"{self.name(t)}.{lanes}"
            self.emit(pad, f"{target} = {value.text};")
            return
        got = None if isinstance(e, Lanes) else self.inline(e, t.width)
        if got is not None:
            decl = f"{self.lang.vec(t.width)} " if a.declare else ""
            self.emit(pad, f"{decl}{self.name(t)} = {got.text};")
        else:  # the VM's own code for it (psl/export/text.py)
            Writer.assign(self, a, pad)
            return
        if a.check and self.options.exact:
            self.check_exit(self.name(t), pad)

    def check_exit(self, name: str, pad: str) -> None:
        # one call of the exact path, in main (see body): compilers inline it per call
        zero = f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"
        self.emit(pad, f"if (psl_has_nan({name})) {{ psl_nan = true; return {zero}; }}")

    def count_uses(self, b: Block) -> None:
        def use(o: Operand | None) -> None:
            if isinstance(o, Ref):
                self.uses[o.name] = self.uses.get(o.name, 0) + 1

        for a in b.body:
            e = a.expr
            for x in operands(e):
                use(x)
        ends = [b.end] if isinstance(b.end, Jump) else [b.end.fall, b.end.taken]
        if isinstance(b.end, Branch):
            use(b.end.cond)
        for j in ends:
            for _, v in j.moves:
                use(v)
            if j.target is None or (j.counted and self.count_jumps):
                use(j.top)

    # --------------------------------------------------------------- control flow
    def result_text(self, top: Operand | None) -> str:
        if top is None:
            return f"{self.lang.float4}(0.0, 0.0, 0.0, 0.0)"
        if top.width == 4:
            return self.op(top)
        t = self.text(top)
        if top.width == 1:
            return f"{self.lang.float4}({t.text}, 0.0, 0.0, 0.0)"
        return f"{self.lang.float4}({t.text}, {', '.join(['0.0'] * (4 - top.width))})"

    def flush_jumps(self, pad: str) -> None:
        if self.jumps:
            self.lines += self.count_lines(self.jumps, self.jump_top, pad)
            self.jumps = 0
            self.jump_top = None

    def count_lines(self, jumps: int, top: Operand | None, pad: str) -> list[str]:
        u = self.lang.uint_suffix
        limit = self.options.max_jumps
        lines = [f"{pad}psl_jumps += {jumps}{u};"]
        handover = budget_handover(self.program, self.options, counted_jump_sites(self.program))
        if handover is not None:
            # the work budget may stop this pixel: the exact path counts every instruction
            # (past the jump limit, so that every caller leaves too)
            lines.append(f"{pad}if (psl_jumps >= {handover}{u}) {{ psl_nan = true; "
                         f"psl_jumps = {limit + 1}{u}; {self.cut_return(top)} }}")
        return [*lines, f"{pad}if (psl_jumps > {limit}{u}) {self.cut_return(top)}"]

    def end(self, top: Operand | None, pad: str, text: str | None = None) -> None:
        """The program's end: a cut-off here would output the same top. In a function
        with several ways out, it gives the program's result and returns the way (its
        caller ends the program with that result); `text` is the result written."""
        if self.function and self.end_way is not None:
            self.flush_jumps(pad)
            if not self.stops:  # the only way out: the result is the function's value
                self.end_way = 0
                self.emit(pad, f"return {text or self.result_text(top)};")
                return
            self.emit(pad, f"{self.end_param} = {text or self.result_text(top)};")
            self.end_way = len(self.stops)
            self.emit(pad, f"return {self.end_way}.0;")
            return
        if self.function:
            raise NoCall
        if self.jumps and (self.jump_top == top or (
                not isinstance(self.jump_top, Ref) and not isinstance(top, Ref)
                and self.result_text(self.jump_top) == self.result_text(top))):
            self.jumps = 0
            self.jump_top = None
        self.flush_jumps(pad)
        self.emit(pad, f"return {text or self.result_text(top)};")

    def take(self, j: Jump, pad: str) -> None:
        """The jump's count and stack moves (not where it goes)."""
        if j.counted and self.count_jumps:
            if self.jumps and self.jump_top != j.top:
                self.flush_jumps(pad)
            top = j.top
            if isinstance(top, Ref) and top.name in self.pending and j.target is not None:
                # the count is written later: the value must not see later writes
                p = self.pending.pop(top.name)
                self.emit(pad, f"{self.lang.vec(p.width)} {self.name(top)} = {p.text.text};")
            self.jumps += 1
            self.jump_top = j.top
        for slot, value in j.moves:
            self.flush_jumps(pad)
            self.flush_reads(slot.name, pad)
            self.emit(pad, f"{self.name(slot)} = {self.op(value)};")

    def seq(self, b: int | None, stop: int | None, loop: int | None, pad: str) -> bool:
        """Write from block b until `stop`; True when every path ended (break, continue or
        return) before it."""
        g = self.graph
        while True:
            check_cancelled()  # psl serve: a newer compile supersedes this export
            if b == stop and b is not None:
                return False
            if b in self.stops:
                self.flush_jumps(pad)
                self.emit(pad, f"return {self.stops[b]}.0;")
                return True
            if b is None or b == EXIT:
                raise Unstructured("a path ends without a jump")
            if loop is not None and b == loop:
                self.flush_jumps(pad)
                self.emit(pad, "continue;")
                return True
            if loop is not None and b == g.exits[loop]:
                self.flush_jumps(pad)
                self.emit(pad, "break;")
                return True
            if b in g.loops:
                b = self.loop(b, pad)
                if b is None:
                    return True
                continue
            self.mark_written(b)
            saved, self.seq_stop = self.seq_stop, stop
            blk = self.write_items(self.program.blocks[b], pad)
            self.seq_stop = saved
            if self.ended:
                self.ended = False
                return True
            if self.stopped:
                self.stopped = False
                if blk.index != stop:
                    raise NoCall
                return False
            b = blk.index
            end = blk.end
            if isinstance(end, Jump):
                self.take(end, pad)
                if end.target is None:
                    self.end(end.top, pad)
                    return True
                b = end.target
                continue
            join = g.ipdom[b]
            self.branch(end, join, loop, pad)
            if self.last_terminated:
                return True
            if join is None:
                raise Unstructured("branches that never join go on")
            b = join

    last_terminated = False

    def mark_written(self, b: int) -> None:
        """A block reached from arms that join only later is written in each of them
        (a value left in an `if`, W005): allowed while the code stays small."""
        self.written_size += len(self.program.blocks[b].body) + 1
        if self.written_size > 2 * self.total_size + 64:
            raise Unstructured("blocks would be written too many times")

    def cond_text(self, cond: Operand) -> str:
        t = self.text(cond)
        m = re.fullmatch(r"float\((.*)\)", t.text)
        if cond.width == 1 and m and balanced(m.group(1)):
            return m.group(1)
        return f"{self.comp(cond, 0) if cond.width > 1 else t.text} != 0.0"

    def branch(self, end: Branch, join: int | None, loop: int | None, pad: str) -> None:
        # jumps counted before the branch are counted in its arms: where both arms come
        # out with the same count, it is written once after the if
        start = (self.jumps, self.jump_top)
        cond = self.cond_text(end.cond)
        if isinstance(self.jump_top, Ref) and self.jump_top.name in self.pending:
            self.flush_jumps(pad)
            start = (0, None)
        self.name_pending(pad)
        inner = pad + "    "
        self.emit(pad, f"if ({cond})")
        self.emit(pad, "{")
        self.jumps, self.jump_top = start
        self.take(end.fall, inner)
        fall_done = self.arm(end.fall, join, loop, inner)
        fall = (self.jumps, self.jump_top)
        fall_close = len(self.lines)
        self.emit(pad, "}")
        mark = len(self.lines)
        self.emit(pad, "else")
        self.emit(pad, "{")
        self.jumps, self.jump_top = start
        self.take(end.taken, inner)
        taken_done = self.arm(end.taken, join, loop, inner)
        taken = (self.jumps, self.jump_top)
        taken_close = len(self.lines)
        self.emit(pad, "}")
        carry: tuple[int, Operand | None] = (0, None)
        if fall_done and not taken_done:
            carry = taken
        elif taken_done and not fall_done:
            carry = fall
        elif not fall_done and fall == taken:
            carry = fall
        # an arm whose count is not the one carried out writes its own before its end
        if not taken_done and taken[0] and taken != carry:
            self.lines[taken_close:taken_close] = self.count_lines(*taken, inner)
        if not fall_done and fall[0] and fall != carry:
            self.lines[fall_close:fall_close] = self.count_lines(*fall, inner)
            mark += 2
        self.jumps, self.jump_top = carry
        if len(self.lines) == mark + 3:  # an empty else
            del self.lines[mark:]
        self.last_terminated = fall_done and taken_done

    def arm(self, j: Jump, join: int | None, loop: int | None, pad: str) -> bool:
        """One arm of a branch; its jumps not yet written stay counted (see branch)."""
        if j.target is None:
            self.end(j.top, pad)
            return True
        done = self.seq(j.target, join, loop, pad)
        self.last_terminated = False
        return done

    def loop(self, h: int, pad: str) -> int | None:
        """Write the loop headed by h; the block after it (None: it never ends)."""
        g = self.graph
        self.flush_jumps(pad)
        self.name_pending(pad)
        blk = self.program.blocks[h]
        mark = len(self.lines)
        exit_ = g.exits[h]
        self.mark_written(h)
        final = self.write_items(blk, pad + "    ")
        end = final.end
        if final is blk and len(self.lines) == mark and isinstance(end, Branch) and (
                not end.taken.moves and not end.fall.moves and end.taken.target == exit_
                and end.fall.target in g.loops[h]):
            # the header only computes the condition
            cond = self.cond_text(end.cond)
            self.emit(pad, f"{self.lang.loop_attr}while ({cond})")
            self.emit(pad, "{")
            self.seq(end.fall.target, None, h, pad + "    ")
            if self.lines[-1].strip() == "continue;":
                self.lines.pop()
            self.emit(pad, "}")
            self.take(end.taken, pad)  # leaving is a taken jump: counted here
            self.last_terminated = False
            return exit_
        self.lines[mark:mark] = [f"{pad}{self.lang.loop_attr}while (true)", pad + "{"]
        self.header_tail(final, h, pad + "    ")
        if self.lines[-1].strip() == "continue;":
            self.lines.pop()
        self.emit(pad, "}")
        self.last_terminated = False
        return exit_

    def header_tail(self, final: Block, h: int, pad: str) -> None:
        """The end of a loop header written as while (true): where its jump goes."""
        g = self.graph
        end = final.end
        if isinstance(end, Jump):
            self.take(end, pad)
            if end.target is None:
                self.end(end.top, pad)
                return
            self.seq(end.target, None, h, pad)
            return
        join = g.ipdom[final.index]
        inside = join if join is not None and join in g.loops[h] else None
        self.branch(end, inside, h, pad)
        if not self.last_terminated:
            if inside is None:
                raise Unstructured("a loop header's branches do not rejoin in the loop")
            self.seq(inside, None, h, pad)

    def write_items(self, blk: Block, pad: str) -> Block:
        """A block's statements; the block whose end comes next (another one when a PSL
        function's call that spans blocks was written as a call)."""
        self.count_uses(blk)
        items = blk.body
        while True:
            cont = self.write_list(items, blk, self.depth, pad)
            if not self.function:
                self.decl_inline = False
            if cont is None:
                return blk
            blk, items = cont
            self.mark_written(blk.index)
            if self.stopped or self.ended:
                return blk
            if blk.index in self.stops:
                self.emit(pad, f"return {self.stops[blk.index]}.0;")
                self.ended = True
                return blk
            if self.function and blk.index == self.stop_block:
                # a call inside ended where this function's call ends (the same last
                # block): the rest of that block is the caller's
                if any(a.k <= self.stop_k for a in items):
                    raise NoCall
                self.stopped = True
                return blk

