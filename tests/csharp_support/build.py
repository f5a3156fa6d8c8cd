"""Compile the generated behaviours with mono's mcs against the stubs, and run the host.

`build(dir)` renders the templates (or takes given texts), writes them next to the stubs
and the host and compiles Host.exe; `shared_host` builds it from the templates once per test
session for every test module. `run_batch(exe, sources)` compiles many programs in one mono
process and returns one result per program (the host drives each compile's frames to the end).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from psl.gen import udonsharp
from psl.registry import LIMITS

HERE = Path(__file__).resolve().parent
STUBS = HERE / "UdonStubs.cs"
HOST = HERE / "Host.cs"
PLAYERS = HERE / "Players.cs"  # `Host.exe --players`: sessions of simulated players
JSON = HERE / "TestJson.cs"  # the hosts' one JSON string writer
SLOTS = LIMITS.slots  # texels of the program texture
# Host.cs spells the texture's shape out (it checks what the compiler creates)
assert (f"TextureWidth = {LIMITS.texture_width};" in HOST.read_text()
        and f"TextureHeight = {LIMITS.texture_height};" in HOST.read_text())

_shared_hosts: dict[Path, Path] = {}  # pytest's base temp dir -> Host.exe


def tools_available() -> bool:
    return shutil.which("mcs") is not None and shutil.which("mono") is not None


def build(out: Path, files: dict[str, str] | None = None, defines: tuple[str, ...] = (),
          extra_sources: tuple[Path, ...] = ()) -> Path:
    """Write the generated C# into `out` and compile Host.exe there; return its path."""
    out.mkdir(parents=True, exist_ok=True)
    files = udonsharp.TARGET.render() if files is None else files
    sources = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        sources.append(path)
    exe = out / "Host.exe"
    cmd = ["mcs", "-nologo", "-warnaserror-", "-nowarn:414,169,649,219",
           "-optimize+", f"-out:{exe}", str(STUBS), str(JSON), str(HOST), str(PLAYERS),
           *map(str, sources),
           *map(str, extra_sources)]
    if defines:
        cmd.append("-define:" + ";".join(defines))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"mcs failed:\n{proc.stdout}\n{proc.stderr}")
    return exe


def shared_host(tmp_path_factory) -> Path:
    """Host.exe built from the rendered templates, once per session (pytest's
    tmp_path_factory), shared by the test modules that use the unmodified templates."""
    base = tmp_path_factory.getbasetemp()
    if base not in _shared_hosts:
        _shared_hosts[base] = build(tmp_path_factory.mktemp("udonsharp"))
    return _shared_hosts[base]


@dataclass
class HostResult:
    out: str  # output.text
    uploads: int
    upload_ok: bool
    slots: np.ndarray | None  # uint32 [LIMITS.slots][4] texel bits, when uploaded
    exception: str | None
    frames: int = 0  # Update() frames the compile took after Compile() (0: done in Compile)
    upload_events: int = 0  # events with SetTexture calls (1: uploaded at once)
    #: the same program compiled with the Compiler's `optimize` on (-O1); this result is
    #: the -O0 one (`optimize` off). The host compiles every program at both settings.
    optimized: HostResult | None = None
    #: the same program at -O2 (`optimize` and `superinstructions` on)
    fused: HostResult | None = None
    #: of two uploads (`optimize` on: the -O0 program first, then -O1 over it), the first
    first_slots: np.ndarray | None = None

    @property
    def ok(self) -> bool:
        return self.upload_ok and self.out.startswith("compiled:")


def decode_slots(hexstr: str) -> np.ndarray:
    """The host's texel hex (trailing zero texels cut) as uint32 bits [LIMITS.slots][4]."""
    raw = bytes.fromhex(hexstr)
    words = np.frombuffer(raw, dtype=">u4").astype(np.uint32)
    full = np.zeros(SLOTS * 4, dtype=np.uint32)
    full[: len(words)] = words
    return full.reshape(SLOTS, 4)


def run_batch(exe: Path, sources: list[str], timeout: float = 1200) -> list[HostResult]:
    """Compile every source text in one mono process (written as UTF-8 files), at -O0
    (the results), -O1 (each result's `optimized`) and -O2 (its `fused`)."""
    with tempfile.TemporaryDirectory(prefix="psl-us-") as tmp:
        tmpdir = Path(tmp)
        paths = []
        for k, src in enumerate(sources):
            p = tmpdir / f"p{k}.psl"
            p.write_bytes(src.encode("utf-8", "surrogatepass"))
            paths.append(str(p))
        listfile = tmpdir / "list.txt"
        listfile.write_text("\n".join(paths) + "\n", encoding="utf-8")
        proc = subprocess.run(["mono", str(exe), str(listfile)], capture_output=True,
                              timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"host failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    results: list[HostResult] = [None] * len(sources)  # type: ignore[list-item]
    optimized: list[HostResult] = [None] * len(sources)  # type: ignore[list-item]
    fused: list[HostResult] = [None] * len(sources)  # type: ignore[list-item]
    for line in proc.stdout.decode("utf-8").splitlines():
        rec = json.loads(line)
        slots = decode_slots(rec["slots"]) if rec.get("upload_ok") else None
        got = HostResult(rec["out"], rec["uploads"], rec["upload_ok"], slots, rec["exc"],
                         rec.get("frames", 0), rec.get("upload_events", 0))
        if rec.get("first_slots") is not None:
            got.first_slots = decode_slots(rec["first_slots"])
        {1: optimized, 2: fused}.get(rec.get("o", 0), results)[rec["i"]] = got
    for k, r in enumerate(results):
        if r is not None:
            r.optimized = optimized[k]
            r.fused = fused[k]
    missing = [k for k, r in enumerate(results)
               if r is None or r.optimized is None or r.fused is None]
    if missing:
        raise RuntimeError(f"host printed no result for programs {missing[:10]}")
    return results


def time_repeat(exe: Path, source_path: Path, repeat: int) -> dict[str, object]:
    proc = subprocess.run(["mono", str(exe), "--repeat", str(repeat), str(source_path)],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)
