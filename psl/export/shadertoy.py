"""`psl export --target shadertoy`: a Shadertoy pass (mainImage).

The GLSL back end's code with Shadertoy's inputs: iTime, iTimeDelta, iResolution, and
iChannel0 (self: the pass's own buffer), iChannel1 (camera), iChannel2 (video), iChannel3
(AudioLink). Buttons and axes do not exist there and read 0.
"""

from __future__ import annotations

from psl.export import glsl
from psl.export.ir import Program
from psl.export.text import Options


def export(program: Program, options: Options, source: str = "<program>") -> str:
    return glsl.export(program, options, source, shadertoy=True)
