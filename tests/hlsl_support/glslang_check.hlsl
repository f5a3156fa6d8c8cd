// A second HLSL front end for VM.cginc: glslang compiles it to SPIR-V (as Unity's Vulkan
// path does, through its own translator). Stand-ins for what UnityCustomRenderTexture.cginc
// declares; VM.cginc is included unmodified.
float4 _Time;
float4 unity_DeltaTime;
float _CustomRenderTextureWidth;
float _CustomRenderTextureHeight;
sampler2D _SelfTexture2D;
// glslang cannot lower DX9-style tex2Dlod; texture sampling is covered by the Slang tests.
float4 psl_check_tex(float4 coord) { return coord; }
#define tex2Dlod(s, coord) psl_check_tex(coord)
#include "VM.cginc"
float4 psl_frag(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    return runVM(uv);
}
