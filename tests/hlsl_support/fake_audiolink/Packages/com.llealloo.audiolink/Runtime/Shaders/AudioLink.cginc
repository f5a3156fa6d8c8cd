// Test stand-in for AudioLink's shader include, found at the same include path so that the
// generated VM.cginc is compiled unmodified with AUDIOLINK defined. It implements the
// functions the VM calls with the same names and parameter/return types as AudioLink's
// include (amplitude functions return float4, the others float), over the harness's
// software texture `psl_audiolink` (AudioLink's 128-wide data texture; texel fetches
// outside it read zero, as on the GPU).
#ifndef PSL_FAKE_AUDIOLINK
#define PSL_FAKE_AUDIOLINK

uniform sampler2D psl_audiolink;

// GPU float -> uint: truncate, negatives and NaN give 0.
uint psl_al_uint(float x)
{
    if (!(x > 0.0)) return 0u;
    if (x >= 4294967296.0) return 0xFFFFFFFFu;
    return (uint)x;
}

uint2 psl_al_uint2(float2 v)
{
    return uint2(psl_al_uint(v.x), psl_al_uint(v.y));
}

float4 psl_al_fetch(uint2 xy)
{
    if (xy.x >= psl_audiolink.width || xy.y >= psl_audiolink.height)
        return float4(0.0, 0.0, 0.0, 0.0);
    return psl_texels[psl_audiolink.offset + xy.y * psl_audiolink.width + xy.x];
}

float4 AudioLinkData(uint2 xy) { return psl_al_fetch(xy); }
float4 AudioLinkData(float2 xy) { return psl_al_fetch(psl_al_uint2(xy)); }

float4 AudioLinkDataMultiline(uint2 xy)
{
    return AudioLinkData(uint2(xy.x % 128u, xy.y + xy.x / 128u));
}

float4 psl_al_lerp(float4 a, float4 b, float t) { return a + (b - a) * t; }

float4 AudioLinkLerp(float2 xy)
{
    return psl_al_lerp(AudioLinkData(xy), AudioLinkData(xy + float2(1.0, 0.0)),
                       xy.x - floor(xy.x));
}

float4 AudioLinkLerpMultiline(float2 xy)
{
    return psl_al_lerp(AudioLinkDataMultiline(psl_al_uint2(xy)),
                       AudioLinkDataMultiline(psl_al_uint2(xy + float2(1.0, 0.0))),
                       xy.x - floor(xy.x));
}

uint AudioLinkDecodeDataAsUInt(uint2 xy)
{
    float4 t = AudioLinkData(xy);
    uint4 p = uint4(psl_al_uint(t.x), psl_al_uint(t.y), psl_al_uint(t.z), psl_al_uint(t.w));
    return p.x + p.y * 1024u + p.z * 1048576u + p.w * 1073741824u;
}

float AudioLinkDecodeDataAsSeconds(uint2 xy)
{
    uint t = AudioLinkDecodeDataAsUInt(xy) & 0x7ffffffu;
    return float(t / 1000u) + float(t % 1000u) / 1000.0;
}

float AudioLinkGetVersion()
{
    if (psl_audiolink.width >= 128u) return AudioLinkData(uint2(0u, 22u)).x;
    if (psl_audiolink.width > 16u) return 1.0;
    return 0.0;
}

float4 AudioLinkGetAmplitudeAtFrequency(float hertz)
{
    float note = 24.0 * log2(hertz / 13.75);
    return AudioLinkLerpMultiline(float2(0.0, 4.0) + float2(note, 0.0));
}

float4 AudioLinkGetAmplitudeAtNote(float octave, float note)
{
    float quarter = note * 2.0;
    return AudioLinkLerpMultiline(float2(0.0, 4.0) + float2(octave * 24.0 + quarter, 0.0));
}

float AudioLinkGetChronoTime(uint index, uint band)
{
    return float(AudioLinkDecodeDataAsUInt(uint2(16u, 28u) + uint2(index, band))) / 100000.0;
}

float AudioLinkGetChronoTimeNormalized(uint index, uint band, float speed)
{
    float t = AudioLinkGetChronoTime(index, band) * speed;
    return t - floor(t);
}

float AudioLinkGetChronoTimeInterval(uint index, uint band, float speed, float interval)
{
    return AudioLinkGetChronoTimeNormalized(index, band, speed) * interval;
}

#endif
