"""The Metal Shading Language's words: C++14's keywords, MSL's address spaces and types, and
the functions of the metal namespace that exported code calls (a program's name must not
be one of them: a file-scope variable becomes a member of the program's struct, where it
would hide the function of the same name)."""

from __future__ import annotations

#: C++14 keywords and alternative tokens (MSL is C++14-based)
_CPP = """
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t
char32_t class compl const constexpr const_cast continue decltype default delete do double
dynamic_cast else enum explicit export extern false float for friend goto if inline int
long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected
public register reinterpret_cast return short signed sizeof static static_assert
static_cast struct switch template this thread_local throw true try typedef typeid typename
union unsigned using virtual void volatile wchar_t while xor xor_eq main
"""

#: MSL's address spaces, function qualifiers and types, and `level`, which the Metal
#: wrapper's texture reads call inside the program's struct (attribute words such as
#: `position` or `color` are not reserved: they stand only inside [[ ]])
_MSL = """
device constant thread threadgroup threadgroup_imageblock ray_data object_data kernel vertex
fragment metal simd quad half uchar ushort uint ulong size_t ptrdiff_t atomic atomic_int
atomic_uint atomic_bool atomic_float array packed_float2 packed_float3 packed_float4
packed_half2 packed_half3 packed_half4 texture1d texture1d_array texture2d texture2d_array
texture3d texturecube texturecube_array texture2d_ms texture2d_ms_array depth2d
depth2d_array depthcube depthcube_array depth2d_ms texture_buffer sampler level vec matrix
visible_function_table intersection_function_table acceleration_structure
"""

#: functions of the metal namespace that exported code can call (math, geometric, common,
#: relational, reinterpretation): a member of the same name would hide them. (Integer,
#: packing and synchronisation functions are not: a program's `rotate` may keep its name.
#: MSL has no radians() or degrees().)
_FUNCTIONS = """
abs acos acosh asin asinh atan atan2 atanh ceil copysign cos cosh cospi divide exp exp10
exp2 fabs fdim floor fma fmax fmax3 fmedian3 fmin fmin3 fmod fract frexp ilogb isfinite
isinf isnan isnormal isordered isunordered ldexp log log10 log2 max max3 median3 min min3
mix modf nan nextafter pow powr rint round rsqrt saturate select sign signbit sin sincos
sinh sinpi smoothstep sqrt step tan tanh tanpi trunc clamp cross distance distance_squared
dot faceforward length length_squared normalize reflect refract determinant transpose all
any as_type dfdx dfdy fwidth discard_fragment precise fast
"""

_SCALARS = ("float", "half", "int", "uint", "short", "ushort", "char", "uchar", "bool",
            "long", "ulong", "bfloat")


def _vectors() -> set[str]:
    out = set()
    for s in _SCALARS:
        for a in "234":
            out.add(f"{s}{a}")
            out.update(f"{s}{a}x{b}" for b in "234")
    return out


#: The functions of the metal namespace that exported code can call.
FUNCTIONS: frozenset[str] = frozenset(_FUNCTIONS.split())

#: Every keyword, type and function of MSL (C++14's included).
WORDS: frozenset[str] = frozenset((_CPP + _MSL + _FUNCTIONS).split()) | frozenset(_vectors())
