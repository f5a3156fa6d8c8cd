"""`psl-gen unity-package`: the VPM package (zip), the .unitypackage and a VCC listing.

The package is assembled in memory from three sources:
- static files in unity_package/ (README, CHANGELOG, LICENSE, the example programs);
- the other generators, called at generation time: psl.gen.udonsharp (Compiler.cs,
  SyncCode.cs, ExampleButton.cs) and psl.gen.hlsl (VM.shader, VM.cginc, Screen.shader);
- Unity assets: materials, render textures, UdonSharp program assets and the U# assembly
  definition (psl.gen.unity.assets), the prefabs (one layout module each in
  psl.gen.unity.layouts, composing psl.gen.unity.components), and the editor setup script.

Every file and folder gets a .meta whose GUID is md5("<package name>:<path>"), so GUIDs are
stable across releases and two runs give byte-identical archives.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from psl import registry
from psl._version import __version__
from psl.gen import hlsl, udonsharp, world_programs
from psl.gen.env import render
from psl.gen.unity import assets as ua
from psl.gen.unity import mesh as um
from psl.gen.unity.archives import Entry, PackageTree, unitypackage_bytes, vpm_zip_bytes
from psl.gen.unity.components import (
    camera,
    guard,
    listing,
    livecopy,
    mirror,
    quality,
    relief,
    sharing,
    sliders,
    video,
)
from psl.gen.unity.components import programs as programs_panel
from psl.gen.unity.components.builder import PrefabAssets
from psl.gen.unity.csharp import CSharpClass, parse_csharp_class
from psl.gen.unity.layouts import original, standard
from psl.gen.unity.reference import reference_text
from psl.gen.unity.sdk import SDK_RANGE
from psl.gen.unity.serialization import (
    BUILTIN_GUIDS,
    CRT_ID,
    NULL,
    RENDER_TEXTURE_ID,
    guid_for,
    guid_references,
    meta_for,
    ref,
)
from psl.resources import unity_package_dir

DEFAULT_NAME = "com.psl.shaderception"
DEFAULT_OUT = Path("dist")
CRT_SIZES = (64, 128, 256, 512)
DEFAULT_CRT_SIZE = 256
CAMERA_TEXTURE_PATH = "Runtime/RenderTextures/PSL_Camera.renderTexture"
CAMERA_PROPERTY = "_Camera"  # the VM shader's texture that camera() samples
VIDEO_TEXTURE_PATH = "Runtime/RenderTextures/PSL_Video.renderTexture"
#: the VM shader's texture that video() samples, and its flag for AVPro's flipped frames
VIDEO_PROPERTY, AVPRO_PROPERTY = "_Video", "_IsAVProInput"
#: the creator's gallery file the package ships (`title | url` lines; the setup menu reads it)
GALLERY_PATH = "Runtime/Gallery/Gallery.txt"
LISTING_NAME = "vpm-listing.json"
ORIGINAL_PREFAB_PATH = "Runtime/Prefabs/ShaderceptionOriginal.prefab"
MESH_DIR = "Runtime/Meshes"
FLAT_MATERIAL = "PSL_ScreenFlat"
#: the example in the code box at load, compiled by every client at Start (not shared)
DEFAULT_PROGRAM = "scene_simple"
#: the code box's monospace font (unity_package/Fonts, scripts/build_unity_font.sh)
FONT, FONT_LICENCE = "DejaVuSansMono.ttf", "DejaVuSansMono-LICENSE.txt"

#: Unity YAML files of the package (their `guid:` references are checked)
YAML_ASSETS = (".mat", ".asset", ".prefab", ".renderTexture")

NAME_RE = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


class PackageError(ValueError):
    """Bad options or an output psl did not write: the CLI reports it in one line."""


# --------------------------------------------------------------------------------------
# Package assembly
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackageOptions:
    """`base_url`: where the zip and the listing will be served. Without it the package has
    no download URL: package.json gets no `url` and no VCC listing is written (a listing
    whose URLs point nowhere cannot install anything)."""

    name: str = DEFAULT_NAME
    version: str = __version__
    base_url: str | None = None
    display_name: str = "PSL Shaderception"
    author: str = "psl developers"
    #: the creator's gallery baked into the prefab and Gallery.txt (`--gallery FILE`)
    gallery: tuple[world_programs.GalleryEntry, ...] = ()

    def __post_init__(self) -> None:
        if not NAME_RE.match(self.name) or "." not in self.name:
            raise PackageError(
                f"invalid package name {self.name!r}: use lower-case reverse-DNS like "
                f"{DEFAULT_NAME} (letters, digits, '.', '-')")
        if not SEMVER_RE.match(self.version):
            raise PackageError(f"invalid version {self.version!r}: use semantic versioning "
                               "like 1.2.3")
        if self.base_url is not None and not re.match(r"^https?://[^/?#\s]+[^?#\s]*$",
                                                      self.base_url):
            raise PackageError(f"invalid base URL {self.base_url!r}: use the http(s):// address "
                               "of the folder that will hold the zip and vpm-listing.json")

    @property
    def stem(self) -> str:
        return f"{self.name}-{self.version}"

    @property
    def zip_name(self) -> str:
        return f"{self.stem}.zip"

    @property
    def zip_url(self) -> str | None:
        """base URL + zip name, or None without a base URL."""
        return None if self.base_url is None else self._url(self.zip_name)

    @property
    def listing_url(self) -> str | None:
        return None if self.base_url is None else self._url(LISTING_NAME)

    def _url(self, name: str) -> str:
        assert self.base_url is not None
        return self.base_url.rstrip("/") + "/" + name

    @property
    def assembly(self) -> str:
        """C#-safe assembly name derived from the package name."""
        parts = [p for p in re.split(r"[.-]", self.name) if p]
        if parts and parts[0] == "com":
            parts = parts[1:]
        return ".".join(p.upper() if p == "psl" else p[:1].upper() + p[1:] for p in parts)


@dataclass
class Package:
    options: PackageOptions
    tree: PackageTree
    manifest: dict[str, object]
    files: dict[str, bytes] = field(default_factory=dict)  # path -> data (files only)

    @property
    def manifest_bytes(self) -> bytes:
        return (json.dumps(self.manifest, indent=2, ensure_ascii=False) + "\n").encode()


class _Builder:
    def __init__(self, options: PackageOptions) -> None:
        self.options = options
        self.tree = PackageTree(options.name)

    def guid(self, path: str) -> str:
        return guid_for(self.options.name, path)

    def folder(self, path: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub in self.tree.entries or sub.endswith("~"):
                continue  # Samples~ itself is hidden from Unity and gets no .meta
            guid = self.guid(sub)
            self.tree.add(Entry(sub, guid, meta_for(sub, guid, folder=True)))

    def file(self, path: str, data: str | bytes, main_object: int | None = None) -> str:
        if "/" in path:
            self.folder(path.rsplit("/", 1)[0])
        guid = self.guid(path)
        raw = data.encode() if isinstance(data, str) else data
        self.tree.add(Entry(path, guid, meta_for(path, guid, main_object=main_object), raw))
        return guid


def _example_label(stem: str) -> str:
    for prefix in ("scene_", "apps_", "standalone_"):
        if stem.startswith(prefix):
            stem = stem[len(prefix):]
    return stem.replace("_", " ")


def _texture_property(shader: str, default: str = "_MainTex") -> str:
    match = re.search(r"^\s*(_\w+)\s*\([^)]*,\s*2D\s*\)", shader, re.MULTILINE)
    return match.group(1) if match else default


def _asmdef(name: str, references: list[str], editor: bool) -> str:
    data = {
        "name": name,
        "rootNamespace": "",
        "references": references,
        "includePlatforms": ["Editor"] if editor else [],
        "excludePlatforms": [],
        "allowUnsafeCode": False,
        "overrideReferences": False,
        "precompiledReferences": [],
        "autoReferenced": True,
        "defineConstraints": [],
        "versionDefines": [],
        "noEngineReferences": False,
    }
    return json.dumps(data, indent=4) + "\n"


def _static_text(name: str) -> str:
    return (unity_package_dir() / name).read_text(encoding="utf-8")


def build_package(options: PackageOptions | None = None) -> Package:
    """Assemble the whole package in memory (no files written)."""
    options = options or PackageOptions()
    cs = udonsharp.TARGET.render()
    shaders = hlsl.TARGET.render()
    b = _Builder(options)

    # Runtime assemblies: the plain asmdef plus the U# assembly definition pointing at it.
    runtime_asm = f"{options.assembly}.Runtime"
    asmdef_guid = b.file(f"Runtime/{runtime_asm}.asmdef", _asmdef(
        runtime_asm, ["UdonSharp.Runtime", "UdonSharp.Lib", "VRC.Udon", "UnityEngine.UI"],
        editor=False))
    b.file(f"Runtime/{runtime_asm}.asset",
           ua.udonsharp_assembly_definition(runtime_asm, asmdef_guid))

    scripts: dict[str, str] = {}
    programs: dict[str, str] = {}
    classes: dict[str, CSharpClass] = {}
    for cls in udonsharp.BEHAVIOURS:
        text = cs[f"{cls}.cs"]
        scripts[cls] = b.file(f"Runtime/Scripts/{cls}.cs", text)
        programs[cls] = b.file(f"Runtime/Scripts/{cls}.asset",
                               ua.udonsharp_program_asset(cls, scripts[cls]))
        classes[cls] = parse_csharp_class(cls, text)

    shader_guids = {n: b.file(f"Runtime/Shaders/{n}", text) for n, text in shaders.items()}
    # Camera input (the original's Camera.renderTexture): a camera in the prefab renders into
    # it and the VM material samples it as _Camera, which is what camera() reads.
    camera_rt = b.file(CAMERA_TEXTURE_PATH,
                       ua.render_texture("PSL_Camera", camera.CAMERA_TEXTURE_SIZE))
    # Video input: the package's video player (components.video) renders into it and the VM
    # material samples it as _Video (video()); Unity's player, so _IsAVProInput is 0.
    video_rt = b.file(VIDEO_TEXTURE_PATH, ua.render_texture(
        "PSL_Video", video.VIDEO_WIDTH, height=video.VIDEO_HEIGHT))
    vm_mat = b.file("Runtime/Materials/PSL_VM.mat", ua.material(
        "PSL_VM", shader_guids["VM.shader"],
        {CAMERA_PROPERTY: ref(RENDER_TEXTURE_ID, camera_rt, 2),
         VIDEO_PROPERTY: ref(RENDER_TEXTURE_ID, video_rt, 2),
         # bound at runtime by the compiler (docs/spec.md §5.5); none in the asset
         registry.PROGRAM_TEXTURE_PROPERTY: NULL},
        {AVPRO_PROPERTY: 0.0}))
    screen_tex = _texture_property(shaders["Screen.shader"])
    crt_guids: dict[int, str] = {}
    screen_mats: dict[int, str] = {}
    for size in CRT_SIZES:
        crt_guids[size] = b.file(f"Runtime/RenderTextures/PSL_CRT_{size}.asset",
                                 ua.custom_render_texture(f"PSL_CRT_{size}", size, vm_mat,
                                                          realtime=size == DEFAULT_CRT_SIZE),
                                 CRT_ID)
        # the program screens' materials: relief (alpha is the height, as in the original)
        screen_mats[size] = b.file(
            f"Runtime/Materials/PSL_Screen_{size}.mat",
            ua.material(f"PSL_Screen_{size}", shader_guids["Screen.shader"],
                        {screen_tex: ref(CRT_ID, crt_guids[size], 2)},
                        relief.relief_floats(), relief.RELIEF_KEYWORDS))
    # flat stays available: the same shader without the height mode, for any quad
    b.file(f"Runtime/Materials/{FLAT_MATERIAL}.mat",
           ua.material(FLAT_MATERIAL, shader_guids["Screen.shader"],
                       {screen_tex: ref(CRT_ID, crt_guids[DEFAULT_CRT_SIZE], 2)}))
    # the relief grids, finest first (the original's TheQuad is the 257 x 257 one)
    # (empty Mesh objects: the editor script fills in the vertices on import, see
    # psl.gen.unity.mesh.placeholder_mesh_asset)
    grid_meshes = {side: b.file(f"{MESH_DIR}/{um.mesh_name(side)}.asset",
                                um.placeholder_mesh_asset(side), um.MESH_ID)
                   for side in registry.RELIEF.resolutions}

    examples: list[tuple[str, str, str]] = []
    for src in sorted((unity_package_dir() / "Examples").glob("*.psl")):
        text = src.read_text(encoding="utf-8")
        text_guid = b.file(f"Runtime/Examples/{src.stem}.txt", text)
        b.file(f"Samples~/Programs/{src.stem}.psl", text)
        examples.append((src.stem, text, text_guid))

    gallery_guid = b.file(GALLERY_PATH, world_programs.gallery_text(list(options.gallery)))
    # The code box's monospace font and its licence (vendored by scripts/build_unity_font.sh).
    font_guid = b.file(f"Runtime/Fonts/{FONT}", (unity_package_dir() / "Fonts" / FONT).read_bytes())
    b.file(f"Runtime/Fonts/{FONT_LICENCE}", _static_text(f"Fonts/{FONT_LICENCE}"))

    prefab_path = "Runtime/Prefabs/Shaderception.prefab"
    prefab_assets = PrefabAssets(
        screen_material=screen_mats[DEFAULT_CRT_SIZE],
        vm_material=vm_mat,
        crt=crt_guids[DEFAULT_CRT_SIZE],
        scripts=scripts,
        programs=programs,
        examples=[(_example_label(stem), text, g) for stem, text, g in examples],
        classes=classes,
        source_limit=registry.LIMITS.source_chars,
        camera_texture=camera_rt,
        video_texture=video_rt,
        default_program=_static_text(f"Examples/{DEFAULT_PROGRAM}.psl"),
        font=font_guid,
        reference=reference_text(),
        screen_materials=screen_mats,
        crts=crt_guids,
        grid_meshes=grid_meshes,
        compile_event=udonsharp.COMPILE_EVENT,
        load_event=udonsharp.LOAD_EVENT,
        gallery=options.gallery,
    )
    prefab_guid = b.file(prefab_path, standard.build(prefab_assets))
    # the original world's proportions (a 15 m screen, pickup screens, quality buttons)
    original_guid = b.file(ORIGINAL_PREFAB_PATH, original.build(prefab_assets))

    editor_asm = f"{options.assembly}.Editor"
    b.file(f"Editor/{editor_asm}.asmdef", _asmdef(
        editor_asm, [runtime_asm, "UdonSharp.Editor", "UdonSharp.Runtime", "VRC.Udon",
                     "VRC.Udon.Editor", "UnityEngine.UI"], editor=True))
    b.file("Editor/ShaderceptionSetup.cs", render(
        "unity/ShaderceptionSetup.cs.j2",
        editor_namespace=udonsharp.EDITOR_NAMESPACE,
        prefab_guid=prefab_guid,
        original_prefab_guid=original_guid,
        vm_material_guid=vm_mat,
        camera_texture_guid=camera_rt,
        camera_property=CAMERA_PROPERTY,
        program_property=registry.PROGRAM_TEXTURE_PROPERTY,
        camera_input=camera.CAMERA_INPUT_NAME,
        camera_object=camera.CAMERA_OBJECT_NAME,
        camera_toggle=camera.CAMERA_TOGGLE_NAME,
        crt_guids=crt_guids,
        screen_material_guids=screen_mats,
        default_size=DEFAULT_CRT_SIZE,
        examples=[(stem, _example_label(stem), g) for stem, _t, g in examples],
        compile_event=udonsharp.COMPILE_EVENT,
        load_event=udonsharp.LOAD_EVENT,
        package_name=options.name,
        relief_event=udonsharp.RELIEF_EVENT,
        relief_row=relief.RELIEF_ROW_NAME,
        relief_screens=[f"{name}/Quad" for name, _size, _x in original.PICKUP_SIZES],
        grid_meshes=grid_meshes,
        max_displacement=registry.RELIEF.max_displacement,
        output_path=f"Canvas/{standard.OUTPUT_PANEL}/Viewport/{standard.OUTPUT_NAME}",
        listing_button=listing.LISTING_BUTTON,
        listing_view=listing.LISTING_VIEW,
        listing_event=udonsharp.LISTING_EVENT,
        sharing={
            "share": sharing.SHARE_NAME, "load_shared": sharing.LOAD_SHARED_NAME,
            "restore": sharing.RESTORE_NAME, "follow": sharing.FOLLOW_NAME,
            "info": sharing.INFO_NAME, "pin": sharing.PIN_NAME,
            "share_event": udonsharp.SHARE_EVENT, "load_shared_event": udonsharp.LOAD_SHARED_EVENT,
            "restore_event": udonsharp.RESTORE_EVENT, "follow_event": udonsharp.FOLLOW_EVENT,
            "pin_event": udonsharp.PIN_EVENT,
            "lock_button": sharing.LOCK_NAME, "clear_button": sharing.CLEAR_NAME,
            "lock_event": udonsharp.LOCK_EVENT, "clear_event": udonsharp.CLEAR_EVENT,
        },
        guard={
            "object": guard.GUARD_OBJECT, "note": guard.NOTE_NAME, "text": guard.NOTE_TEXT,
            "button": guard.RUN_ANYWAY_NAME, "quality_row": quality.QUALITY_NAME,
            "program_event": udonsharp.GUARD_PROGRAM_EVENT,
            "run_anyway_event": udonsharp.GUARD_RUN_ANYWAY_EVENT,
        },
        sliders={
            "object": sliders.SLIDERS_OBJECT, "panel": sliders.SLIDER_PANEL,
            "row_prefix": sliders.ROW_PREFIX, "label": sliders.LABEL_NAME,
            "slider": sliders.SLIDER_NAME, "count": registry.SLIDERS.count,
            "moved_event": udonsharp.SLIDER_MOVED_EVENT,
            "program_event": udonsharp.SLIDERS_PROGRAM_EVENT,
        },
        gallery_guid=gallery_guid,
        gallery_max=world_programs.GALLERY_MAX,
        live_copy_quad=f"Canvas/CodeInput/{livecopy.LIVE_COPY_NAME}/{livecopy.LIVE_QUAD_NAME}",
        live_copy_toggle=f"Canvas/{livecopy.LIVE_COPY_TOGGLE}",
        mirror_object=mirror.MIRROR_NAME,
        mirror_toggle=mirror.MIRROR_TOGGLE,
        video_player=video.VIDEO_PLAYER_NAME,
        video_controls={
            "cls": video.VIDEO_URL_CLASS, "canvas": video.CONTROLS_NAME,
            "url_field": video.URL_FIELD, "play": video.PLAY_BUTTON, "stop": video.STOP_BUTTON,
            "status": video.STATUS, "play_event": udonsharp.VIDEO_PLAY_EVENT,
            "stop_event": udonsharp.VIDEO_STOP_EVENT,
        },
        video_texture_guid=video_rt,
        ui=programs_panel,
        wp=world_programs,
    ))

    b.file("README.md", _static_text("README.md"))
    # the changelog's newest section is the version this package ships, not "Unreleased"
    b.file("CHANGELOG.md", _static_text("CHANGELOG.md").replace(
        "## Unreleased", f"## {options.version}", 1))
    b.file("LICENSE.md", _static_text("LICENSE.md"))

    manifest: dict[str, object] = {
        "name": options.name,
        "displayName": options.display_name,
        "version": options.version,
        "unity": "2022.3",
        "description": ("Shaderception for VRChat worlds: an in-world PSL compiler (UdonSharp) "
                        "and a shader VM that runs the compiled program on a render texture. "
                        f"Generated by psl {__version__}."),
        "author": {"name": options.author},
        "license": "MIT",
        "keywords": ["vrchat", "udonsharp", "shader", "shaderception", "psl"],
        "vpmDependencies": {"com.vrchat.worlds": SDK_RANGE},
        "samples": [{
            "displayName": "Example programs",
            "description": "The PSL programs of the example buttons, as .psl sources.",
            "path": "Samples~/Programs",
        }],
    }
    if options.zip_url is not None:
        # VPM: the download URL of this version's zip (a repository listing needs it; a
        # package installed from a folder or the .unitypackage does not).
        manifest["url"] = options.zip_url
    package = Package(options, b.tree, manifest)
    b.file("package.json", package.manifest_bytes)
    package.files = {e.path: e.data for e in b.tree.sorted() if e.data is not None}
    check_references(package)
    return package


def check_references(package: Package) -> None:
    """Every guid in a generated YAML asset must be a package file or a listed built-in."""
    known = {e.guid for e in package.tree.entries.values()} | BUILTIN_GUIDS
    guids = [e.guid for e in package.tree.entries.values()]
    if len(set(guids)) != len(guids):
        raise PackageError("duplicate GUIDs in the package")
    for path, data in package.files.items():
        if not path.endswith(YAML_ASSETS):
            continue
        for guid in guid_references(data.decode()):
            if guid not in known:
                raise PackageError(f"{path} references unknown guid {guid}")


# --------------------------------------------------------------------------------------
# Outputs
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outputs:
    zip: Path
    unitypackage: Path
    manifest: Path
    listing: Path | None  # None: no --base-url, so no listing was written
    files: int
    folders: int


#: host of the placeholder URLs that psl < 0.2 wrote without --base-url; listing entries with
#: it can never install, so they are dropped when a listing is updated
PLACEHOLDER_HOST = "example.invalid"


def listing_json(package: Package, zip_bytes: bytes, existing: dict | None = None) -> dict:
    """A VCC repository listing with this version added (other versions are kept).

    Needs a base URL: every version entry is the package manifest (which then has `url`, the
    zip's address) plus `zipSHA256`, and the listing's own `url` is where it is served."""
    o = package.options
    if o.listing_url is None or "url" not in package.manifest:
        raise PackageError("a VPM listing needs --base-url (where the zip will be served)")
    listing = existing or {
        "name": f"{o.display_name} packages",
        "id": f"{o.name}.listing",
        "url": o.listing_url,
        "author": o.author,
        "packages": {},
    }
    listing["url"] = o.listing_url
    entry = dict(package.manifest)
    entry["zipSHA256"] = hashlib.sha256(zip_bytes).hexdigest()
    versions = listing.setdefault("packages", {}).setdefault(o.name, {}).setdefault(
        "versions", {})
    versions[o.version] = entry
    listing["packages"][o.name]["versions"] = {
        v: e for v, e in sorted(versions.items())
        if not (isinstance(e, dict) and f"://{PLACEHOLDER_HOST}" in str(e.get("url", "")))}
    return listing


def _check_ours(path: Path, check: Callable[[object], bool], what: str) -> object | None:
    """Load an existing JSON output; refuse to replace a file psl did not write."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if data is None or not check(data):
        raise PackageError(f"{path} exists and is not {what}; refusing to overwrite it "
                           "(move it away or choose another --out)")
    return data


def write_package(out: Path = DEFAULT_OUT, options: PackageOptions | None = None) -> Outputs:
    """Build the package and write its outputs into `out` (see build_package): the zip, the
    .unitypackage and package.json, and with a base URL also the VCC listing."""
    options = options or PackageOptions()
    package = build_package(options)
    if out.exists() and not out.is_dir():
        raise PackageError(f"--out {out} exists and is not a directory")

    manifest_path = out / "package.json"
    listing_path = out / LISTING_NAME
    _check_ours(manifest_path, lambda d: isinstance(d, dict) and d.get("name") == options.name
                and "vpmDependencies" in d, f"a package.json of {options.name}")
    zip_bytes = vpm_zip_bytes(package.tree, package.manifest_bytes)
    unitypackage = unitypackage_bytes(package.tree, f"Packages/{options.name}")
    listing = None
    if options.base_url is not None:
        existing = _check_ours(listing_path, lambda d: isinstance(d, dict)
                               and isinstance(d.get("packages"), dict),
                               "a VPM repository listing")
        listing = listing_json(package, zip_bytes,
                               existing if isinstance(existing, dict) else None)

    out.mkdir(parents=True, exist_ok=True)
    zip_path = out / options.zip_name
    upkg_path = out / f"{options.stem}.unitypackage"
    zip_path.write_bytes(zip_bytes)
    upkg_path.write_bytes(unitypackage)
    manifest_path.write_bytes(package.manifest_bytes)
    if listing is not None:
        listing_path.write_text(json.dumps(listing, indent=2, ensure_ascii=False) + "\n",
                                encoding="utf-8", newline="\n")
    entries = package.tree.entries.values()
    return Outputs(zip_path, upkg_path, manifest_path,
                   listing_path if listing is not None else None,
                   files=sum(1 for e in entries if not e.is_folder),
                   folders=sum(1 for e in entries if e.is_folder))


NO_LISTING_NOTE = (
    "no vpm-listing.json written and no url in package.json: pass --base-url "
    "https://your.site/vpm/ (the folder you will upload the zip and the listing to) to get a "
    "VCC listing")


__all__ = ["build_package", "write_package", "PackageOptions", "PackageError"]
