// Inputs of the VM from the browser: keyboard and mouse for button()/axis(), image, video
// and webcam textures, and an AudioLink-like texture from WebAudio (docs/playground.md says
// what is approximated).

/** button() and axis() from keys and the mouse over the screen canvas. */
export class Controls {
  constructor(canvas) {
    this.keys = new Set();
    this.mouse = { buttons: 0, x: 0, y: 0 };
    const key = (down) => (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (down) this.keys.add(e.code); else this.keys.delete(e.code);
      if (CONTROL_CODES.has(e.code)) e.preventDefault();  // no page scrolling by arrows/space
    };
    canvas.addEventListener("keydown", key(true));
    canvas.addEventListener("keyup", key(false));
    canvas.addEventListener("blur", () => { this.keys.clear(); this.mouse.buttons = 0; });
    const pointer = (e) => {
      const r = canvas.getBoundingClientRect();
      this.mouse.x = ((e.clientX - r.left) / r.width) * 2 - 1;
      this.mouse.y = 1 - ((e.clientY - r.top) / r.height) * 2;  // up is +
      this.mouse.buttons = e.buttons;
    };
    canvas.addEventListener("pointerdown", (e) => { canvas.focus(); pointer(e); });
    canvas.addEventListener("pointermove", pointer);
    canvas.addEventListener("pointerup", pointer);
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  get button() {
    const k = (c) => (this.keys.has(c) ? 1 : 0);
    const m = this.mouse.buttons;
    return [Math.max(k("KeyJ"), m & 1), Math.max(k("Space"), k("KeyK")),
            Math.max(k("KeyL"), (m & 2) >> 1), k("KeyI")];
  }

  get axis() {
    const k = (c) => (this.keys.has(c) ? 1 : 0);
    let look = [k("ArrowRight") - k("ArrowLeft"), k("ArrowUp") - k("ArrowDown")];
    if (this.mouse.buttons) look = [this.mouse.x, this.mouse.y];
    return [k("KeyD") - k("KeyA"), k("KeyW") - k("KeyS"), ...look];
  }
}

const CONTROL_CODES = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space",
  "KeyW", "KeyA", "KeyS", "KeyD", "KeyJ", "KeyK", "KeyL", "KeyI"]);

/** A {width, height, data} texture from base64 float32 [row][column][RGBA]. */
export function textureFromBase64({ width, height, data }) {
  const bin = atob(data);
  const view = new DataView(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) view.setUint8(i, bin.charCodeAt(i));
  const out = new Float32Array(bin.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true);
  return { width, height, data: out };
}

/** An <img> or a playing, looping, muted <video> for a file the user picked. */
export async function mediaFromFile(file) {
  const url = URL.createObjectURL(file);
  if (file.type.startsWith("video/")) {
    const video = Object.assign(document.createElement("video"),
                                { src: url, loop: true, muted: true, playsInline: true });
    await video.play();
    return video;
  }
  const img = new Image();
  img.src = url;
  await img.decode();
  return img;
}

export async function webcam() {
  const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
  const video = Object.assign(document.createElement("video"),
                              { srcObject: stream, muted: true, playsInline: true });
  await video.play();
  return video;
}

// ---------------------------------------------------------------- AudioLink

const W = 128, H = 64;
const BANDS = [[20, 250], [250, 1000], [1000, 4000], [4000, 20000]];  // Hz, approximate
const DFT_BINS = 240, EXPBINS = 24, BOTTOM_HZ = 13.75;

/** A 128×64 float texture laid out like AudioLink's, from a WebAudio AnalyserNode. */
export class AudioLinkTexture {
  constructor(context, source) {
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 4096;
    this.analyser.smoothingTimeConstant = 0;
    source.connect(this.analyser);
    this.rate = context.sampleRate;
    this.spectrum = new Float32Array(this.analyser.frequencyBinCount);
    this.wave = new Float32Array(this.analyser.fftSize);
    this.data = new Float32Array(W * H * 4);
    this.dft = new Float32Array(DFT_BINS);
    this.filtered = new Float32Array(16 * 4);
    this.chrono = new Float64Array(8 * 4);
    this.smoothDft = new Float32Array(DFT_BINS);
  }

  set(x, y, r, g = r, b = r, a = 1) {
    const i = (y * W + x) * 4;
    this.data[i] = r; this.data[i + 1] = g; this.data[i + 2] = b; this.data[i + 3] = a;
  }

  /** Refresh the texture for a frame of `dt` seconds; returns {width, height, data}. */
  update(dt) {
    const a = this.analyser;
    a.getFloatFrequencyData(this.spectrum);
    a.getFloatTimeDomainData(this.wave);
    const hzPerBin = this.rate / a.fftSize;
    const amp = (hz) => {  // linear magnitude at hz, interpolated between FFT bins
      const k = hz / hzPerBin, i = Math.floor(k), f = k - i;
      const m = (j) => (j < this.spectrum.length ? 10 ** (this.spectrum[j] / 20) : 0);
      return m(i) * (1 - f) + m(i + 1) * f;
    };
    // ALPASS_DFT (0,4): 240 bins, 24 per octave from 13.75 Hz, 128 per row (rows 4-5)
    for (let b = 0; b < DFT_BINS; b++) {
      const v = Math.min(4, amp(BOTTOM_HZ * 2 ** (b / EXPBINS)) * 30);
      this.smoothDft[b] += (v - this.smoothDft[b]) * Math.min(1, dt * 10);
      this.dft[b] = v;
      this.set(b % W, 4 + Math.floor(b / W), v, this.smoothDft[b], v);
    }
    // ALPASS_AUDIOLINK (0,0): column 0 this frame's band levels, columns 1-127 history
    const levels = BANDS.map(([lo, hi]) => {
      let sum = 0, n = 0;
      for (let b = 0; b < DFT_BINS; b++) {
        const hz = BOTTOM_HZ * 2 ** (b / EXPBINS);
        if (hz >= lo && hz < hi) { sum += this.dft[b]; n++; }
      }
      return Math.min(1, n ? sum / n : 0);
    });
    for (let y = 0; y < 4; y++) {
      const row = y * W * 4;
      this.data.copyWithin(row + 4, row, row + (W - 1) * 4);
      this.set(0, y, levels[y]);
    }
    // ALPASS_WAVEFORM (0,6): 2048 samples over rows 6-21 (the most recent ones)
    const start = this.wave.length - 2048;
    for (let s = 0; s < 2048; s++) this.set(s % W, 6 + Math.floor(s / W), this.wave[start + s]);
    // ALPASS_GENERALVU (0,22): version texel left 0; (8,22) RMS and peak of the waveform
    let rms = 0, peak = 0;
    for (const x of this.wave) { rms += x * x; peak = Math.max(peak, Math.abs(x)); }
    rms = Math.sqrt(rms / this.wave.length);
    this.set(8, 22, rms, peak, rms);
    // ColorChord approximation: pitch-class energy -> hue and brightness
    const pc = new Float32Array(12);
    for (let b = 0; b < DFT_BINS; b++) pc[Math.round(b / 2) % 12] += this.dft[b];
    const total = pc.reduce((s, v) => s + v, 0) || 1;
    let x = 0;
    for (let n = 0; n < 12 && x < W; n++) {  // ALPASS_CCSTRIP (0,24): segments by share
      const [r, g, b] = hsv(n / 12, 1, Math.min(1, pc[n] / 4));
      const end = n === 11 ? W : x + Math.round((pc[n] / total) * W);
      for (; x < end && x < W; x++) this.set(x, 24, r, g, b);
    }
    for (let c = 0; c < W; c++) {  // ALPASS_CCLIGHTS (0,25): one light per pitch class
      const [r, g, b] = hsv((c % 12) / 12, 1, Math.min(1, pc[c % 12] / 4));
      this.set(c, 25, r, g, b);
    }
    // ALPASS_AUTOCORRELATOR (0,27): autocorrelation of the waveform at lags 0-127
    for (let lag = 0; lag < W; lag++) {
      let s = 0;
      for (let i = start; i + lag < this.wave.length; i++) s += this.wave[i] * this.wave[i + lag];
      this.set(lag, 27, s);
    }
    // ALPASS_FILTEREDAUDIOLINK (0,28): band levels, smoothed more with larger x (16 × 4)
    for (let y = 0; y < 4; y++) {
      for (let k = 0; k < 16; k++) {
        const i = y * 16 + k;
        this.filtered[i] += (levels[y] - this.filtered[i]) * Math.min(1, dt * 60 / (1 + k * k));
        this.set(k, 28 + y, this.filtered[i]);
      }
    }
    // ALPASS_CHRONOTENSITY (16,28): per band, times that run with the band's level (even
    // indices) or against it (odd), stored as AudioLink's packed uint in 1/100000 s units
    for (let y = 0; y < 4; y++) {
      for (let k = 0; k < 8; k++) {
        const i = y * 8 + k;
        const speed = k % 2 === 0 ? levels[y] * (1 + k) : (1 - levels[y]) * k;
        this.chrono[i] = (this.chrono[i] + dt * speed * 100000) % 2 ** 30;
        const t = Math.floor(this.chrono[i]);
        this.set(16 + k, 28 + y, t % 1024, Math.floor(t / 1024) % 1024,
                 Math.floor(t / 1048576) % 1024, 0);
      }
    }
    return { width: W, height: H, data: this.data };
  }
}

function hsv(h, s, v) {
  const f = (n) => {
    const k = (n + h * 6) % 6;
    return v - v * s * Math.max(0, Math.min(k, 4 - k, 1));
  };
  return [f(5), f(3), f(1)];
}

/** AudioLink from the microphone, or from an audio file (played through the speakers). */
export async function audioLinkFromMicrophone() {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
  const context = new AudioContext();
  return { context, texture: new AudioLinkTexture(context, context.createMediaStreamSource(stream)),
           stop: () => { stream.getTracks().forEach((t) => t.stop()); context.close(); } };
}

export async function audioLinkFromElement(audio) {
  const context = new AudioContext();
  const source = context.createMediaElementSource(audio);
  source.connect(context.destination);
  await audio.play();
  return { context, texture: new AudioLinkTexture(context, source),
           stop: () => { audio.pause(); context.close(); } };
}
