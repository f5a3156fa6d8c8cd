"""MSL's functions for the builtins readable Metal exports write natively ({0}, {1}, ... the
arguments), where the widths make them equal to the VM's result."""

from __future__ import annotations

from psl.dialect.natives import SHARED_NATIVES

#: MSL spells these as GLSL does (fract, mix), has HLSL's atan2 and saturate, and rounds
#: half to even with rint (its round() rounds half away from zero, PSL's does not). PSL's
#: mod (a - b floor(a / b)) and fmod (written out by SPEC §8.2) have no MSL intrinsic of
#: the same result: MSL's fmod is C's, exact rather than rounded, so they stay the VM's.
NATIVES: dict[str, str] = {
    # MSL has no radians() or degrees(); tanh's shared pattern clamps with float bounds,
    # which MSL does not widen for a vector: the VM's helpers write these
    # (psl.dialect.metal.formulas)
    **{k: v for k, v in SHARED_NATIVES.items() if k not in ("tanh", "radians", "degrees")},
    "frac": "fract({0})", "lerp": "mix({0}, {1}, {2})",
    "atan2": "atan2({0}, {1})", "saturate": "saturate({0})", "sign": "sign({0})",
    "round": "rint({0})", "uv": "uv", "xy": "(2.0 * (uv - 0.5)) * 10.0",
    "time": "psl_in.time", "resolution": "psl_in.resolution", "button": "psl_in.button",
    "axis": "psl_in.axis", "deltatime": "psl_in.delta_time",
    # psl_read samples at level 0 in the VM's texture orientation (templates/export/
    # metal_helpers.metal.j2)
    "self": "psl_read(psl_self, {0})", "camera": "psl_read(psl_camera, {0}).xyz",
    "video": "psl_read_video({0}).xyz"}
