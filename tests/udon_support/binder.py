"""The typed walk over one behaviour's methods: which Udon extern each construct calls.

It mirrors UdonSharp 1.x's binder (vrchat-community/UdonSharp, Packages/com.vrchat.UdonSharp/
Editor/Compiler/Binder): what UdonSharp binds is what it emits, so every expression is typed
(locals, fields, parameters, literals, promotion, constants) and an extern is recorded where
UdonSharp's bound node calls one. See checker.py for the entry point.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tree_sitter import Node

from tests.udon_support import operators as ops
from tests.udon_support.cstypes import (
    BOOL,
    CHAR,
    INT,
    KEYWORDS,
    NULL,
    NUMERIC,
    OBJECT,
    STRING,
    TYPE,
    VOID,
    CsType,
    convert_constant,
)
from tests.udon_support.folding import fold_binary, fold_unary
from tests.udon_support.members import NO_CONSTANT, Member, members_named
from tests.udon_support.syntax import (
    CheckerError,
    ClassDecl,
    MethodDecl,
    declarator_value,
    field_,
    line_of,
    literal,
    named,
    snippet,
    text,
)
from tests.udon_support.typeworld import EVENT_RECEIVER, Operand

if TYPE_CHECKING:
    from tests.udon_support.checker import Project


@dataclass(frozen=True)
class Site:
    extern: str
    line: int
    source: str  # the C# that calls it (one line, shortened)


@dataclass(frozen=True)
class Value:
    type: CsType
    constant: bool = False
    value: object = None

    def operand(self) -> Operand:
        return Operand(self.type, self.constant, self.value)


@dataclass
class Target:
    """An assignable expression: the externs of reading and writing it."""

    type: CsType
    get: list[str]
    set: list[str]


# UdonSharp's frame save/restore around calls made from a [RecursiveMethod] method
# (BoundInvocationExpression.CheckStackSize / PushRecursiveValues / PopRecursiveValues).
_ARRAY = "SystemArray"
FRAME_CHECK = (
    f"{_ARRAY}.__get_Length__SystemInt32",
    "SystemInt32.__op_Addition__SystemInt32_SystemInt32__SystemInt32",
    "SystemInt32.__op_GreaterThanOrEqual__SystemInt32_SystemInt32__SystemBoolean",
    "SystemInt32.__op_Multiplication__SystemInt32_SystemInt32__SystemInt32",
    "SystemObjectArray.__ctor__SystemInt32__SystemObjectArray",
    f"{_ARRAY}.__Copy__SystemArray_SystemArray_SystemInt32__SystemVoid",
)
FRAME_PUSH = ("SystemObjectArray.__Set__SystemInt32_SystemObject__SystemVoid",
              "SystemInt32.__op_Addition__SystemInt32_SystemInt32__SystemInt32")
FRAME_POP = ("SystemInt32.__op_Subtraction__SystemInt32_SystemInt32__SystemInt32",
             "SystemObjectArray.__Get__SystemInt32__SystemObject")
STRING_INDEX = ("SystemString.__ToCharArray__SystemInt32_SystemInt32__SystemCharArray",
                "SystemCharArray.__Get__SystemInt32__SystemChar")
ARRAY_LENGTH = f"{_ARRAY}.__get_Length__SystemInt32"
SEND_CUSTOM_EVENT = f"{EVENT_RECEIVER}.__SendCustomEvent__SystemString__SystemVoid"
SET_PROGRAM_VARIABLE = \
    f"{EVENT_RECEIVER}.__SetProgramVariable__SystemString_SystemObject__SystemVoid"
GET_PROGRAM_VARIABLE = f"{EVENT_RECEIVER}.__GetProgramVariable__SystemString__SystemObject"
BEHAVIOUR = "UdonSharp.UdonSharpBehaviour"


@dataclass
class MethodSig:
    decl: MethodDecl
    params: list[tuple[str, CsType]]
    returns: CsType


class Binder:
    """Binds one class's methods (or, with constant_only, one const initializer) and records
    the extern sites in `sites`."""

    def __init__(self, project: Project, cls: ClassDecl, constant_only: bool = False):
        self.p = project
        self.w = project.world
        self.cls = cls
        self.this = CsType(cls.name)
        self.constant_only = constant_only
        self.sites: list[Site] = []
        self.scopes: list[dict[str, Value]] = []
        self.method: MethodSig | None = None

    # ------------------------------------------------------------------ plumbing

    def error(self, node: Node, what: str) -> CheckerError:
        return CheckerError(f"{self.cls.file}: cannot type {what} at line {line_of(node)}: "
                            f"{snippet(node)}")

    def emit(self, extern: str, node: Node, at: Node | None = None) -> None:
        """Record a site: `node` is the C# shown, `at` (default node) gives the line."""
        if self.constant_only:
            raise self.error(node, "a constant that calls an extern")
        self.sites.append(Site(extern, line_of(at or node), snippet(node)))

    def emit_all(self, externs: list[str] | tuple[str, ...], node: Node) -> None:
        for extern in externs:
            self.emit(extern, node)

    def run(self) -> list[Site]:
        for overloads in self.p.methods[self.cls.name].values():
            for method in overloads:
                self.method = method
                self.scopes = [{n: Value(t) for n, t in method.params}]
                body = method.decl.node.child_by_field_name("body")
                if body is None or body.type != "block":
                    raise self.error(method.decl.node, "a method without a block body")
                self.stmt(body)
        return self.sites

    def lookup(self, name: str) -> Value | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def frame(self, node: Node) -> None:
        """The frame save/restore around a call made from a [RecursiveMethod] method. The
        values saved are the caller's parameters and locals in scope (and pending
        temporaries): one push and one pop group per call when there is any."""
        if self.method is None or not self.method.decl.recursive:
            return
        self.emit_all(FRAME_CHECK, node)
        if any(self.scopes):
            self.emit_all(FRAME_PUSH, node)
            self.emit_all(FRAME_POP, node)

    # ------------------------------------------------------------------ statements

    def block(self, node: Node) -> None:
        self.scopes.append({})
        try:
            if node.type == "block":
                for child in named(node):
                    self.stmt(child)
            else:
                self.stmt(node)
        finally:
            self.scopes.pop()

    def stmt(self, node: Node) -> None:
        kind = node.type
        if kind == "block":
            self.block(node)
        elif kind == "local_declaration_statement":
            is_const = any(c.type == "modifier" and text(c) == "const" for c in node.children)
            decl = next(c for c in node.named_children if c.type == "variable_declaration")
            self.declare(decl, is_const)
        elif kind == "expression_statement":
            self.expr(named(node)[0])
        elif kind == "if_statement":
            self.if_stmt(node)
        elif kind == "while_statement":
            self.expr_to(field_(node, "condition"), BOOL)
            self.block(field_(node, "body"))
        elif kind == "do_statement":
            self.block(field_(node, "body"))
            self.expr_to(field_(node, "condition"), BOOL)
        elif kind == "for_statement":
            self.for_stmt(node)
        elif kind == "switch_statement":
            self.switch_stmt(node)
        elif kind == "return_statement":
            value = named(node)
            if value:
                assert self.method is not None
                self.expr_to(value[0], self.method.returns)
        elif kind not in ("break_statement", "continue_statement", "empty_statement"):
            raise self.error(node, f"statement {kind}")

    def if_stmt(self, node: Node) -> None:
        # VisitIfStatement: a constant condition binds only the live branch; a `!` at the top
        # of the condition is dropped and the branches swapped (no UnaryNegation extern).
        cond = field_(node, "condition")
        negations = 0
        while True:
            if cond.type == "parenthesized_expression":
                cond = named(cond)[0]
            elif cond.type == "prefix_unary_expression" and cond.children[0].type == "!":
                negations += 1
                cond = named(cond)[0]
            else:
                break
        value = self.expr_to(cond, BOOL)
        then, other = field_(node, "consequence"), node.child_by_field_name("alternative")
        if value.constant:
            live = then if bool(value.value) != (negations % 2 == 1) else other
            if live is not None:
                self.block(live)
            return
        self.block(then)
        if other is not None:
            self.block(other)

    def switch_stmt(self, node: Node) -> None:
        """UdonSharp's BoundSwitchStatement: an integer switch with 4 or more constant labels
        in 0..256 is a jump table (range tests and a UInt32[] Get); any other switch tests
        the labels one by one with the governing type's Equality operator."""
        governing = self.expr(named(node)[0]).type
        labels: list[Value] = []
        body = next(c for c in named(node) if c.type == "switch_body")
        for section in named(body):
            if section.type != "switch_section":
                continue
            self.scopes.append({})
            try:
                for child in named(section):
                    if child.type == "constant_pattern":
                        value = self.expr(named(child)[0])
                        if not value.constant:
                            raise self.error(child, "a switch label that is not a constant")
                        labels.append(value)
                    elif child.type.endswith("pattern") or child.type == "when_clause":
                        raise self.error(child, f"switch label {child.type}")
                    else:
                        self.stmt(child)
            finally:
                self.scopes.pop()
        u = self.w.udon(governing)
        table = (u in ("SystemInt32", "SystemUInt32", "SystemInt16", "SystemUInt16",
                       "SystemByte", "SByte", "SystemChar")
                 and len(labels) >= 4
                 and all(isinstance(v.value, int) and 0 <= v.value <= 256 for v in labels))
        if table:
            self.emit_all((f"{u}.__op_GreaterThanOrEqual__{u}_{u}__SystemBoolean",
                           f"{u}.__op_LessThanOrEqual__{u}_{u}__SystemBoolean",
                           "SystemUInt32Array.__Get__SystemInt32__SystemUInt32"), node)
        else:
            for _ in labels:
                self.emit(f"{u}.__op_Equality__{u}_{u}__SystemBoolean", node)

    def for_stmt(self, node: Node) -> None:
        self.scopes.append({})
        try:
            for child in node.children_by_field_name("initializer"):
                if child.type == "variable_declaration":
                    self.declare(child, False)
                else:
                    self.expr(child)
            cond = node.child_by_field_name("condition")
            if cond is not None:
                self.expr_to(cond, BOOL)
            for update in node.children_by_field_name("update"):
                self.expr(update)
            self.block(field_(node, "body"))
        finally:
            self.scopes.pop()

    def declare(self, decl: Node, is_const: bool) -> None:
        type_node = field_(decl, "type")
        declared = None if type_node.type == "implicit_type" else self.p.type_of(type_node)
        for var in (c for c in decl.named_children if c.type == "variable_declarator"):
            name = text(field_(var, "name"))
            init = declarator_value(var)
            if declared is None:
                if init is None:
                    raise self.error(var, "`var` without an initializer")
                value = self.expr(init)
                if value.type == NULL:
                    raise self.error(var, "`var` initialized with null")
                self.scopes[-1][name] = Value(value.type, is_const and value.constant,
                                              value.value)
                continue
            # declared before its initializer is bound: it is among the values a recursive
            # method's frame saves at a call in the initializer
            self.scopes[-1][name] = Value(declared)
            if init is not None:
                value = self.initial(init, declared)
                if is_const:
                    self.scopes[-1][name] = value

    def initial(self, init: Node, t: CsType) -> Value:
        if init.type == "initializer_expression":
            return self.new_array(init, t, init)
        return self.expr_to(init, t)

    def new_array(self, node: Node, array: CsType, init: Node | None) -> Value:
        """`new T[n]`, `new T[] {...}`, `T[] a = {...}` (the size already bound): the array
        constructor, then a Set per initializer element (BoundArrayCreationExpression)."""
        if array.elem is None:
            raise self.error(node, f"an array initializer for {array}")
        self.emit(f"{self.w.udon(array)}.__ctor__SystemInt32__{self.w.udon(array)}", node)
        for element in named(init) if init is not None else []:
            self.expr_to(element, array.elem)
            self.emit(self.element_extern(array, "Set"), element)
        return Value(array)

    # ------------------------------------------------------------------ conversions

    def expr_to(self, node: Node, t: CsType, explicit: bool = False) -> Value:
        return self.convert(self.expr(node), t, node, explicit)

    def convert(self, value: Value, t: CsType, node: Node, explicit: bool = False) -> Value:
        """BinderSyntaxVisitor.ConvertExpression: constants are converted at compile time,
        anything else through EmitContext.CastValue."""
        if value.type == t:
            return value
        ok = self.w.explicit(value.operand(), t) if explicit else \
            self.w.implicit(value.operand(), t)
        if not ok:
            raise self.error(node, f"a conversion from {value.type} to {t}")
        if value.constant and value.type in NUMERIC and t in NUMERIC:
            return Value(t, True, convert_constant(value.value, value.type, t))
        if value.constant and value.type == NULL:
            return Value(t, True, None)
        self.emit_all(ops.conversion(self.w, value.type, t), node)
        return Value(t)

    # ------------------------------------------------------------------ expressions

    def expr(self, node: Node) -> Value:
        handler: Callable[[Node], Value] | None = getattr(self, "x_" + node.type, None)
        if handler is None:
            if node.type.endswith("_literal"):
                return self.x_literal(node)
            raise self.error(node, f"expression {node.type}")
        return handler(node)

    def x_literal(self, node: Node) -> Value:
        if node.type == "null_literal":
            return Value(NULL, True, None)
        t, value = literal(node)
        return Value(t, True, value)

    def x_parenthesized_expression(self, node: Node) -> Value:
        return self.expr(named(node)[0])

    def x_this(self, node: Node) -> Value:
        return Value(self.this)

    x_this_expression = x_this

    def x_typeof_expression(self, node: Node) -> Value:
        t = self.p.type_of(field_(node, "type"))
        if self.w.is_behaviour(t):
            raise self.error(node, "typeof of a user-defined type (UdonSharp rejects it)")
        return Value(TYPE, True, t.name)

    def x_identifier(self, node: Node) -> Value:
        name = text(node)
        local = self.lookup(name)
        if local is not None:
            return local
        own = self.own_field(name, node)
        if own is not None:
            return own
        member = self.find_member(self.this, name, ("property", "field"), node, instance=True)
        if member is not None:
            return self.read_member(member, self.this, node)
        raise self.error(node, f"identifier {name!r}")

    def own_field(self, name: str, node: Node) -> Value | None:
        decl = self.cls.fields.get(name)
        if decl is None:
            return None
        if decl.const:
            return self.p.const(self.cls.name, name)
        return Value(self.p.type_of(decl.type_node))

    def static_type(self, node: Node) -> CsType | None:
        """The type a member access starts from (`float.NaN`, `Networking.X`, `System.Math`),
        or None when the node is a value."""
        if node.type == "predefined_type":
            return CsType(KEYWORDS[text(node)])
        if node.type == "identifier":
            name = text(node)
            if self.lookup(name) is not None or name in self.cls.fields:
                return None
            return self.w.resolve(name)
        if node.type in ("member_access_expression", "qualified_name"):
            return self.w.resolve(text(node).replace(" ", ""))
        return None

    def x_member_access_expression(self, node: Node) -> Value:
        obj, name = _unparen(field_(node, "expression")), text(field_(node, "name"))
        static = self.static_type(obj)
        if static is not None:
            member = self.find_member(static, name, ("property", "field"), node, instance=False)
            if member is None:
                raise self.error(node, f"static member {static}.{name} (not in members.py)")
            return self.read_member(member, static, node)
        if obj.type in ("this", "this_expression"):
            own = self.own_field(name, node)
            if own is not None:
                return own
            return self.member_value(Value(self.this), name, node)
        if obj.type == "base":
            raise self.error(node, "base member access")
        return self.member_value(self.expr(obj), name, node)

    def member_value(self, value: Value, name: str, node: Node) -> Value:
        t = value.type
        if t.is_array and name == "Length":
            self.emit(ARRAY_LENGTH, node)
            return Value(INT)
        if self.w.is_behaviour(t):
            ftype = self.p.field_type(t.name, name) if t.name in self.p.classes else None
            if ftype is not None:
                # another behaviour's field: GetProgramVariable, then a cast from object
                self.emit(GET_PROGRAM_VARIABLE, node)
                return self.convert(Value(OBJECT), ftype, node, explicit=True)
        member = self.find_member(t, name, ("property", "field"), node, instance=True)
        if member is None:
            raise self.error(node, f"member {t}.{name} (not in tests/udon_support/members.py)")
        return self.read_member(member, t, node)

    def find_member(self, t: CsType, name: str, kinds: tuple[str, ...], node: Node,
                    instance: bool) -> Member | None:
        for owner in self.w.chain(t):
            found = [m for m in members_named(owner, name) if m.kind in kinds]
            if found:
                if found[0].static == instance:
                    raise self.error(node, f"{'instance' if instance else 'static'} access "
                                           f"to {owner}.{name}")
                return found[0]
        return None

    def accessor(self, member: Member, kind: str, receiver: CsType | None) -> str:
        """The extern of a property/field get or set, named after the declaring type."""
        owner = self.w.owner(member.owner)
        t = self.w.udon(member.type)
        if member.kind == "field":
            return f"{owner}.__{kind}_{member.name}__{t}"
        tail = f"__{t}" if kind == "get" else f"__{t}__SystemVoid"
        return self.exposed_or_alternate(f"{owner}.__{kind}_{member.name}{tail}", member,
                                         receiver, f"__{kind}_{member.name}", tail)

    def exposed_or_alternate(self, extern: str, member: Member, receiver: CsType | None,
                             name: str, tail: str) -> str:
        """BoundExternInvocation: a non-exposed instance signature is retried on the
        receiver's type and its bases; the first exposed one is used."""
        exposed = self.p.exposed
        if exposed is None or extern in exposed or member.static or receiver is None:
            return extern
        for owner in self.w.chain(receiver):
            candidate = f"{self.w.owner(owner)}.{name}{tail}"
            if candidate in exposed:
                return candidate
        return extern

    def read_member(self, member: Member, receiver: CsType, node: Node) -> Value:
        if member.constant is not NO_CONSTANT:
            return Value(member.type, True, member.constant)
        self.emit(self.accessor(member, "get", None if member.static else receiver), node)
        return Value(member.type)

    # ---------------------------------------------------------------- invocations

    def arguments(self, node: Node) -> list[Node]:
        """The argument expressions; `out x` (a variable) only where an extern takes it."""
        out = []
        for arg in (c for c in named(node) if c.type == "argument"):
            if arg.child_by_field_name("name") is not None or \
                    any(not c.is_named and c.type in ("ref", "in") for c in arg.children):
                raise self.error(arg, "a named or ref argument")
            if _is_out(named(arg)[-1]) and named(arg)[-1].type != "identifier":
                raise self.error(arg, "an out argument that is not a variable")
            out.append(named(arg)[-1])
        return out

    def no_out(self, args: list[Node]) -> None:
        for a in args:
            if _is_out(a):
                raise self.error(a, "an out argument to a method that is not an extern")

    def x_invocation_expression(self, node: Node) -> Value:
        fn, args = field_(node, "function"), self.arguments(field_(node, "arguments"))
        if fn.type == "identifier":
            name = text(fn)
            if name == "nameof" and name not in self.p.methods[self.cls.name]:
                if len(args) != 1:
                    raise self.error(node, "nameof")
                return Value(STRING, True, text(args[-1]).rsplit(".", 1)[-1])
            if name in self.p.methods[self.cls.name]:
                return self.call_own(self.p.methods[self.cls.name][name], args, node)
            return self.call_extern(Value(self.this), self.this, name, args, node)
        if fn.type != "member_access_expression":
            raise self.error(node, f"a call of {fn.type}")
        obj, name = _unparen(field_(fn, "expression")), text(field_(fn, "name"))
        static = self.static_type(obj)
        if static is not None:
            return self.call_extern(None, static, name, args, node)
        if obj.type in ("this", "this_expression"):
            if name in self.p.methods[self.cls.name]:
                return self.call_own(self.p.methods[self.cls.name][name], args, node)
            return self.call_extern(Value(self.this), self.this, name, args, node)
        if obj.type == "base":
            raise self.error(node, "a base call")
        target = self.expr(obj)
        t = target.type
        if self.w.is_behaviour(t) and name in self.p.methods.get(t.name, {}):
            return self.call_behaviour(self.p.methods[t.name][name], args, node)
        return self.call_extern(target, t, name, args, node)

    def pick(self, candidates: list[tuple[CsType, ...]], values: list[Value],
             node: Node, what: str) -> int:
        """Overload resolution: the index of the best applicable candidate."""
        applicable = [
            i for i, params in enumerate(candidates) if len(params) == len(values) and
            all(self.w.implicit(v.operand(), p) for v, p in zip(values, params, strict=True))]

        def better(a: int, b: int) -> bool:
            scores = [self.w.better_conversion(v.type, pa, pb) for v, pa, pb in
                      zip(values, candidates[a], candidates[b], strict=True)]
            return all(s >= 0 for s in scores) and any(s > 0 for s in scores)

        best = [i for i in applicable if not any(better(j, i) for j in applicable if j != i)]
        if len(best) != 1:
            types = ", ".join(str(v.type) for v in values)
            problem = "no overload" if not best else "an ambiguous call"
            raise self.error(node, f"{what}({types}): {problem} in "
                                   "tests/udon_support/members.py")
        return best[0]

    def call_own(self, overloads: list[MethodSig], args: list[Node], node: Node) -> Value:
        """A call of the behaviour's own method: a jump, not an extern (plus the frame
        save/restore when made from a [RecursiveMethod] method)."""
        self.no_out(args)
        values = [self.expr(a) for a in args]
        method = overloads[self.pick([tuple(t for _, t in m.params) for m in overloads],
                                     values, node, overloads[0].decl.name)]
        for value, (_, t), arg in zip(values, method.params, args, strict=True):
            self.convert(value, t, arg)
        self.frame(node)
        return Value(method.returns)

    def call_behaviour(self, overloads: list[MethodSig], args: list[Node], node: Node) -> Value:
        """A call of another behaviour's method (BoundUdonSharpBehaviourInvocationExpression):
        SetProgramVariable per argument, SendCustomEvent, GetProgramVariable for a result."""
        self.no_out(args)
        values = [self.expr(a) for a in args]
        method = overloads[self.pick([tuple(t for _, t in m.params) for m in overloads],
                                     values, node, overloads[0].decl.name)]
        for value, (_, t), arg in zip(values, method.params, args, strict=True):
            self.convert(value, t, arg)
            self.emit(SET_PROGRAM_VARIABLE, node)
        self.frame(node)
        self.emit(SEND_CUSTOM_EVENT, node)
        if method.returns == VOID:
            return Value(VOID)
        self.emit(GET_PROGRAM_VARIABLE, node)
        return self.convert(Value(OBJECT), method.returns, node, explicit=True)

    def call_extern(self, target: Value | None, t: CsType, name: str, args: list[Node],
                    node: Node) -> Value:
        """A .NET/Unity/VRChat method: an extern named after the declaring type, with the
        parameters of the overload C# picks. An `out` argument needs an `out` parameter of
        exactly its variable's type (Udon spells it `<type>Ref`)."""
        outs = [_is_out(a) for a in args]
        values = [self.expr(a) for a in args]
        for owner in self.w.chain(t):
            overloads = [m for m in members_named(owner, name) if m.kind == "method"]
            if not overloads:
                continue
            overloads = [m for m in overloads if len(m.params) == len(args) and all(
                p.ref == o for p, o in zip(m.params, outs, strict=True))] or overloads
            member = overloads[self.pick([tuple(p.deref() for p in m.params) for m in overloads],
                                         values, node, f"{owner}.{name}")]
            if member.static != (target is None):
                raise self.error(node, f"{'static' if member.static else 'instance'} method "
                                       f"{owner}.{name} called the other way")
            for value, p, arg in zip(values, member.params, args, strict=True):
                if p.ref != _is_out(arg):
                    raise self.error(arg, f"an argument with or without out for {p}")
                if p.ref:
                    if value.type != p.deref():
                        raise self.error(arg, f"an out argument of type {value.type} for {p}")
                    continue
                self.convert(value, p, arg)
            params = "_".join(self.w.udon(p) for p in member.params)
            tail = (f"__{params}" if params else "") + f"__{self.w.udon(member.type)}"
            extern = self.exposed_or_alternate(
                f"{self.w.owner(owner)}.__{name}{tail}", member,
                None if target is None else t, f"__{name}", tail)
            if name == "SendCustomEvent" and owner == BEHAVIOUR:
                self.frame(node)
            self.emit(extern, node)
            return Value(member.type)
        raise self.error(node, f"method {t}.{name} (not in tests/udon_support/members.py)")

    def x_object_creation_expression(self, node: Node) -> Value:
        t = self.p.type_of(field_(node, "type"))
        if node.child_by_field_name("initializer") is not None:
            raise self.error(node, "an object initializer")
        args = self.arguments(field_(node, "arguments"))
        self.no_out(args)
        values = [self.expr(a) for a in args]
        ctors = [m for m in members_named(t.name, ".ctor")]
        if not ctors:
            raise self.error(node, f"constructor of {t} (not in members.py)")
        member = ctors[self.pick([m.params for m in ctors], values, node, f"new {t}")]
        converted = [self.convert(v, p, a)
                     for v, p, a in zip(values, member.params, args, strict=True)]
        if self.w.is_value_type(t) and all(v.constant for v in converted):
            # VisitObjectCreationExpression folds a struct built from constants
            return Value(t, True, tuple(v.value for v in converted))
        params = "_".join(self.w.udon(p) for p in member.params) or "_"
        self.emit(f"{self.w.udon(t)}.__ctor__{params}__{self.w.udon(t)}", node)
        return Value(t)

    def x_array_creation_expression(self, node: Node) -> Value:
        array_node = field_(node, "type")
        if array_node.type != "array_type":
            raise self.error(node, "an array creation")
        rank = field_(array_node, "rank")
        sizes = named(rank)
        array = self.p.type_of(field_(array_node, "type")).array()
        init = next((c for c in named(node) if c.type == "initializer_expression"), None)
        if len(sizes) > 1:
            raise self.error(node, "a multidimensional array")
        if sizes:
            self.expr_to(sizes[0], INT)
        elif init is None:
            raise self.error(node, "an array creation without size")
        return self.new_array(node, array, init)

    # ---------------------------------------------------------------- element access

    def element_extern(self, array: CsType, kind: str) -> str:
        """BoundArrayAccessExpression: arrays of UnityEngine.Object types go through
        object[] (VRChat does not expose their own array types)."""
        assert array.elem is not None
        elem = array.elem
        if self.w.is_unity_object(elem):
            array, elem = OBJECT.array(), OBJECT
        owner, e = self.w.udon(array), self.w.udon(elem)
        return f"{owner}.__Get__SystemInt32__{e}" if kind == "Get" else \
            f"{owner}.__Set__SystemInt32_{e}__SystemVoid"

    def x_element_access_expression(self, node: Node) -> Value:
        target = self.expr(field_(node, "expression"))
        self.index(node)
        if target.type == STRING:
            # BoundStringAccessExpression: ToCharArray(i, 1), then element 0
            self.emit_all(STRING_INDEX, node)
            return Value(CHAR)
        if not target.type.is_array:
            raise self.error(node, f"an indexer of {target.type}")
        self.emit(self.element_extern(target.type, "Get"), node)
        assert target.type.elem is not None
        return Value(target.type.elem)

    def index(self, node: Node) -> Value:
        args = self.arguments(field_(node, "subscript"))
        if len(args) != 1:
            raise self.error(node, "a multidimensional index")
        return self.expr_to(args[0], INT)

    # ---------------------------------------------------------------- assignments

    def target(self, node: Node) -> Target:
        kind = node.type
        if kind == "parenthesized_expression":
            return self.target(named(node)[0])
        if kind == "identifier":
            name = text(node)
            local = self.lookup(name)
            if local is not None:
                return Target(local.type, [], [])
            decl = self.cls.fields.get(name)
            if decl is not None and not decl.const:
                return Target(self.p.type_of(decl.type_node), [], [])
            member = self.find_member(self.this, name, ("property", "field"), node, True)
            if member is not None:
                return self.member_target(member, self.this, node)
        elif kind == "element_access_expression":
            array = self.expr(field_(node, "expression"))
            self.index(node)
            if array.type.is_array and array.type.elem is not None:
                return Target(array.type.elem, [self.element_extern(array.type, "Get")],
                              [self.element_extern(array.type, "Set")])
        elif kind == "member_access_expression":
            obj, name = _unparen(field_(node, "expression")), text(field_(node, "name"))
            static = self.static_type(obj)
            if static is not None:
                member = self.find_member(static, name, ("property", "field"), node, False)
                if member is not None:
                    return self.member_target(member, static, node)
            elif obj.type in ("this", "this_expression") and name in self.cls.fields:
                decl = self.cls.fields[name]
                if not decl.const:
                    return Target(self.p.type_of(decl.type_node), [], [])
            else:
                return self.instance_target(obj, name, node)
        raise self.error(node, "an assignment target")

    def instance_target(self, obj: Node, name: str, node: Node) -> Target:
        receiver = self.target(obj) if obj.type == "element_access_expression" else None
        t = receiver.type if receiver else self.expr(obj).type
        if receiver is not None:
            # reading the element to reach its member
            self.emit_all(receiver.get, node)
        if self.w.is_behaviour(t) and t.name in self.p.classes and \
                self.p.field_type(t.name, name) is not None:
            ftype = self.p.field_type(t.name, name)
            assert ftype is not None
            return Target(ftype, [GET_PROGRAM_VARIABLE, *ops.conversion(self.w, OBJECT, ftype)],
                          [SET_PROGRAM_VARIABLE])
        member = self.find_member(t, name, ("property", "field"), node, True)
        if member is None:
            raise self.error(node, f"member {t}.{name} (not in members.py)")
        found = self.member_target(member, t, node)
        if receiver is not None and self.w.is_value_type(t):
            # a struct element is written back after its member is set
            found.set.extend(receiver.set)
        return found

    def member_target(self, member: Member, receiver: CsType, node: Node) -> Target:
        if not member.settable or member.constant is not NO_CONSTANT:
            raise self.error(node, f"an assignment to read-only {member.owner}.{member.name}")
        where = None if member.static else receiver
        return Target(member.type, [self.accessor(member, "get", where)],
                      [self.accessor(member, "set", where)])

    def x_assignment_expression(self, node: Node) -> Value:
        left, right = field_(node, "left"), field_(node, "right")
        op = field_(node, "operator").type
        target = self.target(left)
        if op == "=":
            self.expr_to(right, target.type)
            self.emit_all(target.set, node)
            return Value(target.type)
        if op == "??=":
            raise self.error(node, "??=")
        binop = op[:-1]
        value = self.expr(right)
        self.emit_all(target.get, node)
        operator = ops.binary(self.w, binop, Operand(target.type), value.operand(),
                              f"line {line_of(node)}")
        if target.type == STRING:
            extern = operator.extern
            if extern == ops.CONCAT and value.constant:
                # VisitAssignmentExpression: a constant right operand becomes a string
                # constant and the operator string + string
                value = Value(STRING, True, value.value)
                extern = ops.op_extern(self.w, "Addition", (STRING, STRING), STRING)
            self.convert(value, operator.right if extern == ops.CONCAT else STRING, right)
            assert extern is not None
            self.emit(extern, node)
        else:
            # VisitAssignmentExpression: the operator synthesized on the target's type
            rtype, result, extern = ops.compound(self.w, binop, target.type,
                                                 f"line {line_of(node)}")
            # Roslyn accepted `x op= y`; UdonSharp converts y to the operator's operand
            self.convert(value, rtype, right, explicit=True)
            self.emit(extern, node)
            if result != target.type:
                self.convert(Value(result), target.type, node, explicit=True)
        self.emit_all(target.set, node)
        return Value(target.type)

    def step(self, node: Node, operand: Node, op: str) -> Value:
        target = self.target(operand)
        self.emit_all(target.get, node)
        extern, result = ops.increment(self.w, op, target.type, f"line {line_of(node)}")
        self.emit(extern, node)
        if result != target.type:
            self.convert(Value(result), target.type, node, explicit=True)
        self.emit_all(target.set, node)
        return Value(target.type)

    def x_postfix_unary_expression(self, node: Node) -> Value:
        return self.step(node, named(node)[0], node.children[-1].type)

    def x_prefix_unary_expression(self, node: Node) -> Value:
        op, operand = node.children[0].type, named(node)[0]
        if op in ("++", "--"):
            return self.step(node, operand, op)
        value = self.expr(operand)
        t, extern = ops.unary(self.w, op, value.operand(), f"line {line_of(node)}")
        value = self.convert(value, t, operand)
        if extern is None:
            return value
        if value.constant:
            return Value(t, True, fold_unary(op, value.value, t))
        self.emit(extern, node)
        return Value(t)

    # ---------------------------------------------------------------- operators

    def x_binary_expression(self, node: Node) -> Value:
        left, right = field_(node, "left"), field_(node, "right")
        op_node = field_(node, "operator")
        op = op_node.type
        if op in ("&&", "||"):
            # BoundShortCircuitOperatorExpression: jumps; constants fold
            a, b = self.expr_to(left, BOOL), self.expr_to(right, BOOL)
            if a.constant and b.constant:
                value = (a.value and b.value) if op == "&&" else (a.value or b.value)
                return Value(BOOL, True, bool(value))
            return Value(BOOL)
        if op == "??":
            raise self.error(node, "??")
        a, b = self.expr(left), self.expr(right)
        operator = ops.binary(self.w, op, a.operand(), b.operand(), f"line {line_of(node)}")
        if operator.folded is not None:
            return Value(BOOL, True, operator.folded)
        a = self.convert(a, operator.left, left)
        b = self.convert(b, operator.right, right)
        if a.constant and b.constant and operator.foldable:
            return Value(operator.result, True,
                         fold_binary(op, a.value, b.value, operator.left, operator.result))
        assert operator.extern is not None
        self.emit(operator.extern, node, at=op_node)
        return Value(operator.result)

    def x_conditional_expression(self, node: Node) -> Value:
        # BoundConditionalExpression: jumps only (never folded)
        self.expr_to(field_(node, "condition"), BOOL)
        yes_node, no_node = field_(node, "consequence"), field_(node, "alternative")
        yes, no = self.expr(yes_node), self.expr(no_node)
        if yes.type == no.type:
            t = yes.type
        elif self.w.implicit(yes.operand(), no.type) and \
                not self.w.implicit(no.operand(), yes.type):
            t = no.type
        elif self.w.implicit(no.operand(), yes.type) and \
                not self.w.implicit(yes.operand(), no.type):
            t = yes.type
        else:
            raise self.error(node, f"?: with {yes.type} and {no.type}")
        self.convert(yes, t, yes_node)
        self.convert(no, t, no_node)
        return Value(t)

    def x_cast_expression(self, node: Node) -> Value:
        t = self.p.type_of(field_(node, "type"))
        return self.expr_to(field_(node, "value"), t, explicit=True)


def _unparen(node: Node) -> Node:
    while node.type == "parenthesized_expression":
        node = named(node)[0]
    return node


def _is_out(expr: Node) -> bool:
    """Whether an argument expression is written `out x`."""
    arg = expr.parent
    return arg is not None and arg.type == "argument" and \
        any(not c.is_named and c.type == "out" for c in arg.children)
