"""Pathological PSL programs for the compilers' cost benchmarks (bench/udon_cost.py): write
them to a folder, and keep psl's outcomes in bench/pathological_manifest.json.

The programs themselves (their families and generators) are in
tests/csharp_support/pathological.py, shared with the differential tests
(tests/test_udonsharp_diff.py::test_pathological_programs). Each is deterministic and at most
LIMITS.source_chars characters. The manifest records the expected outcome of each: ok (with
the instruction and register counts) or the first error's code, position and message.

Usage (from the checkout's root):
  python3 bench/pathological.py OUTDIR            write OUTDIR/NAME.psl and OUTDIR/manifest.json
  python3 bench/pathological.py --check           compile each with psl; compare with the manifest
  python3 bench/pathological.py --update-manifest compile each with psl; rewrite the manifest
  python3 bench/pathological.py --list            names, sizes and expected outcomes
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.csharp_support.pathological import programs, verdict  # noqa: E402

MANIFEST = Path(__file__).resolve().parent / "pathological_manifest.json"

__all__ = ["MANIFEST", "load_manifest", "manifest", "outcome", "programs", "write"]


def outcome(text: str) -> dict:
    """psl's verdict (see verdict()), with the compile's time as `_seconds`."""
    from psl.compiler import compile_source

    t0 = time.perf_counter()
    result = compile_source(text)
    seconds = time.perf_counter() - t0
    out = verdict(result, text)
    out["_seconds"] = round(seconds, 3)
    return out


def manifest(progs: dict[str, str]) -> dict:
    return {name: {k: v for k, v in outcome(text).items() if not k.startswith("_")}
            for name, text in progs.items()}


def load_manifest() -> dict:
    return json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}


def write(folder: Path) -> dict[str, Path]:
    """Write every program as folder/NAME.psl and the manifest as folder/manifest.json."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.psl"):
        old.unlink()
    paths = {}
    for name, text in programs().items():
        path = folder / f"{name}.psl"
        path.write_text(text, encoding="utf-8", newline="")
        paths[name] = path
    (folder / "manifest.json").write_text(json.dumps(load_manifest(), indent=1) + "\n")
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", nargs="?", help="write NAME.psl files and manifest.json here")
    ap.add_argument("--check", action="store_true", help="compile each with psl and compare "
                                                          "with " + MANIFEST.name)
    ap.add_argument("--update-manifest", action="store_true", help="rewrite " + MANIFEST.name)
    ap.add_argument("--list", action="store_true", help="names, sizes, expected outcomes")
    args = ap.parse_args()
    if not (args.outdir or args.check or args.update_manifest or args.list):
        ap.error("give OUTDIR, --check, --update-manifest or --list")
    progs = programs()
    status = 0
    if args.check or args.update_manifest:
        recorded = load_manifest()
        fresh = {}
        for name, text in progs.items():
            got = outcome(text)
            secs = got.pop("_seconds")
            fresh[name] = got
            want = recorded.get(name)
            verdict_ = "same" if want == got else ("NEW" if want is None else "DIFFERS")
            print(f"{name:36s} {got['chars']:6d} chars  {got['expect']:4s}  {secs:6.2f} s  "
                  f"{verdict_}  {got.get('message', '')[:60]}")
            if args.check and verdict_ != "same":
                status = 1
                if want is not None:
                    print(f"    manifest: {want}\n    psl:      {got}")
        for name in sorted(set(recorded) - set(fresh)):
            print(f"{name}: in the manifest, no longer generated")
            status = 1 if args.check else status
        if args.update_manifest:
            MANIFEST.write_text(json.dumps(fresh, indent=1) + "\n")
            print(f"wrote {MANIFEST}")
            status = 0
    if args.list:
        recorded = load_manifest()
        for name, text in progs.items():
            print(f"{name:36s} {len(text):6d} chars  {recorded.get(name, {}).get('expect', '?')}")
    if args.outdir:
        paths = write(Path(args.outdir))
        print(f"wrote {len(paths)} programs to {args.outdir}")
    return status


if __name__ == "__main__":
    sys.exit(main())
