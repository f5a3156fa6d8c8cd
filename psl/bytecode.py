"""The bytecode format, and only here (docs/spec.md §5): slots, operand layout, the SETVAR
mask codec, assembling, decoding, the listing (disassembly) and reading listings back.

A program is an array of float4 *slots*, two per instruction: the opcode slot
`(op, pad, pad, pad)` and the operand slot. Unused lanes hold the padding NaN (bits
`registry.PAD_NAN_BITS`). Operand layout by opcode:

    PUSHCONST  (x, y, z, w)        the constant; NaN lanes are absent lanes
    PUSHVAR    (register)
    SETVAR     (register, mask)    mask 0/NaN: the whole register; else lane digits (.wz = 43)
    BINOP      (operator id)       registry.BINARY_OPERATORS
    UNOP       (operator code)     ASCII code of the symbol
    CALL       (builtin id)        registry.BUILTINS
    JUMP       (slot index)        the opcode slot of the target (2 * instruction index)
    CONDJUMP   (slot index)        taken when the popped value's x is 0

Fused instructions (-O2, docs/spec.md §11, registry.FUSED): slot 2k is (op, f0, f1, f2) and
slot 2k + 1 (f3, f4, f5, f6), one field per step of the pattern (registry.FUSED_TOKENS),
unused fields 0 and no NaN anywhere; an Instruction of a fused op holds the 7 fields as its
operand. `expand` gives the instructions it stands for, which is how every VM runs it.

The VM reads every number as `uint(round(x))` (masks as `uint(y)`), so decoding arbitrary
slots (`read_slots`) follows the shader, while `decode` accepts only well-formed programs.

Two uploads of the same slots (docs/spec.md §5.5):
- the *original* format (`pad_original`, `psl compile --pad`): LIMITS.original_slots slots,
  NaN lanes as above, what the original world's material arrays hold;
- the *texture* (`to_texture`, `psl compile --format texture`): LIMITS.texture_width x
  LIMITS.texture_height RGBA float texels, slot k at texel (k mod width, k div width), with
  no NaN anywhere, since nothing promises a NaN survives SetPixels/Apply or a texture fetch.
  Every NaN lane becomes 0; the opcode slot of a PUSHCONST holds in .y the *sentinel mask*,
  bit j set when lane j of the constant is NaN (absent), and the VM puts its sentinel NaN
  back into those lanes (`from_texture`). Other operands lose nothing: the VM reads their
  NaN lanes as 0 already (a SETVAR mask 0 or NaN both mean the whole register) and never
  reads their .z and .w, which the texture holds as 0.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from psl import registry
from psl.registry import FUSED_BY_OP, FUSED_BY_TOKENS, LIMITS, PAD_NAN_BITS, FusedOp, Op

#: Lane type of every slot, value and texture.
F32 = np.float32
#: The padding NaN as a float32 (bits PAD_NAN_BITS).
PAD_NAN = np.array([PAD_NAN_BITS], dtype=np.uint32).view(F32)[0]
NAN = math.nan
UINT_MAX = 2**32 - 1
_LANE_LETTER = "xyzw"


# ---------------------------------------------------------------------- instructions

@dataclass(frozen=True)
class Instruction:
    op: Op
    operand: tuple[float, float, float, float]  # NaN = padding lane

    def __str__(self) -> str:
        return disassemble(self)


def f32(x: float) -> float:
    """`x` rounded to float32; beyond float32's range it is infinity, as in the shader."""
    with np.errstate(over="ignore"):
        return float(F32(x))


def instruction(op: Op, *operand: float) -> Instruction:
    """Build an instruction; missing lanes are padding NaN; numbers rounded to float32."""
    lanes = [f32(x) for x in operand] + [NAN] * (4 - len(operand))
    return Instruction(op, tuple(lanes))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- swizzle masks

def swizzle_pick(text: str) -> tuple[float, float, float, float]:
    """The PUSHCONST operand before CALL swizzle: lane numbers of `.text`, 0 for none."""
    lanes = [float(registry.SWIZZLE_LANES[ch]) for ch in text]
    return tuple(lanes + [0.0] * (4 - len(lanes)))  # type: ignore[return-value]


def set_mask(text: str) -> int:
    """SETVAR mask of `v.text = e`: the decimal number whose digits are the lane numbers."""
    return int("".join(str(registry.SWIZZLE_LANES[ch]) for ch in text))


def set_mask_text(mask: float) -> str:
    """Letters of a SETVAR mask as the listing shows them (43 -> "wz"); "" for none."""
    if math.isnan(mask) or mask == 0:
        return ""
    return "".join(_LANE_LETTER[int(d) - 1] for d in str(int(mask)))


def set_mask_lanes(raw_mask: int) -> list[tuple[int, int]] | None:
    """How the VM applies a SETVAR mask: (source lane, destination lane) pairs, or None when
    the whole register is assigned. The last four decimal digits are used, leading zeros
    skipped, as the original's swizzleAssign does; digits > 4 name no lane."""
    if raw_mask == 0:
        return None
    m = raw_mask % 10000
    digits = [(m // 1000) % 10, (m // 100) % 10, (m // 10) % 10, m % 10]
    if not any(digits):
        return []  # the original loops forever here; psl assigns nothing
    while digits[0] == 0:
        digits = digits[1:] + [0]
    return [(k, d - 1) for k, d in enumerate(digits) if 1 <= d <= 4]


# ---------------------------------------------------------------------- slots

def assemble(instructions: Iterable[tuple[float, Sequence[float]]], pad: bool = False
             ) -> np.ndarray:
    """(op, operand lanes) pairs -> float32 slots [2n][4] (all LIMITS.slots with `pad`,
    unused ones zero). Missing and NaN lanes become the padding NaN. `op` may be any number,
    so tests can build slots the compiler never emits."""
    ops: list[float] = []
    operands: list[Sequence[float]] = []
    fused: list[Sequence[float]] = []
    for op, operand in instructions:
        ops.append(float(op))
        if op in FUSED_BY_OP:
            fused.append(operand)
            operand = [NAN] * 4  # written below
        operands.append(operand if len(operand) == 4 else
                        [*operand, *[NAN] * (4 - len(operand))])
    n = 2 * len(ops)
    out = np.zeros((max(n, LIMITS.slots if pad else 0), 4), dtype=F32)
    if ops:
        with np.errstate(over="ignore"):
            out[0:n:2, 0] = np.array(ops, dtype=np.float64)
            out[0:n:2, 1:] = NAN
            out[1:n:2] = np.array(operands, dtype=np.float64)
    bits = out.view(np.uint32)
    bits[np.isnan(out)] = PAD_NAN_BITS
    for k, op in enumerate(ops):
        if op in FUSED_BY_OP:  # fields in both slots, unused ones 0 (no NaN)
            got = list(fused.pop(0))[:7]
            fields = [*got, *[0.0] * (7 - len(got))]
            out[2 * k, 1:] = np.array(fields[:3], dtype=np.float64)
            out[2 * k + 1] = np.array(fields[3:], dtype=np.float64)
    return out


class FormatError(ValueError):
    """A program that the asked-for upload format cannot hold."""


def pad_original(slots: np.ndarray) -> np.ndarray:
    """Slots as the original world uploads them: all LIMITS.original_slots, unused zero."""
    arr = np.asarray(slots, F32).reshape(-1, 4)
    if len(arr) > LIMITS.original_slots:
        raise FormatError(f"{len(arr) // 2} instructions: the original format holds "
                          f"{LIMITS.original_instructions}")
    out = np.zeros((LIMITS.original_slots, 4), F32)
    out[: len(arr)] = arr
    return out


def to_texture(slots: np.ndarray) -> np.ndarray:
    """Slots -> the program texture, float32 [height][width][4] (row 0 first), exactly the
    texels the world uploads: NaN lanes 0, PUSHCONST sentinel masks in opcode slot .y.
    (An odd count, only from hand-made slots, gets a zero slot: the VM reads zeros there.)"""
    arr = np.asarray(slots, F32).reshape(-1, 4)
    if len(arr) % 2:
        arr = np.concatenate([arr, np.zeros((1, 4), F32)])
    if len(arr) > LIMITS.slots:
        raise FormatError(f"{len(arr) // 2} instructions: the program texture holds "
                          f"{LIMITS.instructions}")
    tex = np.zeros((LIMITS.slots, 4), F32)
    nan = np.isnan(arr)
    tex[: len(arr)] = np.where(nan, F32(0), arr)
    ops = tex[0: len(arr): 2]
    pushconst = np.round(ops[:, 0].astype(np.float64)) == Op.PUSHCONST
    masks = (nan[1::2] * (1 << np.arange(4))).sum(axis=1)
    ops[:, 1] = np.where(pushconst, masks, 0).astype(F32)
    tex[0: len(arr): 2] = ops
    # other operands: only .x (and a SETVAR mask in .y) is ever read; .z and .w are 0
    operands = tex[1: len(arr): 2]
    operands[~pushconst, 2:] = 0
    tex[1: len(arr): 2] = operands
    # fused instructions (§11) hold only numbers: both slots go as they are
    fused = np.isin(np.round(tex[0: len(arr): 2, 0].astype(np.float64)), list(FUSED_BY_OP))
    for k in np.flatnonzero(fused):
        tex[2 * k: 2 * k + 2] = arr[2 * k: 2 * k + 2]
    return tex.reshape(LIMITS.texture_height, LIMITS.texture_width, 4)


def from_texture(texels: np.ndarray) -> np.ndarray:
    """The program texture -> slots [LIMITS.slots][4] as the VM reads them: for every even
    slot whose opcode reads as PUSHCONST, the lanes its sentinel mask names become NaN."""
    tex = np.asarray(texels, F32).reshape(-1, 4)[: LIMITS.slots]
    out = np.zeros((LIMITS.slots, 4), F32)
    out[: len(tex)] = tex
    ops = uint_array(np.round(out[0::2, 0]))
    masks = uint_array(np.round(out[0::2, 1]))
    sentinel = (ops == Op.PUSHCONST)[:, None] & ((masks[:, None] >> np.arange(4)) & 1 == 1)
    operands = out[1::2]
    operands[sentinel] = PAD_NAN
    out[1::2] = operands
    return out


def operand_number(x: float) -> int:
    """One operand lane as the VM reads a number from it, uint(round(x)) (SPEC §5.2): NaN
    and negatives 0, saturating. (`uint_array` and `read_slots` do this for arrays.)"""
    if x != x or x <= 0:
        return 0
    return int(round(x)) if x < 2**32 else UINT_MAX


def jump_target(ins: Instruction, n: int) -> int:
    """The instruction a JUMP or CONDJUMP of an n-instruction program goes to; n is the end.
    Slot 2k is instruction k; a target at or past the end ends the program. (An odd target
    makes the VM read an operand slot as an opcode; compiled code has none, and it is taken
    as the end here.)"""
    slot = operand_number(ins.operand[0])
    return slot // 2 if slot % 2 == 0 and slot // 2 < n else n


def uint_array(x: np.ndarray) -> np.ndarray:
    """The shader's `uint(x)` on an array: NaN and negatives 0, saturating, truncating."""
    x = np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=UINT_MAX, neginf=0.0)
    return np.clip(np.trunc(x), 0, UINT_MAX).astype(np.int64)


@dataclass(frozen=True)
class RawSlots:
    """Slots as the VM reads them, padded to LIMITS.slots + 2 rows so that slot i + 1
    always exists: `numbers[i]` = uint(round(slot i .x)) (an opcode, or the operand number
    of the instruction before), `masks[i]` = uint(slot i .y) (a SETVAR mask)."""

    lanes: np.ndarray  # float32 [LIMITS.slots + 2][4]
    numbers: np.ndarray  # int64 [LIMITS.slots + 2]
    masks: np.ndarray  # int64 [LIMITS.slots + 2]


def read_slots(slots: np.ndarray) -> RawSlots:
    p = np.zeros((LIMITS.slots + 2, 4), F32)
    arr = np.asarray(slots, F32).reshape(-1, 4)[: LIMITS.slots]
    p[: len(arr)] = arr
    return RawSlots(p, uint_array(np.round(p[:, 0])), uint_array(p[:, 1]))


class DecodeError(ValueError):
    pass


def decode(slots: np.ndarray) -> Program:
    """Slots (float32 [n][4], possibly padded) -> Program, up to the first opcode 0."""
    arr = np.asarray(slots, dtype=F32).reshape(-1, 4)
    if len(arr) % 2:
        raise DecodeError("a program has an even number of slots")
    out: list[Instruction] = []
    for k in range(0, len(arr), 2):
        op_lane = arr[k][0]
        if np.isnan(op_lane) or op_lane == 0:
            break
        code = int(round(float(op_lane)))
        if code in FUSED_BY_OP:
            out.append(Instruction(FusedOp(code), tuple(  # type: ignore[arg-type]
                float(x) for x in (*arr[k][1:], *arr[k + 1]))))
            continue
        if code not in Op.__members__.values():
            raise DecodeError(f"slot {k}: unknown opcode {code}")
        out.append(Instruction(Op(code), tuple(float(x) for x in arr[k + 1])))  # type: ignore[arg-type]
    regs = {int(i.operand[0]) for i in plain(out) if i.op in (Op.PUSHVAR, Op.SETVAR)}
    return Program(out, registers=max(regs) + 1 if regs else 0)


def from_bytes(data: bytes) -> Program:
    if len(data) % 32:
        raise DecodeError("binary length must be a multiple of 32 bytes (2 float4)")
    return decode(np.frombuffer(data, dtype="<f4"))


# ---------------------------------------------------------------------- programs

@dataclass
class Program:
    instructions: list[Instruction]
    registers: int = 0
    #: register number -> "name" (globals) or "function.name"
    variables: dict[int, str] = field(default_factory=dict)

    def slots(self, pad: bool = False) -> np.ndarray:
        """float32 [n][4]; with pad=True all LIMITS.slots slots, the unused ones zero."""
        return assemble(((ins.op, ins.operand) for ins in self.instructions), pad)

    def to_bytes(self, pad: bool = False) -> bytes:
        """float32 little-endian slots; `pad`: the original format (FormatError when the
        program is larger than it holds)."""
        slots = self.slots()
        return (pad_original(slots) if pad else slots).astype("<f4").tobytes()

    def texture(self) -> np.ndarray:
        """The program texture the world uploads (`to_texture`)."""
        return to_texture(self.slots())

    def texture_bytes(self) -> bytes:
        """`psl compile --format texture`: the texels, float32 RGBA little-endian, row-major."""
        return self.texture().astype("<f4").tobytes()

    def listing(self) -> str:
        return "".join(disassemble(ins) + "\n" for ins in self.instructions)

    def to_json(self) -> str:
        """JSON for every program: a NaN lane is null, an infinite one (a literal beyond
        float32's range) is written 1e999 / -1e999, valid JSON that every reader (Python,
        JavaScript) reads back as infinity; never the bare `Infinity` JSON does not have."""
        def lane(x: float) -> float | str | None:
            if math.isnan(x):
                return None
            if math.isinf(x):
                return _POS_INF if x > 0 else _NEG_INF
            return x

        doc = {
            "format": "psl-program",
            "instructions": [
                {"op": ins.op.name, "operand": [lane(x) for x in ins.operand]}
                for ins in self.instructions
            ],
            "instruction_count": len(self.instructions),
            "registers": self.registers,
            "variables": {str(k): v for k, v in sorted(self.variables.items())},
        }
        text = json.dumps(doc, indent=1, allow_nan=False)
        return text.replace(f'"{_POS_INF}"', "1e999").replace(f'"{_NEG_INF}"', "-1e999") + "\n"


_POS_INF, _NEG_INF = "psl:+inf", "psl:-inf"  # placeholders: no operand is a string


# ---------------------------------------------------------------------- listings

def format_number(x: float) -> str:
    """Shortest text that reads back as the same float32 (full precision)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return np.format_float_positional(F32(x), unique=True, trim="0")


def disassemble(ins: Instruction) -> str:
    """One listing line, in the original compiler's notation."""
    o = ins.operand
    if int(ins.op) in FUSED_BY_OP:
        parts = "; ".join(disassemble(p) for p in expand(int(ins.op), o))
        return f"{ins.op.name} {{ {parts} }}"
    n = int(o[0]) if math.isfinite(o[0]) else 0
    if ins.op == Op.PUSHCONST:
        return "PUSHCONST (" + ", ".join(format_number(x) for x in o) + ")"
    if ins.op == Op.PUSHVAR:
        return f"PUSHVAR {n}"
    if ins.op == Op.SETVAR:
        letters = set_mask_text(o[1])
        return f"SETVAR {n}.{letters}" if letters else f"SETVAR {n}"
    if ins.op == Op.BINOP:
        b = registry.BINOP_BY_ID.get(n)
        return f"BINOP {b.symbol if b else n}"
    if ins.op == Op.UNOP:
        u = registry.UNOP_BY_CODE.get(n)
        return f"UNOP {u.symbol if u else n}"
    if ins.op == Op.CALL:
        c = registry.BUILTIN_BY_ID.get(n)
        return f"CALL {c.name if c else n}"
    return f"{ins.op.name} {n}"


_LINE = re.compile(r"^\s*([A-Z]+)\s*(.*?)\s*$")
_FUSED_LINE = re.compile(r"^\s*F_([A-Z]+)\s*\{(.*)\}\s*$")


class ListingError(ValueError):
    pass


def _number(text: str) -> float:
    return NAN if text == "NaN" else float(text)


def parse_line(line: str) -> Instruction:
    """One listing line (ours or the original compiler's) -> instruction."""
    fused = _FUSED_LINE.match(line)
    if fused and fused.group(1) in FUSED_BY_TOKENS:
        parts = [parse_line(p) for p in fused.group(2).split(";")]
        return fuse(FUSED_BY_TOKENS[fused.group(1)].op, parts)
    m = _LINE.match(line)
    if not m or m.group(1) not in Op.__members__:
        raise ListingError(f"not an instruction: {line!r}")
    op, arg = Op[m.group(1)], m.group(2)
    if op == Op.PUSHCONST:
        lanes = [_number(x.strip()) for x in arg.strip("()").split(",")]
        if len(lanes) != 4:
            raise ListingError(f"PUSHCONST needs 4 lanes: {line!r}")
        return instruction(op, *lanes)
    if op == Op.SETVAR and "." in arg:
        reg, letters = arg.split(".", 1)
        return instruction(op, int(reg), set_mask(letters))
    if op == Op.BINOP:
        return instruction(op, registry.BINOP_BY_SYMBOL[arg].id)
    if op == Op.UNOP:
        return instruction(op, registry.UNOP_BY_SYMBOL[arg].code)
    if op == Op.CALL:
        b = registry.lookup_builtin(arg)
        return instruction(op, b.id if b else int(arg))
    return instruction(op, int(arg))


def parse_listing(text: str) -> list[Instruction]:
    return [parse_line(line) for line in text.splitlines() if line.strip()]


def same_as_original(ours: Instruction, theirs: Instruction) -> bool:
    """Equal up to the original listing's one-decimal rounding of constants."""
    if ours.op != theirs.op:
        return False
    for a, b in zip(ours.operand, theirs.operand, strict=True):
        if math.isnan(a) or math.isnan(b):
            if math.isnan(a) != math.isnan(b):
                return False
        elif ours.op == Op.PUSHCONST:
            if abs(a - b) > 0.05 + 1e-6 * abs(a):
                return False
        elif a != b:
            return False
    return True


# ---------------------------------------------------------------------- fused (-O2)

def _pick_lanes(field: float) -> tuple[float, float, float, float]:
    m = operand_number(field) % 10000
    return (float(m // 1000), float(m // 100 % 10), float(m // 10 % 10), float(m % 10))


def expand(op: int, fields: Sequence[float]) -> list[Instruction]:
    """The instructions a fused instruction stands for (docs/spec.md §11), its fields read as
    the VM reads them: V, S, B, U, C, J, G as operand numbers, K as the constant's x lane,
    W as the swizzle pick's four decimal digits (most significant first)."""
    f = FUSED_BY_OP[op]
    out: list[Instruction] = []
    for t, x in zip(f.tokens, fields, strict=False):
        n = float(operand_number(x))
        if t == "V":
            out.append(instruction(Op.PUSHVAR, n % LIMITS.registers))
        elif t == "K":
            out.append(instruction(Op.PUSHCONST, x))
        elif t == "W":
            out.append(instruction(Op.PUSHCONST, *_pick_lanes(x)))
            out.append(instruction(Op.CALL, registry.SWIZZLE.id))
        elif t == "S":
            out.append(instruction(Op.SETVAR, n % LIMITS.registers))
        else:  # B, U, C, J, G: the operand as it is
            out.append(instruction(registry.FUSED_TOKEN_OPS[t][0], n))
    return out


def plain(instructions: Iterable[Instruction]) -> list[Instruction]:
    """Instructions with every fused one expanded (registers, listings, statistics)."""
    out: list[Instruction] = []
    for ins in instructions:
        if int(ins.op) in FUSED_BY_OP:
            out.extend(expand(int(ins.op), ins.operand))
        else:
            out.append(ins)
    return out


def unfuse(program: Program) -> Program:
    """The program with every fused instruction replaced by the instructions it stands
    for, jumps retargeted (the -O1 code an -O2 program was made from)."""
    if not any(int(i.op) in FUSED_BY_OP for i in program.instructions):
        return program
    starts: list[int] = []
    out: list[Instruction] = []
    for ins in program.instructions:
        starts.append(len(out))
        out.extend(expand(int(ins.op), ins.operand) if int(ins.op) in FUSED_BY_OP else [ins])
    n = len(program.instructions)
    moved = []
    for ins in out:
        if ins.op in (Op.JUMP, Op.CONDJUMP):
            slot = operand_number(ins.operand[0])
            if slot % 2 == 0 and slot // 2 <= n:
                k = slot // 2
                ins = instruction(ins.op, 2 * (starts[k] if k < n else len(out)))
        moved.append(ins)
    return Program(moved, program.registers, dict(program.variables))


def fuse(op: int, parts: Sequence[Instruction]) -> Instruction:
    """The fused instruction `op` standing for `parts` (a W step is two of them); the inverse
    of `expand` on what the -O2 pass fuses: a K is a scalar constant (x not NaN), a W's pick
    lanes are integers 0-4, a S is plain; jump targets are slot indices here."""
    f = FUSED_BY_OP[op]
    fields: list[float] = []
    k = 0
    for t in f.tokens:
        p = parts[k]
        if t == "K":
            fields.append(p.operand[0])
        elif t == "W":
            a, b, c, d = (int(x) for x in p.operand)
            fields.append(float(1000 * a + 100 * b + 10 * c + d))
            k += 1
        else:
            fields.append(float(operand_number(p.operand[0])))
        k += 1
    if k != len(parts):
        raise ListingError(f"{f.name} stands for {k} instructions, not {len(parts)}")
    return Instruction(FusedOp(op), tuple([*fields, *[0.0] * (7 - len(fields))]))  # type: ignore[arg-type]


#: Stack and register memory operations of one plain instruction (docs/spec.md §11.4):
#: register reads and writes, stack reads (pops) and writes (pushes); a masked SETVAR
#: reads the register it writes. Constants come from the program, not from this memory.
def memory_ops(ins: Instruction) -> int:
    op = int(ins.op)
    if op in FUSED_BY_OP:
        return fused_memory_ops(ins)
    n = operand_number(ins.operand[0])
    if op == Op.PUSHCONST:
        return 1
    if op == Op.PUSHVAR:
        return 2
    if op == Op.BINOP:
        return 3
    if op == Op.UNOP:
        return 2
    if op == Op.CALL:
        b = registry.BUILTIN_BY_ID.get(n)
        return (b.arity if b else 0) + 1
    if op == Op.SETVAR:
        m = ins.operand[1]
        return 2 if m != m or operand_number(m) == 0 else 3
    if op == Op.CONDJUMP:
        return 1
    return 0


def fused_memory_ops(ins: Instruction) -> int:
    return steps_memory_ops(expand(int(ins.op), ins.operand))


def steps_memory_ops(steps: Sequence[Instruction]) -> int:
    """Memory operations of plain instructions run as one fused instruction, which keeps
    what its steps pass to each other out of the stack: it reads the registers its PUSHVARs
    name, writes those of its SETVARs, pops the values it takes from the stack below its own
    and pushes what it leaves there."""
    own = 0  # values the steps pushed that are still on the stack
    mem = 0
    for p in steps:
        op = int(p.op)
        if op == Op.PUSHVAR:
            mem += 1
        if op == Op.SETVAR:
            mem += 1
        n_pop = {Op.BINOP: 2, Op.UNOP: 1, Op.SETVAR: 1, Op.CONDJUMP: 1}.get(Op(op), 0)
        if op == Op.CALL:
            b = registry.BUILTIN_BY_ID.get(operand_number(p.operand[0]))
            n_pop = b.arity if b else 0
        take = min(own, n_pop)
        mem += n_pop - take  # pops below the instruction's own values read the stack
        own -= take
        if op in (Op.PUSHCONST, Op.PUSHVAR, Op.BINOP, Op.UNOP, Op.CALL):
            own += 1
    return mem + own
