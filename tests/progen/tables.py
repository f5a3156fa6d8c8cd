"""What the generator may write, taken from the registry so a new builtin, operator or
swizzle letter reaches the generated programs without editing this package."""

from __future__ import annotations

from psl import registry

#: Builtins a program may call by name (every one, with the registry's arity).
CALLABLE: tuple[registry.Builtin, ...] = tuple(b for b in registry.BUILTINS if not b.internal)
#: Builtins without arguments (uv(), time(), ...): leaves that vary per pixel or frame.
INPUTS: tuple[registry.Builtin, ...] = tuple(b for b in CALLABLE if b.arity == 0)
#: The feedback builtin: last frame's output, read by the VM mode's feedback statement.
SELF: registry.Builtin = registry.BUILTIN_BY_NAME["self"]
#: slider(k) with a constant k (docs/spec.md §8.8): the indices, and one past them (reads 0)
SLIDER: registry.Builtin = registry.BUILTIN_BY_NAME["slider"]
SLIDER_INDICES: tuple[int, ...] = tuple(range(registry.SLIDERS.count + 1))
SLIDER_MARKER: str = registry.SLIDERS.marker

BINOPS: tuple[str, ...] = tuple(o.symbol for o in registry.BINARY_OPERATORS)
UNOPS: tuple[str, ...] = tuple(u.symbol for u in registry.UNARY_OPERATORS)
COMPOUND: tuple[str, ...] = tuple(registry.COMPOUND_ASSIGN)
INCREMENT: tuple[str, ...] = tuple(registry.INCREMENT)
KEYWORDS: tuple[str, ...] = registry.KEYWORDS

SWIZZLE_SETS: tuple[str, ...] = registry.SWIZZLE_SETS
#: Letters of both sets in one swizzle: valid, with warning W001.
MIXED_SWIZZLE: str = "".join(SWIZZLE_SETS)
MAX_SWIZZLE: int = registry.MAX_SWIZZLE

LIMITS: registry.Limits = registry.LIMITS
