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

from psl.resources import templates_dir

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The generated code's own locals (ir.py, exact.py: t3, r2_4, s0_1, x1, p7).
_GENERATED = re.compile(r"[trspx][0-9]+(_[0-9]+)?")
#: The default name: the generated code is written around it.
DEFAULT_NAME = "psl_program"

_GLSL_WORDS = """
const uniform layout centroid flat smooth break continue do for while switch case default if
else in out inout float int void bool true false invariant discard return mat2 mat3 mat4
mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 vec2 vec3 vec4 ivec2 ivec3
ivec4 bvec2 bvec3 bvec4 uint uvec2 uvec3 uvec4 lowp mediump highp precision sampler2D
sampler3D samplerCube sampler2DShadow samplerCubeShadow sampler2DArray sampler2DArrayShadow
isampler2D isampler3D isamplerCube isampler2DArray usampler2D usampler3D usamplerCube
usampler2DArray struct attribute varying coherent volatile restrict readonly writeonly
resource atomic_uint noperspective patch sample subroutine common partition active asm class
union enum typedef template this goto inline noinline public static extern external
interface long short double half fixed unsigned superp input output hvec2 hvec3 hvec4 dvec2
dvec3 dvec4 fvec2 fvec3 fvec4 sampler3DRect filter image1D image2D image3D imageCube
iimage1D iimage2D iimage3D iimageCube uimage1D uimage2D uimage3D uimageCube image1DArray
image2DArray iimage1DArray iimage2DArray uimage1DArray uimage2DArray image1DShadow
image2DShadow image1DArrayShadow image2DArrayShadow imageBuffer iimageBuffer uimageBuffer
sampler1D sampler1DShadow sampler1DArray sampler1DArrayShadow isampler1D isampler1DArray
usampler1D usampler1DArray sampler2DRect sampler2DRectShadow isampler2DRect usampler2DRect
samplerBuffer isamplerBuffer usamplerBuffer sampler2DMS isampler2DMS usampler2DMS
sampler2DMSArray isampler2DMSArray usampler2DMSArray sizeof cast namespace using main
radians degrees sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh pow exp log exp2
log2 sqrt inversesqrt abs sign floor trunc round roundEven ceil fract mod modf min max clamp
mix step smoothstep isnan isinf floatBitsToInt floatBitsToUint intBitsToFloat
uintBitsToFloat packSnorm2x16 unpackSnorm2x16 packUnorm2x16 unpackUnorm2x16 packHalf2x16
unpackHalf2x16 length distance dot cross normalize faceforward reflect refract
matrixCompMult outerProduct transpose determinant inverse lessThan lessThanEqual greaterThan
greaterThanEqual equal notEqual any all not textureSize texture textureProj textureLod
textureOffset texelFetch texelFetchOffset textureProjOffset textureLodOffset textureProjLod
textureProjLodOffset textureGrad textureGradOffset textureProjGrad textureProjGradOffset dFdx
dFdy fwidth mainImage iResolution iTime iTimeDelta iFrame iFrameRate iChannelTime
iChannelResolution iMouse iDate iSampleRate iChannel0 iChannel1 iChannel2 iChannel3
fragColor fragCoord
"""

_HLSL_WORDS = """
AppendStructuredBuffer asm asm_fragment BlendState bool break Buffer ByteAddressBuffer case
cbuffer centroid class column_major compile compile_fragment CompileShader const continue
ComputeShader ConsumeStructuredBuffer default DepthStencilState DepthStencilView discard do
double DomainShader dword else export extern false float for fxgroup GeometryShader
groupshared half HullShader Hullshader if in inline inout InputPatch int interface line
lineadj linear LineStream matrix namespace nointerpolation noperspective NULL out
OutputPatch packoffset pass pixelfragment PixelShader point PointStream precise
RasterizerState RenderTargetView return register row_major RWBuffer RWByteAddressBuffer
RWStructuredBuffer RWTexture1D RWTexture1DArray RWTexture2D RWTexture2DArray RWTexture3D
sample sampler SamplerState SamplerComparisonState shared snorm stateblock stateblock_state
static string struct switch StructuredBuffer tbuffer technique technique10 technique11
texture Texture1D Texture1DArray Texture2D Texture2DArray Texture2DMS Texture2DMSArray
Texture3D TextureCube TextureCubeArray true typedef triangle triangleadj TriangleStream uint
uniform unorm unsigned vector vertexfragment VertexShader void volatile while main this
template typename sizeof auto catch char const_cast delete dynamic_cast enum explicit friend
goto long mutable new operator private protected public reinterpret_cast short signed
static_cast throw try union using virtual abs acos all any asdouble asfloat asin asint
asuint atan atan2 ceil clamp clip cos cosh countbits cross ddx ddx_coarse ddx_fine ddy
ddy_coarse ddy_fine degrees determinant distance dot dst exp exp2 f16tof32 f32tof16
faceforward firstbithigh firstbitlow floor fma fmod frac frexp fwidth isfinite isinf isnan
ldexp length lerp lit log log10 log2 mad max min modf msad4 mul noise normalize pow radians
rcp reflect refract reversebits round rsqrt saturate sign sin sincos sinh smoothstep sqrt
step tan tanh tex1D tex1Dbias tex1Dgrad tex1Dlod tex1Dproj tex2D tex2Dbias tex2Dgrad tex2Dlod
tex2Dproj tex3D tex3Dbias tex3Dgrad tex3Dlod tex3Dproj texCUBE texCUBEbias texCUBEgrad
texCUBElod texCUBEproj transpose trunc Shader Properties SubShader Pass CGPROGRAM ENDCG
CGINCLUDE HLSLPROGRAM ENDHLSL Tags Fallback
"""

_HLSL_SCALARS = ("float", "int", "uint", "bool", "half", "double", "dword", "min16float",
                 "min10float", "min16int", "min12int", "min16uint", "float16_t", "int16_t",
                 "uint16_t", "float32_t", "int32_t", "uint32_t", "float64_t", "int64_t",
                 "uint64_t")


def _hlsl_types() -> set[str]:
    out = set()
    for s in _HLSL_SCALARS:
        for a in "1234":
            out.add(f"{s}{a}")
            out.update(f"{s}{a}x{b}" for b in "1234")
    return out


#: Every keyword, reserved word, type and built-in function of GLSL ES 3.00 and HLSL (Unity's
#: included) in the lists above: a name the program gives a variable or a function is
#: renamed in every export when it is one of these (psl.export.readable).
LANGUAGE_WORDS: frozenset[str] = frozenset(_GLSL_WORDS.split()) | frozenset(
    _HLSL_WORDS.split()) | frozenset(_hlsl_types())
#: Prefixes a language or a generated file keeps for itself: GLSL ES (`gl_`), HLSL system
#: values (`SV_`), Unity (`unity_`, `_`), AudioLink, psl's own helpers and uniforms.
RESERVED_PREFIXES: tuple[str, ...] = ("gl_", "psl_", "u_", "_", "SV_", "sv_", "unity_",
                                      "AudioLink", "audiolink_")

#: target -> (templates whose identifiers it keeps, reserved prefixes)
_TARGETS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "glsl": (("export/program.glsl.j2", "export/_exact.glsl.j2", "glsl/_*.glsl.j2"),
             ("gl_", "psl_")),
    "shadertoy": (("export/shadertoy.glsl.j2", "export/_exact.glsl.j2", "glsl/_*.glsl.j2"),
                  ("gl_", "psl_")),
    "hlsl": (("export/program.hlsl.j2", "export/prelude.hlsl.j2", "hlsl/_*.hlsl.j2"),
             ("psl_", "SV_", "AudioLink", "audiolink_")),
    "unity": (("export/program.hlsl.j2", "export/prelude.hlsl.j2", "hlsl/_*.hlsl.j2",
               "export/unity.shader.j2"),
              ("psl_", "SV_", "AudioLink", "audiolink_", "unity_", "Unity", "_")),
}

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/|\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)


@functools.cache
def reserved(target: str) -> frozenset[str]:
    """Every identifier a name must not be for `target`."""
    patterns, _ = _TARGETS[target]
    words = set((_GLSL_WORDS if target in ("glsl", "shadertoy") else _HLSL_WORDS).split())
    if target in ("hlsl", "unity"):
        words |= _hlsl_types()
    root = templates_dir()
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            text = _COMMENTS.sub(" ", path.read_text(encoding="utf-8"))
            words.update(_IDENT.findall(text))
    return frozenset(words)


def check_name(name: str, target: str) -> str | None:
    """Why `name` cannot be the exported function's name for `target`, or None."""
    if name == DEFAULT_NAME:
        return None
    if not name.isascii() or _IDENT.fullmatch(name) is None:
        return f"'{_printable(name)}' is not an ASCII identifier (letters, digits, _)"
    if len(name) > 64:
        return f"'{name[:20]}…' is longer than 64 characters"
    _, prefixes = _TARGETS[target]
    for prefix in prefixes:
        if name.startswith(prefix):
            return f"'{name}' starts with '{prefix}', which {target} keeps for its own names"
    if target in ("glsl", "shadertoy") and "__" in name:
        return f"'{name}' holds '__', which GLSL keeps for its own names"
    if name in reserved(target) or f"{name}_exact" in reserved(target) \
            or _GENERATED.fullmatch(name):
        return f"'{name}' is a keyword, built-in or generated name in {target}"
    return None


def _printable(text: str) -> str:
    return comment_text(text[:40])


#: target -> what its file is, for the export header
_WHAT = {"unity": "a Unity shader", "hlsl": "an HLSL function", "glsl": "a GLSL ES 3.00 shader",
         "shadertoy": "a Shadertoy shader"}


def export_header(source: str, target: str) -> str:
    """The first lines of an exported file, for the people who use it: the program it came
    from (a file name, never a path), the psl version and how to make it again."""
    from psl._version import __version__

    what = _WHAT.get(target, target)
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
