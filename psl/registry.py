"""The one table of PSL facts: opcodes, operators, limits and builtins (SPEC §5, §8).

Every other part of psl — the compiler, the reference VM, the generated C# and HLSL,
the docs and editor grammars — reads these definitions. No other file may repeat the
numbers below; import them instead.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class Op(enum.IntEnum):
    """Instruction opcodes (SPEC §5). Slot 2k holds (op, NaN, NaN, NaN)."""

    END = 0
    PUSHCONST = 1
    PUSHVAR = 2
    BINOP = 3
    UNOP = 4
    CALL = 5
    SETVAR = 6
    JUMP = 7
    CONDJUMP = 8


@dataclass(frozen=True)
class BinaryOperator:
    symbol: str
    id: int
    doc: str
    # lanes that are numbers (±inf included) never give NaN: comparisons and logic give
    # 1.0 or 0.0, while + - * / can (inf - inf, 0 * inf, 0 / 0). psl export checks the
    # others for a NaN the VM would take for a sentinel (docs/export.md).
    keeps_numbers: bool = False
    # -O1 computes it at compile time on constant operands (docs/spec.md §10): its float32
    # result is exactly specified (IEEE 754 rounding, or no rounding at all). Division
    # folds only by a power of two (§10.3), the one case a GPU's divide is exact.
    foldable: bool = True


#: BINOP operand ids, in id order.
BINARY_OPERATORS: tuple[BinaryOperator, ...] = (
    BinaryOperator("+", 1, "addition"),
    BinaryOperator("-", 2, "subtraction"),
    BinaryOperator("*", 3, "multiplication"),
    BinaryOperator("/", 4, "division"),
    BinaryOperator("<", 5, "less than (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator(">", 6, "greater than (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator("==", 7, "equal (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator("<=", 8, "less or equal (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator(">=", 9, "greater or equal (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator("!=", 10, "not equal (1.0 or 0.0)", keeps_numbers=True),
    BinaryOperator("&&", 11, "logical and (lane true when != 0, NaN is true)", keeps_numbers=True),
    BinaryOperator("||", 12, "logical or (lane true when != 0, NaN is true)", keeps_numbers=True),
)
BINOP_BY_SYMBOL: dict[str, BinaryOperator] = {b.symbol: b for b in BINARY_OPERATORS}
BINOP_BY_ID: dict[int, BinaryOperator] = {b.id: b for b in BINARY_OPERATORS}


@dataclass(frozen=True)
class UnaryOperator:
    symbol: str
    code: int  # the UNOP operand is the ASCII code of the operator
    doc: str
    foldable: bool = True  # -O1 folds it on a constant (docs/spec.md §10)


UNARY_OPERATORS: tuple[UnaryOperator, ...] = (
    UnaryOperator("-", ord("-"), "negation"),
    UnaryOperator("!", ord("!"), "logical not: 1.0 where the lane is 0, else 0.0"),
    UnaryOperator("+", ord("+"), "no-op"),
)
UNOP_BY_SYMBOL: dict[str, UnaryOperator] = {u.symbol: u for u in UNARY_OPERATORS}
UNOP_BY_CODE: dict[int, UnaryOperator] = {u.code: u for u in UNARY_OPERATORS}

#: Compound assignment operators map to the binary operator they apply.
COMPOUND_ASSIGN: dict[str, str] = {"+=": "+", "-=": "-", "*=": "*", "/=": "/"}
#: `x++` / `x--` add or subtract the constant 1.
INCREMENT: dict[str, str] = {"++": "+", "--": "-"}


#: Opcodes the original world's VM runs (all of today's): `psl check` notes a program with
#: any other (N003), as it notes one larger than LIMITS.original_instructions.
ORIGINAL_OPS: frozenset[Op] = frozenset(Op)


@dataclass(frozen=True)
class Limits:
    # The program texture (docs/spec.md §5.5): slot k is texel (k mod width, k div width);
    # 2 slots per instruction fill it exactly.
    instructions: int = 16384
    slots: int = 32768
    texture_width: int = 256
    texture_height: int = 128
    # The original world's format: 4092 slots uploaded as four material arrays; psl still
    # writes it (`psl compile --pad`) and `psl check` notes programs it cannot hold (I040).
    original_instructions: int = 2046
    original_slots: int = 4092
    registers: int = 256
    stack: int = 128
    jumps: int = 2000
    # The work budget (docs/spec.md §5.4, §7): a pixel stops before its (steps + 1)th
    # executed instruction, as it stops after its (jumps + 1)th jump. The jump limit alone
    # bounds a pixel at (jumps + 1) x instructions ≈ 33 M instructions; 65,536 is 43x the
    # busiest corpus pixel (1,496, scene_mandelbrot at -O0) and keeps one frame at the
    # guard's first resolution (64 x 64) under 2.7 x 10^8 instructions (docs/world-setup.md §14).
    steps: int = 65536
    upload_arrays: int = 4  # the original format: _Program0.._Program3
    upload_array_length: int = 1023  # float4 per material array (original format)
    # Bounds that keep the in-world compiler's work finite; psl enforces the same ones so
    # both compilers accept exactly the same programs.
    # Program text, in UTF-16 code units (what Unity's InputField.characterLimit and C#'s
    # string.Length count). VRChat's UI InputField holds about 16,000 characters (a UI Text
    # mesh tops out at 65,535 vertices, 4 per character); the prefab's characterLimit,
    # SyncCode's share cap and E004 all use this one number.
    source_chars: int = 16000
    # Manual sync sends at most this many bytes per serialization (VRChat creator docs,
    # "Networking Specs & Tricks"); a text of source_chars code units is at most 3 bytes per
    # unit in UTF-8, so every accepted text fits in one serialization (tests check it).
    sync_bytes: int = 280_496
    # Unreachable while source_chars < tokens (a token is at least one character); kept as
    # the bound the in-world compiler sizes its token tables by.
    tokens: int = 16384
    nesting: int = 64  # open ( and { at any point
    # Instruction counts in E030 messages saturate above this (only exponential inlining
    # gets there); both compilers print count_cap + 1 then.
    count_cap: int = 10**18
    # -O1 (docs/spec.md §10) keeps its work proportional to the program: its passes run
    # once each, in OPTIMIZER_PIPELINE's order, and a program whose loops nest deeper than
    # this (each nesting level adds a sweep to every dataflow solve, and counted loops
    # unroll into each other) is left unchanged.
    optimize_loop_nesting: int = 8


LIMITS = Limits()

#: The -O1 passes between `loops` and `hoist` (docs/spec.md §10.2), in order; each name is a
#: module of psl/optimize and a pass of the in-world optimizer. A fixed sequence, each pass
#: once, no rounds to a fixpoint: jumps first (the blocks the later passes see stay);
#: constprop folds while it propagates, so chains of constants resolve in one run; fold
#: folds what it left as PUSHCONSTs; dse deletes dead stores and forwards single-use values
#: (nested ones too) on one liveness. `unroll` runs after hoist, so none of these work on a
#: loop's copies. Leaving out any entry costs executed instructions or pong's size; the
#: in-world compiler pays for each entry in frames (bench/results/optimizer-pipeline-cost.md).
OPTIMIZER_PIPELINE: tuple[str, ...] = (
    "jumps", "constprop", "copyprop", "fold", "dse",
)
#: The passes a pipeline entry may name (bench/bench_pipeline_cost.py tries other lists);
#: a pass's id in the in-world optimizer is its index here (its PASS_* constant).
PIPELINE_PASSES: tuple[str, ...] = ("fold", "constprop", "copyprop", "dse", "forward", "jumps")
#: Every pass of -O1 in the order it runs (docs/spec.md §10.2): each is a module
#: psl/optimize/<pass>.py with its in-world half beside it, psl/optimize/<pass>.cs.j2
#: (tests/test_optimizer_halves.py checks both exist). `forward` runs inside `dse`.
OPTIMIZER_PASSES: tuple[str, ...] = ("loops", *OPTIMIZER_PIPELINE, "forward", "hoist",
                                     "unroll", "renumber")


#: Optimization levels every command that compiles takes (`-O`, docs/spec.md §10, §11): the
#: Python compiler, the language server, `psl serve`; the reference, HLSL and WebGL VMs run
#: the code of each. (`psl export` has no level: it reads the -O0 code, docs/export.md.)
OPTIMIZE_LEVELS: tuple[int, ...] = (0, 1, 2)
#: The same levels, as psl.optimize names them (kept for its callers).
PYTHON_OPTIMIZE_LEVELS: tuple[int, ...] = OPTIMIZE_LEVELS
#: The level every command, the Python API, the language server and `psl serve` compile at
#: unless told otherwise: -O2, since it met every acceptance figure of issue 41 measurable
#: here (bench/results/o2.md, o2-contract.md, vm-gpu-cpu-256-O2.md: 0.235x the -O0
#: dispatches on the corpus, 0.323x on generated programs, 0.291x the memory operations,
#: 0 of 3,193 generated programs broken, a CPU frame 0.48x -O0's). psl.compiler's
#: compile_source keeps 0 (the code both compilers must agree on).
DEFAULT_OPTIMIZE_LEVEL = 2
#: Levels of the in-world compiler (its `optimize` switch, and `superinstructions` for -O2:
#: psl/optimize/fuse.cs.j2); the C# differential tests compile at each of them.
INWORLD_OPTIMIZE_LEVELS: tuple[int, ...] = (0, 1, 2)
#: The in-world Compiler's default level (its `optimize` and `superinstructions` fields as
#: generated, psl/gen/udonsharp.py): -O2, as DEFAULT_OPTIMIZE_LEVEL, so that C# and psl agree
#: byte for byte on what a player's compile uploads. The world's Listing button
#: (templates/udonsharp/ListingView.cs.j2) lists fused instructions as psl does; the compile
#: cost at -O2 is measured (bench/results/udon-cost-o2/: 2,288,186 externs on the corpus,
#: no event over 2,278).
INWORLD_DEFAULT_OPTIMIZE_LEVEL = 2
#: The passes -O2 runs after the whole of -O1, in order (psl/optimize/<pass>.py, each with
#: its in-world half beside it, <pass>.cs.j2).
O2_PASSES: tuple[str, ...] = ("fuse",)

#: -O2's superinstructions (docs/spec.md §11): one token per fused step, each step one
#: field (one float32 lane) of the fused instruction. The VM executes a fused instruction
#: exactly as the instructions it replaces, in order.
FUSED_TOKENS: dict[str, str] = {
    "V": "PUSHVAR r (field: r)",
    "K": "PUSHCONST (c, NaN, NaN, NaN), c not NaN (field: c)",
    "W": "PUSHCONST (l1, l2, l3, l4), each lane an integer 0-4, then CALL swizzle "
         "(field: 1000 l1 + 100 l2 + 10 l3 + l4)",
    "B": "BINOP (field: operator id)",
    "U": "UNOP (field: operator code)",
    "C": "CALL (field: builtin id)",
    "S": "SETVAR r, whole register (field: r)",
    "J": "CONDJUMP, the last step only (field: target slot)",
    "G": "JUMP, the last step only (field: target slot)",
}
#: The plain opcodes each step token stands for, in order (a W is its pick's PUSHCONST, then
#: CALL swizzle): the VMs' fused rows (psl.dialect.fused), psl.bytecode.expand and the
#: in-world listing (psl.gen.udonsharp) read it.
FUSED_TOKEN_OPS: dict[str, tuple[Op, ...]] = {
    "V": (Op.PUSHVAR,), "K": (Op.PUSHCONST,), "W": (Op.PUSHCONST, Op.CALL),
    "B": (Op.BINOP,), "U": (Op.UNOP,), "C": (Op.CALL,), "S": (Op.SETVAR,),
    "J": (Op.CONDJUMP,), "G": (Op.JUMP,),
}
#: A fused instruction has at most this many steps: its two slots hold the opcode and 7
#: fields (opcode slot y, z, w, then operand slot x, y, z, w).
FUSED_MAX_STEPS = 7
#: The first fused opcode; fused opcode FUSED_FIRST_OP + k is FUSED_PATTERNS[k]. The
#: opcodes of Op (0-8) are unchanged and 9-63 stay free for plain instructions.
FUSED_FIRST_OP = 64
#: The fused instructions, chosen from measurement (bench/results/o2-sequences.md): dynamic
#: sequence frequencies at -O1 over the corpus and 1,000 generated programs, picked greedily
#: by dispatches saved (the first 48), then by the stack+register memory operations they
#: save on the corpus, patterns of at most 5 steps (bench/bench_o2_select.py --longest 5).
#: Append only: a pattern's opcode is its index here + FUSED_FIRST_OP.
FUSED_PATTERNS: tuple[str, ...] = (
    "KB", "VW", "VKB", "BB", "CW", "CC", "SK", "BC", "VKBSG", "VKBJ", "VVB", "KC", "VB", "CB",
    "CKBS", "KJ", "KS", "CS", "VWVW", "CWCWB", "KVW", "BCSC", "BS", "VWKB", "SG", "KBKB",
    "CCCC", "BKBBK", "KK", "BCBB", "SVV", "VBSV", "VKBS", "VVKB", "CBB", "CKB", "BKVWB",
    "KSKS", "BBBS", "BJ", "SKS", "CWC", "CK", "KBJ", "SVVB", "VV", "VWVWB", "KCB",
    "VVKBB", "BCWCW", "VVCK", "BKBJ", "BVVBB", "BKCBC", "VWS", "KVWC", "KVWB", "KVWBB",
    "KVBBB", "VCKBS", "KCSVV", "VVBBS", "VC", "CKBKC", "VWCBB", "BCS", "KKVWB",
)


@dataclass(frozen=True)
class Fused:
    op: int  # the opcode
    tokens: str  # one letter of FUSED_TOKENS per step

    @property
    def name(self) -> str:
        return "F_" + self.tokens

    @property
    def weight(self) -> int:
        """Instructions it replaces: what it counts as against the work budget (§7.2)."""
        return len(self.tokens) + self.tokens.count("W")


FUSED: tuple[Fused, ...] = tuple(Fused(FUSED_FIRST_OP + k, t)
                                 for k, t in enumerate(FUSED_PATTERNS))
FUSED_BY_OP: dict[int, Fused] = {f.op: f for f in FUSED}
FUSED_BY_TOKENS: dict[str, Fused] = {f.tokens: f for f in FUSED}
#: The fused opcodes as an enum (a fused Instruction's op), beside Op: everything that
#: iterates Op (the generated VMs, the in-world compiler) stays as it is until it runs -O2.
FusedOp = enum.IntEnum("FusedOp", {f.name: f.op for f in FUSED})  # type: ignore[misc]


@dataclass(frozen=True)
class OptimizerTuning:
    """The -O1 heuristics' constants, read by psl/optimize and rendered into the in-world
    optimizer (docs/spec.md §10.8, §10.9)."""

    unroll_budget: int = 1024  # the most instructions one loop's copies may total
    max_trips: int = 256  # the most trips unroll counts before it gives up
    loop_weight: int = 16  # hoist counts an occurrence inside a loop this many times


OPTIMIZER_TUNING = OptimizerTuning()


@dataclass(frozen=True)
class Relief:
    """The program screens' relief (the original world's Screen.shader on TheQuad.fbx): the
    screen is a grid whose vertices move along its normal by the program's alpha. The world
    (psl.gen.unity), `psl run --relief` and `psl serve`'s 3D view all read these numbers."""

    # Vertices per side of the grid meshes, finest first; the original's TheQuad is 257.
    resolutions: tuple[int, ...] = (257, 129, 65, 33)
    # Height of one unit of alpha, in screen widths (the mesh spans 1 x 1 object units and the
    # prefab scales it uniformly). The original moves 1 unit on a 7.5 m wide screen (0.133).
    height_scale: float = 0.125
    screen_width_m: float = 2.0  # the prefab's uniform scale of the 1 x 1 screen mesh
    # The most a vertex moves, in mesh units (screen widths), whatever the alpha and the
    # material's height scale: every view clamps the displacement to +-this (NaN: 0), and the
    # grid meshes' bounds hold it, so a program's alpha can neither throw the surface at
    # the players nor move it out of the bounds Unity culls by (8 units of alpha at the
    # default scale; a 2 m screen's relief stays within 2 m of it).
    max_displacement: float = 1.0


RELIEF = Relief()
#: The VM material's texture property the in-world compiler binds the program texture to.
PROGRAM_TEXTURE_PROPERTY = "_ProgramTex"

#: Bit pattern of the padding NaN written into unused lanes of a used slot.
PAD_NAN_BITS = 0xFFC00000


class ResultDim(enum.Enum):
    """How a builtin sets the dimension (sentinel lanes) of its result."""

    LARGEST = "largest"  # restore(result, mask(largest argument dimension))
    FIXED = "fixed"  # the builtin writes its own sentinels; result has `dim` lanes
    FULL = "full"  # a full float4 (no sentinels)
    MASK = "mask"  # as many lanes as the swizzle mask has (swizzle only)


@dataclass(frozen=True)
class Builtin:
    name: str  # lower case; the language matches builtin names case-insensitively
    id: int
    arity: int
    pad: bool  # cast every argument to the largest argument dimension first
    result: ResultDim
    dim: int  # result dimension for FIXED/FULL; 0 for LARGEST (depends on arguments)
    doc: str
    extension: str = ""  # "" for core builtins, "audiolink" for ids 65-75
    internal: bool = False  # emitted by the compiler, not meant to be called by name
    # reads the pixel or the frame's inputs (uv, time, textures…): never a constant, so
    # width inference does not fold it
    varying: bool = False
    # number arguments (±inf included) never give a NaN in a result lane; False where
    # they can (sqrt(-1), inf - inf, a texture holding inf) or where that is not known.
    # psl export checks the results of the others at run time (docs/export.md).
    keeps_numbers: bool = False
    # samples a texture (self, camera, video, AudioLink): a GPU's sample may depend on where
    # it runs (derivatives), so -O1 never moves one (docs/spec.md §10)
    reads_texture: bool = False
    # -O1 computes it at compile time on constant arguments: the result is exact (no
    # rounding) and every implementation gives the same bits (docs/spec.md §10)
    foldable: bool = False


def _b(name: str, id_: int, arity: int, pad: bool, result: ResultDim, dim: int, doc: str,
       **kw: object) -> Builtin:
    return Builtin(name, id_, arity, pad, result, dim, doc, **kw)  # type: ignore[arg-type]


L, F, W = ResultDim.LARGEST, ResultDim.FIXED, ResultDim.FULL

BUILTINS: tuple[Builtin, ...] = (
    _b("log", 1, 1, False, L, 0, "natural logarithm, per lane"),
    _b("log2", 2, 1, False, L, 0, "base-2 logarithm, per lane"),
    _b("sin", 3, 1, False, L, 0, "sine (radians), per lane"),
    _b("cos", 4, 1, False, L, 0, "cosine (radians), per lane"),
    _b("tan", 5, 1, False, L, 0, "tangent (radians), per lane"),
    _b("asin", 6, 1, False, L, 0, "arc sine, per lane"),
    _b("acos", 7, 1, False, L, 0, "arc cosine, per lane"),
    _b("atan", 8, 1, False, L, 0, "arc tangent, per lane"),
    _b("pow", 9, 2, False, L, 0,
       "a raised to b, per lane; not padded: pow(v3, 2) is (v.x^2, 1, 1)"),
    _b("exp", 10, 1, False, L, 0, "e raised to a, per lane"),
    _b("exp2", 11, 1, False, L, 0, "2 raised to a, per lane"),
    _b("sqrt", 12, 1, False, L, 0, "square root, per lane"),
    _b("rsqrt", 13, 1, False, L, 0, "reciprocal square root, per lane"),
    _b("abs", 14, 1, False, L, 0, "absolute value, per lane"),
    _b("sign", 15, 1, False, L, 0, "sign (-1, 0 or 1), per lane"),
    _b("floor", 16, 1, False, L, 0, "round down, per lane"),
    _b("ceil", 17, 1, False, L, 0, "round up, per lane"),
    _b("frac", 18, 1, False, L, 0, "fractional part a - floor(a), per lane"),
    _b("mod", 19, 2, True, L, 0, "a - b * floor(a / b), per lane"),
    _b("min", 20, 2, True, L, 0, "smaller of a and b, per lane"),
    _b("max", 21, 2, True, L, 0, "larger of a and b, per lane"),
    _b("clamp", 22, 3, True, L, 0, "min(max(a, b), c), per lane"),
    _b("lerp", 23, 3, True, L, 0, "a + (b - a) * c, per lane"),
    _b("step", 24, 2, True, L, 0, "1 where b >= a else 0, per lane"),
    _b("smoothstep", 25, 3, True, L, 0, "Hermite step of c between edges a and b, per lane"),
    _b("float2", 26, 2, False, F, 2, "builds (a.x, b.x)"),
    _b("float3", 27, 3, False, F, 3, "builds (a.x, b.x, c.x)"),
    _b("float4", 28, 4, False, F, 4, "builds (a.x, b.x, c.x, d.x)"),
    _b("swizzle", 29, 2, False, ResultDim.MASK, 0,
       "lane k = a[b_k - 1] where b_k > 0 (emitted for `.xyzw`)",
       internal=True),
    _b("uv", 30, 0, False, F, 2, "the pixel's texture coordinate (u, v)", varying=True),
    _b("xy", 31, 0, False, F, 2, "(2(u - 0.5) * 10, 2(v - 0.5) * 10), in that float32 order",
       varying=True),
    _b("time", 32, 0, False, W, 4, "(t/20, t, 2t, 3t) with t in seconds", varying=True),
    _b("round", 33, 1, False, W, 4,
       "round half to even, per lane; unused lanes become 0 (the original's behaviour)"),
    _b("dot", 34, 2, True, F, 1, "dot product of the four lanes"),
    _b("cross", 35, 2, True, F, 3, "cross product of a.xyz and b.xyz"),
    _b("distance", 36, 2, True, F, 1, "length(a - b)"),
    _b("normalize", 37, 1, False, L, 0, "a / length(a)"),
    _b("length", 38, 1, False, F, 1, "Euclidean length"),
    _b("reflect", 39, 2, True, L, 0, "a - 2 dot(a, b) b"),
    _b("refract", 40, 3, True, L, 0, "refraction of a through normal b with index ratio c.x"),
    _b("self", 41, 1, False, W, 4, "the previous frame's output sampled at a.xy", varying=True),
    _b("resolution", 42, 0, False, F, 2, "(width, height) of the screen in pixels", varying=True),
    _b("button", 43, 0, False, W, 4, "(use, jump, grab, drop) pressed flags", varying=True),
    _b("axis", 44, 0, False, W, 4, "(move h, move v, look h, look v)", varying=True),
    _b("camera", 45, 1, False, F, 3, "the camera texture's rgb at a.xy", varying=True),
    _b("deltatime", 46, 0, False, W, 4, "(dt, 1/dt, smooth dt, 1/smooth dt)", varying=True),
    _b("video", 47, 1, False, F, 3, "the video player texture's rgb at a.xy", varying=True),
    _b("all", 48, 1, False, F, 1, "1 if every used lane is non-zero, else 0"),
    _b("any", 49, 1, False, F, 1, "1 if any lane is non-zero, else 0"),
    # Ids 50-59: HLSL functions the original lacked. SPEC §8.1 keeps ids 50-64 for new core
    # builtins (65-75 are AudioLink's, and an id never changes meaning), so these take the
    # lowest free ones, in a fixed order; 60-64 stay free for further core builtins.
    # Two-argument ones pad, like mod/min/max: `atan2(v3, 1)` broadcasts the scalar.
    _b("atan2", 50, 2, True, L, 0, "arc tangent of a / b in the quadrant of (b, a), per lane"),
    _b("fmod", 51, 2, True, L, 0, "a - b * trunc(a / b) (the sign of a), per lane"),
    _b("saturate", 52, 1, False, L, 0, "min(max(a, 0), 1), per lane"),
    _b("trunc", 53, 1, False, L, 0, "round toward zero, per lane"),
    _b("radians", 54, 1, False, L, 0, "degrees to radians, a * (pi / 180), per lane"),
    _b("degrees", 55, 1, False, L, 0, "radians to degrees, a * (180 / pi), per lane"),
    _b("sinh", 56, 1, False, L, 0, "hyperbolic sine, per lane"),
    _b("cosh", 57, 1, False, L, 0, "hyperbolic cosine, per lane"),
    _b("tanh", 58, 1, False, L, 0, "hyperbolic tangent, per lane"),
    _b("log10", 59, 1, False, L, 0, "base-10 logarithm, per lane"),
    # Id 60: the first of the ids 60-64 kept for core builtins. A world without sliders (or
    # an old VM) reads 0 for it, as for every id it does not know.
    _b("slider", 60, 1, False, F, 1,
       "the value of slider floor(a.x) (0-7; a `//@slider` line names it), else 0",
       varying=True),
    _b("audiolinkgetversion", 65, 0, False, F, 1, "AudioLink version number",
       extension="audiolink", varying=True),
    _b("audiolinkdata", 66, 1, False, W, 4, "AudioLink texel at integer coordinate a.xy",
       extension="audiolink", varying=True),
    _b("audiolinkdatamultiline", 67, 1, False, W, 4,
       "AudioLink texel at a.xy, wrapping across lines", extension="audiolink", varying=True),
    _b("audiolinklerp", 68, 1, False, W, 4, "AudioLink texels interpolated at fractional a.xy",
       extension="audiolink", varying=True),
    _b("audiolinklerpmultiline", 69, 1, False, W, 4,
       "AudioLink interpolated at a.xy, wrapping across lines", extension="audiolink",
       varying=True),
    _b("audiolinkdecodedataasseconds", 70, 1, False, F, 1,
       "AudioLink data at a.xy decoded as seconds", extension="audiolink", varying=True),
    _b("audiolinkgetamplitudeatfrequency", 71, 1, False, F, 1,
       "AudioLink amplitude at frequency a.x (Hz)", extension="audiolink", varying=True),
    _b("audiolinkgetamplitudeatnote", 72, 2, False, F, 1,
       "AudioLink amplitude at octave a.x, note b.x", extension="audiolink", varying=True),
    _b("audiolinkgetchronotime", 73, 2, False, F, 1,
       "AudioLink chronotensity time for index a.x, band b.x", extension="audiolink", varying=True),
    _b("audiolinkgetchronotimenormalized", 74, 3, False, F, 1,
       "AudioLink chronotensity time for a.x, b.x normalised by speed c.x",
       extension="audiolink", varying=True),
    _b("audiolinkgetchronotimeinterval", 75, 4, False, F, 1,
       "AudioLink chronotensity time for a.x, b.x in interval c.x..d.x", extension="audiolink",
       varying=True),
)

#: The float32 factors `radians` and `degrees` multiply by (SPEC §8.2): float32(pi / 180) and
#: float32(180 / pi), the constants HLSL's intrinsics use, written as the doubles they
#: exactly are so every implementation multiplies by the same float32.
RADIANS_PER_DEGREE = 0.01745329238474369
DEGREES_PER_RADIAN = 57.295780181884766

#: Builtins whose number arguments (±inf included) always give number lanes (Builtin.
#: keeps_numbers). Texture reads, AudioLink and everything with a division, a root, a
#: logarithm or a periodic function are left out.
_KEEPS_NUMBERS = frozenset({
    "abs", "sign", "floor", "ceil", "min", "max", "clamp", "step", "float2", "float3",
    "float4", "swizzle", "uv", "xy", "time", "resolution", "button", "axis", "deltatime",
    "all", "any", "saturate", "trunc", "radians", "degrees", "slider",
})
BUILTINS = tuple(replace(b, keeps_numbers=True) if b.name in _KEEPS_NUMBERS else b
                 for b in BUILTINS)

#: Builtins that sample a texture (Builtin.reads_texture).
_READS_TEXTURE = frozenset({"self", "camera", "video"} | {
    b.name for b in BUILTINS if b.extension == "audiolink"})
#: Builtins -O1 folds on constants (Builtin.foldable): constructors, the swizzle and the
#: per-lane functions whose result needs no rounding. Not min/max/clamp/saturate or sign
#: (GPUs may treat -0 and +0 differently there), nor anything that rounds (frac, mod, lerp, dot, the
#: transcendental functions), nor a builtin that reads the pixel or the frame.
#: Each with its fold rule, the shape of its in-world evaluation (psl.gen.udonsharp renders
#: one per rule and refuses a foldable builtin without one): "construct" (float2-4),
#: "swizzle", "reduce" (all, any), "step", "lanes" (lane by lane, a formula per builtin).
FOLD_RULES: dict[str, str] = {
    "float2": "construct", "float3": "construct", "float4": "construct", "swizzle": "swizzle",
    "abs": "lanes", "floor": "lanes", "ceil": "lanes", "trunc": "lanes", "step": "step",
    "all": "reduce", "any": "reduce",
}
BUILTINS = tuple(replace(b, reads_texture=b.name in _READS_TEXTURE,
                         foldable=b.name in FOLD_RULES) for b in BUILTINS)
BUILTIN_BY_NAME: dict[str, Builtin] = {b.name: b for b in BUILTINS}
BUILTIN_BY_ID: dict[int, Builtin] = {b.id: b for b in BUILTINS}

#: The compiler emits this builtin for `e.sw` swizzles.
SWIZZLE = BUILTIN_BY_NAME["swizzle"]

#: Swizzle letters and their lane numbers (1-based, as written into masks).
SWIZZLE_LANES: dict[str, int] = {
    "x": 1, "y": 2, "z": 3, "w": 4,
    "r": 1, "g": 2, "b": 3, "a": 4,
}
SWIZZLE_SETS: tuple[str, str] = ("xyzw", "rgba")
MAX_SWIZZLE = 4

KEYWORDS: tuple[str, ...] = ("fun", "let", "set", "if", "else", "while", "for", "return")

#: Operator and punctuation tokens (SPEC §1), symbol -> token name. Every one is one
#: character or two; the in-world lexer's tables (psl-gen udonsharp) are built from this, and
#: a test checks grammar.lark uses exactly these.
PUNCTUATION: dict[str, str] = {
    "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH",
    "<": "LT", ">": "GT", "<=": "LE", ">=": "GE", "==": "EQEQ", "!=": "NE",
    "&&": "ANDAND", "||": "OROR", "!": "BANG",
    "=": "ASSIGN", "+=": "PLUSEQ", "-=": "MINUSEQ", "*=": "STAREQ", "/=": "SLASHEQ",
    "++": "INC", "--": "DEC",
    "(": "LPAREN", ")": "RPAREN", "{": "LBRACE", "}": "RBRACE",
    ",": "COMMA", ";": "SEMI", ".": "DOT",
}

#: Binary operator precedence levels, loosest first; every level is left-associative and
#: binds looser than the prefix operators (SPEC §2). grammar.lark spells the same levels.
PRECEDENCE: tuple[tuple[str, ...], ...] = (
    ("&&", "||"),
    ("<", ">", "<=", ">=", "==", "!="),
    ("+", "-"),
    ("*", "/"),
)


def lookup_builtin(name: str) -> Builtin | None:
    """Builtin names match case-insensitively (SPEC §3)."""
    return BUILTIN_BY_NAME.get(name.lower())


def validate() -> None:
    """Registry invariants; the test suite calls this."""
    ids = [b.id for b in BUILTINS]
    names = [b.name for b in BUILTINS]
    assert len(set(ids)) == len(ids), "duplicate builtin id"
    assert len(set(names)) == len(names), "duplicate builtin name"
    for b in BUILTINS:
        assert 1 <= b.id <= 255 and b.name.isidentifier() and b.name == b.name.lower()
        assert b.name not in KEYWORDS
        assert (b.dim == 0) == (b.result in (ResultDim.LARGEST, ResultDim.MASK))
        assert b.extension or 1 <= b.id <= 64, "core builtins take ids 1-64"
    for f in FUSED:
        assert 2 <= len(f.tokens) <= FUSED_MAX_STEPS and set(f.tokens) <= set(FUSED_TOKENS)
        assert all(t not in "JG" for t in f.tokens[:-1]), "a jump ends a fused instruction"
        assert f.op > max(Op) and f.op < 2**24
    assert len(FUSED_BY_TOKENS) == len(FUSED)


@dataclass(frozen=True)
class FrameGuardDefaults:
    """The world's per-player frame-rate guard (templates/udonsharp/FrameGuard.cs.j2): its
    creator settings' defaults, rendered into the behaviour's serialized fields and written
    into both prefabs (docs/world-setup.md §14). Frame times are Time.smoothDeltaTime, in
    seconds; frames are Update() calls of the player's own client."""

    # Step up only while every frame of `hold_up_frames` stays under this: 50 fps, so any
    # display running at 60 Hz or faster (every VR headset, most desktops) can climb.
    climb_below_s: float = 0.020
    # Step down once `hold_down_frames` frames in a row are over this: 40 fps, where a VR
    # headset is deep in reprojection. The band between the two is the hysteresis: a frame
    # time inside it neither raises nor lowers the resolution.
    drop_above_s: float = 0.025
    # At the lowest resolution, pause the screens once `hold_down_frames` frames in a row are
    # over this: 20 fps, an instance no one can use.
    pause_above_s: float = 0.050
    hold_up_frames: int = 60  # about 1 s at 60 fps before each step up
    hold_down_frames: int = 20  # a third of a second at 60 fps, 1 s at 20 fps
    # Frames ignored after every switch (a program change, a step, a resume): the smoothed
    # frame time still holds the previous resolution's cost for a few frames.
    settle_frames: int = 10
    # The highest resolution (pixels per side) the guard steps up to until a quality button
    # sets another: the package's default resolution.
    ceiling: int = 256


FRAME_GUARD = FrameGuardDefaults()


@dataclass(frozen=True)
class SliderFacts:
    """Sliders (docs/language.md, docs/spec.md §8.8): a `//@slider INDEX NAME LOW..HIGH =
    DEFAULT` comment line names slider INDEX, `slider(INDEX)` reads it. Every VM holds
    `count` values in one uniform array; the world shows one UI slider per named index."""

    count: int = 8  # sliders per screen: indices 0..count-1
    marker: str = "@slider"  # follows `//` (spaces between allowed) to make a slider line
    spaces: str = " \t\r"  # what separates a line's words (the CR of a CRLF line ends one)
    name_chars: int = 24  # the longest label a slider line may give
    # numbers in a slider line: an optional '-', at most int_digits before the point and
    # frac_digits after it, so both compilers compute the same float32 with one exact
    # double division (docs/spec.md §8.8)
    int_digits: int = 6
    frac_digits: int = 4
    low: float = 0.0  # the range when a line gives none
    high: float = 1.0
    uniform: str = "_Sliders"  # the VM shaders' float array (HLSL and GLSL names alike)


SLIDERS = SliderFacts()
