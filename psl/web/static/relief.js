// The playground's 3D view: the VM's frame on a grid displaced by its alpha, as the world's
// relief screen shows it (Screen.shader's height mode on the package's grid meshes). The
// grid sizes, the height scale, the camera and the light come from psl serve
// (/api/reference.json "relief", read from psl.registry.RELIEF and psl.vm.relief), so this
// view, `psl run --relief` and the world agree. docs/playground.md, docs/world-setup.md.
//
// One pass draws the grid into an RGBA32F target with a depth buffer: rgb = the colour,
// a = the camera depth (what the tests read back); a second pass shows rgb on the canvas.

import { DEFAULT_VERTEX, link } from './render.js';

const RELIEF_VERTEX = `#version 300 es
precision highp float;
precision highp int;
in vec2 a_uv;
uniform highp sampler2D u_frame;
uniform float u_height_scale;
uniform float u_max_displacement;  // Screen.shader's clamp (RELIEF.max_displacement)
uniform vec3 u_eye;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_forward;
uniform float u_focal;   // 1 / tan(fov / 2)
uniform float u_aspect;  // canvas width / height
out vec2 v_uv;
out float v_depth;
const float NEAR = 0.02;
const float FAR = 50.0;
__SAMPLING__
void main() {
    // as Screen.shader: the vertex moves along the grid's normal (0, 0, -1) by alpha * scale
    float h = frameAt(a_uv).a;
    float d = isnan(h) ? 0.0 : clamp(h * u_height_scale, -u_max_displacement, u_max_displacement);
    vec3 p = vec3(a_uv - 0.5, -d);
    vec3 rel = p - u_eye;
    float xc = dot(rel, u_right);
    float yc = dot(rel, u_up);
    float zc = dot(rel, u_forward);
    gl_Position = vec4(xc * u_focal / u_aspect, yc * u_focal,
                       (zc * (FAR + NEAR) - 2.0 * FAR * NEAR) / (FAR - NEAR), zc);
    v_uv = a_uv;
    v_depth = zc;
}
`;

const RELIEF_FRAGMENT = `#version 300 es
precision highp float;
precision highp int;
in vec2 v_uv;
in float v_depth;
uniform highp sampler2D u_frame;
uniform float u_height_scale;
uniform int u_shaded;
uniform vec3 u_light;    // towards the light, normalised
uniform float u_ambient;
out vec4 color;
__SAMPLING__
void main() {
    vec3 c = clamp(frameAt(v_uv).rgb, 0.0, 1.0);
    if (u_shaded == 1) {
        // Screen.shader's Shaded: central differences of the height over one texel
        vec2 t = 1.0 / vec2(textureSize(u_frame, 0));
        float dhdu = (frameAt(v_uv + vec2(t.x, 0.0)).a - frameAt(v_uv - vec2(t.x, 0.0)).a) / (2.0 * t.x);
        float dhdv = (frameAt(v_uv + vec2(0.0, t.y)).a - frameAt(v_uv - vec2(0.0, t.y)).a) / (2.0 * t.y);
        vec3 n = normalize(vec3(-u_height_scale * dhdu, -u_height_scale * dhdv, -1.0));
        c *= u_ambient + (1.0 - u_ambient) * abs(dot(n, u_light));
    }
    color = vec4(c, v_depth);
}
`;

// The frame as the world's render texture is read: bilinear, clamped, texel centres at
// (i + 0.5) / size (texelFetch: float textures need no linear-filtering extension). NaN
// reads as 0 and infinities as +-1e4, as psl.vm.relief does.
const SAMPLING = `
vec4 texelAt(ivec2 at) {
    ivec2 size = textureSize(u_frame, 0);
    vec4 c = texelFetch(u_frame, clamp(at, ivec2(0), size - 1), 0);
    return clamp(mix(c, vec4(0.0), isnan(c)), vec4(-1e4), vec4(1e4));
}
vec4 frameAt(vec2 uv) {
    vec2 size = vec2(textureSize(u_frame, 0));
    vec2 p = clamp(uv * size - 0.5, vec2(-1.0), size);
    vec2 f = floor(p);
    vec2 t = p - f;
    ivec2 i = ivec2(f);
    vec4 bottom = mix(texelAt(i), texelAt(i + ivec2(1, 0)), t.x);
    vec4 top = mix(texelAt(i + ivec2(0, 1)), texelAt(i + ivec2(1, 1)), t.x);
    return mix(bottom, top, t.y);
}
`;

const PRESENT_FRAGMENT = `#version 300 es
precision highp float;
uniform highp sampler2D u_image;
out vec4 color;
void main() {
    color = vec4(clamp(texelFetch(u_image, ivec2(gl_FragCoord.xy), 0).rgb, 0.0, 1.0), 1.0);
}
`;

// camera depth written where no grid is drawn
export const NO_DEPTH = 1e30;

const withSampling = (src) => src.replace("__SAMPLING__", SAMPLING);

// The orbit camera of psl.vm.relief.View: (eye, right, up, forward) in grid coordinates.
export function cameraBasis(view) {
  const rad = Math.PI / 180;
  const yaw = view.yaw * rad, pitch = view.pitch * rad;
  const eye = [Math.sin(yaw) * Math.cos(pitch) * view.distance, Math.sin(pitch) * view.distance,
               -Math.cos(yaw) * Math.cos(pitch) * view.distance];
  const norm = (v) => { const l = Math.hypot(...v); return v.map((x) => x / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                           a[0] * b[1] - a[1] * b[0]];
  const forward = norm(eye.map((x) => -x));
  const right = norm(cross([0, 1, 0], forward));
  const up = cross(forward, right);
  return { eye, right, up, forward };
}

export class ReliefView {
  // settings: /api/reference.json's "relief": {resolutions, height_scale, view, light,
  // ambient, background}
  constructor(gl, settings) {
    this.gl = gl;
    this.settings = settings;
    this.side = settings.resolutions[0];
    this.heightScale = settings.height_scale;
    this.shaded = false;
    this.view = { ...settings.view };
    this.relief = link(gl, withSampling(RELIEF_VERTEX), withSampling(RELIEF_FRAGMENT), 'ReliefView');
    this.presenter = link(gl, DEFAULT_VERTEX, PRESENT_FRAGMENT, 'ReliefView');
    this.grids = {};
    this.target = null;
    this.emptyVao = gl.createVertexArray();
  }

  resetView() { this.view = { ...this.settings.view }; }

  // One grid per size: side x side vertices at uv (i, j) / (side - 1), index j*side + i, and
  // the triangles of psl.gen.unity.mesh (32-bit indices: WebGL2 has them).
  _grid(side) {
    if (this.grids[side]) return this.grids[side];
    const gl = this.gl;
    const uv = new Float32Array(side * side * 2);
    for (let j = 0; j < side; j++) {
      for (let i = 0; i < side; i++) {
        uv[2 * (j * side + i)] = i / (side - 1);
        uv[2 * (j * side + i) + 1] = j / (side - 1);
      }
    }
    const index = new Uint32Array((side - 1) * (side - 1) * 6);
    let k = 0;
    for (let j = 0; j < side - 1; j++) {
      for (let i = 0; i < side - 1; i++) {
        const a = j * side + i, b = a + 1, c = a + side, d = a + side + 1;
        index.set([a, d, b, d, a, c], k);
        k += 6;
      }
    }
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const vbo = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
    gl.bufferData(gl.ARRAY_BUFFER, uv, gl.STATIC_DRAW);
    const loc = gl.getAttribLocation(this.relief.program, "a_uv");
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
    const ibo = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, index, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    this.grids[side] = { vao, count: index.length };
    return this.grids[side];
  }

  _target(width, height) {
    const gl = this.gl;
    if (this.target && this.target.width === width && this.target.height === height) {
      return this.target;
    }
    if (this.target) {
      gl.deleteFramebuffer(this.target.fbo);
      gl.deleteTexture(this.target.tex);
      gl.deleteRenderbuffer(this.target.depth);
    }
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, null);
    const depth = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT32F, width, height);
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    if (status !== gl.FRAMEBUFFER_COMPLETE) {
      throw new Error(`ReliefView: render target incomplete (0x${status.toString(16)})`);
    }
    this.target = { tex, fbo, depth, width, height };
    return this.target;
  }

  // Draws `frame` (the VM's RGBA32F frame texture) as the relief into the canvas.
  draw(frame, canvas) {
    const gl = this.gl;
    const { width, height } = canvas;
    const target = this._target(width, height);
    const grid = this._grid(this.side);
    const { program, uniforms: u } = this.relief;
    const cam = cameraBasis(this.view);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.fbo);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    gl.viewport(0, 0, width, height);
    gl.clearBufferfv(gl.COLOR, 0, [...this.settings.background, NO_DEPTH]);
    gl.clearBufferfv(gl.DEPTH, 0, [1.0]);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    gl.disable(gl.CULL_FACE);
    gl.useProgram(program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, frame);
    gl.uniform1i(u.u_frame, 0);
    gl.uniform1f(u.u_height_scale, this.heightScale);
    gl.uniform1f(u.u_max_displacement, this.settings.max_displacement);
    gl.uniform3fv(u.u_eye, cam.eye);
    gl.uniform3fv(u.u_right, cam.right);
    gl.uniform3fv(u.u_up, cam.up);
    gl.uniform3fv(u.u_forward, cam.forward);
    gl.uniform1f(u.u_focal, 1 / Math.tan(this.view.fov * Math.PI / 360));
    gl.uniform1f(u.u_aspect, width / height);
    const l = this.settings.light;
    const ll = Math.hypot(...l);
    gl.uniform3f(u.u_light, l[0] / ll, l[1] / ll, l[2] / ll);
    gl.uniform1f(u.u_ambient, this.settings.ambient);
    gl.uniform1i(u.u_shaded, this.shaded ? 1 : 0);
    gl.bindVertexArray(grid.vao);
    gl.drawElements(gl.TRIANGLES, grid.count, gl.UNSIGNED_INT, 0);
    gl.bindVertexArray(null);
    gl.disable(gl.DEPTH_TEST);
    // show it
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.presenter.program);
    gl.bindTexture(gl.TEXTURE_2D, target.tex);
    gl.uniform1i(this.presenter.uniforms.u_image, 0);
    gl.bindVertexArray(this.emptyVao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
  }

  // The last draw as float32 RGBA per pixel, row 0 at the bottom: rgb the colour, a the
  // camera depth (NO_DEPTH where the grid is not).
  read() {
    const gl = this.gl;
    const t = this.target;
    if (!t) return new Float32Array(0);
    const out = new Float32Array(t.width * t.height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
    gl.readPixels(0, 0, t.width, t.height, gl.RGBA, gl.FLOAT, out);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return out;
  }

  // Mouse orbit: drag to turn (yaw, pitch), wheel to move nearer or farther, double-click
  // to reset. `onChange` redraws.
  attachOrbit(element, isOn, onChange) {
    let drag = null;
    element.addEventListener("pointerdown", (e) => {
      if (!isOn()) return;
      e.stopPropagation();  // not the program's button()/axis() while orbiting
      element.querySelector("canvas")?.focus();
      drag = { x: e.clientX, y: e.clientY, yaw: this.view.yaw, pitch: this.view.pitch };
      element.setPointerCapture?.(e.pointerId);
    }, true);
    element.addEventListener("pointermove", (e) => {
      if (!isOn()) return;
      e.stopPropagation();
      if (!drag) return;
      this.view.yaw = drag.yaw + (e.clientX - drag.x) * 0.4;
      this.view.pitch = Math.max(-89, Math.min(89, drag.pitch + (e.clientY - drag.y) * 0.4));
      onChange();
    }, true);
    element.addEventListener("pointerup", (e) => {
      if (!isOn()) return;
      e.stopPropagation();
      drag = null;
    }, true);
    element.addEventListener("wheel", (e) => {
      if (!isOn()) return;
      e.preventDefault();
      this.view.distance = Math.max(0.6, Math.min(8, this.view.distance * Math.exp(e.deltaY * 0.001)));
      onChange();
    }, { passive: false });
    element.addEventListener("dblclick", () => {
      if (!isOn()) return;
      this.resetView();
      onChange();
    });
  }
}
