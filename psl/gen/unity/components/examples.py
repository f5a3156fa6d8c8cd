"""The example buttons: a titled grid, one button per example program, each with its own
ExampleButton behaviour holding the program (TextAsset and text) and its label."""

from __future__ import annotations

from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import FieldResolver, add_udonsharp
from psl.gen.unity.components.ugui import add_button, add_button_click, add_text, rect
from psl.gen.unity.objects import TEXT_ASSET_ID
from psl.gen.unity.serialization import color, ref


def add_examples(b: PrefabBuilder, parent: GameObject, assets: PrefabAssets,
                 resolve: FieldResolver, *, x: float, y: float, width: float, height: float,
                 columns: int, class_name: str = "ExampleButton") -> GameObject:
    examples = b.add("Examples", parent, rect=True, **rect(x, y, width, height))
    title = b.add("Title", examples, rect=True, **rect(0, 0, width, 40))
    add_text(b, title, "Examples", 28, color(0.9, 0.9, 0.9, 1), style=1)
    example_cls = assets.classes[class_name]
    col_w = (width - (columns - 1) * 10) / columns
    for i, (label, source, text_guid) in enumerate(assets.examples):
        row, col = divmod(i, columns)
        go, image = add_button(b, examples, f"Example_{label}", label,
                               rect(col * (col_w + 10), 50 + row * 55, col_w, 48),
                               color(0.8, 0.85, 0.95, 1))

        def example_fields(type_name: str, field_name: str, _src: str = source,
                           _guid: str = text_guid, _label: str = label) -> object | None:
            if type_name == "TextAsset":
                return ref(TEXT_ASSET_ID, _guid, 3)
            if type_name == "string":
                lowered = field_name.lower()
                if any(k in lowered for k in ("name", "label", "title")):
                    return _label
                return _src
            return resolve(type_name, field_name)

        _, backing = add_udonsharp(b, go, example_cls, assets, example_fields)
        add_button_click(go, image, backing, assets.load_event)
    return examples
