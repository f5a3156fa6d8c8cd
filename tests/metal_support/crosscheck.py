"""The structure of an MSL file, to compare `psl export --target metal` with what
spirv-cross makes of the GLSL export (glslangValidator -V, then spirv-cross --msl): the
fragment function's shape, its uniforms, the textures it reads, the program's functions
with their loops, and the library functions they call. spirv-cross is a real GLSL-to-MSL
translator (MoltenVK's), so where the two agree the Metal export's interface and shape are
those of an independent translation of the same program. No compiler checks either file
here: this compares text.

    python -m tests.metal_support.crosscheck PROGRAM.psl   # prints both structures
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: the WebGL VM's uniform -> the Metal export's psl_inputs member
UNIFORMS = {"u_time": "time", "u_deltatime": "delta_time", "u_button": "button",
            "u_axis": "axis", "u_resolution": "resolution", "u_is_avpro": "is_avpro"}
#: the WebGL VM's texture -> the Metal export's
TEXTURES = {"u_self": "self", "u_camera": "camera", "u_video": "video"}

_FUNCTION = re.compile(r"^[ \t]*(?:static inline __attribute__\(\(always_inline\)\)\s*)?"
                       r"([A-Za-z_][\w:<>, ]*?)\s+([A-Za-z_]\w*)\(([^;{}]*)\)\s*\n[ \t]*\{",
                       re.M)
_FRAGMENT = re.compile(r"^fragment\s+(\w+)\s+(\w+)\((.*?)\)\s*\n\{", re.M | re.S)
_LOOP = re.compile(r"\b(?:while|for|do)\b")


@dataclass
class Structure:
    entry_returns: str = ""
    parameters: list[str] = field(default_factory=list)  # the fragment function's
    uniforms: dict[str, str] = field(default_factory=dict)  # buffer(0)'s member -> type
    buffers: dict[int, dict[str, str]] = field(default_factory=dict)  # index -> members
    functions: dict[str, int] = field(default_factory=dict)  # name -> loops in its body
    structs: dict[str, dict[str, str]] = field(default_factory=dict)


def _split(params: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += {"(": 1, "[": 1, "<": 1, ")": -1, "]": -1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()] if cur.strip() else out


def _body(text: str, start: int) -> str:
    """The text of the braces that open at or after `start`."""
    i = text.index("{", start)
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j + 1]
    return text[i:]


def parse(msl: str) -> Structure:
    s = Structure()
    for m in re.finditer(r"^\s*struct (\w+)\s*\n\s*\{", msl, re.M):
        members = {}
        for line in _body(msl, m.end() - 1).splitlines()[1:-1]:
            d = re.match(r"\s*([\w:<>]+)\s+(\w+)(?:\s*\[\[[^\]]*\]\])?\s*(?:=[^;]*)?;", line)
            if d:
                members[d.group(2)] = d.group(1)
        s.structs[m.group(1)] = members
    frag = _FRAGMENT.search(msl)
    if frag is None:
        raise ValueError("no fragment function")
    s.entry_returns = frag.group(1)
    s.parameters = _split(frag.group(3))
    for p in s.parameters:
        b = re.match(r"constant (\w+)& \w+ \[\[buffer\((\d+)\)\]\]", p)
        if b:
            s.buffers[int(b.group(2))] = s.structs.get(b.group(1), {})
    s.uniforms = s.buffers.get(0, {})
    for m in _FUNCTION.finditer(msl):
        if m.group(2) in ("if", "while", "for", "switch"):
            continue
        s.functions[m.group(2)] = len(_LOOP.findall(_body(msl, m.end() - 1)))
    return s


def textures_read(msl: str, s: Structure) -> set[str]:
    """The Metal-side names (self, camera, video) of the textures the code samples."""
    got = set()
    for p in s.parameters:
        t = re.match(r"texture2d<float> (\w+) \[\[texture", p)
        if t and t.group(1) in TEXTURES:  # spirv-cross keeps only what the code reads
            got.add(TEXTURES[t.group(1)])
    for name in TEXTURES.values():  # the Metal export: what its members sample
        if re.search(rf"psl_read\(psl_{name}\b|psl_read_{name}\(", msl):
            got.add(name)
    return got


_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")


def library_calls(msl: str) -> set[str]:
    """The metal-namespace functions the program's own code calls (its functions and its
    main function; not psl's helpers, nor spirv-cross's, whose names start with psl_ or
    spv)."""
    from psl.dialect.metal.keywords import FUNCTIONS

    out: set[str] = set()
    for m in _FUNCTION.finditer(msl):
        name = m.group(2)
        if name in ("if", "while", "for", "switch", "mod") or (
                name.startswith(("psl_", "spv")) and not re.fullmatch(
                    r"psl_program(_typed)?", name)):
            continue
        out.update(c for c in _CALL.findall(_body(msl, m.end() - 1)) if c in FUNCTIONS)
    return out


def tools() -> tuple[str, str] | None:
    """(glslangValidator, spirv-cross), or None when either is missing."""
    glslang, cross = shutil.which("glslangValidator"), shutil.which("spirv-cross")
    return (glslang, cross) if glslang and cross else None


def spirv_cross_msl(glsl: str) -> str:
    """spirv-cross's MSL of a GLSL export. SPIR-V takes ES 310 at least (the export is ES
    300; nothing it uses changes between them) and loose uniforms only under -R (relaxed
    Vulkan rules: they become one default uniform block)."""
    found = tools()
    assert found is not None
    glslang, cross = found
    with tempfile.TemporaryDirectory() as tmp:
        src, spv = Path(tmp) / "p.frag", Path(tmp) / "p.spv"
        src.write_text(glsl.replace("#version 300 es", "#version 310 es", 1))
        run = subprocess.run([glslang, "-V", "-R", "--amb", "--aml", "-S", "frag", str(src),
                              "-o", str(spv)], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"glslangValidator: {run.stdout[-3000:]}{run.stderr[-3000:]}")
        run = subprocess.run([cross, "--msl", str(spv)], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"spirv-cross: {run.stderr[-3000:]}")
        return run.stdout


def main(argv: list[str]) -> int:
    """Print the structure of a program's Metal export and of spirv-cross's translation."""
    from psl.export import export

    if len(argv) != 1 or tools() is None:
        print("usage: python -m tests.metal_support.crosscheck PROGRAM.psl "
              "(needs glslangValidator and spirv-cross)")
        return 2
    source = Path(argv[0]).read_text(encoding="utf-8")
    for what, msl in (("psl export --target metal", export(source, "metal")),
                      ("spirv-cross --msl of the GLSL export",
                       spirv_cross_msl(export(source, "glsl")))):
        s = parse(msl)
        print(f"{what}:\n  returns {s.entry_returns}\n  parameters {s.parameters}\n"
              f"  uniforms {s.uniforms}\n  buffers {s.buffers}\n"
              f"  textures read {sorted(textures_read(msl, s))}\n"
              f"  functions (loops) {s.functions}\n"
              f"  library calls {sorted(library_calls(msl))}")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
