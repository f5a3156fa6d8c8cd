"""`psl-gen udonsharp`: render the in-world UdonSharp compiler and its helper behaviours.

The C# tables (builtins, opcodes, operator ids, limits, swizzle letters, diagnostic
messages) are computed here from `psl.registry` and `psl.diagnostics.CATALOGUE` and handed
to the templates, so a registry change reaches the C# without a template edit.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from psl import registry
from psl.diagnostics import CATALOGUE, Severity
from psl.gen import world_programs
from psl.gen.target import Target
from psl.optimize import fuse

#: The UdonSharp behaviours of the world (one class per file, named like the file).
BEHAVIOURS: tuple[str, ...] = ("Compiler", "SyncCode", "ExampleButton", "TypingLock",
                                "ScreenQuality", "ListingView", "ProgramLoader", "ProgramSaves",
                                "ReliefQuality", "FrameGuard", "VideoUrl", "ProgramSliders")
#: The C# namespace of every class the package ships (the behaviours; the editor scripts in
#: NAMESPACE.EditorTools), so that no other package's `Compiler` or `SyncCode` collides with
#: ours (UdonSharp 1.x compiles behaviours in namespaces; a program asset names its script by
#: the .cs file's GUID, not by the class name)
NAMESPACE = "PSL.Shaderception"
EDITOR_NAMESPACE = f"{NAMESPACE}.EditorTools"
#: Events the world's UI sends (the prefab's buttons, the setup menu): the Compile button
#: -> Compiler.Compile; an example button -> ExampleButton.Load. The templates define them.
COMPILE_EVENT = "Compile"
LOAD_EVENT = "Load"
#: SyncCode's events (Share, Load shared, Restore buttons; the Follow toggle), TypingLock's
#: (the Stay-in-place toggle) and ScreenQuality's (a quality button)
SHARE_EVENT, LOAD_SHARED_EVENT, RESTORE_EVENT, FOLLOW_EVENT = (
    "Share", "LoadShared", "Restore", "FollowChanged")
PIN_EVENT = "PinChanged"
QUALITY_EVENT = "Apply"
#: SyncCode's owner controls (the instance owner, or the master where none is present): lock
#: sharing (a toggle: others' Share is refused) and clear the shared program for everyone
LOCK_EVENT, CLEAR_EVENT = "ToggleLock", "ClearShared"
#: FrameGuard's events: a new program is about to run (the Compile button sends it too) and
#: the paused note's button; what the note says
GUARD_PROGRAM_EVENT, GUARD_RUN_ANYWAY_EVENT = "ProgramChanged", "RunAnyway"
GUARD_PAUSED_MESSAGE = "paused: this program costs more than your GPU can give"
#: ProgramSliders' events: a UI slider moved (every slider's onValueChanged); a compile of the
#: code box starts (the Compile button's third call, after the guard's)
SLIDER_MOVED_EVENT, SLIDERS_PROGRAM_EVENT = "Moved", "ProgramChanged"
#: what the Compiler's output starts with once a program is uploaded (its upload part writes
#: it; ProgramSliders reads a program's sliders only then)
COMPILED_PREFIX = "compiled:"
#: ProgramSliders' reading, per Update: at most SLIDER_STEPS steps, each looking at most at
#: SLIDER_SCANS slashes and reading one slider line (tests/test_world_sliders.py bounds the
#: event's externs from these); the VM materials it writes at most
SLIDER_STEPS, SLIDER_SCANS, SLIDER_MAX_MATERIALS = 2, 12, 4
#: a relief-quality button -> ReliefQuality.Apply (puts its grid mesh on the screens)
RELIEF_EVENT = "Apply"
#: VideoUrl's events (the video controls' Play button and the URL field's end-edit; Stop) and
#: what its status line says
VIDEO_PLAY_EVENT, VIDEO_STOP_EVENT = "Play", "Stop"
VIDEO_LOADING_MESSAGE, VIDEO_PLAYING_MESSAGE, VIDEO_STOPPED_MESSAGE = (
    "loading...", "playing", "stopped")
VIDEO_ERROR_MESSAGE = "video error: "
#: ListingView's event (the Listing button), its line cap, its character cap (a uGUI Text
#: shows about 16,000: 65,000 vertices, 4 a character; a fused line is long) and steps per
#: frame (a plain instruction, or one step of a fused one: 9 keep its Update's bound at
#: 2,254 externs, under 2,500 with room, bench/results/world-events.md)
LISTING_EVENT = "Show"
LISTING_LINES = 600
LISTING_CHARS = 15_000
LISTING_PER_FRAME = 9
#: Whether players follow shared programs until they untick Follow (docs/world-setup.md:
#: a share never touches edited text, so following costs a player nothing they wrote)
FOLLOW_DEFAULT = True
#: SyncCode's shareInterval: the shortest time between two shares in an instance (seconds),
#: so that no one can flood the followers' screens and compilers; a creator may change it
SHARE_INTERVAL_S = 10
#: TypingLock: in VR, a move-stick axis past this (of -1..1) releases a player locked by the
#: code box's focus (VRChat's keyboard may close and leave a legacy InputField focused)
STICK_DEAD_ZONE = 0.5

#: Estimated Udon externs the in-world compiler spends per event (Compile() or one frame's
#: Update()); the largest step and the event's own overhead come on top. Chosen so that the
#: exact count (shared udon_cost benchmark, bench/udon_cost.py) stays under 2,500 per event.
SLICE_BUDGET = 1800
#: The optimizer's step sizes, in the same estimated externs: the most one of its steps
#: plans to do (OPT_STEP_WORK; the dataflow solver's pieces, OPT_SOLVE_WORK). An event runs
#: steps while it has budget left, so it can end up to one step past it: a smaller step
#: keeps the largest event further under 2,500 for a few more steps (and their tests) a
#: compile (bench/results/udon-cost-limits.md).
OPT_STEP_WORK = 400
OPT_SOLVE_WORK = 400
#: The lexer's estimate of its own cost (externs per character looked at, per token made).
LEX_COST_CHAR = 5
LEX_COST_TOKEN = 24
LEX_COST_NAME = 10
#: The parser's: one action (a token, an operator, a frame), and the extra of a variable.
ACTION_COST = 36
EMIT_VAR_COST = 24

#: The Compiler's template is a shell that includes one part per stage, in this order.
PARTS: tuple[str, ...] = tuple(
    f"udonsharp/compiler/{part}.cs.j2"
    for part in ("tables", "driver", "lexer", "numbers", "parser", "inliner", "checks",
                 "optimizer", "upload"))

#: The optimizer part includes the in-world half of each pass, psl/optimize/<name>.cs.j2
#: beside psl/optimize/<name>.py, in this order (liveness is dse's and forward's shared
#: analysis); every pass of registry.OPTIMIZER_PASSES is among them.
OPTIMIZER_PARTS: tuple[str, ...] = ("fold", "constprop", "copyprop", "liveness", "dse",
                                    "forward", "jumps", "loops", "unroll", "hoist", "renumber",
                                    "fuse")
#: The order RoundStep tests the running pipeline entry in: the passes that take the most
#: steps first (a compare each); a permutation of registry.PIPELINE_PASSES.
STEP_ORDER: tuple[str, ...] = ("forward", "fold", "constprop", "dse", "copyprop", "jumps")
#: The C# formula of each builtin folded by the "lanes" rule (registry.FOLD_RULES), on the
#: lane `a` (float); exact, as psl.vm computes it.
LANE_FOLDS: dict[str, str] = {
    "abs": "a < 0f ? -a : (a == 0f ? 0f : a)",  # abs(-0) = +0
    "floor": "(float)Math.Floor((double)a)",
    "ceil": "-(float)Math.Floor((double)(-a))",  # -0 kept as numpy does
    "trunc": "(float)Math.Truncate((double)a)",
}


def optimizer_context() -> dict[str, object]:
    """The optimizer's generated parts; refuses a registry the in-world optimizer cannot
    follow (a pass without its C# half, a foldable builtin without a fold rule it knows)."""
    missing = [p for p in (*registry.OPTIMIZER_PASSES, *registry.O2_PASSES)
               if p not in OPTIMIZER_PARTS]
    if missing:
        raise ValueError(f"passes without an in-world half: {missing}")
    if sorted(STEP_ORDER) != sorted(registry.PIPELINE_PASSES):
        raise ValueError("STEP_ORDER is not a permutation of registry.PIPELINE_PASSES")
    # the rules the in-world Evaluate knows: each of these its builtins by name; "construct"
    # any constructor (m lanes from m arguments), "lanes" any builtin with a LANE_FOLDS formula
    named = {"swizzle": {"swizzle"}, "reduce": {"all", "any"}, "step": {"step"}}
    foldable = {b.name for b in registry.BUILTINS if b.foldable}
    rules = registry.FOLD_RULES
    by_rule: dict[str, set[str]] = {}
    for n, r in rules.items():
        by_rule.setdefault(r, set()).add(n)
    constructors_ok = all(registry.BUILTIN_BY_NAME[n].arity == int(n[-1])
                          for n in by_rule.get("construct", ()))
    if (foldable != set(rules) or not set(by_rule) <= {*named, "construct", "lanes"}
            or any(by_rule[r] - named[r] for r in named if r in by_rule)
            or by_rule.get("lanes", set()) != set(LANE_FOLDS) or not constructors_ok):
        known = sorted({*named, "construct", "lanes"})
        raise ValueError("registry.FOLD_RULES: every foldable builtin needs a rule the "
                         f"in-world optimizer knows ({known}), every 'lanes' one a formula "
                         "in LANE_FOLDS")
    return {
        "optimizer_parts": [f"optimize/{p}.cs.j2" for p in OPTIMIZER_PARTS],
        "step_order": STEP_ORDER,
        "lane_folds": {n: LANE_FOLDS[n] for n in registry.FOLD_RULES if n in LANE_FOLDS},
        "fuse_tables": fuse.cs_tables(),  # -O2's patterns (registry.FUSED) as a trie
    }


#: output file name -> template (relative to templates/)
TEMPLATES: dict[str, str] = {f"{name}.cs": f"udonsharp/{name}.cs.j2" for name in BEHAVIOURS}


def cs_string(text: str) -> str:
    """A C# regular string literal (ASCII only, so the file's encoding never matters)."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


@dataclass(frozen=True)
class Message:
    """A diagnostic template as a C# concatenation of literals and `f_<field>` strings."""

    code: str
    expression: str
    fields: tuple[str, ...]


def _message(code: str, template: str) -> Message:
    parts: list[str] = []
    fields: list[str] = []
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        if literal:
            parts.append(cs_string(literal))
        if field is not None:
            parts.append(f"f_{field}")
            fields.append(field)
    return Message(code, " + ".join(parts) or '""', tuple(fields))


def messages() -> list[Message]:
    return [_message(k.code, k.template) for k in CATALOGUE.values()
            if k.severity is Severity.ERROR]


@dataclass(frozen=True)
class TokenTables:
    """The in-world lexer's and parser's tables, all from the registry (token types are
    numbered EOF, IDENT, NUMBER, the keywords, then the punctuation)."""

    names: tuple[str, ...]  # token type -> C# constant suffix
    char_class: tuple[int, ...]  # ASCII code -> CC_* class
    op_single: tuple[int, ...]  # ASCII code -> one-character token type (0 = none)
    op_with_eq: tuple[int, ...]  # first character of a `c=` token -> its type
    op_double: tuple[int, ...]  # first character of a `cc` token -> its type
    bin_prec: tuple[int, ...]  # token type -> precedence level (1 = loosest, 0 = not binary)
    bin_id: tuple[int, ...]  # token type -> BINOP operand id
    unop_code: tuple[int, ...]  # token type -> UNOP operand (0 = not a prefix operator)
    assign_kind: tuple[int, ...]  # token type -> 1 for = and op=, 2 for ++ and --, else 0
    assign_binop: tuple[int, ...]  # token type -> BINOP id of op=, ++, --
    widths: tuple[int, ...]  # token type -> length of its text (0: IDENT, NUMBER, EOF)
    first_punctuation: int  # the first punctuation token type


#: Character classes of the in-world lexer (only CC_IDENT and CC_DIGIT are >= CC_IDENT).
CHAR_CLASSES = {"CC_OTHER": 0, "CC_SPACE": 1, "CC_NEWLINE": 2, "CC_BRACKET": 3, "CC_SINGLE": 4,
                "CC_PUNCT": 5, "CC_IDENT": 6, "CC_DIGIT": 7}
#: Brackets count towards the nesting limit; the other one-character tokens never pair.
BRACKETS = "(){}"


def token_tables() -> TokenTables:
    names = ["EOF", "IDENT", "NUMBER", *(k.upper() for k in registry.KEYWORDS),
             *registry.PUNCTUATION.values()]
    ttype = {name: i for i, name in enumerate(names)}
    by_symbol = {sym: ttype[name] for sym, name in registry.PUNCTUATION.items()}
    char_class = [0] * 128
    for c in range(128):
        ch = chr(c)
        if ch.isascii() and (ch.isalpha() or ch == "_"):
            char_class[c] = CHAR_CLASSES["CC_IDENT"]
        elif ch.isdigit():
            char_class[c] = CHAR_CLASSES["CC_DIGIT"]
        elif ch in " \t\r":
            char_class[c] = CHAR_CLASSES["CC_SPACE"]
        elif ch == "\n":
            char_class[c] = CHAR_CLASSES["CC_NEWLINE"]
        elif ch in BRACKETS:
            char_class[c] = CHAR_CLASSES["CC_BRACKET"]
        elif any(len(sym) == 2 and sym[0] == ch for sym in registry.PUNCTUATION) or ch == "/":
            char_class[c] = CHAR_CLASSES["CC_PUNCT"]  # may pair (`//` starts a comment)
        elif ch in registry.PUNCTUATION:
            char_class[c] = CHAR_CLASSES["CC_SINGLE"]
    single, with_eq, double = [0] * 128, [0] * 128, [0] * 128
    for sym, t in by_symbol.items():
        if len(sym) == 1:
            single[ord(sym)] = t
        elif sym[1] == "=":
            with_eq[ord(sym[0])] = t
        else:
            assert sym[0] == sym[1], f"two-character token {sym!r} is neither c= nor cc"
            double[ord(sym[0])] = t
    n = len(names)
    bin_prec, bin_id, unop = [0] * n, [0] * n, [0] * n
    assign_kind, assign_binop = [0] * n, [0] * n
    for level, symbols in enumerate(registry.PRECEDENCE, start=1):
        for sym in symbols:
            bin_prec[by_symbol[sym]] = level
            bin_id[by_symbol[sym]] = registry.BINOP_BY_SYMBOL[sym].id
    for u in registry.UNARY_OPERATORS:
        unop[by_symbol[u.symbol]] = u.code
    assign_kind[by_symbol["="]] = 1
    for sym, op in registry.COMPOUND_ASSIGN.items():
        assign_kind[by_symbol[sym]] = 1
        assign_binop[by_symbol[sym]] = registry.BINOP_BY_SYMBOL[op].id
    for sym, op in registry.INCREMENT.items():
        assign_kind[by_symbol[sym]] = 2
        assign_binop[by_symbol[sym]] = registry.BINOP_BY_SYMBOL[op].id
    widths = [0, 0, 0, *(len(k) for k in registry.KEYWORDS),
              *(len(sym) for sym in registry.PUNCTUATION)]
    return TokenTables(tuple(names), tuple(char_class), tuple(single), tuple(with_eq),
                       tuple(double), tuple(bin_prec), tuple(bin_id), tuple(unop),
                       tuple(assign_kind), tuple(assign_binop), tuple(widths),
                       3 + len(registry.KEYWORDS))


@dataclass(frozen=True)
class BuiltinBuckets:
    """Builtin indexes (positions in id order) grouped by key = name length * 26 + first
    letter, as flat members with start offsets (starts has one entry per key, plus one)."""

    longest: int
    members: tuple[int, ...]
    starts: tuple[int, ...]


def builtin_buckets(builtins: list[registry.Builtin]) -> BuiltinBuckets:
    longest = max(len(b.name) for b in builtins)
    keys = [len(b.name) * 26 + ord(b.name[0]) - ord("a") for b in builtins]
    assert all(b.name[0].islower() for b in builtins), "builtin names start with a letter"
    order = sorted(range(len(builtins)), key=lambda k: (keys[k], k))
    starts = [sum(1 for k in keys if k < key) for key in range((longest + 1) * 26 + 1)]
    return BuiltinBuckets(longest, tuple(order), tuple(starts))


def _by_id(names: dict[int, str]) -> list[str]:
    """A table indexed by id ("" where no id is used)."""
    return [names.get(k, "") for k in range(max(names) + 1)]


#: The Compiler's `optimize` field as generated and as the prefabs serialize it: on (registry
#: INWORLD_DEFAULT_OPTIMIZE_LEVEL). The -O0 program is uploaded first, so the optimizer's
#: work only delays the faster program, never the first one (docs/world-setup.md, "The
#: optimizer switch").
OPTIMIZE_DEFAULT = registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL >= 1
#: the Compiler's `superinstructions` (-O2 with `optimize`): the registry's in-world default
#: level says whether it is on (docs/spec.md §11)
SUPERINSTRUCTIONS_DEFAULT = registry.INWORLD_DEFAULT_OPTIMIZE_LEVEL >= 2


#: How ListingView reads each step token's field of a fused instruction (docs/spec.md §11,
#: registry.FUSED_TOKENS; psl.bytecode.expand is the reference; the plain opcode it lists is
#: the token's first of registry.FUSED_TOKEN_OPS): "number" (an operand), "register" (an
#: operand mod LIMITS.registers), "constant" (the x of a constant, other lanes absent),
#: "pick" (swizzle lanes, then CALL swizzle).
LISTING_TOKEN_FORMS: dict[str, str] = {
    "V": "register", "K": "constant", "W": "pick", "B": "number", "U": "number",
    "C": "number", "S": "register", "J": "number", "G": "number",
}
LISTING_STEP_FORMS = ("number", "register", "constant", "pick")


def listing_context() -> dict[str, object]:
    """ListingView's fused tables: per fused opcode (from registry.FUSED_FIRST_OP) its
    mnemonic and its steps as indices into the token table, FUSED_MAX_STEPS per opcode."""
    assert set(LISTING_TOKEN_FORMS) == set(registry.FUSED_TOKENS)
    tokens = list(LISTING_TOKEN_FORMS)
    ordered = sorted(registry.FUSED, key=lambda f: f.op)
    assert [f.op for f in ordered] == list(range(registry.FUSED_FIRST_OP,
                                                 registry.FUSED_FIRST_OP + len(ordered)))
    steps = [tokens.index(t) if k < len(f.tokens) else -1
             for f in ordered for t, k in zip(f.tokens.ljust(registry.FUSED_MAX_STEPS),
                                              range(registry.FUSED_MAX_STEPS), strict=True)]
    return {
        "fused_first_op": registry.FUSED_FIRST_OP,
        "fused_max_steps": registry.FUSED_MAX_STEPS,
        "fused_names": [f.name for f in ordered],
        "fused_steps": steps,
        "token_ops": [int(registry.FUSED_TOKEN_OPS[t][0]) for t in tokens],
        "token_forms": [LISTING_STEP_FORMS.index(LISTING_TOKEN_FORMS[t]) for t in tokens],
        "token_form": {form: k for k, form in enumerate(LISTING_STEP_FORMS)},
        "swizzle_id": registry.SWIZZLE.id,
    }


def context() -> dict[str, object]:
    limits = registry.LIMITS
    # Emit's bounds check relies on the texels holding exactly the instruction limit.
    assert 2 * limits.instructions == limits.slots, \
        "the in-world compiler assumes 2 * instructions == slots"
    assert limits.texture_width * limits.texture_height == limits.slots
    assert limits.slots & (limits.slots - 1) == 0, "the register hash (REG_HASH_SIZE) masks by it"
    msgs = messages()
    fields = sorted({f for m in msgs for f in m.fields})
    builtins = sorted(registry.BUILTINS, key=lambda b: b.id)
    return {
        "namespace": NAMESPACE,
        "builtins": builtins,
        "builtin_buckets": builtin_buckets(builtins),
        "messages": msgs,
        "message_fields": fields,
        "lane_of": [registry.SWIZZLE_LANES.get(chr(c), 0) for c in range(128)],
        "cs_string": cs_string,
        "binop": {b.symbol: b.id for b in registry.BINARY_OPERATORS},
        "unop": {u.symbol: u.code for u in registry.UNARY_OPERATORS},
        "compound": {k: registry.BINOP_BY_SYMBOL[v].id
                     for k, v in registry.COMPOUND_ASSIGN.items()},
        "increment": {k: registry.BINOP_BY_SYMBOL[v].id for k, v in registry.INCREMENT.items()},
        "nan_bits": f"0x{registry.PAD_NAN_BITS:08X}",
        "tokens": token_tables(),
        "char_classes": CHAR_CLASSES,
        "parts": PARTS,
        "slice_budget": SLICE_BUDGET,
        "opt_step_work": OPT_STEP_WORK,
        "opt_solve_work": OPT_SOLVE_WORK,
        "lex_cost_char": LEX_COST_CHAR,
        "lex_cost_token": LEX_COST_TOKEN,
        "lex_cost_name": LEX_COST_NAME,
        "action_cost": ACTION_COST,
        "emit_var_cost": EMIT_VAR_COST,
        "swizzle_letters": sorted(registry.SWIZZLE_LANES),
        "relief_event": RELIEF_EVENT,
        "video_play_event": VIDEO_PLAY_EVENT,
        "video_stop_event": VIDEO_STOP_EVENT,
        "video_loading_message": VIDEO_LOADING_MESSAGE,
        "video_playing_message": VIDEO_PLAYING_MESSAGE,
        "video_stopped_message": VIDEO_STOPPED_MESSAGE,
        "video_error_message": VIDEO_ERROR_MESSAGE,
        "follow_default": FOLLOW_DEFAULT,
        "share_interval": SHARE_INTERVAL_S,
        "stick_dead_zone": STICK_DEAD_ZONE,
        "guard": registry.FRAME_GUARD,
        "guard_paused_message": GUARD_PAUSED_MESSAGE,
        "optimize_default": OPTIMIZE_DEFAULT,
        "superinstructions_default": SUPERINSTRUCTIONS_DEFAULT,
        "listing_lines": LISTING_LINES,
        "listing_chars": LISTING_CHARS,
        "compiled_prefix": COMPILED_PREFIX,
        "steps_per_event": SLIDER_STEPS,
        "scans_per_step": SLIDER_SCANS,
        "max_materials": SLIDER_MAX_MATERIALS,
        "listing_per_frame": LISTING_PER_FRAME,
        "ops": [op.name for op in registry.Op],
        "op_values": {op.name: op.value for op in registry.Op},
        "builtin_names": _by_id({b.id: b.name for b in registry.BUILTINS}),
        "binop_symbols": _by_id({b.id: b.symbol for b in registry.BINARY_OPERATORS}),
        **listing_context(),
        **world_programs.context(),
        **optimizer_context(),
    }


TARGET = Target("udonsharp", TEMPLATES, context)
