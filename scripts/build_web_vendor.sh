#!/usr/bin/env bash
# Rebuild psl/web/static/vendor/ (the playground's front-end dependencies, shipped in the
# wheel so `psl serve` works offline) from the npm registry with this machine's node/npm.
#
# Versions are pinned by scripts/web_vendor/package-lock.json; the output is deterministic
# for one lock file (esbuild bundles and minifies; no timestamps or absolute paths).
# Update: edit scripts/web_vendor/package.json, run with --update to refresh the lock file.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/web_vendor"
out="$here/../psl/web/static/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

command -v npm >/dev/null || { echo "build_web_vendor: npm not found (apt-get install npm)" >&2; exit 1; }

cp "$src/package.json" "$src/entry.js" "$work/"
if [[ "${1:-}" == "--update" ]]; then
    (cd "$work" && npm install --no-audit --no-fund --ignore-scripts)
    cp "$work/package-lock.json" "$src/package-lock.json"
else
    cp "$src/package-lock.json" "$work/"
    # --ignore-scripts: esbuild's binary arrives as its optional platform package anyway
    (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts)
fi

mkdir -p "$out"
(cd "$work" && ./node_modules/.bin/esbuild entry.js --bundle --format=esm --minify \
    --legal-comments=none --target=es2020 --outfile=bundle.js --log-level=warning)
{
    echo "// CodeMirror 6 for the psl playground, bundled by scripts/build_web_vendor.sh."
    echo "// Licences: LICENSES.txt beside this file. Do not edit; rebuild instead."
    cat "$work/bundle.js"
} > "$out/codemirror.js"

# One licence file for everything bundled (the build tool esbuild is not shipped).
(cd "$work/node_modules" && {
    echo "Third-party software bundled into codemirror.js (all MIT licensed)."
    for dir in $(find . -name package.json -not -path "*/node_modules/*/node_modules/*" \
                  -printf '%h\n' | sed 's|^\./||' | sort); do
        case "$dir" in esbuild|@esbuild/*) continue ;; esac
        lic="$(ls "$dir" | grep -iE '^licen[cs]e' | head -n1 || true)"
        [[ -n "$lic" ]] || continue
        version="$(node -p "require('./$dir/package.json').version")"
        printf '\n==== %s %s ====\n\n' "$dir" "$version"
        cat "$dir/$lic"
    done
}) > "$out/LICENSES.txt"
echo "wrote $out/codemirror.js ($(wc -c < "$out/codemirror.js") bytes) and LICENSES.txt"
