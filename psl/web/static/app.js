// The psl playground page: editor + diagnostics (editor.js), the WebGL VM (render.js),
// inputs and media (media.js), share links (share.js), and the server's JSON API
// (psl/serve/app.py). `?test=1` is the deterministic mode of SPEC §9 for the tests.
import { PslRenderer } from "./render.js";
import { ReliefView } from "./relief.js";
import { createEditor, getText, setText, showDiagnostics } from "./editor.js";
import {
  Controls, textureFromBase64, mediaFromFile, webcam, audioLinkFromMicrophone,
  audioLinkFromElement,
} from "./media.js";
import { shareUrl, sharedProgram, sharedSliders } from "./share.js";
import { checkUrl, fileName, programChecks, programFile } from "./vrchat.js";

const PARAMS = new URLSearchParams(location.search);
const TEST = PARAMS.get("test") === "1";
const SIZES = [64, 128, 256, 512];
// ?res=N picks the resolution, ?paused=1 starts paused (slow GPUs, screenshots)
const START_SIZE = SIZES.includes(Number(PARAMS.get("res"))) ? Number(PARAMS.get("res")) : 256;
const COMPILE_DELAY_MS = 250;
// the 3D view's canvas (4:3; the flat view uses the VM's own resolution)
const VIEW3D_SIZE = [640, 480];
const $ = (id) => document.getElementById(id);

const state = {
  file: null,          // the program file's name, or null (default program, no saving)
  version: null,       // the file version the editor's text was based on
  diskText: null,      // the text of that version
  loadedText: null,    // the text last loaded or saved: the editor is edited when it differs
  compileSeq: 0,       // newest compile request; older replies are dropped
  goodSeq: 0,          // the request whose program is running
  diagnostics: [],
  vrchat: null,        // /api/vrchat.json: the world's source limit and trusted hosts
  playing: !TEST && PARAMS.get("paused") !== "1",
  time: 0,
  frames: 0,
  size: TEST ? 64 : START_SIZE,
  recording: null,     // {recorder, left} while recording WebM
  sources: { camera: null, video: null, audio: null },
  reference: null,     // SPEC §9 settings from /api/reference.json
  native: PARAMS.get("native") === "1",  // run the exported GLSL instead of the VM
  nativeFragment: null,  // the exported shader the native renderer runs
  view3d: PARAMS.get("view") === "3d",  // the frame as the world's relief screen
  // Sliders (docs/spec.md §8.8): the running program's table as the server read it
  // ([{index, name, low, high, default, line}]), and the values slider(k) reads (sparse,
  // by index; an index no line names reads 0).
  sliders: [],
  sliderKey: null,      // the table as text: a changed table resets the values
  sliderValues: [],
  pendingSliders: null, // a share link's values, for the next program's table
};
// `renderer` is the one drawing: the VM's, or the native one (psl export's GLSL for the
// current program, made anew when that text changes).
let editor, renderer, vmRenderer, nativeRenderer, controls, vertexSource, relief;

// A share link's outcome stays on screen until dismissed (the status line is the compiler's)
function shareNote(text) {
  $("share-note-message").textContent = text;
  $("share-note").hidden = false;
}

function status(text, kind = "") {
  const el = $("status");
  el.textContent = text;
  el.className = kind;
}

async function getJson(url, init) {
  const resp = await fetch(url, init);
  const body = await resp.json().catch(() => ({ error: `${resp.status} ${resp.statusText}` }));
  return { ok: resp.ok, status: resp.status, body };
}

const postJson = (url, doc) => getJson(url, {
  method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(doc),
});

function decodeSlots(b64) {
  // Little-endian float32 bytes as `psl compile --format texture` writes them (the rows
  // the program uses), copied byte by byte.
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    for (let i = 0; i < bytes.length; i += 4) bytes.subarray(i, i + 4).reverse();
  }
  return new Float32Array(bytes.buffer);
}

// ------------------------------------------------------------------ compiling

let compileTimer = 0;
function scheduleCompile() {
  clearTimeout(compileTimer);
  compileTimer = setTimeout(compileNow, COMPILE_DELAY_MS);
  updateSaveButton();
}

async function compileNow() {
  clearTimeout(compileTimer);
  const seq = ++state.compileSeq;
  const source = getText(editor);
  let reply;
  try {
    reply = await postJson("/api/compile", { source, native: state.native });
  } catch (err) {
    status(`cannot reach psl serve: ${err.message}`, "error");
    return;
  }
  if (seq !== state.compileSeq || source !== getText(editor)) return;  // stale
  if (!reply.ok) { status(reply.body.error || "compile request failed", "error"); return; }
  const r = reply.body;
  state.diagnostics = r.diagnostics;
  showDiagnostics(editor, r.diagnostics, $("diagnostics"));
  if (r.ok) {
    vmRenderer?.setProgram(decodeSlots(r.texture));
    state.goodSeq = seq;
    setSliderTable(r.sliders || []);
    const counts = {};
    for (const d of r.diagnostics) counts[d.severity] = (counts[d.severity] || 0) + 1;
    const extra = Object.entries(counts).map(([sev, n]) => `${n} ${sev}${n > 1 ? "s" : ""}`);
    const native = useNative(r.native);
    status([`ok: ${r.instructions} instructions`, ...extra, native].filter(Boolean).join(", "),
           "ok");
    if (TEST) renderReference();
    else if (!state.playing) renderOnce(0);
  } else {
    const first = r.diagnostics.find((d) => d.severity === "error");
    status(`${first.line}:${first.column}: ${first.message} (the last good program keeps ` +
           "running)", "error");
  }
  document.body.dataset.compiled = String(seq);
}

// ------------------------------------------------------------------ native mode

// The renderer for this compile: the native one when asked for and the program exports,
// else the VM's. Returns the status line's word on it.
function useNative(reply) {
  if (!vmRenderer) return "";
  if (!state.native || !reply) {
    renderer = vmRenderer;
    return state.native ? "native: no program" : "";
  }
  if (reply.error) {
    renderer = vmRenderer;
    return `native: ${reply.error} (running the VM)`;
  }
  if (reply.fragment !== state.nativeFragment) {
    const canvas = $("screen");
    let made;
    try {
      made = new PslRenderer(canvas, reply.fragment, vertexSource);
    } catch (err) {
      renderer = vmRenderer;
      return `native: ${err.message} (running the VM)`;
    }
    nativeRenderer?.dispose();
    nativeRenderer = made;
    nativeRenderer.sliderUniforms = reply.sliders || {};
    state.nativeFragment = reply.fragment;
    for (const name of ["camera", "video"]) nativeRenderer.setTexture(name, state.sources[name]);
    nativeRenderer.resize(vmRenderer.width, vmRenderer.height);
  }
  renderer = nativeRenderer;
  return "native";
}

function setNative(on) {
  state.native = on;
  $("cost").disabled = on;  // the exported shader counts no instructions
  if (on && $("cost").checked) { $("cost").checked = false; setCostMode(false); }
  if (!on) renderer = vmRenderer;
  compileNow();
}

// ------------------------------------------------------------------ rendering

function inputs(dt) {
  if (TEST) {
    const ref = state.reference;
    return { time: state.time, deltaTime: 1 / ref.fps, button: ref.button, axis: ref.axis,
             width: ref.width, height: ref.height, isAvpro: false,
             sliders: state.sliderValues };
  }
  return { time: state.time, deltaTime: dt, button: controls.button, axis: controls.axis,
           width: state.size, height: state.size, isAvpro: false,
           sliders: state.sliderValues };
}

function refreshTextures(dt) {
  for (const name of ["camera", "video"]) {
    const src = state.sources[name];
    if (src instanceof HTMLVideoElement) renderer.setTexture(name, src);  // a new video frame
  }
  const audio = state.sources.audio;
  if (audio) renderer.setTexture("audiolink", audio.texture.update(dt));
}

// Shows the last frame: flat, or on the relief grid in the 3D view.
function present() {
  if (!renderer) return;
  if (state.view3d && relief) relief.draw(renderer.frameTexture, $("screen"));
  else renderer.present();
}

function renderOnce(dt) {
  if (!renderer) return;
  refreshTextures(dt);
  renderer.setInputs(inputs(dt));
  renderer.renderFrame();
  present();
  state.frames++;
  $("clock").textContent = `t = ${state.time.toFixed(2)}`;
  if (state.recording && --state.recording.left <= 0) stopRecording();
}

let lastNow = null;
function loop(now) {
  requestAnimationFrame(loop);
  if (lastNow === null) lastNow = now;
  const dt = Math.min((now - lastNow) / 1000, 0.1);  // a hidden tab must not jump ahead
  lastNow = now;
  if (!state.playing || dt <= 0) return;
  state.time += dt;
  renderOnce(dt);
}

/** SPEC §9: frames k = 0.. at t = 1.25 + k/60 (8 for self() programs); the last frame's
 *  pixels as a plain array [y][x][rgba] flattened, y = 0 the bottom row. */
function renderReference() {
  const ref = state.reference;
  const frames = /self\(/i.test(getText(editor)) ? ref.self_frames : 1;
  renderer.reset();
  for (let k = 0; k < frames; k++) {
    state.time = ref.time + k / ref.fps;
    renderer.setInputs(inputs(1 / ref.fps));
    renderer.renderFrame();
  }
  present();
  $("clock").textContent = `t = ${state.time.toFixed(4)}`;
  return Array.from(renderer.readPixels("color"));
}

function setPlaying(on) {
  state.playing = on;
  $("play").textContent = on ? "Pause" : "Play";
}

function restart() {
  state.time = 0;
  for (const r of [vmRenderer, nativeRenderer]) r?.reset();
  renderOnce(1 / 60);
}

function canvasSize() {
  if (state.view3d) return VIEW3D_SIZE;
  const n = TEST && state.reference ? state.reference.width : state.size;
  return [n, n];  // PNG and WebM at the VM's own resolution
}

function fitCanvas() {
  const canvas = $("screen");
  [canvas.width, canvas.height] = canvasSize();
}

// opts: {grid, heightScale, shaded, view: {yaw, pitch, distance, fov}} (any of them)
function setView3d(on, opts = {}) {
  if (!relief) return;
  state.view3d = on;
  if (opts.grid !== undefined) relief.side = Number(opts.grid);
  if (opts.heightScale !== undefined) relief.heightScale = Number(opts.heightScale);
  if (opts.shaded !== undefined) relief.shaded = Boolean(opts.shaded);
  if (opts.view !== undefined) Object.assign(relief.view, opts.view);
  $("view3d").checked = on;
  $("relief-grid").value = String(relief.side);
  $("height-scale").value = String(relief.heightScale);
  $("shaded").checked = relief.shaded;
  document.body.classList.toggle("view3d", on);
  fitCanvas();
  present();
}

function setResolution(n) {
  state.size = n;
  fitCanvas();
  for (const r of [vmRenderer, nativeRenderer]) r?.resize(n, n);
  if (!state.playing) renderOnce(0);
}

function setCostMode(on) {
  renderer?.setMode(on ? "cost" : "color");
  $("cost-legend").hidden = !on;
  if (!state.playing) renderOnce(0);  // re-render so the paused frame shows the overlay
}

// ------------------------------------------------------------------ sliders

// A value as the page shows it: at most 4 decimals and 7 significant digits (the values
// are float32; slider lines write at most 4 decimals).
const showNumber = (v) => String(Number(Number(v.toFixed(4)).toPrecision(7)));

function clampSlider(s, v) {
  if (typeof v !== "number" || !Number.isFinite(v)) return s.default;
  return Math.fround(Math.min(Math.max(v, s.low), s.high));
}

// The table of a program that compiled. The same table (a recompile, an edit elsewhere)
// keeps the player's values; another one (a new program, a changed slider line) starts
// every slider at its default, or at a share link's value.
function setSliderTable(table) {
  const key = JSON.stringify(table.map((s) => [s.index, s.name, s.low, s.high, s.default]));
  if (key === state.sliderKey) return;
  const given = state.pendingSliders || [];
  state.pendingSliders = null;
  state.sliderKey = key;
  state.sliders = table;
  state.sliderValues = [];
  for (const s of table) state.sliderValues[s.index] = clampSlider(s, given[s.index]);
  buildSliders();
}

function buildSliders() {
  const box = $("slider-list");
  box.replaceChildren(...state.sliders.map((s) => {
    const row = document.createElement("div");
    row.className = "slider";
    const label = Object.assign(document.createElement("label"),
                                { htmlFor: `slider-${s.index}`, textContent: s.name });
    label.title = `${s.name}: slider(${s.index}), default ${showNumber(s.default)}`;
    const input = Object.assign(document.createElement("input"), {
      type: "range", id: `slider-${s.index}`, min: String(s.low), max: String(s.high),
      step: "any",
    });
    input.dataset.index = String(s.index);
    const out = Object.assign(document.createElement("output"), { id: `slider-value-${s.index}` });
    out.htmlFor = input.id;
    const range = Object.assign(document.createElement("span"), {
      className: "dim", textContent: `${showNumber(s.low)}..${showNumber(s.high)}`,
    });
    input.addEventListener("input", () => setSlider(s.index, Number(input.value)));
    input.addEventListener("keydown", (e) => sliderKey(e, s));
    row.append(label, input, out, range);
    return row;
  }));
  $("sliders").hidden = state.sliders.length === 0;
  for (const s of state.sliders) showSlider(s);
}

function showSlider(s) {
  const v = state.sliderValues[s.index];
  const input = $(`slider-${s.index}`);
  if (!input) return;
  if (Number(input.value) !== v) input.value = String(v);
  input.setAttribute("aria-valuetext", showNumber(v));
  $(`slider-value-${s.index}`).value = showNumber(v);
}

// Keys move a slider in hundredths of its range (Page Up/Down: tenths; Home/End: the
// ends): a range input with step="any" (which keeps every default exact) has no key steps.
function sliderKey(e, s) {
  const span = s.high - s.low;
  const moves = { ArrowRight: span / 100, ArrowUp: span / 100, ArrowLeft: -span / 100,
                  ArrowDown: -span / 100, PageUp: span / 10, PageDown: -span / 10 };
  const v = state.sliderValues[s.index];
  let next;
  if (e.key in moves) next = v + moves[e.key];
  else if (e.key === "Home") next = s.low;
  else if (e.key === "End") next = s.high;
  else return;
  e.preventDefault();
  setSlider(s.index, next);
}

/** Sets slider `index` (clamped into its range; ignored when the table has no such
 *  slider) and shows the frame with it. */
function setSlider(index, value) {
  const s = state.sliders.find((t) => t.index === index);
  if (!s) return;
  state.sliderValues[index] = clampSlider(s, Number(value));
  showSlider(s);
  sliderMoved();
}

function setSliderValues(values) {
  for (const s of state.sliders) {
    if (values[s.index] !== undefined) state.sliderValues[s.index] = clampSlider(s, values[s.index]);
    showSlider(s);
  }
  sliderMoved();
}

function sliderDefaults() {
  for (const s of state.sliders) state.sliderValues[s.index] = s.default;
  setSliderValues([]);
}

function sliderMoved() {
  if (!renderer) return;
  if (TEST) renderReference();
  else if (!state.playing) renderOnce(0);  // the paused frame, with the new values
  if (!$("vrchat-view").hidden) showVRChatText();
}

// ------------------------------------------------------------------ examples

// The world's example programs (/api/examples): picking one loads it like a share link.
async function loadExamples() {
  const reply = await getJson("/api/examples");
  if (!reply.ok) return;
  const select = $("examples");
  for (const ex of reply.body.examples) {
    const label = ex.name + (ex.sliders ? ` (${ex.sliders} sliders)` : "");
    select.append(new Option(label, ex.name));
  }
}

async function loadExample(name) {
  const reply = await getJson(`/api/examples/${encodeURIComponent(name)}`);
  if (!reply.ok) { status(`example ${name}: ${reply.body.error}`, "error"); return false; }
  if (getText(editor) !== state.loadedText
      && !window.confirm("Replace the program in the editor with the example? " +
                         "Your edits are not saved.")) return false;
  state.sliderKey = null;  // a new program: its sliders start at their defaults
  setText(editor, reply.body.source);
  state.loadedText = reply.body.source;
  return true;
}

// ------------------------------------------------------------------ media

async function pickFile(accept) {
  const input = $("media-file");
  input.accept = accept;
  input.value = "";
  return new Promise((resolve) => {
    input.onchange = () => resolve(input.files[0] || null);
    input.click();
  });
}

function referenceTexture(name) {
  return state.reference ? textureFromBase64(state.reference[name]) : null;
}

async function chooseTexture(name, choice) {
  try {
    let src;
    if (choice === "reference") src = referenceTexture(name);
    else if (choice === "webcam") src = await webcam();
    else {
      const file = await pickFile("image/*,video/*");
      if (!file) return;
      src = await mediaFromFile(file);
    }
    const old = state.sources[name];
    if (old?.srcObject) old.srcObject.getTracks().forEach((t) => t.stop());
    state.sources[name] = src;
    for (const r of [vmRenderer, nativeRenderer]) r?.setTexture(name, src);
    if (!state.playing) renderOnce(0);
  } catch (err) {
    status(`${name}: ${err.message}`, "error");
  }
}

async function chooseAudio(choice) {
  state.sources.audio?.stop();
  state.sources.audio = null;
  for (const r of [vmRenderer, nativeRenderer]) r?.setTexture("audiolink", null);
  const player = $("audio-player");
  player.hidden = true;
  try {
    if (choice === "mic") state.sources.audio = await audioLinkFromMicrophone();
    else if (choice === "file") {
      const file = await pickFile("audio/*,video/*");
      if (!file) return;
      player.src = URL.createObjectURL(file);
      player.hidden = false;
      state.sources.audio = await audioLinkFromElement(player);
    }
  } catch (err) {
    status(`AudioLink: ${err.message}`, "error");
  }
}

// ------------------------------------------------------------------ screenshot, WebM

function download(blob, name) {
  const a = Object.assign(document.createElement("a"),
                          { href: URL.createObjectURL(blob), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

const baseName = () => (state.file || "psl").replace(/\.psl$/i, "");

function screenshot() {
  present();
  $("screen").toBlob((blob) => download(blob, `${baseName()}.png`), "image/png");
}

function startRecording() {
  if (state.recording) return;
  const frames = Math.max(1, Math.min(3600, Number($("record-frames").value) || 120));
  const stream = $("screen").captureStream(60);
  const type = ["video/webm;codecs=vp9", "video/webm"].find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  recorder.onstop = () => download(new Blob(chunks, { type: "video/webm" }), `${baseName()}.webm`);
  recorder.start();
  state.recording = { recorder, left: frames, wasPlaying: state.playing };
  $("record").textContent = `Recording ${frames} frames…`;
  $("record").disabled = true;
  setPlaying(true);
}

function stopRecording() {
  const rec = state.recording;
  state.recording = null;
  rec.recorder.stop();
  setPlaying(rec.wasPlaying);
  $("record").textContent = "Record WebM";
  $("record").disabled = false;
}

// ------------------------------------------------------------------ the file: save, sync

function dirty() { return state.file !== null && getText(editor) !== state.diskText; }

function updateSaveButton() {
  $("save").disabled = state.file === null;
  $("file-name").textContent = state.file ? state.file + (dirty() ? " •" : "") : "";
}

function showConflict(message) {
  $("conflict-message").textContent = message;
  $("conflict").hidden = false;
}

async function save(overwrite = false) {
  if (state.file === null) return;
  const source = getText(editor);
  const reply = await postJson("/api/save", { source, base_version: state.version, overwrite });
  if (reply.ok) {
    state.version = reply.body.version;
    state.diskText = source;
    state.loadedText = source;
    $("conflict").hidden = true;
    status(`saved ${state.file}`, "ok");
  } else if (reply.status === 409) {
    state.conflictDisk = { source: reply.body.disk_source, version: reply.body.version };
    showConflict(`${state.file} changed on disk since it was loaded here: not saved.`);
  } else {
    status(`save failed: ${reply.body.error}`, "error");
  }
  updateSaveButton();
}

function loadDisk(source, version) {
  state.version = version;
  state.diskText = source;
  state.loadedText = source;
  if (getText(editor) !== source) setText(editor, source);
  $("conflict").hidden = true;
  updateSaveButton();
  scheduleCompile();
}

function onFileChanged(msg) {
  if (msg.version === state.version) return;
  if (!dirty()) {
    loadDisk(msg.source, msg.version);  // nothing of the user's to lose
    status(`${state.file} changed on disk: reloaded`, "ok");
  } else {
    state.conflictDisk = { source: msg.source, version: msg.version };
    showConflict(`${state.file} changed on disk, and the editor has unsaved changes.`);
  }
}

function connectEvents() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/events`);
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "file") onFileChanged(msg);
  };
  ws.onopen = () => { document.body.dataset.events = "open"; };
  ws.onclose = () => {
    document.body.dataset.events = "closed";
    setTimeout(connectEvents, 2000);
  };
}

// ------------------------------------------------------------------ start

async function share() {
  const url = await shareUrl(getText(editor), location.href, state.sliderValues);
  $("share-url").value = url;
  $("share-box").hidden = false;
  $("share-url").select();
  navigator.clipboard?.writeText(url).catch(() => {});
  return url;
}

// The "for VRChat" view (vrchat.js): checks, the file, the steps, a URL check.
// The text handed to the world: the editor's, with each moved slider's line default set to
// its value (psl/serve/vrchat.py), so the world's sliders start where the page's are.
async function vrchatText() {
  const source = getText(editor);
  const values = {};
  for (const s of state.sliders) values[String(s.index)] = state.sliderValues[s.index];
  const reply = await postJson("/api/vrchat-text", { source, sliders: values });
  if (!reply.ok) return { text: programFile(source), sliders: [] };
  return { text: programFile(reply.body.text), sliders: reply.body.sliders };
}

let vrchatSeq = 0;
async function showVRChatText() {
  const seq = ++vrchatSeq;
  const info = state.vrchat;
  const world = await vrchatText();
  if (seq !== vrchatSeq) return;  // a newer one is on its way
  $("vrchat-checks").replaceChildren(...programChecks(world.text, state.diagnostics, info).map((c) => {
    const li = document.createElement("li");
    li.className = c.level;
    li.textContent = c.text;
    return li;
  }));
  const note = $("vrchat-sliders");
  note.hidden = world.sliders.length === 0;
  note.textContent = "The world's sliders start where yours are: " +
    world.sliders.map((s) => `${s.name} = ${showNumber(s.value)}`).join(", ") +
    (world.sliders.some((s) => s.changed)
      ? " (the text gives each moved slider's line its value as the default)." : ".");
  document.body.dataset.vrchat = String(seq);
}

function showVRChat() {
  const info = state.vrchat;
  if (!info) return;
  showVRChatText();
  $("vrchat-download").textContent = `Download ${fileName(state.file)}`;
  $("vrchat-hosts").textContent = info.trusted_display.join(", ");
  $("vrchat-slots").textContent = String(info.save_slots);
  $("vrchat-interval").textContent = String(info.download_interval_s);
  $("vrchat-view").hidden = false;
  checkVRChatUrl();
}

function checkVRChatUrl() {
  const out = $("vrchat-url-check");
  const r = checkUrl($("vrchat-url").value, state.vrchat);
  out.className = r.level;
  out.textContent = r.message + (r.suggestion ? " " : "");
  if (r.suggestion) {
    const code = document.createElement("code");
    code.textContent = r.suggestion;
    out.append(code);
  }
}

function wireControls() {
  $("vrchat").onclick = showVRChat;
  $("vrchat-close").onclick = () => { $("vrchat-view").hidden = true; };
  $("vrchat-url").oninput = checkVRChatUrl;
  $("vrchat-download").onclick = async () => download(
    new Blob([(await vrchatText()).text], { type: "text/plain;charset=utf-8" }),
    fileName(state.file));
  $("vrchat-copy").onclick = async () => navigator.clipboard?.writeText((await vrchatText()).text)
    .then(() => status("copied the program", "ok"), () => status("cannot copy here", "error"));
  $("slider-defaults").onclick = sliderDefaults;
  $("examples").onchange = async (e) => {
    const name = e.target.value;
    e.target.value = "";
    if (name) await loadExample(name);
  };
  $("play").onclick = () => setPlaying(!state.playing);
  $("step").onclick = () => { setPlaying(false); state.time += 1 / 60; renderOnce(1 / 60); };
  $("restart").onclick = restart;
  $("resolution").onchange = (e) => setResolution(Number(e.target.value));
  $("cost").onchange = (e) => setCostMode(e.target.checked);
  $("native").onchange = (e) => setNative(e.target.checked);
  $("view3d").onchange = (e) => setView3d(e.target.checked);
  $("relief-grid").onchange = (e) => setView3d(state.view3d, { grid: e.target.value });
  $("height-scale").onchange = (e) => {
    const v = Number(e.target.value);
    if (Number.isFinite(v)) setView3d(state.view3d, { heightScale: v });
  };
  $("shaded").onchange = (e) => setView3d(state.view3d, { shaded: e.target.checked });
  $("camera-source").onchange = (e) => chooseTexture("camera", e.target.value);
  $("video-source").onchange = (e) => chooseTexture("video", e.target.value);
  $("audio-source").onchange = (e) => chooseAudio(e.target.value);
  $("save").onclick = () => save(false);
  $("share").onclick = share;
  $("share-close").onclick = () => { $("share-box").hidden = true; };
  $("share-note-close").onclick = () => { $("share-note").hidden = true; };
  $("screenshot").onclick = screenshot;
  $("record").onclick = startRecording;
  $("conflict-overwrite").onclick = () => save(true);
  $("conflict-load").onclick = () => {
    const d = state.conflictDisk;
    if (d) loadDisk(d.source, d.version);
  };
  $("conflict-dismiss").onclick = () => { $("conflict").hidden = true; };
  $("screen").addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.code === "KeyP") setPlaying(!state.playing);
    else if (e.code === "Period") $("step").click();
    else if (e.code === "KeyR") restart();
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(false); }
  });
  window.addEventListener("hashchange", async () => {
    let shared;
    try {
      shared = await sharedProgram(location.hash, state.vrchat.source_limit);
    } catch (err) {
      shareNote(`this share link is not loaded: ${err.message}`);
      return;
    }
    if (shared === null) return;
    const values = sharedSliders(location.hash);
    if (shared === getText(editor)) { setSliderValues(values); return; }
    // a new link never replaces edits without asking
    if (getText(editor) !== state.loadedText
        && !window.confirm("Replace the program in the editor with the shared one? " +
                           "Your edits are not saved.")) {
      shareNote("the shared program was not loaded: the editor keeps your edits");
      return;
    }
    state.pendingSliders = values;
    state.sliderKey = null;  // the link's values, even when the table is the same
    setText(editor, shared);
    state.loadedText = shared;
  });
  window.addEventListener("beforeunload", (e) => { if (dirty()) e.preventDefault(); });
}

async function start() {
  const [lang, program, reference, vrchat] = await Promise.all([
    getJson("/api/language.json"), getJson("/api/program"), getJson("/api/reference.json"),
    getJson("/api/vrchat.json")]);
  state.reference = reference.body;
  state.vrchat = vrchat.body;
  state.file = program.body.file;
  state.version = program.body.version;
  state.diskText = program.body.source;
  let text = program.body.source;
  let shareError = null;
  try {
    const shared = await sharedProgram(location.hash, state.vrchat.source_limit);
    if (shared !== null) {
      text = shared;
      state.pendingSliders = sharedSliders(location.hash);
    }
  } catch (err) {
    shareError = `this share link is not loaded: ${err.message}`;
  }
  state.loadedText = text;
  editor = createEditor($("editor"), lang.body, text,
                        { onChange: scheduleCompile, onSave: () => save(false) });
  updateSaveButton();
  if (shareError !== null) shareNote(shareError);

  const canvas = $("screen");
  canvas.width = canvas.height = state.size;
  $("resolution").value = String(state.size);
  controls = new Controls(canvas);
  try {
    const [frag, vert] = await Promise.all(["vm.frag", "vm.vert"].map(async (name) => {
      const resp = await fetch(`/api/shader/${name}`);
      if (!resp.ok) throw new Error((await resp.json()).error);
      return resp.text();
    }));
    vertexSource = vert;
    vmRenderer = renderer = new PslRenderer(canvas, frag, vert);
    renderer.setTexture("camera", referenceTexture("camera"));
    renderer.setTexture("video", referenceTexture("video"));
    state.sources.camera = referenceTexture("camera");
    state.sources.video = referenceTexture("video");
    relief = new ReliefView(vmRenderer.gl, state.reference.relief);
    for (const side of state.reference.relief.resolutions) {
      $("relief-grid").append(new Option(String(side), String(side)));
    }
    relief.attachOrbit($("screen-wrap"), () => state.view3d, () => present());
  } catch (err) {
    $("shader-error").textContent = `The WebGL VM cannot run here:\n${err.message}`;
    $("shader-error").hidden = false;
  }
  wireControls();
  loadExamples().catch(() => {});
  $("native").checked = state.native;
  $("cost").disabled = state.native;
  if (relief) setView3d(state.view3d);
  else $("relief-controls").hidden = true;
  setPlaying(state.playing);
  if (state.file !== null) connectEvents();
  await compileNow();
  if (!TEST) requestAnimationFrame(loop);
}

// Hooks for the browser tests (tests/test_serve_browser.py) and for scripting the page.
window.psl = {
  test: TEST,
  state,
  get source() { return getText(editor); },
  setSource: (text) => setText(editor, text),
  compileNow,
  renderReference,
  setNative,
  get native() { return renderer !== undefined && renderer === nativeRenderer; },
  share,
  showVRChat,
  save,
  readPixels: (which) => Array.from(renderer.readPixels(which)),
  get sliders() { return state.sliders; },
  get sliderValues() { return Array.from(state.sliderValues, (v) => (v === undefined ? null : v)); },
  setSlider,
  // values by slider index (holes keep theirs), clamped; one frame for them all
  setSliders: (values) => setSliderValues(values),
  loadExample,
  vrchatText,
  setView3d,
  // the 3D view's last draw: [y][x][r, g, b, camera depth], y = 0 the bottom row
  readRelief: () => Array.from(relief.read()),
  get relief() { return relief; },
  hasRenderer: () => renderer !== undefined,
};
window.psl.ready = start().then(() => { document.body.dataset.ready = "1"; },
                                (err) => { status(`failed to start: ${err.message}`, "error"); throw err; });
