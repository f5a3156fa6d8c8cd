// The WebGL2 renderer of the PSL VM: runs the generated vm.frag (`psl-gen glsl`) once per
// frame into float render targets. Plain ES module, no dependencies. docs/webgl-vm.md.
//
// Frames ping-pong between two RGBA32F targets: the shader reads the previous one as
// self(). In 'cost' mode the same pass also writes the cost frame (executed instructions,
// jumps, jump-limit flag, work-budget flag per pixel) into a third target, so the overlay costs nothing extra
// and never changes what self() programs compute.

// A triangle that covers the viewport (no vertex buffer); relief.js presents with it too.
export const DEFAULT_VERTEX = `#version 300 es
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
`;

// Draws a float frame to the canvas: colours clamped to [0, 1] with alpha 1 (a float3
// colour has alpha 0), or the cost overlay as a heat map (magenta: jump limit or work budget hit).
const PRESENT_FRAGMENT = `#version 300 es
precision highp float;
uniform highp sampler2D u_frame;
uniform int u_cost;
uniform float u_cost_scale;
uniform vec2 u_canvas;
out vec4 color;
void main() {
    ivec2 size = textureSize(u_frame, 0);
    ivec2 at = ivec2(gl_FragCoord.xy * vec2(size) / u_canvas);
    vec4 c = texelFetch(u_frame, clamp(at, ivec2(0), size - 1), 0);
    if (u_cost == 1) {
        if (c.z > 0.5 || c.w > 1.5) { color = vec4(1.0, 0.0, 1.0, 1.0); return; }
        float t = clamp(log2(1.0 + c.x) / u_cost_scale, 0.0, 1.0);
        color = vec4(clamp(vec3(3.0 * t, 3.0 * t - 1.0, 3.0 * t - 2.0), 0.0, 1.0), 1.0);
        return;
    }
    color = vec4(clamp(c.rgb, 0.0, 1.0), 1.0);
}
`;

// u_mode of vm.frag (psl.gen.glsl.MODE_COLOR): output 0 is the colour. (MODE_COST = 1
// would put the cost there too, for single-target users; render.js reads output 1.)
const MODE_COLOR = 0;
// The program texture is this wide; the shader reads the width from the texture itself.
// The program texture's shape (registry LIMITS.texture_width / texture_height; a test checks).
const PROGRAM_TEXTURE_WIDTH = 256;
const PROGRAM_TEXTURE_HEIGHT = 128;
const TEXTURE_NAMES = ['camera', 'video', 'audiolink'];
// slider(k)'s values: a float array uniform of vm.frag (registry SLIDERS.uniform; a test
// checks). Its length is the shader's own (getActiveUniform), so no count is typed here.
const SLIDER_UNIFORM = '_Sliders';

function compile(gl, type, source, who) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    const log = gl.getShaderInfoLog(shader);
    gl.deleteShader(shader);
    throw new Error(`${who}: shader does not compile:\n${log}`);
  }
  return shader;
}

// A linked program and its uniform locations by name; `who` names the caller in errors.
export function link(gl, vertexSource, fragmentSource, who = 'PslRenderer') {
  const program = gl.createProgram();
  const vs = compile(gl, gl.VERTEX_SHADER, vertexSource, who);
  const fs = compile(gl, gl.FRAGMENT_SHADER, fragmentSource, who);
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    throw new Error(`${who}: program does not link:\n${gl.getProgramInfoLog(program)}`);
  }
  const uniforms = {};
  const sizes = {};  // array uniforms' lengths, by the name without `[0]`
  const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
  for (let k = 0; k < count; k++) {
    const info = gl.getActiveUniform(program, k);
    uniforms[info.name] = gl.getUniformLocation(program, info.name);
    if (info.name.endsWith('[0]')) {
      const base = info.name.slice(0, -3);
      uniforms[base] = uniforms[info.name];
      sizes[base] = info.size;
    }
  }
  return { program, uniforms, sizes };
}

// Texture filtering is NEAREST everywhere: the shader filters itself with texelFetch, and
// NEAREST keeps float textures complete without OES_texture_float_linear.
function newTexture(gl) {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return tex;
}

function uploadFloat(gl, tex, width, height, data) {
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, data);
}

// The uniform's `size` floats from `values` (an array, possibly sparse or short): a
// missing, non-number or non-finite value is 0, as for a slider no line names.
export function sliderArray(values, size) {
  const out = new Float32Array(size);
  for (let k = 0; k < size; k++) {
    const v = values ? values[k] : 0;
    out[k] = typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }
  return out;
}

export class PslRenderer {
  constructor(canvas, fragmentSource, vertexSource) {
    const gl = canvas.getContext('webgl2', {
      antialias: false, depth: false, stencil: false, alpha: false,
      premultipliedAlpha: false, preserveDrawingBuffer: true,
    });
    if (!gl) throw new Error('PslRenderer: this browser has no WebGL2');
    if (!gl.getExtension('EXT_color_buffer_float')) {
      throw new Error('PslRenderer: WebGL2 without EXT_color_buffer_float: float render ' +
                      'targets (needed for self() and exact results) are not available');
    }
    this.canvas = canvas;
    this.gl = gl;
    this.vm = link(gl, vertexSource || DEFAULT_VERTEX, fragmentSource);
    this.presenter = link(gl, DEFAULT_VERTEX, PRESENT_FRAGMENT);
    this.vao = gl.createVertexArray();
    this.mode = 'color';
    this.inputs = {
      time: 0, deltaTime: 1 / 60, button: [0, 0, 0, 0], axis: [0, 0, 0, 0], isAvpro: false,
      sliders: [],  // slider(k) reads sliders[k]; missing or not finite: 0
    };
    // slider index -> the name of a float uniform of its own (an exported shader's; the
    // VM reads them all from SLIDER_UNIFORM)
    this.sliderUniforms = {};
    this.programTexture = newTexture(gl);
    this.setProgram(new Float32Array(0));
    this.textures = {};
    for (const name of TEXTURE_NAMES) {
      this.textures[name] = newTexture(gl);
      this.setTexture(name, null);
    }
    this.targets = [];
    this.width = 0;
    this.height = 0;
    this.resize(canvas.width || 64, canvas.height || 64);
  }

  // Frees this renderer's GL objects (the canvas's context stays, for other renderers).
  dispose() {
    const gl = this.gl;
    for (const t of this.targets) {
      gl.deleteFramebuffer(t.fbo);
      gl.deleteTexture(t.tex);
    }
    this.targets = [];
    for (const tex of Object.values(this.textures)) gl.deleteTexture(tex);
    gl.deleteTexture(this.programTexture);
    gl.deleteProgram(this.vm.program);
    gl.deleteProgram(this.presenter.program);
    gl.deleteVertexArray(this.vao);
  }

  // texels: Float32Array, the program texture as `psl compile --format texture` writes it
  // (4 floats per texel, row-major, PROGRAM_TEXTURE_WIDTH per row; it holds no NaN). Fewer
  // rows than the whole texture may be given: the rest are zero.
  setProgram(texels) {
    const gl = this.gl;
    const size = PROGRAM_TEXTURE_WIDTH * PROGRAM_TEXTURE_HEIGHT * 4;
    const data = new Float32Array(size);
    data.set(texels.length > size ? texels.subarray(0, size) : texels);
    uploadFloat(gl, this.programTexture, PROGRAM_TEXTURE_WIDTH, PROGRAM_TEXTURE_HEIGHT, data);
  }

  setInputs(inputs) {
    Object.assign(this.inputs, inputs);
    const { width, height } = inputs;
    if (width !== undefined && height !== undefined &&
        (width !== this.width || height !== this.height)) {
      this.resize(width, height);
    }
  }

  // source: {width, height, data: Float32Array RGBA, row 0 = the smallest v} or an image,
  // video or canvas element (drawn upright: its bottom row is v = 0); null for none.
  setTexture(name, source) {
    const gl = this.gl;
    const tex = this.textures[name];
    if (!tex) throw new Error(`PslRenderer: unknown texture '${name}'`);
    if (!source) {
      uploadFloat(gl, tex, 1, 1, new Float32Array(4));
    } else if (source.data !== undefined) {
      uploadFloat(gl, tex, source.width, source.height, source.data);
    } else {
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, source);
      gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    }
  }

  setMode(mode) {
    if (mode !== 'color' && mode !== 'cost') {
      throw new Error(`PslRenderer: mode must be 'color' or 'cost', not '${mode}'`);
    }
    this.mode = mode;
  }

  resize(width, height) {
    const gl = this.gl;
    for (const t of this.targets) {
      gl.deleteFramebuffer(t.fbo);
      gl.deleteTexture(t.tex);
    }
    this.width = width;
    this.height = height;
    const floatTexture = () => {
      const tex = newTexture(gl);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, null);
      return tex;
    };
    // targets[0], [1]: the colour ping-pong; targets[2]: the cost frame, attached to both
    // colour framebuffers as output 1 of vm.frag.
    const cost = floatTexture();
    this.targets = [0, 1, 2].map((k) => {
      const tex = k === 2 ? cost : floatTexture();
      const fbo = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
      if (k < 2) {
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, cost, 0);
      }
      const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
      if (status !== gl.FRAMEBUFFER_COMPLETE) {
        throw new Error(`PslRenderer: RGBA32F render target incomplete (0x${status.toString(16)})`);
      }
      return { tex, fbo };
    });
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    // targets[current] holds the last colour frame (self() of the next one).
    this.current = 0;
    this.lastTarget = 0;
    this.reset();
  }

  reset() {
    const gl = this.gl;
    for (const t of this.targets) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
      gl.clearBufferfv(gl.COLOR, 0, [0, 0, 0, 0]);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  _pass(target, withCost) {
    const gl = this.gl;
    const { program, uniforms: u } = this.vm;
    const inp = this.inputs;
    const t = inp.time;
    const dt = inp.deltaTime;
    const inv = dt !== 0 ? 1 / dt : Infinity;
    gl.useProgram(program);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.targets[target].fbo);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0, withCost ? gl.COLOR_ATTACHMENT1 : gl.NONE]);
    gl.viewport(0, 0, this.width, this.height);
    const units = [
      ['u_program', this.programTexture],
      ['u_self', this.targets[this.current].tex],
      ['u_camera', this.textures.camera],
      ['u_video', this.textures.video],
      ['u_audiolink', this.textures.audiolink],
    ];
    units.forEach(([name, tex], unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      if (u[name]) gl.uniform1i(u[name], unit);
    });
    // JS numbers are doubles: (t/20, t, 2t, 3t) is computed in float64 and rounded to
    // float32 by the upload, as the reference VM does.
    if (u.u_time) gl.uniform4f(u.u_time, t / 20, t, 2 * t, 3 * t);
    if (u.u_deltatime) gl.uniform4f(u.u_deltatime, dt, inv, dt, inv);
    if (u.u_button) gl.uniform4fv(u.u_button, inp.button);
    if (u.u_axis) gl.uniform4fv(u.u_axis, inp.axis);
    if (u.u_resolution) gl.uniform2f(u.u_resolution, this.width, this.height);
    if (u.u_is_avpro) gl.uniform1i(u.u_is_avpro, inp.isAvpro ? 1 : 0);
    if (u.u_sentinel) gl.uniform1ui(u.u_sentinel, 0);
    if (u.u_mode) gl.uniform1i(u.u_mode, MODE_COLOR);
    if (u[SLIDER_UNIFORM]) {
      gl.uniform1fv(u[SLIDER_UNIFORM],
                    sliderArray(inp.sliders, this.vm.sizes[SLIDER_UNIFORM] || 1));
    }
    for (const [k, name] of Object.entries(this.sliderUniforms)) {
      if (u[name]) gl.uniform1f(u[name], sliderArray(inp.sliders, Number(k) + 1)[Number(k)]);
    }
    gl.bindVertexArray(this.vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  renderFrame() {
    const next = 1 - this.current;
    // In 'cost' mode the same pass also writes the cost frame (vm.frag's output 1).
    this._pass(next, this.mode === 'cost');
    this.lastTarget = this.mode === 'cost' ? 2 : next;
    this.current = next;
  }

  // The last frame as float32 RGBA, row 0 = the bottom row (v smallest), as the reference
  // VM's arrays: the colour frame, or in 'cost' mode the cost frame (per pixel: executed
  // instructions, taken jumps, 1 if the jump limit was hit, 1). `which` ('color' or 'cost')
  // picks one explicitly.
  readPixels(which) {
    const gl = this.gl;
    const target = which === 'color' ? this.current : which === 'cost' ? 2 : this.lastTarget;
    const out = new Float32Array(this.width * this.height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.targets[target].fbo);
    gl.readPixels(0, 0, this.width, this.height, gl.RGBA, gl.FLOAT, out);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return out;
  }

  // The texture of the last colour frame (what the 3D view displaces and shows).
  get frameTexture() {
    return this.targets[this.current].tex;
  }

  // costScale: log2(1 + executed instructions) that maps to the top of the heat map.
  present(costScale = 16) {
    const gl = this.gl;
    const { program, uniforms: u } = this.presenter;
    gl.useProgram(program);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.targets[this.lastTarget].tex);
    gl.uniform1i(u.u_frame, 0);
    gl.uniform1i(u.u_cost, this.lastTarget === 2 ? 1 : 0);
    gl.uniform1f(u.u_cost_scale, costScale);
    gl.uniform2f(u.u_canvas, this.canvas.width, this.canvas.height);
    gl.bindVertexArray(this.vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
  }
}
