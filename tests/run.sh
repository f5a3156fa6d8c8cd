#!/usr/bin/env bash
# The test command (README): install what the tests need on a bare Debian machine, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v mcs >/dev/null 2>&1 || missing+=(mono-mcs)
command -v mono >/dev/null 2>&1 || missing+=(mono-runtime)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v glslangValidator >/dev/null 2>&1 || missing+=(glslang-tools)
command -v spirv-val >/dev/null 2>&1 || missing+=(spirv-tools)
if ((${#missing[@]})); then
    echo "installing ${missing[*]} (Debian packages)"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

python3 -m pip install -q --disable-pip-version-check -e '.[test]'
exec python3 -m pytest "$@"
