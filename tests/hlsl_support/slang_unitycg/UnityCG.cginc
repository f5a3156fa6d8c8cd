// Stand-ins for the parts of UnityCG.cginc that Screen.shader uses, for running its vertex
// stage on the CPU with Slang (screen_harness.slang). sampler2D and tex2Dlod are the
// buffer-backed software sampler of unity_stub.slang; the object-to-clip transform is the
// identity, so a vertex's output position is its (displaced) object-space position.
#ifndef PSL_UNITYCG_STUB
#define PSL_UNITYCG_STUB
#include "unity_stub.slang"
#define UNITY_VERTEX_INPUT_INSTANCE_ID
#define UNITY_VERTEX_OUTPUT_STEREO
#define UNITY_SETUP_INSTANCE_ID(v)
#define UNITY_INITIALIZE_VERTEX_OUTPUT_STEREO(o)
#define TRANSFORM_TEX(tex, name) (tex.xy * name##_ST.xy + name##_ST.zw)
float4 UnityObjectToClipPos(float4 pos) { return float4(pos.xyz, 1.0); }
float3 UnityObjectToWorldNormal(float3 n) { return normalize(n); }
float3 LinearToGammaSpace(float3 c) { return max(1.055 * pow(max(c, 0.0), 0.416666667) - 0.055, 0.0); }
#endif
