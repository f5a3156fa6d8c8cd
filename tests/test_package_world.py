"""The world parts of both prefabs (the compact Shaderception.prefab and the original's
proportions, ShaderceptionOriginal.prefab): sharing controls, typing lock, panels, the
monospace font, the default program, and in the original layout the pickup screens and the
per-player quality buttons, each wired to the behaviour and event it needs."""

from __future__ import annotations

import pytest

from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.components import quality, sharing
from psl.gen.unity.layouts import original, standard
from psl.gen.unity.reference import OP_LINES, reference_text
from psl.gen.unity.serialization import BUILTIN_ASSETS, guid_for
from psl.registry import BUILTINS, Op
from tests.package_support import body, load_unity_yaml

NAME = pkg.DEFAULT_NAME
PREFABS = {"standard": "Runtime/Prefabs/Shaderception.prefab",
           "original": pkg.ORIGINAL_PREFAB_PATH}


@pytest.fixture(scope="module")
def package() -> pkg.Package:
    return pkg.build_package()


class Prefab:
    def __init__(self, text: str) -> None:
        self.docs = load_unity_yaml(text)
        self.paths: dict[str, int] = {}
        parents = {}
        for fid, doc in self.docs.items():
            if "Transform" in doc or "RectTransform" in doc:
                t = body(doc)
                for child in t["m_Children"]:
                    parents[child["fileID"]] = fid
        transforms = {body(d)["m_GameObject"]["fileID"]: fid for fid, d in self.docs.items()
                      if "Transform" in d or "RectTransform" in d}
        by_transform = {t: go for go, t in transforms.items()}
        for go, t in transforms.items():
            parts = [body(self.docs[go])["m_Name"]]
            while t in parents:
                t = parents[t]
                parts.append(body(self.docs[by_transform[t]])["m_Name"])
            self.paths["/".join(reversed(parts[:-1]))] = go

    def components(self, path: str) -> list[dict]:
        go = body(self.docs[self.paths[path]])
        return [body(self.docs[c["component"]["fileID"]]) | {"__id": c["component"]["fileID"]}
                for c in go["m_Component"]]

    def script(self, path: str, name: str) -> dict:
        asset = BUILTIN_ASSETS[name]
        found = [c for c in self.components(path)
                 if str(c.get("m_Script", {}).get("guid")) == asset.guid
                 and c["m_Script"]["fileID"] == asset.file_id]
        assert len(found) == 1, (path, name)
        return found[0]

    def proxy(self, path: str, cls: str) -> dict:
        guid = guid_for(NAME, f"Runtime/Scripts/{cls}.cs")
        found = [c for c in self.components(path) if c.get("m_Script", {}).get("guid") == guid]
        assert len(found) == 1, (path, cls)
        return found[0]

    def transform(self, path: str) -> int:
        go = self.paths[path]
        return next(fid for fid, d in self.docs.items() if ("Transform" in d or
                    "RectTransform" in d) and body(d)["m_GameObject"]["fileID"] == go)

    def local(self, path: str) -> dict:
        return body(self.docs[self.transform(path)])

    def backing(self, path: str, cls: str) -> int:
        return self.proxy(path, cls)["_udonSharpBackingUdonBehaviour"]["fileID"]


@pytest.fixture(scope="module", params=sorted(PREFABS))
def prefab(request, package: pkg.Package) -> Prefab:
    return Prefab(package.files[PREFABS[request.param]].decode())


def _calls(event: dict) -> list[tuple[int, str]]:
    return [(c["m_Target"]["fileID"], c["m_Arguments"]["m_StringArgument"])
            for c in event["m_PersistentCalls"]["m_Calls"]]


def test_sharing_buttons_and_follow_toggle_reach_synccode(prefab: Prefab) -> None:
    sync = prefab.backing("SyncCode", "SyncCode")
    for name, event in ((sharing.SHARE_NAME, udonsharp.SHARE_EVENT),
                        (sharing.LOAD_SHARED_NAME, udonsharp.LOAD_SHARED_EVENT),
                        (sharing.RESTORE_NAME, udonsharp.RESTORE_EVENT)):
        button = prefab.script(f"Canvas/{name}", "Button")
        assert _calls(button["m_OnClick"]) == [(sync, event)]
    follow = prefab.script(f"Canvas/{sharing.FOLLOW_NAME}", "Toggle")
    assert _calls(follow["onValueChanged"]) == [(sync, udonsharp.FOLLOW_EVENT)]
    assert follow["m_IsOn"] == int(udonsharp.FOLLOW_DEFAULT)
    proxy = prefab.proxy("SyncCode", "SyncCode")
    assert proxy["follow"] == {"fileID": follow["__id"]}
    info = prefab.script(f"Canvas/{sharing.INFO_NAME}", "Text")
    assert proxy["sharedInfo"] == {"fileID": info["__id"]}
    code = prefab.script("Canvas/CodeInput", "InputField")
    assert proxy["input"] == {"fileID": code["__id"]}
    assert proxy["compiler"] == {"fileID": prefab.proxy("Compiler", "Compiler")["__id"]}


def test_typing_lock_watches_the_code_box_and_the_toggle(prefab: Prefab) -> None:
    proxy = prefab.proxy("TypingLock", "TypingLock")
    code = prefab.script("Canvas/CodeInput", "InputField")
    pin = prefab.script(f"Canvas/{sharing.PIN_NAME}", "Toggle")
    assert proxy["input"] == {"fileID": code["__id"]} and proxy["pin"] == {"fileID": pin["__id"]}
    assert _calls(pin["onValueChanged"]) == [(prefab.backing("TypingLock", "TypingLock"),
                                              udonsharp.PIN_EVENT)]
    assert pin["m_IsOn"] == 0


def test_example_buttons_load_through_synccode(prefab: Prefab) -> None:
    sync_proxy = prefab.proxy("SyncCode", "SyncCode")["__id"]
    examples = [p for p in prefab.paths if p.startswith("Canvas/Examples/Example_")
                and p.count("/") == 2]
    assert examples
    for path in examples:
        assert prefab.proxy(path, "ExampleButton")["share"] == {"fileID": sync_proxy}


def test_code_box_output_and_reference_use_the_vendored_font(prefab: Prefab,
                                                             package: pkg.Package) -> None:
    font = {"fileID": 12800000, "guid": guid_for(NAME, f"Runtime/Fonts/{pkg.FONT}"), "type": 3}
    assert package.files[f"Runtime/Fonts/{pkg.FONT}"][:4] == b"\x00\x01\x00\x00"  # TrueType
    assert "bitstream-vera" in package.files[f"Runtime/Fonts/{pkg.FONT_LICENCE}"].decode()
    for path in ("Canvas/CodeInput/Text",
                 f"Canvas/{standard.OUTPUT_PANEL}/Viewport/{standard.OUTPUT_NAME}",
                 f"{standard.REFERENCE_NAME}/Reference/Viewport/Content"):
        text = prefab.script(path, "Text")
        got = text["m_FontData"]["m_Font"]
        assert {k: str(v) if k == "guid" else v for k, v in got.items()} == font, path


def test_output_and_reference_panels_scroll(prefab: Prefab) -> None:
    output = prefab.script(f"Canvas/{standard.OUTPUT_PANEL}/Viewport/{standard.OUTPUT_NAME}",
                           "Text")
    compiler = prefab.proxy("Compiler", "Compiler")
    assert compiler["output"] == {"fileID": output["__id"]}
    for panel in (f"Canvas/{standard.OUTPUT_PANEL}", f"{standard.REFERENCE_NAME}/Reference"):
        scroll = prefab.script(panel, "ScrollRect")
        assert scroll["m_Vertical"] == 1
        content = f"{panel}/Viewport/" + (
            standard.OUTPUT_NAME if "Output" in panel else "Content")
        assert scroll["m_Content"]["fileID"] == prefab.transform(content)
        assert scroll["m_Viewport"]["fileID"] == prefab.transform(f"{panel}/Viewport")
        prefab.script(f"{panel}/Viewport", "RectMask2D")
        prefab.script(content, "ContentSizeFitter")
    reference = prefab.script(f"{standard.REFERENCE_NAME}/Reference/Viewport/Content", "Text")
    assert reference["m_Text"] == reference_text()
    assert reference["m_FontData"]["m_RichText"] == 1
    assert output["m_FontData"]["m_RichText"] == 0  # '<' in errors and listings stays text


def test_default_program_is_in_the_code_box(prefab: Prefab, package: pkg.Package) -> None:
    code = prefab.script("Canvas/CodeInput", "InputField")
    assert code["m_Text"] == package.files[
        f"Runtime/Examples/{pkg.DEFAULT_PROGRAM}.txt"].decode()


def test_reference_text_covers_the_registry() -> None:
    text = reference_text()
    for b in BUILTINS:
        if b.internal:
            continue
        params = ", ".join("abcd"[k] for k in range(b.arity))
        assert f"<b>{b.name}</b>({params})  {b.doc}" in text, b.name
    assert set(OP_LINES) == {op.name for op in Op}
    for section in ("ABOUT", "SYNTAX", "BUILTINS", "AUDIOLINK", "INSTRUCTIONS"):
        assert f"<b><color=#ffd27f>{section}" in text
    assert len(text) < 16000  # a uGUI Text mesh holds about 16,000 characters


def test_original_layout_proportions_pickups_and_quality(package: pkg.Package) -> None:
    p = Prefab(package.files[pkg.ORIGINAL_PREFAB_PATH].decode())
    # uniform scale: the relief height is in screen widths
    assert p.local("Screen")["m_LocalScale"] == {"x": 15.0, "y": 15.0, "z": 15.0}
    renderers = {c["__id"] for c in p.components("Screen") if "m_Materials" in c}
    for name, size, _x in original.PICKUP_SIZES:
        body_go = body(p.docs[p.paths[name]])
        assert body_go["m_Layer"] == 13  # Pickup
        p.script(name, "VRCPickup")
        p.script(name, "VRCObjectSync")
        kinds = {c.get("m_IsKinematic") for c in p.components(name)}
        assert 1 in kinds  # the kinematic Rigidbody
        assert p.local(f"{name}/Quad")["m_LocalScale"] == {"x": size, "y": size, "z": size}
        renderers |= {c["__id"] for c in p.components(f"{name}/Quad") if "m_Materials" in c}
    assert len(renderers) == 3
    sizes = sorted(pkg.CRT_SIZES)
    for size in sizes:
        path = f"Canvas/{quality.QUALITY_NAME}/Quality_{size}"
        proxy = p.proxy(path, "ScreenQuality")
        assert {r["fileID"] for r in proxy["screens"]} == renderers
        assert str(proxy["screenMaterial"]["guid"]) == guid_for(
            NAME, f"Runtime/Materials/PSL_Screen_{size}.mat")
        assert str(proxy["buffer"]["guid"]) == guid_for(
            NAME, f"Runtime/RenderTextures/PSL_CRT_{size}.asset")
        assert len(proxy["buffers"]) == len(sizes)
        button = p.script(path, "Button")
        assert _calls(button["m_OnClick"]) == [(proxy["_udonSharpBackingUdonBehaviour"]["fileID"],
                                                udonsharp.QUALITY_EVENT)]
    size = p.local("Canvas/CodeInput")["m_SizeDelta"]
    assert (size["x"] * original.SCALE, size["y"] * original.SCALE) == (9.5, 5.0)


def test_listing_button_reaches_the_listing_view(prefab: Prefab, package: pkg.Package) -> None:
    from psl.gen.unity.components import listing

    proxy = prefab.proxy(listing.LISTING_VIEW, "ListingView")
    button = prefab.script(f"Canvas/{listing.LISTING_BUTTON}", "Button")
    assert _calls(button["m_OnClick"]) == [(proxy["_udonSharpBackingUdonBehaviour"]["fileID"],
                                            udonsharp.LISTING_EVENT)]
    output = prefab.script(f"Canvas/{standard.OUTPUT_PANEL}/Viewport/{standard.OUTPUT_NAME}",
                           "Text")
    assert proxy["output"] == {"fileID": output["__id"]}
    assert str(proxy["screenMat"]["guid"]) == guid_for(NAME, "Runtime/Materials/PSL_VM.mat")
