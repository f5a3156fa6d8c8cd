"""AST -> labelled code (SPEC §6), one code list per function body and one for top level.

User calls stay symbolic (`CallUser`); `link.py` inlines them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from psl import registry
from psl.bytecode import set_mask, swizzle_pick
from psl.compiler.ir import NAN, CallUser, Ins, Item, Label
from psl.diagnostics import Span
from psl.registry import Op
from psl.syntax import ast


@dataclass
class BodyCode:
    code: list[Item] = field(default_factory=list)
    labels: int = 0  # labels used by this body: 0 .. labels-1


class _Gen:
    def __init__(self, functions: dict[str, ast.FunDef]):
        self.functions = functions
        self.out = BodyCode()

    def label(self) -> int:
        self.out.labels += 1
        return self.out.labels - 1

    def emit(self, item: Item) -> None:
        self.out.code.append(item)

    # ------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> None:
        emit = self.emit
        if isinstance(e, ast.Number):
            emit(Ins(Op.PUSHCONST, value=(e.value, NAN, NAN, NAN), span=e.span))
        elif isinstance(e, ast.Var):
            emit(Ins(Op.PUSHVAR, name=e.name, span=e.span))
        elif isinstance(e, ast.Call):
            for arg in e.args:
                self.expr(arg)
            if e.name.text in self.functions:
                emit(CallUser(e.name.text, e.name.span))
            else:
                builtin = registry.lookup_builtin(e.name.text)
                assert builtin is not None, "analysis rejects undefined functions"
                emit(Ins(Op.CALL, code=builtin.id, span=e.name.span))
        elif isinstance(e, ast.Paren):
            self.expr(e.inner)
        elif isinstance(e, ast.Swizzle):
            self.expr(e.base)
            for part in e.parts:
                self.swizzle(part.text, part.span)
        elif isinstance(e, ast.Unary):
            self.expr(e.operand)
            for op in reversed(e.ops):
                emit(Ins(Op.UNOP, code=registry.UNOP_BY_SYMBOL[op.text].code, span=op.span))
        elif isinstance(e, ast.Chain):
            self.expr(e.first)
            for op, operand in e.rest:
                self.expr(operand)
                emit(Ins(Op.BINOP, code=registry.BINOP_BY_SYMBOL[op.text].id, span=op.span))
        else:  # pragma: no cover - the AST has no other expression nodes
            raise TypeError(type(e).__name__)

    def swizzle(self, text: str, span: Span | None) -> None:
        self.emit(Ins(Op.PUSHCONST, value=swizzle_pick(text), span=span))
        self.emit(Ins(Op.CALL, code=registry.SWIZZLE.id, span=span))

    # ------------------------------------------------------------- statements
    def assign(self, a: ast.Assign) -> None:
        target = a.target
        if isinstance(target, ast.Swizzle):
            assert isinstance(target.base, ast.Var)
            name, sw = target.base.name, target.parts[0].text
            where, sw_span = target.base.span, target.parts[0].span
        else:
            assert isinstance(target, ast.Var)
            name, sw = target.name, ""
            where, sw_span = target.span, None
        mask = set_mask(sw) if sw else 0
        op = a.op.text
        if op == "=":
            assert a.value is not None
            self.expr(a.value)
        else:
            # psl fix (SPEC §6): `v.sw op= e` reads v.sw, not the whole of v.
            self.emit(Ins(Op.PUSHVAR, name=name, span=where))
            if sw:
                self.swizzle(sw, sw_span)
            if op in registry.INCREMENT:
                self.emit(Ins(Op.PUSHCONST, value=(1.0, NAN, NAN, NAN), span=a.op.span))
                binop = registry.INCREMENT[op]
            else:
                assert a.value is not None
                self.expr(a.value)
                binop = registry.COMPOUND_ASSIGN[op]
            self.emit(Ins(Op.BINOP, code=registry.BINOP_BY_SYMBOL[binop].id, span=a.op.span))
        self.emit(Ins(Op.SETVAR, name=name, mask=mask, span=where))

    def block(self, b: ast.Block) -> None:
        for stmt in b.statements:
            self.statement(stmt)
        if b.final is not None:
            self.expr(b.final)

    def statement(self, s: ast.Stmt) -> None:
        emit = self.emit
        if isinstance(s, ast.Assign):
            self.assign(s)
        elif isinstance(s, ast.If):
            # An `else if` chain is compiled as nested ifs in the original; all their end
            # labels land on the same slot, so one shared end label gives identical code
            # without recursing once per `else if`.
            end = self.label()
            node: ast.If | ast.Block | None = s
            while isinstance(node, ast.If):
                lfalse = self.label()
                self.expr(node.cond)
                emit(Ins(Op.CONDJUMP, label=lfalse, span=node.span))
                self.block(node.then)
                emit(Ins(Op.JUMP, label=end, span=node.span))
                emit(Label(lfalse))
                node = node.orelse
            if node is not None:
                self.block(node)
            emit(Label(end))
        elif isinstance(s, ast.While):
            start, end = self.label(), self.label()
            emit(Label(start))
            self.expr(s.cond)
            emit(Ins(Op.CONDJUMP, label=end, span=s.span))
            self.block(s.body)
            emit(Ins(Op.JUMP, label=start, span=s.span))
            emit(Label(end))
        elif isinstance(s, ast.For):
            check, incr, body, end = self.label(), self.label(), self.label(), self.label()
            self.assign(s.init)
            emit(Label(check))
            self.expr(s.cond)
            emit(Ins(Op.CONDJUMP, label=end, span=s.span))
            emit(Ins(Op.JUMP, label=body, span=s.span))
            emit(Label(incr))
            self.assign(s.step)
            emit(Ins(Op.JUMP, label=check, span=s.span))
            emit(Label(body))
            self.block(s.body)
            emit(Ins(Op.JUMP, label=incr, span=s.span))
            emit(Label(end))
        elif isinstance(s, ast.FunDef):
            pass  # bodies are compiled separately and inlined at call sites
        else:  # pragma: no cover
            raise TypeError(type(s).__name__)


def generate(body: ast.Block, functions: dict[str, ast.FunDef]) -> BodyCode:
    gen = _Gen(functions)
    gen.block(body)
    return gen.out
