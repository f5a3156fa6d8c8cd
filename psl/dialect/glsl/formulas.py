"""GLSL ES 3.00 text for every builtin and operator of the WebGL VM (templates/glsl/).

The counterpart of psl.dialect.hlsl.formulas: one result expression per registry builtin
name (`BUILTIN_GLSL`: psl.dialect.formulas' shared ones and the GLSL-only ones below); the
template applies the result-dimension rule (`ResultDim`) around it.

Why *units*: SwiftShader (Chrome's CPU WebGL, where the tests run) executes every branch
of a shader for each group of pixels, masked, so a VM step costs all the code in the loop
body, not just the taken builtin. The expensive parts are therefore shared: each `Unit`
(a texture sample, a log2, an exp2, a sqrt, ...) is evaluated once per step on an input
that the builtin being called chooses (`UNIT_INPUTS`), and the result expressions combine
the unit results with cheap arithmetic. On a GPU this is merely a different arrangement.

Names available inside expressions:
  a, b, c, d        the arguments after masking (and padding), vec4, in source order; they
                    never hold NaN (masking replaced it by 0), but may hold infinities
  da, db, dc, dd    the dimensions the arguments had before masking (uint)
  psl_uv            the pixel's texture coordinate (vec2)
  unit names        the results of the units below (after their inputs were chosen)
  helper functions  defined in the templates (psl_*), the uniforms (u_*)
Operators get `l`, `r` (binary, after the dimension-1 broadcast) or `v` (unary); those may
hold NaN, so comparisons go through helpers that test NaN on the bits.

GLSL ES leaves many corners of its built-in functions undefined (log of 0, pow of a
negative base, atan(0, 0), ...); the helpers spell out C's results there (SPEC §8 follows
C), so only the smooth part of each function is the GPU's own approximation.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl.dialect.formulas import ARITHMETIC, SIGNS, lerp, not_equal, reflect, shared_builtins

LN2 = "0.6931471805599453"
LOG2E = "1.4426950408889634"
LOG10_2 = "0.3010299956639812"


@dataclass(frozen=True)
class Unit:
    """A shared computation of a VM step: `name = eval` with `name_in` chosen per builtin."""

    name: str
    type: str  # GLSL type of the result
    in_type: str  # GLSL type of the input
    default: str  # input when the called builtin does not choose one
    eval: str  # GLSL expression of `<name>_in`
    texture: bool = False  # reads a texture: builtins using it run in the texture step


#: In evaluation order: a unit's input may use the results of the units before it.
UNITS: tuple[Unit, ...] = (
    Unit("dot_a", "vec4", "vec4", "a", "dot_a_in"),  # first operand of the shared dot product
    Unit("dot_b", "vec4", "vec4", "b", "dot_b_in"),
    Unit("dotp", "float", "float", "0.0", "psl_dot(dot_a, dot_b)"),
    Unit("root", "vec4", "vec4", "a", "psl_sqrt(root_in)"),
    Unit("lg", "vec4", "vec4", "a", "psl_log2(lg_in)"),
    Unit("ex", "vec4", "vec4", "a", "exp2(ex_in)"),
    Unit("trig", "mat2x4", "vec4", "a", "psl_sincos(trig_in)"),  # (sin, cos)
    Unit("at_y", "vec4", "vec4", "a", "at_y_in"),
    Unit("at", "vec4", "vec4", "vec4(1.0)", "psl_atan2(at_y, at_in)"),
    Unit("tex_uv", "vec2", "vec2", "a.xy", "tex_uv_in"),
    Unit("self_tex", "vec4", "vec2", "tex_uv", "psl_sample(u_self, self_tex_in)", True),
    Unit("camera_tex", "vec4", "vec2", "tex_uv", "psl_sample(u_camera, camera_tex_in)", True),
    Unit("video_tex", "vec4", "vec2", "tex_uv", "psl_sample(u_video, video_tex_in)", True),
    # AudioLink: at most two texels per call; uvec4(x0, y0, x1, y1), before the multiline
    # wrap, which al_wrap (bool) asks for.
    Unit("al_wrap", "bool", "bool", "false", "al_wrap_in"),
    Unit("al_at", "uvec4", "uvec4", "psl_to_uint4(a.xyxy)", "psl_al_coords(al_at_in, al_wrap)"),
    Unit("al0", "vec4", "uvec2", "al_at.xy", "psl_al_data(al0_in)", True),
    Unit("al1", "vec4", "uvec2", "al_at.zw", "psl_al_data(al1_in)", True),
)

#: builtin name -> {unit name: input expression}: what the builtin feeds the shared units.
UNIT_INPUTS: dict[str, dict[str, str]] = {
    "log": {"lg": "a"},
    "log2": {"lg": "a"},
    "log10": {"lg": "a"},
    "pow": {"lg": "abs(a)", "ex": "b * lg"},
    "exp": {"ex": f"a * {LOG2E}"},
    "exp2": {"ex": "a"},
    # e^|a| / 2, which stays finite as long as sinh and cosh do
    "sinh": {"ex": f"abs(a) * {LOG2E} - 1.0"},
    "cosh": {"ex": f"abs(a) * {LOG2E} - 1.0"},
    "tanh": {"ex": f"min(abs(a), vec4(10.0)) * (2.0 * {LOG2E})"},
    "sqrt": {"root": "a"},
    "rsqrt": {"root": "a"},
    "asin": {"root": "(1.0 - a) * (1.0 + a)", "at_y": "a", "at": "root"},
    "acos": {"root": "(1.0 - a) * (1.0 + a)", "at_y": "root", "at": "a"},
    "atan": {"at_y": "a", "at": "vec4(1.0)"},
    "atan2": {"at_y": "a", "at": "b"},
    "length": {"dot_b": "a", "root": "vec4(dotp)"},
    "normalize": {"dot_b": "a", "root": "vec4(dotp)"},
    "distance": {"dot_a": "a - b", "dot_b": "a - b", "root": "vec4(dotp)"},
    "refract": {"root": "vec4(psl_refract_k(c.x, dotp))"},
    "self": {},
    "camera": {},
    # AVPro delivers the video upside down.
    "video": {"video_tex": "vec2(a.x, u_is_avpro ? 1.0 - a.y : a.y)"},
    "audiolinkgetversion": {"al_at": "uvec4(0u, 22u, 0u, 22u)"},
    "audiolinkdata": {},
    "audiolinkdatamultiline": {"al_wrap": "true"},
    "audiolinklerp": {"al_at": "psl_al_lerp_at(a.x, a.y)"},
    "audiolinklerpmultiline": {"al_at": "psl_al_lerp_at(a.x, a.y)", "al_wrap": "true"},
    "audiolinkdecodedataasseconds": {},
    # a 0 * note row: an infinite note makes the row NaN (row 0), as in the reference VM
    "audiolinkgetamplitudeatfrequency": {
        "lg": "vec4(a.x / 13.75)",
        "al_at": "psl_al_lerp_at(24.0 * lg.x, 4.0 + 0.0 * (24.0 * lg.x))",
        "al_wrap": "true"},
    "audiolinkgetamplitudeatnote": {
        "al_at": "psl_al_lerp_at(a.x * 24.0 + b.x * 2.0, 4.0 + 0.0 * (a.x * 24.0 + b.x * 2.0))",
        "al_wrap": "true"},
    "audiolinkgetchronotime": {"al_at": "psl_al_chrono_at(a.x, b.x)"},
    "audiolinkgetchronotimenormalized": {"al_at": "psl_al_chrono_at(a.x, b.x)"},
    "audiolinkgetchronotimeinterval": {"al_at": "psl_al_chrono_at(a.x, b.x)"},
}

#: builtin name (psl.registry.BUILTINS) -> GLSL vec4 expression of its result.
BUILTIN_GLSL: dict[str, str] = {
    **shared_builtins("vec4"),
    "log": f"lg * {LN2}",
    "log2": "lg",
    "log10": f"lg * {LOG10_2}",
    "sin": "trig[0]",
    "cos": "trig[1]",
    "tan": "trig[0] / trig[1]",
    "asin": "at",
    "acos": "at",
    "atan": "at",
    "pow": "psl_pow(a, b, ex)",
    "exp": "ex",
    "exp2": "ex",
    "sqrt": "root",
    "rsqrt": "1.0 / root",
    "sign": "sign(a)",
    "step": "vec4(greaterThanEqual(b, a))",
    "time": "u_time",
    "dot": "vec4(dotp, 0.0, 0.0, 0.0)",
    "cross": "psl_cross(a, b)",
    "distance": "root",
    "normalize": "a / root.x",
    "length": "root",
    "reflect": reflect("dotp"),
    "refract": "psl_refract(a, b, c.x, dotp, root.x)",
    "self": "self_tex",
    "resolution": "vec4(u_resolution, 0.0, 0.0)",
    "button": "u_button",
    "axis": "u_axis",
    "camera": "vec4(camera_tex.xyz, 0.0)",
    "deltatime": "u_deltatime",
    "video": "vec4(video_tex.xyz, 0.0)",
    "all": "vec4(psl_all(a, da), 0.0, 0.0, 0.0)",
    "any": "vec4(psl_any(a), 0.0, 0.0, 0.0)",
    "atan2": "at",
    # Arguments hold no NaN, so the clamp rule of SPEC §8.2 is min(max(a, 0), 1).
    "saturate": "psl_min(psl_max(a, vec4(0.0)), vec4(1.0))",
    "sinh": "psl_sinh(a, ex)",
    "cosh": "ex + 0.25 / ex",
    "tanh": "psl_tanh(a, ex)",
    # the screen's sliders (vm.frag's psl_slider reads its uniform array)
    "slider": "vec4(psl_slider(a.x), 0.0, 0.0, 0.0)",
    # AudioLink: the functions of AudioLink.cginc over the texels al0, al1 (see UNITS).
    "audiolinkgetversion": "vec4(psl_al_version(al0.x), 0.0, 0.0, 0.0)",
    "audiolinkdata": "al0",
    "audiolinkdatamultiline": "al0",
    "audiolinklerp": lerp("al0", "al1", "psl_frac1(a.x)"),
    "audiolinklerpmultiline": lerp("al0", "al1", "psl_frac1(a.x)"),
    "audiolinkdecodedataasseconds": "vec4(psl_al_seconds(psl_al_uint(al0)), 0.0, 0.0, 0.0)",
    "audiolinkgetamplitudeatfrequency":
        f"vec4({lerp('al0.x', 'al1.x', 'psl_frac1(24.0 * lg.x)')}, 0.0, 0.0, 0.0)",
    "audiolinkgetamplitudeatnote":
        f"vec4({lerp('al0.x', 'al1.x', 'psl_frac1(a.x * 24.0 + b.x * 2.0)')}, 0.0, 0.0, 0.0)",
    "audiolinkgetchronotime": "vec4(psl_al_chrono(al0), 0.0, 0.0, 0.0)",
    "audiolinkgetchronotimenormalized":
        "vec4(psl_frac1(psl_al_chrono(al0) * c.x), 0.0, 0.0, 0.0)",
    "audiolinkgetchronotimeinterval":
        "vec4(psl_frac1(psl_al_chrono(al0) * c.x) * d.x, 0.0, 0.0, 0.0)",
}

#: binary operator symbol (psl.registry.BINARY_OPERATORS) -> GLSL vec4 expression of l, r.
#: Comparisons come from the three shared ones (lt, le, eq) the template computes.
BINOP_GLSL: dict[str, str] = {
    **ARITHMETIC,
    "<": "cmp_lt",
    ">": "cmp_gt",
    "==": "cmp_eq",
    "<=": "cmp_le",
    ">=": "cmp_ge",
    "!=": not_equal("cmp_eq"),
    "&&": "vec4(psl_and4(l_true, r_true))",
    "||": "vec4(psl_or4(l_true, r_true))",
}

#: unary operator symbol (psl.registry.UNARY_OPERATORS) -> GLSL vec4 expression of v.
UNOP_GLSL: dict[str, str] = {
    **SIGNS,
    "!": "vec4(not(psl_truthy4(v)))",
}
