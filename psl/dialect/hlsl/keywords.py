"""HLSL's words (Unity's ShaderLab included): keywords, reserved words, intrinsics and
every scalar/vector/matrix type name (a program's name must not be one of them)."""

from __future__ import annotations

_WORDS = """
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

_SCALARS = ("float", "int", "uint", "bool", "half", "double", "dword", "min16float",
            "min10float", "min16int", "min12int", "min16uint", "float16_t", "int16_t",
            "uint16_t", "float32_t", "int32_t", "uint32_t", "float64_t", "int64_t",
            "uint64_t")


def _types() -> set[str]:
    out = set()
    for s in _SCALARS:
        for a in "1234":
            out.add(f"{s}{a}")
            out.update(f"{s}{a}x{b}" for b in "1234")
    return out


#: Every keyword, reserved word, type and intrinsic of HLSL (Unity's included).
WORDS: frozenset[str] = frozenset(_WORDS.split()) | frozenset(_types())
