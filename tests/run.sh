#!/usr/bin/env bash
# The test command (README): install what the tests need on a bare Debian/Ubuntu machine, then
# run pytest. Python: the active venv if there is one; else python3 when pip may install into
# it; else (Debian's externally managed python) a venv in .venv, made here.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_updated=""
apt_get="${PSL_APT_GET:-apt-get}"  # (the tests put a stand-in here)
# apt-get, waiting while another apt or dpkg holds the package manager's lock (at most
# PSL_APT_WAIT seconds, 600 by default), then failing with one clear line.
apt_run() {
    local start=$SECONDS deadline=$((SECONDS + ${PSL_APT_WAIT:-600})) out status
    while true; do
        status=0
        out=$(DEBIAN_FRONTEND=noninteractive $sudo "$apt_get" -o DPkg::Lock::Timeout=30 "$@" 2>&1) \
            || status=$?
        if [ "$status" -eq 0 ]; then
            [ -n "$out" ] && printf '%s\n' "$out"
            return 0
        fi
        if grep -qiE 'could not get lock|unable to (acquire|lock)|is another process using it' \
                <<<"$out" && [ "$SECONDS" -lt "$deadline" ]; then
            echo "tests/run.sh: waiting for the package manager's lock (another apt or dpkg is running; $((SECONDS - start)) s so far, at most ${PSL_APT_WAIT:-600} s)"
            sleep "${PSL_APT_RETRY:-10}"
            continue
        fi
        printf '%s\n' "$out" >&2
        if grep -qiE 'could not get lock|unable to (acquire|lock)' <<<"$out"; then
            echo "tests/run.sh: the package manager stayed locked for ${PSL_APT_WAIT:-600} s; install $* by hand or run again later" >&2
        else
            echo "tests/run.sh: apt-get $* failed (exit $status)" >&2
        fi
        return "$status"
    done
}
apt_install() {
    echo "installing $* (Debian packages)"
    if [ -z "$apt_updated" ]; then
        apt_run update -qq
        apt_updated=1
    fi
    apt_run install -y -qq --no-install-recommends "$@"
}

missing=()
command -v mcs >/dev/null 2>&1 || missing+=(mono-mcs)
command -v mono >/dev/null 2>&1 || missing+=(mono-runtime)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v glslangValidator >/dev/null 2>&1 || missing+=(glslang-tools)
command -v spirv-cross >/dev/null 2>&1 || missing+=(spirv-cross)
command -v spirv-val >/dev/null 2>&1 || missing+=(spirv-tools)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if ((${#missing[@]})); then
    apt_install "${missing[@]}"
fi

py=python3
externally_managed() {
    python3 -c 'import os, sys, sysconfig
sys.exit(0 if os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'
}
if [ -z "${VIRTUAL_ENV:-}" ] && externally_managed; then
    if [ ! -x .venv/bin/python ]; then
        rm -rf .venv
        python3 -m venv .venv 2>/dev/null || { rm -rf .venv; apt_install python3-venv; python3 -m venv .venv; }
    fi
    py=.venv/bin/python
    echo "using the venv .venv (this python3 is externally managed)"
fi

"$py" -m pip install -q --disable-pip-version-check --upgrade pip
"$py" -m pip install -q --disable-pip-version-check -e '.[test]'
exec "$py" -m pytest "$@"
