"""PSL functions written as functions: a call the compiler inlined is written back as a
call of a function named after the PSL one, written once per body it has; registers it
shares with the code around it become file-scope variables. A call that cannot be written
so (a jump budget cut-off inside that outputs one of its own values, a check of the exact
path inside) is written in place, as statements.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from psl.export.expressions import REG, Pending, Text
from psl.export.ir import Assign, Block, Branch, Jump, Lit, Operand, Program, Ref
from psl.export.statements import NoCall, Statements
from psl.export.structure import EXIT, Graph, Unstructured, operands
from psl.export.text import Language, Options
from psl.export.tidy import tidy
from psl.syntax import ast


@dataclass
class Calls:
    """What the writers of one program share: where each inlined call of a PSL function
    lies in the code, and the functions written so far."""

    sites: list[tuple]  # per instruction: the calls it was inlined through
    regions: dict[tuple, tuple[int, int]]  # call path -> its first and last instruction
    callee: dict[object, ast.FunDef]  # a call's span -> the function called
    names: dict[str, str]  # PSL function -> its name in the output
    functions: dict[str, list[str]] = field(default_factory=dict)  # output name -> lines
    by_text: dict[str, str] = field(default_factory=dict)  # body -> output name
    jumps: bool = False  # a function counts jumps: the counter is at file scope
    shared: dict[str, int] = field(default_factory=dict)  # registers used by functions
    # and the code around them (IR name -> width): declared at file scope


def find_calls(program: Program) -> Calls | None:
    """The calls of PSL functions the compiler inlined (None without the source)."""
    src = program.source
    if src is None or src.inference is None or src.ast is None:
        return None
    sites = list(src.inference.sites)
    regions: dict[tuple, tuple[int, int]] = {}
    for k, site in enumerate(sites):
        for n in range(1, len(site) + 1):
            path = tuple(site[:n])
            got = regions.get(path)
            regions[path] = (k, k) if got is None else (got[0], k)
    defs: dict[str, ast.FunDef] = {}
    callee: dict[object, ast.FunDef] = {}
    work: list[object] = [src.ast.body]
    calls: list[ast.Call] = []
    while work:
        node = work.pop()
        if isinstance(node, ast.FunDef):
            defs[node.name.text] = node
        if isinstance(node, ast.Call):
            calls.append(node)
        work.extend(ast.children(node))
    for c in calls:
        if c.name.text in defs:
            callee[c.name.span] = defs[c.name.text]
    return Calls(sites, regions, callee, {})


    # ---------------------------------------------------------- PSL functions


class Functions(Statements):
    """Writes a whole inlined call as a call of the PSL function (see call); a function's
    body is written by a writer of its own (function=True), made from the main one."""

    def __init__(self, lang: Language, program: Program, options: Options, glsl: bool,
                 graph: Graph | None = None, base: Functions | None = None) -> None:
        super().__init__(lang, program, options, glsl, graph,
                         base.total_size if base is not None else None)
        self.calls = base.calls if base is not None else find_calls(program)
        self.locals: dict[str, str] = {}  # IR register -> name, in a function
        self.touched: set[str] = set()  # registers a function's body uses from outside

    def name(self, r: Ref) -> str:
        if not self.function:
            return super().name(r)
        got = self.locals.get(r.name)
        if got is not None:
            return got
        if REG.match(r.name) or r.name.startswith("s"):
            assert self.calls is not None
            self.calls.shared[r.name] = r.width
            self.touched.add(r.name)
        return self.display_name(r)

    def write_list(self, items: list[Assign], blk: Block, depth: int, pad: str
                   ) -> tuple[Block, list[Assign]] | None:
        """Statements; a call of a PSL function inlined here as a whole (no jump inside)
        is written as a call of a function (see call), else its statements in place."""
        calls = self.calls
        i = 0
        while i < len(items):
            a = items[i]
            site = calls.sites[a.k] if calls is not None and a.k < len(calls.sites) else ()
            if len(site) <= depth:
                self.statement(a, pad)
                i += 1
                continue
            assert calls is not None
            path = tuple(site[:depth + 1])
            k0, k1 = calls.regions[path]
            j = i
            while j < len(items) and k0 <= items[j].k <= k1:
                j += 1
            got = self.call(path, items[i:j], blk, pad) if k0 in blk.code else False
            if got is False:
                got = self.write_list(items[i:j], blk, depth + 1, pad)
                if got is not None:
                    return got
            elif got is not True:
                return got  # the call ended in a later block: the caller goes on there
            i = j
        return None

    def region(self, first: Block, k0: int, k1: int
               ) -> tuple[list[Block], list[Block], bool] | None:
        """The blocks of a call that starts in `first` and ends in a later block: those
        between (all inside the call), and the one block where it ends; or, where paths
        leave it with different stacks (a value left in an `if`, W005), the copies of the
        code after it, one per path, and whether a path ends the program inside it."""
        blocks = self.program.blocks
        inside: list[Block] = []
        exits: set[int] = set()
        seen: set[int] = set()
        ends_program = False
        work = [s for s in self.graph.succ[first.index]]
        while work:
            b = work.pop()
            if b in seen:
                continue
            seen.add(b)
            if b == EXIT:
                ends_program = True  # a path ends the program inside the call
                continue
            if b == first.index:
                return None
            blk = blocks[b]
            if blk.code.start == k1 + 1 or (k1 in blk.code and not (
                    blk.code.stop - 1 == k1 and isinstance(blk.end, Jump) and (
                        blk.end.target is None
                        or blocks[blk.end.target].code.start == k1 + 1))):
                # (a call may end with a jump; a block that ends the call and goes on
                # to the code after it, as other paths do, lies inside)
                exits.add(b)
                continue
            if not blk.code or blk.code.start < k0 or blk.code.stop - 1 > k1:
                return None
            inside.append(blk)
            work.extend(self.graph.succ[b])
        outs = sorted((blocks[b] for b in exits), key=lambda x: x.index)
        if not outs and not ends_program or any(b.index in self.graph.loops for b in outs):
            return None
        if (len(outs) > 1 or ends_program) and (
                self.graph.loops or any(b.code.start != k1 + 1 for b in outs)):
            return None
        return sorted(inside, key=lambda x: x.index), outs, ends_program

    def call(self, path: tuple, items: list[Assign], blk: Block, pad: str
             ) -> bool | tuple[Block, list[Assign]]:
        """Write a whole inlined call as a call of the PSL function, written once per body
        it has (named after it, a suffix from the second body on). Registers it reads
        before writing are the caller's: they become file-scope variables. False where
        the call cannot be written so (the caller writes its statements in place); for a
        call that ends in a later block, that block and its statements after the call."""
        calls = self.calls
        assert calls is not None
        fun = calls.callee.get(path[-1])
        src = self.program.source
        if fun is None or src is None or src.program is None:
            return False
        k0, k1 = calls.regions[path]
        variables = src.program.variables
        params = [p.text for p in fun.params]
        head, rest = items[:len(params)], items[len(params):]
        if len(head) != len(params) or (head and head[0].k != k0):
            return False
        if not items:
            return False
        args: dict[str, tuple[Operand, Ref]] = {}
        prefix = fun.name.text + "."
        for a in head:
            m = REG.match(a.target.name)
            if a.declare or not m or tuple(calls.sites[a.k]) != path \
                    or not isinstance(a.expr, Ref | Lit):
                return False
            var = variables.get(int(m.group(1)), "")
            if not var.startswith(prefix):
                return False
            args[var[len(prefix):]] = (a.expr, a.target)
        if set(args) != set(params):
            return False
        # the blocks of a call with jumps inside
        inner_blocks: list[Block] = []
        last: Block | None = None
        tail: list[Assign] = []
        every = list(rest)
        ends: list[Jump | Branch] = []
        multi: list[Block] = []  # the copies of the code after the call, one per path
        many = False  # several ways out (copies of the code after, the program's end)
        if k1 not in blk.code:
            got = self.region(blk, k0, k1)
            if got is None:
                return False
            inner_blocks, outs, ends_program = got
            every += [a for b in inner_blocks for a in b.body]
            ends = [blk.end, *(b.end for b in inner_blocks)]
            if len(outs) > 1 or ends_program:
                multi = outs
                many = True
            else:
                last = outs[0]
                every += [a for a in last.body if a.k <= k1]
                tail = [a for a in last.body if a.k > k1]
        if self.options.exact and any(a.check for a in every):
            return False
        # what the body reads and writes, in order
        defined: set[str] = set()
        inner: dict[str, int] = {}
        read_first: set[str] = set()
        written: set[str] = set()
        param_regs = {t.name for _, t in args.values()}
        slots = {s.name for b in [*inner_blocks, *([last] if last else []), *multi]
                 for s in b.entry}

        def read(o: Operand | None) -> bool:
            if isinstance(o, Ref):
                inner[o.name] = inner.get(o.name, 0) + 1
                if REG.match(o.name):
                    if o.name not in written and o.name not in param_regs:
                        read_first.add(o.name)
                elif o.name not in defined and o.name not in slots:
                    return False  # a value from outside the call (a slot, the stack)
            return True

        # a private variable is the function's own (a local) when every block of the
        # call that uses it writes it before reading it: no value crosses calls
        firsts: dict[str, list[tuple[int, bool]]] = {}  # register -> (block, read first)
        bounds = [len(rest)] + [len(b.body) for b in inner_blocks]
        edges = set()
        acc = 0
        for n in bounds:
            acc += n
            edges.add(acc)
        block_seen: set[str] = set()
        part = 0
        for n, a in enumerate(every):
            if n in edges:
                block_seen = set()
                part += 1
            ops = operands(a.expr)
            if not all(read(o) for o in ops):
                return False
            for o in ops:
                if isinstance(o, Ref) and REG.match(o.name) and o.name not in block_seen:
                    block_seen.add(o.name)
                    firsts.setdefault(o.name, []).append((part, True))
            if a.declare:
                defined.add(a.target.name)
            else:
                written.add(a.target.name)
                if a.target.name not in block_seen:
                    block_seen.add(a.target.name)
                    firsts.setdefault(a.target.name, []).append((part, False))
        tops: set[object] = set()
        for end in ends:
            jumps = [end] if isinstance(end, Jump) else [end.fall, end.taken]
            if isinstance(end, Branch) and not read(end.cond):
                return False
            for j in jumps:
                if not all(read(v) for _, v in j.moves):
                    return False
                if j.target is None and not many:
                    return False
                if j.counted and self.count_jumps:
                    tops.add(j.top)
        if len(tops) > 1 or any(isinstance(t, Ref) and (t.name in defined or t.name in slots)
                                for t in tops):
            return False  # a cut-off inside would output a value of the call's own
        cut = next(iter(tops)) if tops else None
        if tops and self.function and cut != self.cut_top:
            return False
        # what the code after the call reads of it: its result
        after: set[str] = set()
        tail_ops: list[Operand | None] = []
        for a in tail:
            tail_ops += operands(a.expr)
        if last is not None:
            lend = last.end
            for j in [lend] if isinstance(lend, Jump) else [lend.fall, lend.taken]:
                tail_ops += [v for _, v in j.moves] + [j.top]
            if isinstance(lend, Branch):
                tail_ops.append(lend.cond)
            after = {o.name for o in tail_ops if isinstance(o, Ref)}
            escaping = [t for t in defined if t in after]
        else:
            escaping = [t for t in defined if self.uses.get(t, 0) > inner.get(t, 0)]
        if len(escaping) > 1 or (many and (escaping or tops or self.stops)):
            return False  # (a call with several ways out returns which one it took)
        def own(r: str) -> bool:
            # the call's first statements run before everything else in it: a write there
            # comes first on every path; else every block must write before reading
            kinds = firsts.get(r, [])
            if kinds and kinds[0][0] == 0:
                return not kinds[0][1]
            return bool(kinds) and not any(read for _, read in kinds)

        local_regs = {r for r in written if own(r) and r not in param_regs
                      and variables.get(int(REG.match(r).group(1)), "").startswith(prefix)}
        width = 0
        if escaping:
            width = next(a.target.width for a in every if a.target.name == escaping[0])
        # the body, written by a writer of its own
        fw = type(self)(self.lang, self.program, self.options, self.glsl, self.graph, base=self)
        fw.helpers = self.helpers
        fw.function = True
        fw.depth = len(path)
        fw.uses = self.uses
        fw.count_jumps = bool(tops)
        fw.cut_top = cut
        fw.return_width = width
        outside = (read_first | written) - local_regs - param_regs
        fw.taken = set(calls.names.values()) | {self.display[r] for r in outside
                                                if r in self.display}
        params_text = []
        for pname in params:
            value, target = args[pname]
            fw.locals[target.name] = fw.fresh(pname)
            params_text.append(f"{self.lang.vec(target.width)} {fw.locals[target.name]}")
        for r in sorted(local_regs):
            var = variables.get(int(REG.match(r).group(1)), r)[len(prefix):]
            fw.locals[r] = fw.fresh(var)
        fw.local_regs = local_regs
        # the stack slot that carries the call's value to the code after it: a local the
        # function returns (it starts as the slot, for a path that leaves no value)
        slot = last.entry[0] if last is not None and len(last.entry) == 1 \
            and not escaping and not tops else None
        slot_decl: list[str] = []
        if slot is not None:
            outer = fw.name(slot)
            fw.locals[slot.name] = fw.fresh("value")
            slot_decl = [f"    {self.lang.vec(slot.width)} {fw.locals[slot.name]} = {outer};"]
        try:
            fw.decl_inline = True
            if many:
                fw.stops = {b.index: n for n, b in enumerate(multi)}
                fw.end_way = -1
                fw.end_param = fw.fresh("result")
                fw.write_list(rest, blk, len(path), "    ")
                if fw.stopped or fw.ended:
                    return False
                fw.decl_inline = False
                fw.follow(blk, None, "    ")
            elif last is None:
                fw.write_list(rest, blk, len(path), "    ")
            else:
                self.count_uses(last)  # the caller goes on there: counted once
                fw.write_list(rest, blk, len(path), "    ")
                fw.decl_inline = False  # later writes may be in a narrower scope
                fw.stop_block, fw.stop_k = last.index, k1
                fw.follow(blk, last.index, "    ")
                if fw.write_list([a for a in last.body if a.k <= k1], last, len(path),
                                 "    ") is not None:
                    return False
                fw.flush_jumps("    ")
        except (Unstructured, NoCall):
            return False
        if escaping:
            t = Ref(escaping[0], width)
            fw.emit("    ", f"return {fw.text(t).text};")
        if slot is not None:
            fw.emit("    ", f"return {fw.locals[slot.name]};")
            width = slot.width
        undeclared = [r for r in sorted(local_regs) if r not in fw.declared]
        decls = [f"    {self.lang.vec(w)} {fw.locals[r]} = "
                 f"{self.lang.construct(w, ['0.0'] * w)};"
                 for r in undeclared for w in [int(REG.match(r).group(2))]]
        only_end = many and not multi  # every path ends the program: returns its result
        if many and not only_end and fw.end_way is not None and fw.end_way >= 0:
            params_text.append(f"out {self.lang.float4} {fw.end_param}")
        rtype = self.lang.vec(width) if width else self.lang.float4 if only_end \
            else "float" if many else "void"
        lines = [f"{rtype} @F({', '.join(params_text)})", "{", *slot_decl, *decls,
                 *tidy(fw.lines),
                 "}"]
        text = "\n".join(lines)
        name = calls.by_text.get(text)
        if name is None:
            base = calls.names[fun.name.text]
            count = sum(1 for n in calls.by_text.values() if n == base or
                        n.startswith(base + "_"))
            name = base if count == 0 else self.fresh(f"{base}_{count + 1}")
            calls.by_text[text] = name
            calls.functions[name] = [line.replace("@F", name) for line in lines]
        shared = fw.touched
        if self.function:
            self.touched |= shared
        if tops:
            self.flush_jumps(pad)
            calls.jumps = True
        arg_texts = [self.text(args[p][0]) for p in params]
        call_text = f"{name}({', '.join(t.text for t in arg_texts)})"
        reads = frozenset().union(*(t.reads for t in arg_texts))
        for r in sorted(shared):
            self.flush_reads(r, pad)
        if only_end:
            self.name_pending(pad)
            self.end(None, pad, call_text)
            self.ended = True
            return next(iter(self.program.blocks.values())), []
        if many:
            return self.after_paths(multi, fw.end_way is not None and fw.end_way >= 0,
                                    call_text, fun.name.text, pad)
        if slot is not None:
            self.name_pending(pad)
            self.emit(pad, f"{self.name(slot)} = {call_text};")
        elif not escaping:
            self.emit(pad, f"{call_text};")
        else:
            t = Ref(escaping[0], width)
            uses = self.uses.get(t.name, 0) - (inner.get(t.name, 0) if last is None else 0)
            if not shared and not tops and uses == 1 and last is None:
                self.pending[t.name] = Pending(Text(call_text, 0, reads), width)
            else:
                self.name_pending(pad)
                self.emit(pad, f"{self.lang.vec(width)} {self.name(t)} = {call_text};")
        if tops:
            u = self.lang.uint_suffix
            self.emit(pad, f"if (psl_jumps > {self.options.max_jumps}{u}) "
                           f"{self.cut_return(cut)}")
        if last is None:
            return True
        return last, tail

    def follow(self, blk: Block, stop: int, pad: str) -> None:
        """In a function's body: from the end of `blk` to the block `stop`."""
        g = self.graph
        end = blk.end
        ends = self.end_way is not None  # with several ways out every path returns
        if isinstance(end, Jump):
            self.take(end, pad)
            if end.target is None:
                raise NoCall
            if self.seq(end.target, stop, None, pad) != ends:
                raise NoCall
            return
        join = g.ipdom[blk.index]
        self.branch(end, join, None, pad)
        if self.last_terminated and ends:
            return
        if self.last_terminated or join is None:
            raise NoCall
        if join != stop and self.seq(join, stop, None, pad) != ends:
            raise NoCall

    def after_paths(self, outs: list[Block], ends: bool, call_text: str, fun: str, pad: str
                    ) -> bool | tuple[Block, list[Assign]]:
        """After a call that returned which way it left (see call): the code after it,
        one copy per way, up to where the copies join."""
        g = self.graph
        chains = []
        for b in outs:
            chain: list[int] = []
            n: int | None = b.index
            while n is not None:
                chain.append(n)
                n = g.ipdom.get(n)
            chains.append(chain)
        join = next((n for n in chains[0] if all(n in c for c in chains[1:])), None) \
            if chains and not ends else None
        ways = len(outs) + ends
        self.flush_jumps(pad)
        self.name_pending(pad)
        flag = self.fresh(f"{fun}_way")
        if ends:
            result = self.fresh(f"{fun}_result")
            f4 = self.lang.float4
            self.emit(pad, f"{f4} {result} = {self.lang.construct(4, ['0.0'] * 4)};")
            call_text = f"{call_text[:-1]}, {result})" if not call_text.endswith("()") \
                else f"{call_text[:-1]}{result})"
        self.emit(pad, f"float {flag} = {call_text};")
        done = True
        for n in range(ways):
            if n:
                self.emit(pad + "    " * (n - 1), "else")
                self.emit(pad + "    " * (n - 1), "{")
            if n < ways - 1:
                self.emit(pad + "    " * n, f"if ({flag} == {n}.0)")
                self.emit(pad + "    " * n, "{")
            deep = pad + "    " * (n + 1 if n < ways - 1 else n)
            if n < len(outs):
                arm = self.seq(outs[n].index, join, None, deep)
            else:
                self.end(None, deep, result)
                arm = True
            if not arm:
                self.flush_jumps(deep)
            done = done and arm
            if n < ways - 1:
                self.emit(pad + "    " * n, "}")
        for n in range(ways - 1, 0, -1):
            self.emit(pad + "    " * (n - 1), "}")
        if done:
            self.ended = True  # (the block given back is not written: see write_items)
            return next(iter(self.program.blocks.values())), []
        if join is None:
            raise Unstructured("the ways out of a call never join")
        if join == self.seq_stop:
            self.stopped = True
            return self.program.blocks[join], []
        return self.program.blocks[join], self.program.blocks[join].body

