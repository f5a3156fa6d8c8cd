// The "for VRChat" view: the program as a file ready for a gist or a paste, and how to load
// its raw URL in the world (the Programs panel's URL field and Load button). The facts
// (source limit, trusted hosts) come from /api/vrchat.json (psl/gen/world_programs.py), the
// same ones the in-world ProgramLoader checks.

/** The program as the file to upload: UTF-8 without a byte order mark, LF line ends. */
export function programFile(source) {
  return source.replace(/\r\n?/g, "\n");
}

/** The file name for the download: the served file's name, or program.psl. */
export function fileName(served) {
  const base = (served || "").split(/[\\/]/).pop();
  return base && /\.psl$/i.test(base) ? base : "program.psl";
}

function trusted(host, info) {
  return info.trusted_hosts.includes(host) ||
         info.trusted_wildcards.some((d) => host.endsWith("." + d));
}

/**
 * What the world will make of a URL: {level: "ok" | "warn" | "bad", message, suggestion?}.
 * A page URL (gist.github.com, pastebin.com/ID) gets the raw URL to use instead.
 */
export function checkUrl(text, info) {
  const raw = text.trim();
  if (!raw) return { level: "warn", message: "paste the URL you will load in the world" };
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { level: "bad", message: "not a URL: it must start with https://" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { level: "bad", message: "the world loads http(s) URLs only" };
  }
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (host === "gist.github.com" && parts.length >= 2) {
    const suggestion = `https://gist.githubusercontent.com/${parts[0]}/${parts[1]}/raw`;
    return { level: "bad", suggestion,
             message: "this is the gist's web page (HTML); use its raw URL (the Raw button):" };
  }
  if (host === "pastebin.com" && parts.length === 1 && parts[0] !== "raw") {
    const suggestion = `https://pastebin.com/raw/${parts[0]}`;
    return { level: "bad", suggestion,
             message: "this is the paste's web page (HTML); use its raw URL:" };
  }
  if (host === "github.com" || host === "raw.githubusercontent.com") {
    return { level: "warn",
             message: `${host} is not one of VRChat's trusted hosts: only players who turned on ` +
                      "\"Allow Untrusted URLs\" can load it. Put the program in a gist instead." };
  }
  if (!trusted(host, info)) {
    return { level: "warn",
             message: `${host} is not one of VRChat's trusted hosts (${info.trusted_display.join(", ")}): ` +
                      "only players who turned on \"Allow Untrusted URLs\" can load it." };
  }
  return { level: "ok",
           message: "a trusted host: paste this URL into the world's URL field and press Load." };
}

/** The checks shown above the download: [{level, text}]. */
export function programChecks(source, diagnostics, info) {
  const text = programFile(source);
  const checks = [];
  const errors = (diagnostics || []).filter((d) => d.severity === "error");
  checks.push(errors.length
    ? { level: "bad", text: `does not compile yet: ${errors[0].line}:${errors[0].column}: ${errors[0].message}` }
    : { level: "ok", text: "compiles" });
  const n = text.length;  // UTF-16 units, as the world counts them
  checks.push(n > info.source_limit
    ? { level: "bad", text: `${n.toLocaleString("en")} characters: the world loads at most ${info.source_limit.toLocaleString("en")}` }
    : { level: "ok", text: `${n.toLocaleString("en")} of ${info.source_limit.toLocaleString("en")} characters` });
  if (!text.trim()) checks.push({ level: "bad", text: "the program is empty" });
  return checks;
}
