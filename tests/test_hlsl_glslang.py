"""VM.cginc also compiles with glslang's HLSL front end (a second compiler besides Slang),
with and without AUDIOLINK, to SPIR-V that spirv-val accepts: a portability check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from psl.gen import hlsl

SUPPORT = Path(__file__).resolve().parent / "hlsl_support"

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="glslang-tools not installed (tests/run.sh installs it)")


@pytest.mark.parametrize("audiolink", [False, True], ids=["plain", "audiolink"])
@pytest.mark.parametrize("max_jumps", [2000, 5])
def test_vm_compiles_to_valid_spirv(tmp_path, audiolink, max_jumps):
    hlsl.TARGET.write(tmp_path, max_jumps=max_jumps)
    shutil.copy(SUPPORT / "glslang_check.hlsl", tmp_path / "check.hlsl")
    spv = tmp_path / "vm.spv"
    cmd = ["glslangValidator", "-D", "-S", "frag", "-e", "psl_frag", "-V", "-o", str(spv),
           str(tmp_path / "check.hlsl")]
    if audiolink:
        cmd[1:1] = ["-DAUDIOLINK", f"-I{SUPPORT / 'glslang_audiolink'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if shutil.which("spirv-val"):
        val = subprocess.run(["spirv-val", str(spv)], capture_output=True, text=True)
        assert val.returncode == 0, val.stdout + val.stderr
