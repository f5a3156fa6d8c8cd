// Share links: the program in the URL fragment, deflate-raw compressed and base64url
// encoded, so nothing about it is sent to any server; then the slider values, if any:
//   #p=PROGRAM&s=V0,V1,...   (Vk: slider k's value as a decimal, empty for none)
const PREFIX = "#p=";
const SLIDERS = "&s=";
// A link's slider part is untrusted: at most this many values of at most NUMBER_CHARS
// characters each are read; anything else in it is ignored, never an error.
const MAX_SLIDER_FIELDS = 64;
const NUMBER_CHARS = 32;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function toBase64Url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The link: `source`, and `sliders` (value by slider index; a sparse array, or none). */
export async function shareUrl(source, base = location.href, sliders = []) {
  const packed = await pipe(new TextEncoder().encode(source), new CompressionStream("deflate-raw"));
  const url = new URL(base);
  url.search = "";
  url.hash = "";
  return url.toString() + PREFIX + toBase64Url(packed) + sliderPart(sliders);
}

function sliderPart(sliders) {
  const fields = [];
  for (let k = 0; k < Math.min(sliders.length, MAX_SLIDER_FIELDS); k++) {
    const v = sliders[k];
    fields.push(typeof v === "number" && Number.isFinite(v) ? shortest(v) : "");
  }
  while (fields.length && fields[fields.length - 1] === "") fields.pop();
  return fields.length ? SLIDERS + fields.join(",") : "";
}

// The shortest decimal that gives the float32 v back (9 significant digits always do).
function shortest(v) {
  for (let p = 1; p < 9; p++) {
    const t = Number(v.toPrecision(p));
    if (Math.fround(t) === v) return String(t);
  }
  return String(Number(v.toPrecision(9)));
}

/** The slider values of a share link's fragment: a sparse array by slider index (holes
 *  where the link gives none). Never throws: a value that is not a plain finite decimal
 *  is skipped; the page clamps the rest into their sliders' ranges. */
export function sharedSliders(hash = location.hash) {
  const out = [];
  if (typeof hash !== "string" || !hash.startsWith(PREFIX)) return out;
  const at = hash.indexOf(SLIDERS);
  if (at < 0) return out;
  const end = hash.indexOf("&", at + SLIDERS.length);
  const part = hash.slice(at + SLIDERS.length, end < 0 ? undefined : end);
  const fields = part.slice(0, MAX_SLIDER_FIELDS * (NUMBER_CHARS + 1)).split(",");
  fields.slice(0, MAX_SLIDER_FIELDS).forEach((field, k) => {
    let text = field;
    try { text = decodeURIComponent(field); } catch { return; }
    if (text.length > NUMBER_CHARS || !NUMBER.test(text)) return;
    const v = Number(text);
    if (Number.isFinite(v)) out[k] = v;
  });
  return out;
}

/** Inflates at most `maxBytes` bytes: a small link may expand to gigabytes (a "zip bomb"),
 *  so the stream is read piece by piece and dropped as soon as it passes the bound. */
async function inflateBounded(bytes, maxBytes) {
  const reader = new Blob([bytes]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** The program of a share link's fragment, or null; throws on a damaged link and on one
 *  whose program is longer than the world's text limit (`maxChars`, UTF-16 units). */
export async function sharedProgram(hash = location.hash, maxChars = 16000) {
  if (!hash.startsWith(PREFIX)) return null;
  const packed = hash.slice(PREFIX.length).split("&", 1)[0];  // the program, before &s=
  // deflate never shrinks text below about a thousandth; base64 adds a third
  const tooLong = () => new Error(`its program is longer than the world's ${maxChars} characters`);
  if (packed.length > maxChars * 4 + 64) throw tooLong();
  const bytes = await inflateBounded(fromBase64Url(packed), maxChars * 3);  // UTF-8: <= 3 a unit
  if (bytes === null) throw tooLong();
  const text = new TextDecoder().decode(bytes);
  if (text.length > maxChars) throw tooLong();
  return text;
}
