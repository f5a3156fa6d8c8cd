"""What a user may name the exported function (`psl export --name`), per target, and how
a source file's name is written into a generated `//` comment.

A name is refused when the target's compiler would reject or misread it: not an ASCII
identifier, a keyword, reserved word or built-in function of the language (GLSL ES 3.00,
HLSL), a prefix the language or the generated code keeps for itself (`gl_`, `psl_`, a
double underscore in GLSL; Unity's and AudioLink's names), or any identifier the target's
templates use (read from the templates themselves, so a new helper is covered).
"""

from __future__ import annotations

import functools
import re

from psl.dialect import EXPORT_PARAMETER, all_renamed_prefixes, all_words
from psl.export.targets import TARGETS, target
from psl.resources import templates_dir

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The generated code's own locals (ir.py, exact.py: t3, r2_4, s0_1, x1, p7).
GENERATED = re.compile(r"[trspx][0-9]+(_[0-9]+)?")
#: The default name: the generated code is written around it.
DEFAULT_NAME = "psl_program"

#: Every keyword, reserved word, type and built-in function of GLSL ES 3.00 and HLSL (Unity's
#: included), from the dialects: a name the program gives a variable or a function is
#: renamed in every export when it is one of these (fresh_name).
LANGUAGE_WORDS: frozenset[str] = all_words()
#: Prefixes a language or a generated file keeps for itself: GLSL ES (`gl_`), HLSL system
#: values (`SV_`), Unity (`unity_`, `_`), AudioLink, psl's own helpers and uniforms.
RESERVED_PREFIXES: tuple[str, ...] = all_renamed_prefixes()

# ShaderLab ends a CGPROGRAM block at the text ENDCG, wherever it stands
_SHADERLAB_BLOCKS = re.compile("CGPROGRAM|ENDCG|CGINCLUDE|HLSLPROGRAM|ENDHLSL|HLSLINCLUDE",
                               re.IGNORECASE)

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/|\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)


@functools.cache
def reserved(name: str) -> frozenset[str]:
    """Every identifier a name must not be for the target `name`: its dialect's words and
    the identifiers of its templates."""
    entry = target(name)
    words = set(entry.language().words)
    root = templates_dir()
    for pattern in entry.templates:
        for path in sorted(root.glob(pattern)):
            text = _COMMENTS.sub(" ", path.read_text(encoding="utf-8"))
            words.update(_IDENT.findall(text))
    return frozenset(words)


def fresh_name(want: str, taken: set[str]) -> str:
    """A name for a program's variable or function in every export: `want` made a legal
    identifier of every target that is not a word of any language, nor in `taken` (a
    number added); it is added to `taken`."""
    # GLSL reserves every name with two underscores in a row
    name = re.sub(r"_{2,}", "_", re.sub(r"\W", "_", want))
    if not name or name[0].isdigit() or name.startswith(RESERVED_PREFIXES):
        name = "v_" + name.lstrip("_")  # (gl_x -> v_gl_x: no suffix makes gl_x legal)
    if name == EXPORT_PARAMETER or name in LANGUAGE_WORDS:
        name = f"{name}v" if name.endswith("_") else f"{name}_"
    name = _SHADERLAB_BLOCKS.sub(lambda m: f"{m.group(0)[:3]}x{m.group(0)[3:]}", name)
    base, k = name, 2
    while name in taken:
        name = f"{base}{k}"
        k += 1
    taken.add(name)
    return name


def check_name(name: str, target: str) -> str | None:
    """Why `name` cannot be the exported function's name for `target`, or None."""
    if name == DEFAULT_NAME:
        return None
    if not name.isascii() or _IDENT.fullmatch(name) is None:
        return f"'{_printable(name)}' is not an ASCII identifier (letters, digits, _)"
    if len(name) > 64:
        return f"'{name[:20]}…' is longer than 64 characters"
    entry = TARGETS[target]
    for prefix in (*entry.language().prefixes, *entry.prefixes):
        if name.startswith(prefix):
            return f"'{name}' starts with '{prefix}', which {target} keeps for its own names"
    if entry.language().reserves_double_underscore and "__" in name:
        return f"'{name}' holds '__', which GLSL keeps for its own names"
    if name in reserved(target) or f"{name}_exact" in reserved(target) \
            or GENERATED.fullmatch(name):
        return f"'{name}' is a keyword, built-in or generated name in {target}"
    return None


def _printable(text: str) -> str:
    return comment_text(text[:40])


def export_header(source: str, target: str) -> str:
    """The first lines of an exported file, for the people who use it: the program it came
    from (a file name, never a path), the psl version and how to make it again."""
    from psl._version import __version__

    what = TARGETS[target].what if target in TARGETS else target
    again = f"psl export --target {target} {source}" if not source.startswith("<") else \
        f"psl export --target {target} PROGRAM.psl"
    return (f"// {source} as {what}, exported by psl {__version__}.\n"
            f"// To make it again after changing the program: {again}\n")


def comment_text(text: str) -> str:
    """`text` (a file name) safe inside a `//` comment: a control character (a newline would
    end the comment and inject code), a backslash (a line continuation in GLSL and HLSL) and
    anything outside printable ASCII become \\xNN / \\uNNNN escapes."""
    out = []
    for ch in text:
        code = ord(ch)
        if 0x20 <= code < 0x7F and ch != "\\":
            out.append(ch)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)
