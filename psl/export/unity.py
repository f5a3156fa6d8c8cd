"""`psl export --target unity`: a standalone Unity .shader around the HLSL back end.

A program that uses self() becomes a CustomRenderTexture shader (the previous frame is
_SelfTexture2D, as for the VM); any other becomes an unlit mesh shader.
"""

from __future__ import annotations

import re

from psl.export import hlsl
from psl.export.ir import Program
from psl.export.names import export_header
from psl.export.sliders import parameters
from psl.export.text import Options
from psl.templating import render

TEMPLATE = "export/unity.shader.j2"


def shader_name(source: str) -> str:
    stem = re.sub(r"\.psl$", "", source.rsplit("/", 1)[-1])
    return re.sub(r"[^A-Za-z0-9_]+", "_", stem) or "Program"


def export(program: Program, options: Options, source: str = "<program>") -> str:
    n = hlsl.notes(program, options)
    # the HLSL file without its own header: the shader's header stands first
    code = hlsl.export(program, options, source, header="", unity=True).splitlines()
    return render(TEMPLATE, header=export_header(source, "unity"), source=source,
                  name=options.name, program=code,
                  result=n.result, jump_note=n.jumps, crt=program.uses_self,
                  audiolink=program.uses_audiolink, shader_name=shader_name(source),
                  sliders=parameters(program))
