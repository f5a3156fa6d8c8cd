// Share links: the program in the URL fragment, deflate-raw compressed and base64url
// encoded, so nothing about it is sent to any server.
const PREFIX = "#p=";

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

export async function shareUrl(source, base = location.href) {
  const packed = await pipe(new TextEncoder().encode(source), new CompressionStream("deflate-raw"));
  const url = new URL(base);
  url.search = "";
  url.hash = "";
  return url.toString() + PREFIX + toBase64Url(packed);
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
  const packed = hash.slice(PREFIX.length);
  // deflate never shrinks text below about a thousandth; base64 adds a third
  const tooLong = () => new Error(`its program is longer than the world's ${maxChars} characters`);
  if (packed.length > maxChars * 4 + 64) throw tooLong();
  const bytes = await inflateBounded(fromBase64Url(packed), maxChars * 3);  // UTF-8: <= 3 a unit
  if (bytes === null) throw tooLong();
  const text = new TextDecoder().decode(bytes);
  if (text.length > maxChars) throw tooLong();
  return text;
}
