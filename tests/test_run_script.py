"""tests/run.sh (the README's test command) on a busy machine: while another apt or dpkg
holds the package manager's lock it waits (bounded), then goes on; past the bound it fails
with one clear line. Run with a stand-in apt-get (PSL_APT_GET) that reports the lock."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

RUN_SH = Path(__file__).resolve().parent / "run.sh"
LOCKED = ("E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 "
          "(apt-get)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend),"
          " is another process using it?")


def _functions() -> str:
    text = RUN_SH.read_text()
    return text[text.index('apt_updated=""'):text.index("missing=()")]


def _fake_apt(tmp_path: Path, locked_calls: int) -> Path:
    fake = tmp_path / "apt-get"
    fake.write_text(f"""#!/usr/bin/env bash
n=$(cat "{tmp_path}/calls" 2>/dev/null || echo 0)
echo $((n + 1)) > "{tmp_path}/calls"
if [ "$n" -lt {locked_calls} ]; then
    cat <<'MSG'
{LOCKED}
MSG
    exit 100
fi
echo "apt-get $*"
""")
    fake.chmod(0o755)
    return fake


def _run(tmp_path: Path, locked_calls: int, wait: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PSL_APT_GET": str(_fake_apt(tmp_path, locked_calls)),
           "PSL_APT_WAIT": str(wait), "PSL_APT_RETRY": "0"}
    script = 'set -euo pipefail\nsudo=""\n' + _functions() + "apt_install mono-mcs\n"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                          timeout=60)


def test_waits_for_the_lock_then_installs(tmp_path: Path) -> None:
    got = _run(tmp_path, locked_calls=3, wait=60)
    assert got.returncode == 0, got.stderr
    assert got.stdout.count("waiting for the package manager's lock") == 3
    assert "apt-get -o DPkg::Lock::Timeout=30 install -y -qq --no-install-recommends mono-mcs" \
        in got.stdout


def test_gives_up_after_the_bound_with_one_clear_line(tmp_path: Path) -> None:
    got = _run(tmp_path, locked_calls=10**6, wait=0)
    assert got.returncode == 100
    assert "the package manager stayed locked for 0 s" in got.stderr
