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

/** The program of a share link's fragment, or null; throws on a damaged link. */
export async function sharedProgram(hash = location.hash) {
  if (!hash.startsWith(PREFIX)) return null;
  const bytes = await pipe(fromBase64Url(hash.slice(PREFIX.length)),
                           new DecompressionStream("deflate-raw"));
  return new TextDecoder().decode(bytes);
}
