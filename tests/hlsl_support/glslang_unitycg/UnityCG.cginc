// Stand-ins for the parts of UnityCG.cginc that Screen.shader uses, for compiling its
// CGPROGRAM with glslang's HLSL front end (tests/test_screen_relief.py). The matrices are
// uniforms as in UnityShaderVariables.cginc; instancing and stereo macros expand to nothing.
#ifndef PSL_UNITYCG_STUB
#define PSL_UNITYCG_STUB
// glslang cannot lower DX9-style sampler2D / tex2Dlod; spelled as the DX10 objects (a texture
// and one bilinear clamped sampler) they sample for real in the SPIR-V.
#define sampler2D Texture2D<float4>
SamplerState psl_linear_clamp;
#define tex2Dlod(s, coord) (s).SampleLevel(psl_linear_clamp, (coord).xy, (coord).w)
float4x4 unity_ObjectToWorld;
float4x4 unity_WorldToObject;
float4x4 unity_MatrixVP;
#define UNITY_VERTEX_INPUT_INSTANCE_ID
#define UNITY_VERTEX_OUTPUT_STEREO
#define UNITY_SETUP_INSTANCE_ID(v)
#define UNITY_INITIALIZE_VERTEX_OUTPUT_STEREO(o)
#define TRANSFORM_TEX(tex, name) (tex.xy * name##_ST.xy + name##_ST.zw)
float4 UnityObjectToClipPos(float4 pos)
{
    return mul(unity_MatrixVP, mul(unity_ObjectToWorld, float4(pos.xyz, 1.0)));
}
float3 UnityObjectToWorldNormal(float3 n)
{
    return normalize(mul(n, (float3x3)unity_WorldToObject));
}
float3 LinearToGammaSpace(float3 c)
{
    return max(1.055 * pow(max(c, 0.0), 0.416666667) - 0.055, 0.0);
}
#endif
