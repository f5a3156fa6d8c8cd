"""UdonSharp behaviours in the prefab: the U# proxy MonoBehaviour with its backing
UdonBehaviour, public fields filled by a resolver from their C# type and name."""

from __future__ import annotations

from collections.abc import Callable

from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.csharp import CSharpClass
from psl.gen.unity.objects import odin_empty, script_ref
from psl.gen.unity.serialization import MONO_ID, NULL, builtin_ref, ref


def add_udon_behaviour(b: PrefabBuilder, go: GameObject, kind: str, program_guid: str,
                    sync_method: int) -> int:
    return b.mono(go, kind + ".UdonBehaviour", builtin_ref("UdonBehaviour"), {
        "interactTextPlacement": NULL,
        "interactText": "Use",
        "interactTextGO": NULL,
        "proximity": 2,
        "SynchronizePosition": 0,
        "AllowCollisionOwnershipTransfer": 0,
        "Reliable": 0,
        "_syncMethod": sync_method,
        # U# refreshes the compiled program reference and, on build, copies the proxy's
        # fields into the public-variable blob; we never write that blob ourselves.
        "serializedProgramAsset": NULL,
        "programSource": ref(MONO_ID, program_guid, 2),
        "serializedPublicVariablesBytesString": "",
        "publicVariablesUnityEngineObjects": [],
        "publicVariablesSerializationDataFormat": 0,
    })


FieldResolver = Callable[[str, str], object | None]


def add_udonsharp(b: PrefabBuilder, go: GameObject, cls: CSharpClass, assets: PrefabAssets,
               resolve: FieldResolver) -> tuple[int, int]:
    """Proxy MonoBehaviour + backing UdonBehaviour; returns (proxy id, UdonBehaviour id)."""
    backing = go.cid(cls.name + ".UdonBehaviour")
    fields: dict[str, object] = {}
    for type_name, field_name in cls.fields:
        value = resolve(type_name, field_name)
        if value is not None:
            fields[field_name] = value
    proxy = b.mono(go, cls.name, script_ref(assets.scripts[cls.name]), {
        "serializationData": odin_empty(),
        "_udonSharpBackingUdonBehaviour": ref(backing),
        **fields,
    })
    add_udon_behaviour(b, go, cls.name, assets.programs[cls.name], cls.sync_method)
    return proxy, backing


class Wiring:
    """What a layout offers behaviours' public fields: a value per field name (checked first)
    and per C# type name. A behaviour's proxy is registered under its class name before it is
    built (fileIDs are fixed by path), so behaviours can refer to each other in any order."""

    def __init__(self) -> None:
        self.by_type: dict[str, object] = {}
        self.by_field: dict[str, object] = {}

    def offer(self, value: object, *type_names: str) -> None:
        for name in type_names:
            self.by_type[name] = value

    def offer_field(self, field_name: str, value: object) -> None:
        self.by_field[field_name] = value

    def register(self, go: GameObject, class_name: str) -> None:
        self.by_type[class_name] = ref(go.cid(class_name))

    def __call__(self, type_name: str, field_name: str) -> object | None:
        if field_name in self.by_field:
            return self.by_field[field_name]
        return self.by_type.get(type_name)


def backing_id(go: GameObject, class_name: str) -> int:
    """The fileID of a behaviour's backing UdonBehaviour (what UI events call), known before
    add_udonsharp creates it, so controls built earlier can send it events."""
    return go.cid(class_name + ".UdonBehaviour")
