"""Cost of the generated in-world compiler (Compiler.cs).

1. Wall time under mono: the whole process compiling pong (`mono Host.exe` with one file),
   and the per-compile time inside one process (after JIT warm-up).
2. A proxy for the in-world (Udon) cost, where every operation is an extern call: an
   instrumented copy of Compiler.cs counts method calls and executed statements/conditions;
   each executed line is weighted by its static count of operations (operators, array
   accesses, calls, assignments) to estimate "operator evaluations". Reported per compiler
   phase (lex, check parse, semantic checks, count pass, emit pass, upload) and per method,
   over the whole corpus.

Usage: python bench/bench_udonsharp.py [--json OUT] [--repeat N]
"""

# ruff: noqa: E501  (embedded C# source)
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from psl.gen import udonsharp  # noqa: E402
from tests.csharp_support import build as csbuild  # noqa: E402
from tests.csharp_support import pathological  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
PONG = CORPUS / "scene_pong_by_fuopy.psl"

PHASES = ["other", "lex+nesting", "check parse", "semantic checks", "count pass", "emit pass",
          "upload"]

# Phase switches inserted into the instrumented copy, before these statements (stripped).
PHASE_MARKS = [
    ("srcLen = text.Length;", 1),
    ("mode = MODE_CHECK;", 2),
    ("CheckCalls();", 3),
    ("mode = MODE_COUNT;", 4),
    ("mode = MODE_EMIT;", 5),
    ("int used = 2 * nIns;", 6),
]

COUNTER_CS = """
public static class PslCount
{
    public static int Phase;
    public static long[,] Calls = new long[8, %(methods)d];
    public static long[,] Lines = new long[8, %(lines)d];
    public static void Call(int m) { Calls[Phase, m]++; }
    public static bool Hit(int n) { Lines[Phase, n]++; return true; }
    public static void Reset() { Phase = 0; System.Array.Clear(Calls, 0, Calls.Length); System.Array.Clear(Lines, 0, Lines.Length); }
}

public static class CountHost
{
    public static int Main(string[] args)
    {
        var t = new System.Threading.Thread(() => Run(args), 512 * 1024 * 1024);
        t.Start();
        t.Join();
        return 0;
    }

    private static void Run(string[] args)
    {
        Compiler c = new Compiler();
        c.input = new UnityEngine.UI.InputField();
        c.output = new UnityEngine.UI.Text();
        c.screenMat = new UnityEngine.Material();
        var sb = new System.Text.StringBuilder("[");
        foreach (string path in System.IO.File.ReadAllLines(args[0]))
        {
            if (path.Length == 0) continue;
            PslCount.Reset();
            c.input.text = System.IO.File.ReadAllText(path);
            c.Compile();
            if (sb.Length > 1) sb.Append(",");
            sb.Append("{\\"out\\": \\"").Append(c.output.text.Replace("\\"", "'")).Append("\\", \\"calls\\": [");
            for (int p = 0; p < 8; p++)
            {
                sb.Append(p > 0 ? ",[" : "[");
                for (int m = 0; m < PslCount.Calls.GetLength(1); m++) sb.Append(m > 0 ? "," : "").Append(PslCount.Calls[p, m]);
                sb.Append("]");
            }
            sb.Append("], \\"lines\\": [");
            for (int p = 0; p < 8; p++)
            {
                sb.Append(p > 0 ? ",[" : "[");
                for (int n = 0; n < PslCount.Lines.GetLength(1); n++) sb.Append(n > 0 ? "," : "").Append(PslCount.Lines[p, n]);
                sb.Append("]");
            }
            sb.Append("]}");
        }
        System.Console.WriteLine(sb.Append("]").ToString());
    }
}
"""

_METHOD = re.compile(r"^    (?:\[RecursiveMethod\]\s*)?(?:public |private )(?:override )?[\w\[\]]+ (\w+)\(")
_OPS = re.compile(r"(\+\+|--|\+=|-=|\*=|/=|==|!=|<=|>=|&&|\|\||<<|>>|[-+*/%<>!&|^?]|(?<![=!<>])=(?!=))")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_NOT_CALLS = {"if", "while", "for", "return", "new", "int", "float", "char", "long", "double",
              "bool", "string"}


def _line_ops(text: str) -> int:
    """Static operations on a line: operators, element accesses, calls (Udon externs)."""
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    code = re.sub(r"'(?:\\.|[^'\\])+'", "c", code)
    ops = len(_OPS.findall(code))
    ops += len(re.findall(r"\w\[", code)) - len(re.findall(r"new \w+\[", code))
    ops += sum(1 for name in _CALL.findall(code) if name not in _NOT_CALLS)
    return max(ops, 1)


def _cond_span(line: str, start: int) -> int:
    """Index of the parenthesis closing the one at `start` (skipping char/string literals)."""
    depth = 0
    i = start
    while i < len(line):
        ch = line[i]
        if ch in "'\"":
            j = i + 1
            while j < len(line) and line[j] != ch:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def instrument(code: str) -> tuple[str, list[str], list[tuple[str, int, str]]]:
    """(instrumented code, method names, [(method, ops, line text)] per counted line)."""
    marked = []
    done = set()
    for line in code.splitlines():
        for needle, phase in PHASE_MARKS:
            if line.strip() == needle and needle not in done:  # first one: in CompileSource
                done.add(needle)
                indent = line[: len(line) - len(line.lstrip())]
                marked.append(f"{indent}PslCount.Phase = {phase};")
        marked.append(line)
    assert len(marked) == len(code.splitlines()) + len(PHASE_MARKS), "phase marks not found"
    code = "\n".join(marked) + "\n"
    out: list[str] = []
    methods: list[str] = []
    lines: list[tuple[str, int, str]] = []
    lines_in = code.splitlines()
    method = ""
    in_body = False
    prev = ""
    pending_stmt = -1  # counted line whose statement continues on the next lines
    for line in lines_in:
        m = _METHOD.match(line)
        if m and not line.rstrip().endswith(";"):
            method = m.group(1)
            methods.append(method)
            out.append(line)
            continue
        if line == "    {" and method and not in_body:
            in_body = True
            out.append(line)
            out.append(f"        PslCount.Call({len(methods) - 1});")
            continue
        if line == "    }" and in_body:
            in_body = False
            method = ""
            out.append(line)
            continue
        stripped = line.strip()
        if not in_body or not stripped or stripped in ("{", "}") or stripped.startswith("//"):
            out.append(line)
            if stripped:
                prev = stripped
            continue
        if pending_stmt >= 0:  # continuation of a multi-line statement
            name, ops, text = lines[pending_stmt]
            lines[pending_stmt] = (name, ops + _line_ops(stripped), text + " " + stripped)
            if stripped.endswith(";"):
                pending_stmt = -1
            out.append(line)
            prev = stripped
            continue
        head = re.match(r"^(\s*)(?:else )?(if|while) \(", line)
        head_for = re.match(r"^(\s*)for \(", line)
        if head:
            open_at = line.index("(", head.end(2))
            close = _cond_span(line, open_at)
            if close > 0 and line[open_at + 1:close] != "true":  # keep `while (true)` constant
                n = len(lines)
                lines.append((method, _line_ops(line[open_at:close + 1]), stripped))
                line = (line[:open_at + 1] + f"PslCount.Hit({n}) && (" + line[open_at + 1:close]
                        + ")" + line[close:])
            out.append(line)
        elif head_for:
            open_at = line.index("(")
            close = _cond_span(line, open_at)
            parts = line[open_at + 1:close].split(";")
            if len(parts) == 3:
                n = len(lines)
                lines.append((method, _line_ops(parts[1]) + _line_ops(parts[2]), stripped))
                parts[1] = f" PslCount.Hit({n}) && ({parts[1].strip()})"
                line = line[:open_at + 1] + ";".join(parts) + line[close:]
            out.append(line)
        elif prev.endswith((";", "{", "}")) and not stripped.startswith(("else", "+", "|", "&")):
            n = len(lines)
            lines.append((method, _line_ops(stripped), stripped))
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}PslCount.Hit({n}); {stripped}")
            if not stripped.endswith(";"):
                pending_stmt = n
        else:
            out.append(line)
        prev = stripped
    return "\n".join(out) + "\n", methods, lines


def wall_times(exe: Path, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        listfile = Path(tmp) / "list.txt"
        listfile.write_text(str(PONG) + "\n")
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(["mono", str(exe), str(listfile)], check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
        empty = Path(tmp) / "empty.txt"
        empty.write_text("\n")
        base = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(["mono", str(exe), str(empty)], check=True, capture_output=True)
            base.append(time.perf_counter() - t0)
    inproc = csbuild.time_repeat(exe, PONG, repeat)
    return {
        "process_s_median": statistics.median(runs),
        "process_no_program_s_median": statistics.median(base),
        "in_process_ms_per_compile": float(inproc["ms_per_compile"]),
        "pong_output": inproc["out"],
    }


def counts(workdir: Path, programs: list[Path]) -> dict[str, object]:
    files = udonsharp.TARGET.render()
    code, methods, lines = instrument(files["Compiler.cs"])
    counter = workdir / "PslCount.cs"
    counter.write_text(COUNTER_CS % {"methods": len(methods), "lines": max(len(lines), 1)})
    (workdir / "Compiler.cs").write_text(code)
    exe = workdir / "Count.exe"
    cmd = ["mcs", "-nologo", "-nowarn:414,169,649,219", "-optimize+", f"-out:{exe}",
           str(csbuild.STUBS), str(workdir / "Compiler.cs"), str(counter)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"instrumented build failed:\n{proc.stdout}\n{proc.stderr}")
    listfile = workdir / "list.txt"
    listfile.write_text("\n".join(map(str, programs)) + "\n")
    data = json.loads(subprocess.run(["mono", str(exe), str(listfile)], check=True,
                                     capture_output=True, text=True).stdout)
    per_program = {}
    by_phase_calls = [0] * 8
    by_phase_ops = [0] * 8
    by_method: dict[str, list[int]] = {}
    by_line = [0] * len(lines)
    for path, rec in zip(programs, data, strict=True):
        calls = sum(map(sum, rec["calls"]))
        ops = 0
        for phase in range(8):
            pc = sum(rec["calls"][phase])
            po = sum(h * lines[n][1] for n, h in enumerate(rec["lines"][phase]) if h)
            by_phase_calls[phase] += pc
            by_phase_ops[phase] += po
            ops += po
            for m, c in enumerate(rec["calls"][phase]):
                if c:
                    by_method.setdefault(methods[m], [0, 0])[0] += c
            for n, h in enumerate(rec["lines"][phase]):
                if h:
                    by_method.setdefault(lines[n][0], [0, 0])[1] += h * lines[n][1]
                    by_line[n] += h * lines[n][1]
        chars = len(path.read_text(encoding="utf-8"))
        per_program[path.stem] = {"chars": chars, "method_calls": calls, "operations": ops,
                                  "result": rec["out"]}
    total_calls = sum(by_phase_calls)
    total_ops = sum(by_phase_ops)
    top = sorted(by_method.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:15]
    return {
        "programs": per_program,
        "total_method_calls": total_calls,
        "total_operations": total_ops,
        "by_phase": {PHASES[p] if p < len(PHASES) else str(p):
                     {"method_calls": by_phase_calls[p], "operations": by_phase_ops[p]}
                     for p in range(8) if by_phase_calls[p] or by_phase_ops[p]},
        "top_methods": {name: {"calls": c, "operations": o} for name, (c, o) in top},
        "top_lines": [{"method": lines[n][0], "line": lines[n][2], "operations": by_line[n]}
                      for n in sorted(range(len(lines)), key=lambda n: -by_line[n])[:12]],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write the results here as JSON")
    ap.add_argument("--repeat", type=int, default=200, help="in-process compilations to time")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="psl-bench-") as tmp:
        work = Path(tmp)
        exe = csbuild.build(work / "host")
        corpus = sorted(CORPUS.glob("*.psl"))
        extra = []
        for name, text in pathological.programs().items():
            path = work / f"{name}.psl"
            path.write_text(text, encoding="utf-8")
            extra.append(path)
        hard = counts(work, extra)
        result = {
            "pong_wall": wall_times(exe, args.repeat),
            "corpus_counts": counts(work, corpus),
            "pathological": {"programs": hard["programs"], "by_phase": hard["by_phase"]},
        }
    text = json.dumps(result, indent=1)
    if args.json:
        args.json.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
