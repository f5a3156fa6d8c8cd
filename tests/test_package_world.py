"""The world parts of both prefabs (the compact Shaderception.prefab and the original's
proportions, ShaderceptionOriginal.prefab): sharing controls, typing lock, panels, the
monospace font, the default program, and in the original layout the pickup screens and the
per-player quality buttons, each wired to the behaviour and event it needs."""

from __future__ import annotations

import pytest

from psl.gen import udonsharp
from psl.gen.unity import package as pkg
from psl.gen.unity.components import camera, livecopy, mirror, quality, sharing, video
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
    # the live copy behind the code box is a program screen too (it follows the resolution)
    renderers |= {c["__id"] for c in p.components(f"Canvas/CodeInput/{livecopy.LIVE_COPY_NAME}/"
                                                   f"{livecopy.LIVE_QUAD_NAME}")
                  if "m_Materials" in c}
    assert len(renderers) == 4
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


# --- issue 39: camera at hand height, the program behind the code, mirror, video player --------


def test_camera_pickup_is_at_hand_height(prefab: Prefab) -> None:
    """Both layouts' camera pickups wait where a standing player's hand reaches them (the
    original world's CameraControl sits at 1.87 m); the root is the floor."""
    y = prefab.local(camera.CAMERA_INPUT_NAME)["m_LocalPosition"]["y"]
    low, high = camera.HAND_HEIGHT
    assert low <= y <= high
    # the pickup hangs from the root, so its local height is its height above the floor
    root_transform = prefab.transform("")
    assert body(prefab.docs[prefab.transform(camera.CAMERA_INPUT_NAME)])["m_Father"] == {
        "fileID": root_transform}


def test_original_camera_is_where_the_original_had_it(package: pkg.Package) -> None:
    p = Prefab(package.files[pkg.ORIGINAL_PREFAB_PATH].decode())
    assert p.local(camera.CAMERA_INPUT_NAME)["m_LocalPosition"]["y"] == 1.87


def test_live_copy_quad_sits_behind_the_code_and_the_toggle_switches_it(
        prefab: Prefab) -> None:
    """<code box>/LiveCopy holds a quad with the program screens' material (the original's
    InputField/Quad with ScreenFlat.mat) and a see-through veil; the code's text is lifted in
    front of both; a Toggle's onValueChanged sets the LiveCopy object active (on at start)."""
    base = f"Canvas/CodeInput/{livecopy.LIVE_COPY_NAME}"
    screen = next(c for c in prefab.components("Screen") if "m_Materials" in c)
    quad = next(c for c in prefab.components(f"{base}/{livecopy.LIVE_QUAD_NAME}")
                if "m_Materials" in c)
    assert quad["m_Materials"] == screen["m_Materials"]  # the screens' render texture
    mesh = next(c for c in prefab.components(f"{base}/{livecopy.LIVE_QUAD_NAME}")
                if "m_Mesh" in c)
    assert mesh["m_Mesh"] == {"fileID": BUILTIN_ASSETS["QuadMesh"].file_id,
                              "guid": BUILTIN_ASSETS["QuadMesh"].guid, "type": 0}
    code = prefab.local("Canvas/CodeInput")["m_SizeDelta"]
    local = prefab.local(f"{base}/{livecopy.LIVE_QUAD_NAME}")
    assert (local["m_LocalScale"]["x"], local["m_LocalScale"]["y"]) == (code["x"], code["y"])
    assert local["m_LocalScale"]["z"] == livecopy.QUAD_DEPTH
    # drawn in order: background (0), quad, veil, text; each nearer the reader (-Z)
    quad_z = local["m_LocalPosition"]["z"]
    veil_z = prefab.local(f"{base}/Veil")["m_LocalPosition"]["z"]
    text_z = prefab.local("Canvas/CodeInput/Text")["m_LocalPosition"]["z"]
    assert 0 > quad_z - livecopy.QUAD_DEPTH > veil_z > text_z
    assert prefab.local("Canvas/CodeInput/Placeholder")["m_LocalPosition"]["z"] == text_z
    veil = prefab.script(f"{base}/Veil", "Image")
    assert veil["m_RaycastTarget"] == 0 and 0 < veil["m_Color"]["a"] < 1
    # the live copy comes before the texts in the hierarchy (uGUI draws in that order)
    children = [c["fileID"] for c in prefab.local("Canvas/CodeInput")["m_Children"]]
    assert children.index(prefab.transform(base)) < children.index(
        prefab.transform("Canvas/CodeInput/Text"))
    toggle = prefab.script(f"Canvas/{livecopy.LIVE_COPY_TOGGLE}", "Toggle")
    (call,) = toggle["onValueChanged"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_Target"] == {"fileID": prefab.paths[base]}
    assert (call["m_MethodName"], call["m_Mode"], call["m_CallState"]) == ("SetActive", 0, 2)
    assert call["m_TargetAssemblyTypeName"] == "UnityEngine.GameObject, UnityEngine"
    assert toggle["m_IsOn"] == body(prefab.docs[prefab.paths[base]])["m_IsActive"] == 1


def test_live_copy_follows_the_guard(prefab: Prefab) -> None:
    """The guard (and in the original the quality buttons) switch the live copy's material
    with the screens', so it always shows the render texture that updates."""
    quad = next(c for c in prefab.components(
        f"Canvas/CodeInput/{livecopy.LIVE_COPY_NAME}/{livecopy.LIVE_QUAD_NAME}")
        if "m_Materials" in c)
    from psl.gen.unity.components import guard

    proxy = prefab.proxy(guard.GUARD_OBJECT, "FrameGuard")
    assert {"fileID": quad["__id"]} in proxy["screens"]


def test_original_mirror_and_its_toggle(package: pkg.Package) -> None:
    p = Prefab(package.files[pkg.ORIGINAL_PREFAB_PATH].decode())
    go = body(p.docs[p.paths[mirror.MIRROR_NAME]])
    assert go["m_IsActive"] == 0 and go["m_Layer"] == mirror.MIRROR_LAYER
    reflection = p.script(mirror.MIRROR_NAME, "VRCMirrorReflection")
    assert reflection["m_ReflectLayers"]["m_Bits"] == mirror.REFLECT_ALL
    renderer = next(c for c in p.components(mirror.MIRROR_NAME) if "m_Materials" in c)
    material = BUILTIN_ASSETS["VRCMirrorMaterial"]
    assert [{**m, "guid": str(m["guid"])} for m in renderer["m_Materials"]] == [
        {"fileID": material.file_id, "guid": material.guid, "type": material.type}]
    local = p.local(mirror.MIRROR_NAME)
    assert local["m_LocalPosition"]["y"] - local["m_LocalScale"]["y"] / 2 == pytest.approx(0.3)
    assert local["m_LocalRotation"] == {"x": 0, "y": 0, "z": 0, "w": 1}  # faces -Z, the players
    toggle = p.script(f"Canvas/{mirror.MIRROR_TOGGLE}", "Toggle")
    (call,) = toggle["onValueChanged"]["m_PersistentCalls"]["m_Calls"]
    assert call["m_Target"] == {"fileID": p.paths[mirror.MIRROR_NAME]}
    assert (call["m_MethodName"], call["m_Mode"]) == ("SetActive", 0)
    assert toggle["m_IsOn"] == 0
    # the compact prefab has none
    standard_prefab = Prefab(package.files[PREFABS["standard"]].decode())
    assert mirror.MIRROR_NAME not in standard_prefab.paths


def test_video_player_feeds_video_and_its_audio_source(prefab: Prefab,
                                                       package: pkg.Package) -> None:
    """VRC Unity Video Player -> PSL_Video.renderTexture, which the VM material samples as
    _Video with _IsAVProInput 0; its sound goes to its own AudioSource."""
    rt_guid = guid_for(NAME, pkg.VIDEO_TEXTURE_PATH)
    player = prefab.script(video.VIDEO_PLAYER_NAME, "VRCUnityVideoPlayer")
    assert player["renderMode"] == video.RENDER_MODE_TEXTURE
    assert {**player["targetTexture"], "guid": str(player["targetTexture"]["guid"])} == {
        "fileID": 8400000, "guid": rt_guid, "type": 2}
    audio = next(c for c in prefab.components(video.VIDEO_PLAYER_NAME)
                 if prefab.docs[c["__id"]]["__class__"] == 82)
    assert player["targetAudioSources"] == [{"fileID": audio["__id"]}]
    assert audio["m_PlayOnAwake"] == 0
    assert player["autoPlay"] == 1 and player["loop"] == 1
    from tests.package_support import load_unity_yaml as load

    (mat,) = load(package.files["Runtime/Materials/PSL_VM.mat"].decode()).values()
    props = body(mat)["m_SavedProperties"]
    textures = {k: v for d in props["m_TexEnvs"] for k, v in d.items()}
    floats = {k: v for d in props["m_Floats"] for k, v in d.items()}
    assert str(textures[pkg.VIDEO_PROPERTY]["m_Texture"]["guid"]) == rt_guid
    assert floats[pkg.AVPRO_PROPERTY] == 0
    (rt,) = load(package.files[pkg.VIDEO_TEXTURE_PATH].decode()).values()
    assert (body(rt)["m_Width"], body(rt)["m_Height"]) == (video.VIDEO_WIDTH, video.VIDEO_HEIGHT)


def test_setup_menu_wires_audiolink_mirror_and_live_copy(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert f'const string VideoPlayerPath = "{video.VIDEO_PLAYER_NAME}";' in script
    assert f'VideoTextureGuid = "{guid_for(NAME, pkg.VIDEO_TEXTURE_PATH)}"' in script
    assert "RepairVideoPlayer(t, vm);" in script
    # AudioLink, when present, listens to the package player's AudioSource
    assert 'FindType("AudioLink")' in script and '"audioSource"' in script
    assert (f'LiveCopyQuadPath = "Canvas/CodeInput/{livecopy.LIVE_COPY_NAME}/'
            f'{livecopy.LIVE_QUAD_NAME}"') in script
    assert f'MirrorPath = "{mirror.MIRROR_NAME}"' in script


# --- issue 39 item 7: a URL field for players' own video ------------------------------------


def test_video_controls_play_the_url_field_through_video_url(prefab: Prefab) -> None:
    """Enter in the URL field and the Play button send Play, Stop sends Stop, to VideoUrl on
    the player's own object (where VRChat sends OnVideoError); its player, urlField and
    status fields point at the player, the field and the status line."""
    player_path = video.VIDEO_PLAYER_NAME
    controls = f"{player_path}/{video.CONTROLS_NAME}"
    proxy = prefab.proxy(player_path, video.VIDEO_URL_CLASS)
    backing = prefab.backing(player_path, video.VIDEO_URL_CLASS)
    player = prefab.script(player_path, "VRCUnityVideoPlayer")
    field = prefab.script(f"{controls}/{video.URL_FIELD}", "VRCUrlInputField")
    status = prefab.script(f"{controls}/{video.STATUS}", "Text")
    assert proxy["player"] == {"fileID": player["__id"]}
    assert proxy["urlField"] == {"fileID": field["__id"]}
    assert proxy["status"] == {"fileID": status["__id"]}
    assert _calls(field["m_OnEndEdit"]) == [(backing, udonsharp.VIDEO_PLAY_EVENT)]
    play = prefab.script(f"{controls}/{video.PLAY_BUTTON}", "Button")
    stop = prefab.script(f"{controls}/{video.STOP_BUTTON}", "Button")
    assert _calls(play["m_OnClick"]) == [(backing, udonsharp.VIDEO_PLAY_EVENT)]
    assert _calls(stop["m_OnClick"]) == [(backing, udonsharp.VIDEO_STOP_EVENT)]
    # a world canvas VRChat's pointer can use
    assert prefab.script(controls, "VRCUiShape") is not None


def test_video_url_plays_only_a_url_and_reports_errors() -> None:
    text = udonsharp.TARGET.render()["VideoUrl.cs"]
    assert "public BaseVRCVideoPlayer player;" in text
    assert "public VRCUrlInputField urlField;" in text
    assert f"public void {udonsharp.VIDEO_PLAY_EVENT}()" in text
    assert f"public void {udonsharp.VIDEO_STOP_EVENT}()" in text
    assert "player.PlayURL(url);" in text and "text.Trim().Length == 0" in text
    assert "public override void OnVideoError(VideoError videoError)" in text


def test_setup_menu_repairs_the_video_controls(package: pkg.Package) -> None:
    script = package.files["Editor/ShaderceptionSetup.cs"].decode()
    assert (f'VideoControlsPath = VideoPlayerPath + "/{video.CONTROLS_NAME}"') in script
    assert "RepairVideoControls(root, playerObject, player);" in script
    assert f'FindBehaviourType("{video.VIDEO_URL_CLASS}")' in script
    assert "SetClick(play, videoUrl, VideoPlayEvent);" in script
    assert "SetEndEdit(urlField, videoUrl, VideoPlayEvent);" in script
    assert "SetClick(stop, videoUrl, VideoStopEvent);" in script
    assert (f'VideoPlayEvent = "{udonsharp.VIDEO_PLAY_EVENT}", '
            f'VideoStopEvent = "{udonsharp.VIDEO_STOP_EVENT}"') in script
