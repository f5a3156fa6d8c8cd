"""The prefab's object tree: GameObjects with their transforms and components, written as
Unity YAML, and the GUIDs of the package files a layout references (PrefabAssets)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from psl.gen.unity.csharp import CSharpClass
from psl.gen.unity.objects import COMMON, GAME_OBJECT, MONO_BEHAVIOUR, RECT_TRANSFORM, TRANSFORM
from psl.gen.unity.serialization import NULL, Flow, UnityObject, dump_objects, file_id_for, ref, vec
from psl.gen.world_programs import GalleryEntry


@dataclass
class GameObject:
    path: str  # hierarchy path, unique within the prefab (used to derive fileIDs)
    name: str
    rect: bool
    layer: int = 0
    active: bool = True
    components: list[UnityObject] = field(default_factory=list)
    children: list[GameObject] = field(default_factory=list)
    parent: GameObject | None = None
    transform: dict[str, object] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return file_id_for(self.path, "GameObject")

    @property
    def transform_id(self) -> int:
        return file_id_for(self.path, "Transform")

    def cid(self, kind: str) -> int:
        return file_id_for(self.path, kind)


@dataclass(frozen=True)
class PrefabAssets:
    """GUIDs of the package files the prefab references."""

    screen_material: str
    vm_material: str
    crt: str
    scripts: Mapping[str, str]  # class name -> .cs guid
    programs: Mapping[str, str]  # class name -> program asset guid
    examples: Sequence[tuple[str, str, str]]  # (label, source text, TextAsset guid)
    classes: Mapping[str, CSharpClass]
    compile_event: str  # what the Compile button sends to the Compiler
    load_event: str  # what an example button sends to its ExampleButton
    source_limit: int = 0
    camera_texture: str = ""  # the camera input's RenderTexture (VM material's _Camera)
    default_program: str = ""  # the code box's text at load, compiled locally at Start
    font: str = "Arial"  # the code box's font: "Arial" (built in) or a package .ttf's GUID
    reference: str = ""  # the reference panel's text (psl.gen.unity.reference)
    # per resolution (the CRT's size): its screen material and its CRT (quality buttons)
    screen_materials: Mapping[int, str] = field(default_factory=dict)
    crts: Mapping[int, str] = field(default_factory=dict)
    #: the creator's gallery (psl-gen unity-package --gallery): the Programs panel's buttons
    gallery: Sequence[GalleryEntry] = ()
    # the relief grids (vertices per side -> Mesh .asset GUID): the program screens show the
    # finest, the relief buttons switch between them (components.relief)
    grid_meshes: Mapping[int, str] = field(default_factory=dict)
    #: the package video player's render texture (the VM material's _Video); "" for none
    video_texture: str = ""


class PrefabBuilder:
    def __init__(self) -> None:
        self.objects: list[GameObject] = []

    def add(self, name: str, parent: GameObject | None, *, rect: bool, layer: int = 0,
            active: bool = True, **transform: object) -> GameObject:
        path = f"{parent.path}/{name}" if parent else name
        go = GameObject(path, name, rect, layer=layer, active=active, parent=parent,
                        transform=dict(transform))
        if parent:
            parent.children.append(go)
        self.objects.append(go)
        return go

    @staticmethod
    def component(go: GameObject, kind: str, class_id: int, type_name: str,
                  body: Mapping[str, object]) -> int:
        fid = go.cid(kind)
        full: dict[str, object] = {**COMMON, "m_GameObject": ref(go.id)}
        full.update(body)
        go.components.append(UnityObject(class_id, fid, type_name, full))
        return fid

    def mono(self, go: GameObject, kind: str, script: Flow, fields: Mapping[str, object],
             enabled: int = 1) -> int:
        return self.component(go, kind, MONO_BEHAVIOUR, "MonoBehaviour", {
            "m_Enabled": enabled,
            "m_EditorHideFlags": 0,
            "m_Script": script,
            "m_Name": "",
            "m_EditorClassIdentifier": "",
            **fields,
        })

    def dump(self) -> str:
        docs: list[UnityObject] = []
        for go in self.objects:
            docs.append(UnityObject(GAME_OBJECT, go.id, "GameObject", {
                **COMMON,
                "serializedVersion": 6,
                "m_Component": [{"component": ref(go.transform_id)}]
                + [{"component": ref(c.file_id)} for c in go.components],
                "m_Layer": go.layer,
                "m_Name": go.name,
                "m_TagString": "Untagged",
                "m_Icon": NULL,
                "m_NavMeshLayer": 0,
                "m_StaticEditorFlags": 0,
                "m_IsActive": int(go.active),
            }))
            docs.append(self._transform(go))
            docs.extend(go.components)
        return dump_objects(docs)

    @staticmethod
    def _transform(go: GameObject) -> UnityObject:
        t = go.transform
        body: dict[str, object] = {**COMMON, "m_GameObject": ref(go.id)}
        if not go.rect:
            body["serializedVersion"] = 2
        body.update({
            "m_LocalRotation": t.get("rotation", vec(0, 0, 0, 1)),
            "m_LocalPosition": t.get("position", vec(0, 0, 0)),
            "m_LocalScale": t.get("scale", vec(1, 1, 1)),
            "m_ConstrainProportionsScale": 0,
            "m_Children": [ref(c.transform_id) for c in go.children],
            "m_Father": ref(go.parent.transform_id) if go.parent else NULL,
            "m_LocalEulerAnglesHint": t.get("euler", vec(0, 0, 0)),
        })
        if go.rect:
            body.update({
                "m_AnchorMin": t.get("anchor_min", vec(0, 1)),
                "m_AnchorMax": t.get("anchor_max", vec(0, 1)),
                "m_AnchoredPosition": t.get("anchored", vec(0, 0)),
                "m_SizeDelta": t.get("size", vec(100, 100)),
                "m_Pivot": t.get("pivot", vec(0, 1)),
            })
        return UnityObject(RECT_TRANSFORM if go.rect else TRANSFORM, go.transform_id,
                           "RectTransform" if go.rect else "Transform", body)
