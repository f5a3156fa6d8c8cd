"""Which Udon extern UdonSharp 1.x calls for a C# operator or conversion, and its name.

Sources (vrchat-community/UdonSharp, Packages/com.vrchat.UdonSharp/Editor/Compiler):
- binary/unary operators: Roslyn picks the predefined operator after numeric promotion;
  `ExternBuiltinOperatorSymbol` names it `T.__op_Name__A_B__R` (integer `& | ^` are
  LogicalAnd/LogicalOr/LogicalXor, `%` is Remainder, `++`/`--` are Addition/Subtraction);
- `x op= y`: `BinderSyntaxVisitor.VisitAssignmentExpression` replaces the operator by an
  `ExternSynthesizedOperatorSymbol` on the target's type;
- conversions: `EmitContext.CastValue` (Convert.ToX, float to integer through Math.Truncate,
  char <-> float through UInt16).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.udon_support.cstypes import (
    BOOL,
    BYTE,
    CHAR,
    DECIMAL,
    DOUBLE,
    FLOAT,
    INT,
    INTEGERS,
    LONG,
    NULL,
    NUMERIC,
    OBJECT,
    OPERATOR_TYPES,
    SBYTE,
    SHORT,
    STRING,
    UINT,
    ULONG,
    USHORT,
    CsType,
    short_name,
    unary_promoted,
)
from tests.udon_support.syntax import CheckerError
from tests.udon_support.typeworld import Operand, TypeWorld

NAMES = {"+": "Addition", "-": "Subtraction", "*": "Multiplication", "/": "Division",
         "%": "Remainder", "<<": "LeftShift", ">>": "RightShift", "&": "LogicalAnd",
         "|": "LogicalOr", "^": "LogicalXor", "==": "Equality", "!=": "Inequality",
         "<": "LessThan", ">": "GreaterThan", "<=": "LessThanOrEqual",
         ">=": "GreaterThanOrEqual"}
COMPARISONS = ("==", "!=", "<", ">", "<=", ">=")
#: operators on byte/sbyte/short/ushort that UdonSharp declares to return int
_SMALL = (SBYTE, BYTE, SHORT, USHORT)
CONCAT = "SystemString.__Concat__SystemObject_SystemObject__SystemString"


@dataclass(frozen=True)
class BinaryOp:
    left: CsType  # the operator's parameter types: the operands are converted to them
    right: CsType
    result: CsType
    extern: str | None  # None when the result is `folded` whatever the operands
    #: both operands constant -> no extern. UdonSharp's ConstantExpressionOptimizer matches
    #: `<=` against an expression kind instead of a token kind, so it never folds `<=`.
    foldable: bool = True
    folded: bool | None = None  # value-type == null: a constant (FoldConstantBinaryExpression)


def op_extern(world: TypeWorld, name: str, params: tuple[CsType, ...], result: CsType) -> str:
    owner = world.udon(params[0])
    return f"{owner}.__op_{name}__{'_'.join(world.udon(p) for p in params)}__" \
           f"{world.udon(result)}"


def promote(world: TypeWorld, left: Operand, right: Operand) -> CsType | None:
    """The predefined operator's operand type that overload resolution picks (C# 12.4.7)."""
    if left.type not in NUMERIC or right.type not in NUMERIC:
        return None
    for signed, other in ((left, right), (right, left)):
        if other.type == ULONG and signed.type in (SBYTE, SHORT, INT, LONG) and \
                not world.implicit(signed, ULONG):
            return None  # C# reports an ambiguity: no extern to name
    for t in OPERATOR_TYPES:
        if world.implicit(left, t) and world.implicit(right, t):
            return t
    return None


def binary(world: TypeWorld, op: str, left: Operand, right: Operand, where: str) -> BinaryOp:
    lt, rt = left.type, right.type
    name = NAMES.get(op)
    if name is None:
        raise CheckerError(f"cannot type operator {op} at {where}")
    if op == "+" and STRING in (lt, rt):
        if lt in (STRING, NULL) and rt in (STRING, NULL):
            return BinaryOp(STRING, STRING, STRING,
                            op_extern(world, name, (STRING, STRING), STRING))
        # string + object (Roslyn's predefined operator): UdonSharp calls Concat(object,
        # object); boxing the other operand is a copy
        return BinaryOp(lt if lt == STRING else OBJECT, rt if rt == STRING else OBJECT,
                        STRING, CONCAT)
    if op in ("==", "!="):
        for value, other in ((left, right), (right, left)):
            if other.type == NULL and world.is_value_type(value.type):
                return BinaryOp(value.type, OBJECT, BOOL, None, folded=(op == "!="))
        if lt == BOOL and rt == BOOL:
            return BinaryOp(BOOL, BOOL, BOOL, op_extern(world, name, (BOOL, BOOL), BOOL))
        if {lt, rt} <= {STRING, NULL}:
            # string's user-defined operator: an extern method named after String
            return BinaryOp(STRING, STRING, BOOL, op_extern(world, name, (STRING, STRING), BOOL))
        if (world.is_unity_object(lt) or lt == NULL) and (world.is_unity_object(rt) or rt == NULL):
            # UnityEngine.Object's user-defined ==/!= (also on behaviours, components, null)
            unity = CsType("UnityEngine.Object")
            return BinaryOp(unity, unity, BOOL, op_extern(world, name, (unity, unity), BOOL))
        if not world.is_value_type(lt) and not world.is_value_type(rt):
            # reference equality: Roslyn's predefined object == object
            return BinaryOp(OBJECT, OBJECT, BOOL, op_extern(world, name, (OBJECT, OBJECT), BOOL))
    if op in ("&", "|", "^") and lt == BOOL and rt == BOOL:
        return BinaryOp(BOOL, BOOL, BOOL, op_extern(world, name, (BOOL, BOOL), BOOL))
    if op in ("<<", ">>"):
        t = unary_promoted(lt)
        if t is None or t in (FLOAT, DOUBLE, DECIMAL) or not world.implicit(right, INT):
            raise CheckerError(f"cannot type {lt} {op} {rt} at {where}")
        return BinaryOp(t, INT, t, op_extern(world, name, (t, INT), t))
    t = promote(world, left, right)
    if t is None or (op in ("&", "|", "^") and t not in INTEGERS):
        raise CheckerError(f"cannot type {lt} {op} {rt} at {where}")
    result = BOOL if op in COMPARISONS else t
    if t == DECIMAL and name == "Multiplication":
        name = "Multiply"  # UdonSharp keeps Roslyn's name for decimal (a user-defined op)
    return BinaryOp(t, t, result, op_extern(world, name, (t, t), result), foldable=op != "<=")


def unary(world: TypeWorld, op: str, operand: Operand, where: str) -> tuple[CsType, str | None]:
    """(operand type after promotion, extern) for prefix + - ! ~ ; `+` calls nothing."""
    t = operand.type
    if op == "!":
        if t != BOOL:
            raise CheckerError(f"cannot type !{t} at {where}")
        return BOOL, op_extern(world, "UnaryNegation", (BOOL,), BOOL)
    p = unary_promoted(t)
    if p is None:
        raise CheckerError(f"cannot type {op}{t} at {where}")
    if op == "+":
        return p, None
    if op == "-":
        p = LONG if p == UINT else p
        if p == ULONG:
            raise CheckerError(f"cannot type -ulong at {where}")
        return p, op_extern(world, "UnaryMinus", (p,), p)
    if op == "~" and p in INTEGERS:
        # BoundBitwiseNotExpression: x ^ all-ones
        return p, op_extern(world, "LogicalXor", (p, p), p)
    raise CheckerError(f"cannot type {op}{t} at {where}")


def increment(world: TypeWorld, op: str, t: CsType, where: str) -> tuple[str, CsType]:
    """`++`/`--` on t: Roslyn's op_Increment/op_Decrement, named Addition/Subtraction with
    two operands (the constant 1); byte/sbyte/short/ushort ones return int."""
    if t not in NUMERIC:
        raise CheckerError(f"cannot type {op} on {t} at {where}")
    result = INT if t in _SMALL else t
    name = "Addition" if op == "++" else "Subtraction"
    return op_extern(world, name, (t, t), result), result


def compound(world: TypeWorld, op: str, target: CsType, where: str) -> tuple[CsType, CsType, str]:
    """`x op= y` with a predefined operator: the operator synthesized on x's type
    (ExternSynthesizedOperatorSymbol) -> (right operand type, result type, extern)."""
    name = NAMES.get(op)
    if name is None or op in COMPARISONS:
        raise CheckerError(f"cannot type {op}= at {where}")
    right = INT if op in ("<<", ">>") and target in (UINT, ULONG, LONG) else target
    result = INT if target in _SMALL else target
    return right, result, op_extern(world, name, (target, right), result)


def conversion(world: TypeWorld, src: CsType, dst: CsType) -> list[str]:
    """The externs of converting a non-constant value (EmitContext.CastValue)."""
    if src == dst or dst == OBJECT or (src.is_array and dst.name == "System.Array"):
        return []
    numeric = (src in NUMERIC and dst in NUMERIC) or (dst in NUMERIC and src == OBJECT)
    if not numeric:
        return []  # reference conversions, boxing and unboxing are copies
    floats = (FLOAT, DOUBLE, DECIMAL)
    if src in floats and dst in INTEGERS:
        wide = DECIMAL if src == DECIMAL else DOUBLE
        return [*conversion(world, src, wide),
                f"SystemMath.__Truncate__{world.udon(wide)}__{world.udon(wide)}",
                _convert(world, wide, dst)]
    if (src == CHAR and dst in floats) or (src in floats and dst == CHAR):
        return [*conversion(world, src, USHORT), _convert(world, USHORT, dst)]
    return [_convert(world, src, dst)]


def _convert(world: TypeWorld, src: CsType, dst: CsType) -> str:
    return f"SystemConvert.__To{short_name(dst)}__{world.udon(src)}__{world.udon(dst)}"
