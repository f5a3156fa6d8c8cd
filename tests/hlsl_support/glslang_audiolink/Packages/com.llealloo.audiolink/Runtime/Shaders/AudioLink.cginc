// Declarations-only stand-in for AudioLink's AudioLink.cginc, for the glslang compile check
// of VM.cginc with AUDIOLINK defined: the signatures follow AudioLink's include (return
// types as in current AudioLink: float4 for the amplitude functions, scalars elsewhere);
// the bodies only need to type-check.
#ifndef PSL_GLSLANG_AUDIOLINK
#define PSL_GLSLANG_AUDIOLINK
float AudioLinkGetVersion() { return 1.0; }
float4 AudioLinkData(uint2 xy) { return float4(xy, 0.0, 0.0); }
float4 AudioLinkDataMultiline(uint2 xy) { return float4(xy, 0.0, 0.0); }
float4 AudioLinkLerp(float2 xy) { return float4(xy, 0.0, 0.0); }
float4 AudioLinkLerpMultiline(float2 xy) { return float4(xy, 0.0, 0.0); }
float AudioLinkDecodeDataAsSeconds(uint2 xy) { return float(xy.x); }
float4 AudioLinkGetAmplitudeAtFrequency(float hertz) { return hertz.xxxx; }
float4 AudioLinkGetAmplitudeAtNote(float octave, float note) { return (octave + note).xxxx; }
float AudioLinkGetChronoTime(uint index, uint band) { return float(index + band); }
float AudioLinkGetChronoTimeNormalized(uint index, uint band, float speed)
{
    return float(index + band) * speed;
}
float AudioLinkGetChronoTimeInterval(uint index, uint band, float speed, float interval)
{
    return float(index + band) * speed / interval;
}
#endif
