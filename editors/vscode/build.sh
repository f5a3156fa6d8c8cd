#!/usr/bin/env bash
# Build editors/vscode/psl-vscode.vsix: regenerate the grammar and the language
# configuration from psl's registry, install the npm packages pinned by package-lock.json,
# and package the extension with @vscode/vsce. Needs node >= 20, npm and python with psl.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"

(cd "$root" && PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" "$python" -m psl.gen.vscode "$here")
cd "$here"
npm ci --no-audit --no-fund
npx --no-install vsce package --allow-missing-repository --out psl-vscode.vsix
ls -l psl-vscode.vsix
