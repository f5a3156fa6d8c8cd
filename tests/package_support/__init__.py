"""Helpers for the unity-package tests: Unity YAML loading and a package built once per session.

When psl.gen.udonsharp cannot render yet (it is written in parallel), the session package is
built from PLACEHOLDER_CS below; the tests that compare with the real generator then skip with
that reason. The placeholders follow the class contract (fields and events) of the real ones.
"""

from __future__ import annotations

import re

import yaml

PLACEHOLDER_CS = {
    "Compiler.cs": """using UdonSharp;
using UnityEngine;
using UnityEngine.UI;

[UdonBehaviourSyncMode(BehaviourSyncMode.None)]
public class Compiler : UdonSharpBehaviour
{
    public InputField input;
    public Text output;
    public Material screenMat;
    public SyncCode sync;
    public void Compile() { }
    public void CompileReceived() { }
}
""",
    "SyncCode.cs": """using UdonSharp;
using UnityEngine.UI;

[UdonBehaviourSyncMode(BehaviourSyncMode.Manual)]
public class SyncCode : UdonSharpBehaviour
{
    [UdonSynced] public string code;
    public InputField input;
    public Compiler compiler;
    public void Share() { }
    public override void OnDeserialization() { }
}
""",
    "ExampleButton.cs": """using UdonSharp;
using UnityEngine;
using UnityEngine.UI;

public class ExampleButton : UdonSharpBehaviour
{
    public Compiler compiler;
    public InputField input;
    public TextAsset code;
    public void Load() { }
}
""",
}


def udonsharp_unavailable_reason() -> str | None:
    """None when psl.gen.udonsharp renders; otherwise why not (used as a skip reason)."""
    try:
        from psl.gen.udonsharp import render_udonsharp
    except ImportError as exc:
        return f"psl.gen.udonsharp not importable yet: {exc}"
    try:
        render_udonsharp()
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
        return f"psl.gen.udonsharp cannot render yet: {type(exc).__name__}: {exc}"
    return None


class UnityLoader(yaml.SafeLoader):
    """SafeLoader that accepts Unity's `!u!<class>` tags (kept as a `__class__` key)."""


def _unity_object(loader: UnityLoader, suffix: str, node: yaml.Node) -> dict:
    value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    return {"__class__": int(suffix), **value}


UnityLoader.add_multi_constructor("tag:unity3d.com,2011:", _unity_object)

_HEADER_RE = re.compile(r"^--- !u!(\d+) &(-?\d+)( stripped)?$", re.MULTILINE)


def load_unity_yaml(text: str) -> dict[int, dict]:
    """fileID -> {"__class__": classID, TypeName: body} for every document of a Unity file."""
    ids = [int(m.group(2)) for m in _HEADER_RE.finditer(text)]
    # A %TAG directive only covers the first document in YAML, but Unity uses `!u!` in all of
    # them: spell the tag out verbatim instead. Unity's "stripped" marker carries no data here.
    text = re.sub(r"^--- !u!(\d+)", r"--- !<tag:unity3d.com,2011:\1>", text, flags=re.MULTILINE)
    text = text.replace(" stripped\n", "\n")
    docs = list(yaml.load_all(text, Loader=UnityLoader))
    assert len(docs) == len(ids), "every document needs a `--- !u!class &fileID` header"
    return dict(zip(ids, docs, strict=True))


def body(doc: dict) -> dict:
    """The mapping under the document's single type key (GameObject:, MonoBehaviour:, ...)."""
    keys = [k for k in doc if k != "__class__"]
    assert len(keys) == 1
    return doc[keys[0]]


def walk_refs(value: object):
    """Every {fileID: ...} mapping nested in a parsed value."""
    if isinstance(value, dict):
        if "fileID" in value:
            yield value
        for v in value.values():
            yield from walk_refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk_refs(v)


def generated_override() -> dict[str, str] | None:
    """What to pass as `generated` to build_package: placeholders while udonsharp is missing."""
    return dict(PLACEHOLDER_CS) if udonsharp_unavailable_reason() else None
