"""C# field discovery: the prefab fills a behaviour's public fields by their type, read from
the generated UdonSharp source."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FIELD_RE = re.compile(
    r"^[ \t]*(?:\[[^\]\n]*\][ \t]*)*public[ \t]+(?!static\b|const\b|readonly\b|override\b"
    r"|void\b|class\b)([A-Za-z_][\w.]*(?:\[\])?)[ \t]+([A-Za-z_]\w*)[ \t]*(?:=[^;\n]*)?;",
    re.MULTILINE,
)
_METHOD_RE = re.compile(r"public[ \t]+(?:override[ \t]+)?void[ \t]+([A-Za-z_]\w*)[ \t]*\([ \t]*\)")
_SYNC_RE = re.compile(r"UdonBehaviourSyncMode\s*\(\s*BehaviourSyncMode\.(\w+)")

#: Networking.SyncType values stored in UdonBehaviour._syncMethod
SYNC_METHODS = {"None": 1, "NoVariableSync": 1, "Continuous": 2, "Manual": 3}


@dataclass(frozen=True)
class CSharpClass:
    name: str
    fields: tuple[tuple[str, str], ...]  # (type, name) of public instance fields
    methods: tuple[str, ...]  # public parameterless void methods
    sync_mode: str

    @property
    def sync_method(self) -> int:
        return SYNC_METHODS.get(self.sync_mode, 0)


def parse_csharp_class(name: str, text: str) -> CSharpClass:
    # [NonSerialized] public fields are runtime state: Unity keeps no value for them
    fields = tuple((m.group(1).rsplit(".", 1)[-1], m.group(2)) for m in _FIELD_RE.finditer(text)
                   if "NonSerialized" not in m.group(0))
    methods = tuple(dict.fromkeys(m.group(1) for m in _METHOD_RE.finditer(text)))
    sync = _SYNC_RE.search(text)
    return CSharpClass(name, fields, methods, sync.group(1) if sync else "")
