"""`psl lsp` driven over stdio by a JSON-RPC client (tests/lsp_support/client.py), as an
editor drives it: every feature on corpus programs and on broken, half-typed text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from psl.fmt import format_source
from psl.gen import docs, vscode
from tests.lsp_support.client import Client, ResponseError

try:
    import pygls  # noqa: F401
    from lsprotocol import types

    from psl.lsp.text import LineIndex
except ImportError:  # the VS Code checks below still run
    types = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
VSIX = EXTENSION / "psl-vscode.vsix"

CORPUS = Path(__file__).parent / "corpus"
PONG = (CORPUS / "scene_pong_by_fuopy.psl").read_text(encoding="utf-8")
DYNAMIC = """let v = 1;
if (uv().x > 0.5) {
    v = float3(1, 2, 3);
}
let w = v;
fun scale(p) {
    let k = p * 2;
    k
}
scale(w).xyz
"""


@pytest.fixture(scope="module")
def lsp():
    if types is None:
        pytest.skip("the lsp extra (pygls, lsprotocol) is not installed")
    client = Client.start()
    result = client.initialize({"textDocument": {"hover": {"contentFormat": ["markdown"]},
                                                 "rename": {"prepareSupport": True}}})
    client.capabilities = result["capabilities"]
    yield client
    assert client.shutdown() == 0
    log = client.stderr.decode(errors="replace")
    # pygls logs the refused renames (answered as InvalidParams errors); nothing else
    crashes = [t for t in log.split("Traceback")[1:] if "JsonRpcInvalidParams" not in t]
    assert not crashes, log


_versions: dict[str, int] = {}


def _open(lsp: Client, name: str, text: str) -> tuple[str, list[dict]]:
    uri = f"file:///work/{name}"
    if uri in _versions:
        _versions[uri] += 1
        lsp.change(uri, text, _versions[uri])
    else:
        _versions[uri] = 1
        lsp.open(uri, text, 1)
    return uri, lsp.diagnostics(uri, _versions[uri])


def _find(text: str, needle: str, nth: int = 0, delta: int = 0) -> tuple[int, int]:
    """(line, character) of the nth `needle`, plus `delta` characters (ASCII text)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def test_capabilities(lsp: Client) -> None:
    caps = lsp.capabilities
    for key in ("hoverProvider", "completionProvider", "signatureHelpProvider",
                "definitionProvider", "referencesProvider", "renameProvider",
                "documentSymbolProvider", "documentFormattingProvider", "inlayHintProvider"):
        assert caps.get(key), key
    assert caps["completionProvider"]["triggerCharacters"] == ["."]
    assert caps["renameProvider"] == {"prepareProvider": True}


def test_diagnostics_on_corpus_programs(lsp: Client) -> None:
    uri, diags = _open(lsp, "pong.psl", PONG)
    unused = [d for d in diags if d["code"] == "W002"]
    assert len(unused) == 3
    assert unused[0]["range"] == {"start": {"line": 23, "character": 4},
                                  "end": {"line": 23, "character": 18}}
    assert unused[0]["severity"] == types.DiagnosticSeverity.Warning
    assert unused[0]["source"] == "psl"
    for path in sorted(CORPUS.glob("*.psl")):
        _, diags = _open(lsp, path.name, path.read_text(encoding="utf-8"))
        assert all(d["severity"] != types.DiagnosticSeverity.Error for d in diags), path


def test_diagnostic_kinds_hints_and_utf16_columns(lsp: Client) -> None:
    _, diags = _open(lsp, "kinds.psl", "let a = sin(1, 2);\na\n")
    assert diags[0]["code"] == "E011" and diags[0]["severity"] == 1
    _, diags = _open(lsp, "note.psl", "uv()\n")
    assert [d["code"] for d in diags] == ["N001"]
    assert diags[0]["severity"] == types.DiagnosticSeverity.Information
    _, diags = _open(lsp, "hint.psl", "let a = 1;\nlet b = (a;\n")
    assert diags[0]["code"] == "E005" and "help: expected" in diags[0]["message"]
    # an astral character is one psl column but two UTF-16 code units
    _, diags = _open(lsp, "emoji.psl", "a = \U0001F600;\n")
    assert diags[0]["code"] == "E001"
    assert diags[0]["range"] == {"start": {"line": 0, "character": 4},
                                 "end": {"line": 0, "character": 6}}


def test_half_typed_lines_never_crash_the_server(lsp: Client) -> None:
    base = (CORPUS / "scene_raymarch.psl").read_text(encoding="utf-8")
    line = "let glow = clamp(length(uv() - 0.5).x, 0, 1) * float3(1, 0.5, 0.25);"
    uri, _ = _open(lsp, "typing.psl", base)
    last_line = base.count("\n")
    for k in range(1, len(line) + 1):
        text = base + line[:k]
        _versions[uri] += 1
        lsp.change(uri, text, _versions[uri])
        # ask for everything at the cursor while the text is broken
        lsp.at("textDocument/completion", uri, last_line, k)
        lsp.at("textDocument/hover", uri, last_line, k)
        lsp.at("textDocument/signatureHelp", uri, last_line, k)
    diags = lsp.diagnostics(uri, _versions[uri])  # debounced: the last version answers
    assert diags and diags[0]["severity"] in (1, 2, 3)
    for broken in ["fun", "fun f(", "fun f(a) { if (", "x = .", "}}}", "a.", "((((", "\u00e9"]:
        _, diags = _open(lsp, "broken.psl", broken)
        assert diags[0]["severity"] == types.DiagnosticSeverity.Error
        lsp.at("textDocument/completion", "file:///work/broken.psl", 0, len(broken))
        lsp.at("textDocument/definition", "file:///work/broken.psl", 0, 1)
        lsp.request("textDocument/documentSymbol",
                    {"textDocument": {"uri": "file:///work/broken.psl"}})


def test_hover(lsp: Client) -> None:
    uri, _ = _open(lsp, "pong.psl", PONG)
    hover = lsp.at("textDocument/hover", uri, *_find(PONG, "uv();", delta=1))
    assert "texture coordinate" in hover["contents"]["value"]
    assert "This call: `float2`" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(PONG, "dt = ", delta=1))
    assert "`dt: float`" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(PONG, "ballSample.xy", delta=11))
    assert "float2" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(PONG, "fun hitbox", delta=5))
    assert "fun hitbox(apos, asize, bpos, bsize)" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(PONG, "hitbox(", nth=1, delta=2))
    assert "This call binds `apos: " in hover["contents"]["value"]
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    hover = lsp.at("textDocument/hover", uri, *_find(DYNAMIC, "= v;", delta=2))
    assert "`v: float|float3`" in hover["contents"]["value"]
    assert lsp.at("textDocument/hover", uri, 0, 1) is None  # the keyword `let`
    # operators: the width the inference gives the value they compute (float2 + float3 is
    # a float2: lane z becomes NaN), not a guess from the operands
    mixed = "let m = uv() + float3(1, 2, 3);\nlet n = -m * 2;\nfloat4(n.x, n.y, 0, 1)\n"
    uri, _ = _open(lsp, "mixed.psl", mixed)
    hover = lsp.at("textDocument/hover", uri, *_find(mixed, "+ float3"))
    assert "`+` gives: `float2`" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(mixed, "-m"))
    assert "`-` gives: `float2`" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(mixed, "float3("))
    assert "This call: `float3`" in hover["contents"]["value"]


def test_completion(lsp: Client) -> None:
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    items = lsp.at("textDocument/completion", uri, 6, 12)["items"]
    labels = {i["label"]: i for i in items}
    assert {"sin", "clamp", "while", "scale", "v", "w", "p", "k"} <= set(labels)
    assert labels["clamp"]["detail"].startswith("clamp(a, b, c)")
    assert labels["w"]["detail"] == "variable: float|float3"
    assert "swizzle" not in labels
    top = {i["label"] for i in lsp.at("textDocument/completion", uri, 9, 0)["items"]}
    assert "p" not in top and "k" not in top  # the function's own names stay inside it
    _, _ = _open(lsp, "dot.psl", "let v = uv();\nv.")
    items = lsp.at("textDocument/completion", "file:///work/dot.psl", 1, 2)["items"]
    assert {"x", "y", "rgba", "xyz"} <= {i["label"] for i in items}
    assert "sin" not in {i["label"] for i in items}


SLIDERS = """//@slider 0 zoom 0.5..4 = 1
//@slider 3 light_angle -3.14..3.14 = 0.8
let p = (uv() - 0.5) * slider(0);
let a = slider(3) + slider(5);
float4(p.x, p.y, a, 1)
"""


def test_slider_hover(lsp: Client) -> None:
    uri, diags = _open(lsp, "sliders.psl", SLIDERS)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("W017", 3)]
    hover = lsp.at("textDocument/hover", uri, *_find(SLIDERS, "slider(0)", delta=2))
    text = hover["contents"]["value"]
    assert "slider(0) **zoom**: 0.5..4, starts at 1 (line 1)" in text
    assert "This call: `float`" in text
    hover = lsp.at("textDocument/hover", uri, *_find(SLIDERS, "slider(3)", delta=7))
    assert "**light_angle**: -3.14..3.14, starts at 0.8 (line 2)" in hover["contents"]["value"]
    hover = lsp.at("textDocument/hover", uri, *_find(SLIDERS, "slider(5)", delta=1))
    assert "slider(5): no `//@slider` line names it, so it reads 0" in \
        hover["contents"]["value"]


def test_slider_completion(lsp: Client) -> None:
    text = SLIDERS.replace("slider(5)", "slider(")
    uri, _ = _open(lsp, "sliders.psl", text)
    items = lsp.at("textDocument/completion", uri, *_find(text, "slider(", nth=2, delta=7))
    labels = {i["label"]: i for i in items["items"]}
    assert set(labels) == {str(k) for k in range(8)}
    assert labels["0"]["detail"] == "zoom 0.5..4 = 1"
    assert labels["3"]["detail"] == "light_angle -3.14..3.14 = 0.8"
    assert labels["5"]["detail"] == "unnamed: reads 0"
    # the named ones first
    order = sorted(labels.values(), key=lambda i: i["sortText"])
    assert [i["label"] for i in order[:2]] == ["0", "3"]


def test_signature_help(lsp: Client) -> None:
    text = "let a = clamp(uv().x, sin(1), "
    _open(lsp, "sig.psl", text)
    help_ = lsp.at("textDocument/signatureHelp", "file:///work/sig.psl", 0, len(text))
    assert help_["signatures"][0]["label"] == "clamp(a, b, c)"
    assert help_["activeParameter"] == 2
    assert help_["signatures"][0]["parameters"][2]["label"] == [12, 13]
    help_ = lsp.at("textDocument/signatureHelp", "file:///work/sig.psl", 0, 26)
    assert help_["signatures"][0]["label"] == "sin(a)"
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    help_ = lsp.at("textDocument/signatureHelp", uri, 9, 6)
    assert help_["signatures"][0]["label"] == "scale(p)"


def test_definition_and_references(lsp: Client) -> None:
    uri, _ = _open(lsp, "pong.psl", PONG)
    call = _find(PONG, "hitbox(", nth=1, delta=2)
    found = lsp.at("textDocument/definition", uri, *call)
    assert found["range"]["start"] == dict(zip(("line", "character"),
                                               _find(PONG, "hitbox("), strict=True))
    refs = lsp.at("textDocument/references", uri, *call,
                  context={"includeDeclaration": True})
    assert len(refs) == PONG.count("hitbox(")
    use = _find(PONG, "ballSample.xy", delta=2)
    found = lsp.at("textDocument/definition", uri, *use)
    assert found["range"]["start"] == dict(zip(("line", "character"),
                                               _find(PONG, "ballSample ="), strict=True))
    refs = lsp.at("textDocument/references", uri, *use,
                  context={"includeDeclaration": False})
    assert len(refs) == PONG.count("ballSample") - 1
    # a parameter is its function's own
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    found = lsp.at("textDocument/definition", uri, 6, 12)
    assert found["range"]["start"] == {"line": 5, "character": 10}


def _apply(text: str, edits: list[dict]) -> str:
    index = LineIndex(text)
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                             e["range"]["start"]["character"]), reverse=True):
        start = index.offset(types.Position(**edit["range"]["start"]))
        end = index.offset(types.Position(**edit["range"]["end"]))
        text = text[:start] + edit["newText"] + text[end:]
    return text


def test_rename(lsp: Client) -> None:
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    prepared = lsp.at("textDocument/prepareRename", uri, 4, 4)
    assert prepared["start"] == {"line": 4, "character": 4}
    edit = lsp.at("textDocument/rename", uri, 4, 4, newName="wide")
    renamed = _apply(DYNAMIC, edit["changes"][uri])
    assert "let wide = v;" in renamed and "scale(wide).xyz" in renamed
    edit = lsp.at("textDocument/rename", uri, 5, 5, newName="grow")
    renamed = _apply(DYNAMIC, edit["changes"][uri])
    assert "fun grow(p)" in renamed and "grow(w).xyz" in renamed
    with pytest.raises(ResponseError):
        lsp.at("textDocument/rename", uri, 5, 5, newName="sin")
    with pytest.raises(ResponseError):
        lsp.at("textDocument/rename", uri, 4, 4, newName="while")
    assert lsp.at("textDocument/prepareRename", uri, 1, 5) is None  # `uv` is a builtin


def test_document_symbols(lsp: Client) -> None:
    uri, _ = _open(lsp, "pong.psl", PONG)
    symbols = lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    functions = [s["name"] for s in symbols if s["kind"] == types.SymbolKind.Function]
    assert functions[:3] == ["pointbox", "hitbox", "UpdatePower"]
    variables = {s["name"]: s for s in symbols if s["kind"] == types.SymbolKind.Variable}
    assert variables["uv"]["detail"] == "float2"
    hitbox = next(s for s in symbols if s["name"] == "hitbox")
    assert [c["name"] for c in hitbox["children"]] == ["apos", "asize", "bpos", "bsize"]


def test_formatting(lsp: Client) -> None:
    for name in ("scene_fbm.psl", "scene_pong_by_fuopy.psl", "apps_Sobel.psl"):
        text = (CORPUS / name).read_text(encoding="utf-8")
        uri, _ = _open(lsp, name, text)
        edits = lsp.request("textDocument/formatting", {
            "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}})
        assert _apply(text, edits or []) == format_source(text)
    uri, _ = _open(lsp, "broken.psl", "let a = (1;")
    edits = lsp.request("textDocument/formatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}})
    assert not edits
    shown = lsp.wait_for("window/showMessage")
    assert "1:11" in shown["message"]


def test_inlay_hints(lsp: Client) -> None:
    uri, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    hints = lsp.request("textDocument/inlayHint", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 10, "character": 0}}})
    got = {(h["position"]["line"], h["position"]["character"]): h["label"] for h in hints}
    assert got[(0, 5)] == ": float"
    assert got[(2, 5)] == ": float3"
    assert got[(4, 5)] == ": float|float3"
    assert got[(6, 9)] == ": float|float3"  # k, in the one call scale(w)
    uri, _ = _open(lsp, "pong.psl", PONG)
    hints = lsp.request("textDocument/inlayHint", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}})
    assert [h["label"] for h in hints] == [": float2", ": float"]


# --------------------------------------------------------------------- VS Code
def test_extension_files_are_the_generated_ones() -> None:
    generated = vscode.TARGET.render()
    grammar = generated[vscode.GRAMMAR]
    assert grammar == docs.TARGET.render()["editors/psl.tmLanguage.json"]
    assert (ROOT / "docs/editors/psl.tmLanguage.json").read_text(encoding="utf-8") == grammar
    for name, text in generated.items():
        on_disk = (EXTENSION / name).read_text(encoding="utf-8")
        assert on_disk == text, f"editors/vscode/{name} is stale: run python -m psl.gen.vscode"
        json.loads(text)


def test_extension_manifest() -> None:
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "psl" and language["extensions"] == [".psl"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["path"] == "./" + vscode.GRAMMAR and grammar["scopeName"] == "source.psl"
    assert (EXTENSION / language["configuration"]).is_file()
    assert "psl.pythonPath" in manifest["contributes"]["configuration"]["properties"]
    assert "vscode-languageclient" in manifest["dependencies"]
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert "node_modules/@vscode/vsce" in lock["packages"]


def _build_vsix() -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to build the .vsix")
    subprocess.run(["bash", str(EXTENSION / "build.sh")], check=True, timeout=600,
                   env={**os.environ, "PYTHON": os.environ.get("PYTHON", "python3")})


@pytest.mark.slow
def test_vsix_contains_the_generated_grammar() -> None:
    """Checks a built editors/vscode/psl-vscode.vsix; with PSL_BUILD_VSIX=1 it builds one
    first (npm ci from the registry and vsce, about 30 s)."""
    if os.environ.get("PSL_BUILD_VSIX") == "1":
        _build_vsix()
    if not VSIX.exists():
        pytest.skip("no editors/vscode/psl-vscode.vsix: build it with editors/vscode/build.sh "
                    "or set PSL_BUILD_VSIX=1")
    with zipfile.ZipFile(VSIX) as vsix:
        names = set(vsix.namelist())
        grammar = vsix.read("extension/" + vscode.GRAMMAR).decode("utf-8")
        config = vsix.read("extension/" + vscode.LANGUAGE_CONFIGURATION).decode("utf-8")
        manifest = json.loads(vsix.read("extension/package.json"))
    generated = vscode.TARGET.render()
    assert grammar == generated[vscode.GRAMMAR]
    assert config == generated[vscode.LANGUAGE_CONFIGURATION]
    assert manifest["contributes"]["languages"][0]["id"] == "psl"
    assert "extension/extension.js" in names
    assert "extension/node_modules/vscode-languageclient/package.json" in names
    assert not any("@vscode/vsce/" in n for n in names)  # build tools stay out


def _deep_nest(depth: int) -> str:
    """`depth` nested counted loops in a function called twice: about a second of width
    inference (tests/test_inference_budget.py counts its work)."""
    heads = "".join(f"for (let i{k} = 0; i{k} < 2; i{k}++) {{\n" for k in range(depth))
    return (f"fun f(a) {{\n{heads}a = a - 1;\n" + "}\n" * depth
            + "a\n}\nlet c = f(3) + f(uv().x);\nfloat4(c, c, 0, 1)\n")


def test_a_deep_nest_does_not_hold_up_requests(lsp: Client) -> None:
    """Requests are answered while a long analysis runs; a newer text cancels it."""
    other, _ = _open(lsp, "dynamic.psl", DYNAMIC)
    text = _deep_nest(60)
    uri = "file:///work/deep_nest.psl"
    lsp.open(uri, text, 1)
    lsp.change(uri, text.replace("f(3)", "f(4)"), 2)  # supersedes version 1 at once
    hover = lsp.at("textDocument/hover", other, *_find(DYNAMIC, "= v;", delta=2))
    assert "`v: float|float3`" in hover["contents"]["value"]
    items = lsp.at("textDocument/completion", uri, text.count("\n") - 1, 0)["items"]
    assert {"f", "c", "sin"} <= {i["label"] for i in items}
    # Both answers came before the nest's diagnostics: the client reads in order, so a
    # notification sent before them would be queued already.
    queued = [m for m in list(lsp.notifications.queue)
              if m.get("method") == "textDocument/publishDiagnostics"
              and m["params"]["uri"] == uri]
    assert queued == []
    versions: list[int] = []

    def newest(params: dict) -> bool:
        if params["uri"] != uri:
            return False
        versions.append(params.get("version"))
        return params.get("version") == 2

    diags = lsp.wait_for("textDocument/publishDiagnostics", newest)["diagnostics"]
    assert versions == [2]  # version 1's analysis was cancelled, never published
    assert "W008" in {d["code"] for d in diags} and "N003" not in {d["code"] for d in diags}


def test_inlay_hints_are_asked_again_after_an_analysis() -> None:
    """A client that can refresh inlay hints is asked to once each analysis is done (hints
    asked for meanwhile came from the quick analysis, without widths)."""
    if types is None:
        pytest.skip("the lsp extra (pygls, lsprotocol) is not installed")
    client = Client.start()
    try:
        client.initialize({"workspace": {"inlayHint": {"refreshSupport": True}}})
        client.open("file:///work/refresh.psl", DYNAMIC, 1)
        client.diagnostics("file:///work/refresh.psl", 1)
        methods = []
        while "workspace/inlayHint/refresh" not in methods:  # a request: it has no params
            methods.append(client.notifications.get(timeout=client.timeout).get("method"))
    finally:
        assert client.shutdown() == 0


def test_a_bom_is_accepted_as_the_cli_accepts_it(tmp_path: Path) -> None:
    """A file that starts with a UTF-8 BOM: the CLI reads it without the BOM and compiles
    it; the server compiles the same program, and its diagnostics point at the same
    characters of the document (which holds the BOM)."""
    from psl.cli.common import read_source
    from psl.lsp.document import analyse
    from psl.lsp.text import BOM

    ok = "x = uv().x;\nfloat3(x, 0, 1)\n"
    bad = "x = (1;\n"
    assert analyse("file:///a.psl", BOM + ok).result.ok
    assert analyse("file:///a.psl", BOM + ok).result.diagnostics == \
        analyse("file:///a.psl", ok).result.diagnostics
    doc = analyse("file:///b.psl", BOM + bad)
    (err,) = [d for d in doc.result.diagnostics if d.code.startswith("E")]
    rng = doc.index.span_range(err.span)
    assert doc.text[doc.index.offset(rng.start)] == ";"  # E005 at the ';' after the BOM
    probe = tmp_path / "bom.psl"
    probe.write_bytes((BOM + ok).encode("utf-8"))
    assert read_source(str(probe)) == ok  # what the CLI compiles
