"""The Udon exposure gate: every extern the generated UdonSharp scripts call is in VRChat's
node list (UdonSharp refuses a behaviour that calls one that is not; mono accepts anything).

The checker (tests/udon_support/) types the C# and names each extern as UdonSharp 1.x does.
Here: the gate on every generated script, injected defects that it must catch, hand-worked
extern lists for small snippets, loud failure on C# it cannot type, and the inventory in
docs/compiler-contract.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.udon_support.checker import FRAME_CHECK, FRAME_POP, FRAME_PUSH, Site, check_project
from tests.udon_support.inventory import (
    DOC,
    REGENERATE,
    ROOT,
    Inventory,
    build,
    doc_section,
    markdown,
)
from tests.udon_support.nodes import not_exposed, udon_nodes
from tests.udon_support.scripts import generated_scripts, is_udonsharp, package_sources
from tests.udon_support.syntax import CheckerError

SCRIPTS = generated_scripts()


@pytest.fixture(scope="module")
def inventory() -> Inventory:
    return build(SCRIPTS)


def report(name: str, sites: list[Site]) -> str:
    return "\n".join(f"  {name}:{s.line}: {s.extern}   <- {s.source}" for s in sites)


# ------------------------------------------------------------------------------- the gate


def test_every_generated_script_is_found():
    assert {"Compiler.cs", "SyncCode.cs", "ExampleButton.cs"} <= set(SCRIPTS)
    # the package's scripts are read too: its U# behaviours are among them, its editor
    # script (plain C#) is not
    shipped = package_sources()
    behaviours = {path for path, source in shipped.items() if is_udonsharp(source, path)}
    assert behaviours and {path.rsplit("/", 1)[-1] for path in behaviours} <= set(SCRIPTS)
    assert set(shipped) - behaviours, "the package's editor script was taken for U#"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_generated_script_calls_only_exposed_externs(inventory, name):
    missing = not_exposed(inventory.sites[name])
    assert not missing, (
        f"{name} calls externs that Udon does not expose (UdonSharp would refuse it):\n"
        + report(name, missing))


# ----------------------------------------------------------------------- injected defects

#: code injected at the top of Compiler.Compile() -> the non-exposed extern it must produce
DEFECTS = {
    "long % long": ("long injA = nIns; long injB = nIns + 1; long injR = injA % injB;",
                    "SystemInt64.__op_Remainder__SystemInt64_SystemInt64__SystemInt64"),
    "uint % uint": ("uint injU = (uint)nIns; uint injV = injU % (uint)(nIns + 1);",
                    "SystemUInt32.__op_Remainder__SystemUInt32_SystemUInt32__SystemUInt32"),
    # every string.Split overload, Split(char[]) included, is exposed (see the snippet
    # test): Math.Clamp is a .NET method Udon does not expose
    "non-exposed method": ("int injC = System.Math.Clamp(nIns, 0, 10);",
                           "SystemMath.__Clamp__SystemInt32_SystemInt32_SystemInt32__SystemInt32"),
    "non-exposed property": ("string injT = gameObject.tag;",
                             "UnityEngineGameObject.__get_tag__SystemString"),
}


def inject(source: str, code: str) -> tuple[str, int]:
    match = re.search(r"public void Compile\(\)\s*\{\n", source)
    assert match, "Compiler.cs has no `public void Compile()`"
    line = source[:match.end()].count("\n") + 1
    return source[:match.end()] + "        " + code + "\n" + source[match.end():], line


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_gate_catches_injected_defect(inventory, defect):
    code, extern = DEFECTS[defect]
    source, line = inject(SCRIPTS["Compiler.cs"], code)
    sites = check_project({**SCRIPTS, "Compiler.cs": source}, udon_nodes())["Compiler.cs"]
    missing = not_exposed(sites)
    injected = [s for s in missing if s.line == line]
    assert [(s.extern, s.line) for s in injected] == [(extern, line)], report("Compiler.cs",
                                                                              missing)
    # nothing else changed: the rest is what the generated script already had
    baseline = not_exposed(inventory.sites["Compiler.cs"])
    assert len(missing) - len(injected) == len(baseline)
    assert f"Compiler.cs:{line}: {extern}" in report("Compiler.cs", missing)


# ------------------------------------------------------------------ the checker's names

SNIPPET = """using UdonSharp;
using UnityEngine;
using UnityEngine.UI;

public class Snippet : UdonSharpBehaviour
{{
    private const int K = 4;
    public Other other;
    public InputField input;
    private int i; private int j; private uint u; private long a; private long b;
    private float f; private double d; private char c; private string s; private bool ok;
    private int[] arr; private char[] cs; private Vector4[] vs; private string[] parts;

    private int Twice(int x)
    {{
        return x;
    }}

    {attribute}
    private void M()
    {{
{body}
    }}
}}
"""
OTHER = """using UdonSharp;

public class Other : UdonSharpBehaviour
{
    public int count;
    public void Go() { }
    public void Take(float v) { }
    public int Get() { return count; }
}
"""


def externs_of(body: str, recursive: bool = False) -> Counter[str]:
    """The externs of M() in the snippet (a multiset: the gate needs names, not order)."""
    source = SNIPPET.format(body=body, attribute="[RecursiveMethod]" if recursive else "")
    first = source[:source.index("private void M()")].count("\n") + 1
    sites = check_project({"Snippet.cs": source, "Other.cs": OTHER}, udon_nodes())["Snippet.cs"]
    return Counter(s.extern for s in sites if s.line >= first)


I32, I64, F32, F64 = "SystemInt32", "SystemInt64", "SystemSingle", "SystemDouble"


def op(t: str, name: str, a: str | None = None, result: str | None = None) -> str:
    return f"{t}.__op_{name}__{t}_{a or t}__{result or t}"


def cmp(t: str, name: str) -> str:
    return op(t, name, result="SystemBoolean")


def conv(src: str, dst: str) -> str:
    return f"SystemConvert.__To{dst.removeprefix('System')}__{src}__{dst}"


TRUNCATE = "SystemMath.__Truncate__SystemDouble__SystemDouble"
STRING_INDEX = ["SystemString.__ToCharArray__SystemInt32_SystemInt32__SystemCharArray",
                "SystemCharArray.__Get__SystemInt32__SystemChar"]
RECEIVER = "VRCUdonCommonInterfacesIUdonEventReceiver"

CASES = {
    "int * float promotes to float": (
        "f = i * f;", [conv(I32, F32), op(F32, "Multiplication")]),
    "long arithmetic": (
        "a = a * b + i;", [op(I64, "Multiplication"), conv(I32, I64), op(I64, "Addition")]),
    "long remainder": ("a = a % b;", [op(I64, "Remainder")]),
    "long shift takes an int count, mask, narrowing": (
        "i = (int)(a >> 15 & 32767L);",
        [op(I64, "RightShift", a=I32), op(I64, "LogicalAnd"), conv(I64, I32)]),
    "uint % int constant stays uint": (
        "u = u % 7;", [op("SystemUInt32", "Remainder")]),
    "char compares as int": (
        "ok = c >= 'a' && c <= 'z';",
        [conv("SystemChar", I32)] * 2 + [cmp(I32, "GreaterThanOrEqual"),
                                         cmp(I32, "LessThanOrEqual")]),
    "char arithmetic and cast back": (
        "c = (char)(c + 32);", [conv("SystemChar", I32), op(I32, "Addition"),
                                conv(I32, "SystemChar")]),
    "float to int truncates through double": (
        "i = (int)f;", [conv(F32, F64), TRUNCATE, conv(F64, I32)]),
    "double to long": ("a = (long)d;", [TRUNCATE, conv(F64, I64)]),
    "implicit widening": ("d = f; a = i;", [conv(F32, F64), conv(I32, I64)]),
    "char to float through ushort": (
        "f = c;", [conv("SystemChar", "SystemUInt16"), conv("SystemUInt16", F32)]),
    "string index": ("c = s[i + 1];", [op(I32, "Addition"), *STRING_INDEX]),
    "constants fold": (
        "i = K * 2 + 1; f = K / 2f; ok = K > 3 && true; a = 1L << 40; s = nameof(Twice);", []),
    "UdonSharp does not fold <=": ("ok = K <= 5;", [cmp(I32, "LessThanOrEqual")]),
    "compound assignment": (
        "i += j; a += i; arr[i] -= 2; f *= i;",
        [op(I32, "Addition"), conv(I32, I64), op(I64, "Addition"),
         "SystemInt32Array.__Get__SystemInt32__SystemInt32", op(I32, "Subtraction"),
         "SystemInt32Array.__Set__SystemInt32_SystemInt32__SystemVoid",
         conv(I32, F32), op(F32, "Multiplication")]),
    "increments": (
        "i++; --a; arr[j]++;",
        [op(I32, "Addition"), op(I64, "Subtraction"),
         "SystemInt32Array.__Get__SystemInt32__SystemInt32", op(I32, "Addition"),
         "SystemInt32Array.__Set__SystemInt32_SystemInt32__SystemVoid"]),
    "arrays": (
        "cs = new char[i + 1]; cs[0] = c; i = cs.Length;",
        [op(I32, "Addition"), "SystemCharArray.__ctor__SystemInt32__SystemCharArray",
         "SystemCharArray.__Set__SystemInt32_SystemChar__SystemVoid",
         "SystemArray.__get_Length__SystemInt32"]),
    "strings": (
        's = s + i.ToString() + "!"; ok = s == null; i = s.Length; parts = s.Split(cs);',
        ["SystemInt32.__ToString__SystemString",
         op("SystemString", "Addition"), op("SystemString", "Addition"),
         cmp("SystemString", "Equality"), "SystemString.__get_Length__SystemInt32",
         "SystemString.__Split__SystemCharArray__SystemStringArray"]),
    "var takes the initializer's type": (
        "var q = i * 2L; a = q;", [conv(I32, I64), op(I64, "Multiplication")]),
    "?: of int constants converts at the assignment": ("f = ok ? 1 : 2;", [conv(I32, F32)]),
    "! on an if condition is a jump, elsewhere an extern": (
        "if (!ok) { i = 1; } while (!ok) { }",
        ["SystemBoolean.__op_UnaryNegation__SystemBoolean__SystemBoolean"]),
    "a constant false if binds nothing": ("if (K > 100) { a = a % b; }", []),
    "== on references": (
        "ok = arr != null; ok = input == null; ok = other != null;",
        [cmp("SystemObject", "Inequality"), cmp("UnityEngineObject", "Equality"),
         cmp("UnityEngineObject", "Inequality")]),
    "Unity API and struct constants": (
        "input.text = s; vs = new Vector4[2]; vs[0] = new Vector4(f, 0f, 0f, 1f); "
        "vs[1] = new Vector4(0f, 0f, 0f, 1f);",
        ["UnityEngineUIInputField.__set_text__SystemString__SystemVoid",
         "UnityEngineVector4Array.__ctor__SystemInt32__UnityEngineVector4Array",
         "UnityEngineVector4.__ctor__SystemSingle_SystemSingle_SystemSingle_SystemSingle__"
         "UnityEngineVector4"]
        + ["UnityEngineVector4Array.__Set__SystemInt32_UnityEngineVector4__SystemVoid"] * 2),
    "another behaviour's methods and fields": (
        "other.Go(); other.Take(i); i = other.Get(); i = other.count;",
        [f"{RECEIVER}.__SendCustomEvent__SystemString__SystemVoid"] * 3
        + [conv(I32, F32),
           f"{RECEIVER}.__SetProgramVariable__SystemString_SystemObject__SystemVoid"]
        + [f"{RECEIVER}.__GetProgramVariable__SystemString__SystemObject",
           conv("SystemObject", I32)] * 2),
    "own methods are jumps": ("i = Twice(i + 1);", [op(I32, "Addition")]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_checker_names_externs(case):
    body, expected = CASES[case]
    assert externs_of(body) == Counter(expected)


def test_recursive_method_saves_its_frame_around_calls():
    # no parameter or local in scope: only the stack size check
    assert externs_of("i = Twice(i);", recursive=True) == Counter(FRAME_CHECK)
    # a local in scope is saved and restored around the call
    assert externs_of("int x = 1; i = Twice(x);", recursive=True) == \
        Counter(FRAME_CHECK) + Counter(FRAME_PUSH) + Counter(FRAME_POP)
    assert all(e in udon_nodes() for e in (*FRAME_CHECK, *FRAME_PUSH, *FRAME_POP))


# ------------------------------------------------------------- loud failure, never a skip

UNTYPABLE = {
    "interpolated string": ('s = $"{i}";', "interpolated_string_expression"),
    "unknown identifier": ("i = Mystery.Value;", "identifier 'Mystery'"),
    "member not in the table": ("ok = input.wasCanceled;", "InputField.wasCanceled"),
    "method not in the table": ("input.Frobnicate();", "Frobnicate"),
    "foreach": ("foreach (char ch in s) { }", "foreach_statement"),
    "no matching overload": ('s = i.ToString(1, 2);', "Int32.ToString(int, int)"),
}


@pytest.mark.parametrize("case", sorted(UNTYPABLE))
def test_checker_fails_loudly_on_what_it_cannot_type(case):
    body, needle = UNTYPABLE[case]
    source = SNIPPET.format(body="        " + body, attribute="")
    line = source[:source.index(body)].count("\n") + 1
    with pytest.raises(CheckerError) as excinfo:
        check_project({"Snippet.cs": source, "Other.cs": OTHER})
    message = str(excinfo.value)
    assert "cannot type" in message and needle in message and f"line {line}" in message


# -------------------------------------------------------------------------- the inventory


def test_inventory_is_in_the_docs(inventory, tmp_path):
    text = markdown(inventory)
    artifact = ROOT / "build" / "udon-externs.md"
    try:
        artifact.parent.mkdir(exist_ok=True)
        artifact.write_text(text, encoding="utf-8")
    except OSError:  # a read-only checkout: the artifact goes to pytest's tmp dir
        artifact = Path(tmp_path) / "udon-externs.md"
        artifact.write_text(text, encoding="utf-8")
    section = doc_section(DOC.read_text(encoding="utf-8"))
    assert section is not None, f"{DOC.name} lost its udon-externs markers"
    assert section == text, (
        f"the Udon extern inventory in docs/{DOC.name} is not the current one "
        f"(current: {artifact}); regenerate it with `{REGENERATE}`")
