"""The SDK floor (issue 39): every VRChat extern and event the package's scripts use has an
entry in psl.gen.unity.sdk (the release that introduced it), and the floor the package
declares — package.json, the README, docs/world-setup.md — is the newest of them."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from psl.gen.unity import sdk
from psl.gen.unity.package import build_package

ROOT = Path(__file__).resolve().parent.parent
#: Udon type prefixes of VRChat's own APIs (the rest are .NET and Unity)
VRC_PREFIXES = ("VRCSDK", "VRCUdon", "VRCSDKBase")
EVENT = re.compile(r"public\s+override\s+\w+\s+(\w+)\s*\(")

pytest.importorskip("tree_sitter")


@lru_cache(maxsize=1)
def inventory():
    from tests.udon_support import inventory as inv

    return inv.build()


@lru_cache(maxsize=1)
def scripts() -> dict[str, str]:
    from tests.udon_support.scripts import generated_scripts

    return dict(generated_scripts())


def test_every_vrchat_extern_has_a_release():
    used = [e for e in inventory().externs() if e.startswith(VRC_PREFIXES)]
    assert used, "no VRChat externs found: the inventory changed shape"
    missing = [e for e in used if sdk.api_of_extern(e) is None]
    assert not missing, f"add these to psl/gen/unity/sdk.py with their release: {missing}"


def test_every_vrchat_event_has_a_release():
    events = {m.group(1) for text in scripts().values() for m in EVENT.finditer(text)}
    unity = {"OnEnable", "OnDisable", "Start", "Update", "OnValidate"}
    missing = sorted(e for e in events - unity if sdk.api_of_event(e) is None)
    assert not missing, f"add these events to psl/gen/unity/sdk.py: {missing}"


def test_floor_is_the_newest_api_used():
    used = {sdk.api_of_extern(e) for e in inventory().externs()} | {
        sdk.api_of_event(m.group(1)) for text in scripts().values()
        for m in EVENT.finditer(text)}
    used.discard(None)
    newest = max(a.version for a in used)
    assert sdk.SDK_FLOOR >= newest
    assert sdk.SDK_FLOOR == (3, 10, 0)  # PlayerData's storage events (ProgramSaves)


def test_declared_floor_everywhere():
    files = build_package().files
    [manifest] = [p for p in files if p.endswith("package.json")]
    deps = json.loads(files[manifest])["vpmDependencies"]
    assert deps["com.vrchat.worlds"] == sdk.SDK_RANGE
    needle = f"Worlds SDK {sdk.SDK_FLOOR_TEXT}"
    for doc in ("README.md", "docs/world-setup.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert needle in text, f"{doc} must name {needle}"
        assert "3.5 or newer" not in text
    doc = [line.strip() for line in (ROOT / "docs" / "world-setup.md").read_text(
        encoding="utf-8").splitlines()]
    missing = [row for row in sdk.markdown_table().splitlines() if row not in doc]
    assert not missing, f"docs/world-setup.md: paste psl.gen.unity.sdk.markdown_table(): {missing}"
