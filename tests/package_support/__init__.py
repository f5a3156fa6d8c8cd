"""Helpers for the unity-package tests: loading Unity YAML and walking its references."""

from __future__ import annotations

import re

import yaml

# libyaml's parser when PyYAML has it: the grid mesh assets hold megabytes of hex, which the
# pure-Python scanner reads ten times slower (same resolver and constructor either way)
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class UnityLoader(_SAFE_LOADER):  # type: ignore[valid-type,misc]
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
