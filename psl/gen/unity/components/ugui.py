"""uGUI parts: images, texts, buttons, rectangles and the persistent UnityEvent calls that
wire them to Udon behaviours and GameObjects."""

from __future__ import annotations

from collections.abc import Callable

from psl.gen.unity.components.builder import GameObject, PrefabBuilder
from psl.gen.unity.components.scene import add_box_collider
from psl.gen.unity.objects import CANVAS, CANVAS_RENDERER, COMMON, FONT_ID, MONO_BEHAVIOUR
from psl.gen.unity.serialization import NULL, Flow, UnityObject, builtin_ref, color, ref, vec

WHITE = color(1, 1, 1, 1)
NO_CALLS = {"m_PersistentCalls": {"m_Calls": []}}


def font_ref(font: str) -> Flow:
    """A built-in font by name (Arial), else a package font given as its .ttf's GUID."""
    return builtin_ref(font) if font == "Arial" else ref(FONT_ID, font, 3)


def graphic(col: Flow, raycast: int = 1) -> dict[str, object]:
    return {
        "m_Material": NULL,
        "m_Color": col,
        "m_RaycastTarget": raycast,
        "m_RaycastPadding": vec(0, 0, 0, 0),
        "m_Maskable": 1,
        "m_OnCullStateChanged": NO_CALLS,
    }


def selectable(target_graphic: int) -> dict[str, object]:
    return {
        "m_Navigation": {
            "m_Mode": 3, "m_WrapAround": 0, "m_SelectOnUp": NULL, "m_SelectOnDown": NULL,
            "m_SelectOnLeft": NULL, "m_SelectOnRight": NULL,
        },
        "m_Transition": 1,
        "m_Colors": {
            "m_NormalColor": WHITE,
            "m_HighlightedColor": color(0.9607843, 0.9607843, 0.9607843, 1),
            "m_PressedColor": color(0.78431374, 0.78431374, 0.78431374, 1),
            "m_SelectedColor": color(0.9607843, 0.9607843, 0.9607843, 1),
            "m_DisabledColor": color(0.78431374, 0.78431374, 0.78431374, 0.5019608),
            "m_ColorMultiplier": 1,
            "m_FadeDuration": 0.1,
        },
        "m_SpriteState": {
            "m_HighlightedSprite": NULL, "m_PressedSprite": NULL, "m_SelectedSprite": NULL,
            "m_DisabledSprite": NULL,
        },
        "m_AnimationTriggers": {
            "m_NormalTrigger": "Normal", "m_HighlightedTrigger": "Highlighted",
            "m_PressedTrigger": "Pressed", "m_SelectedTrigger": "Selected",
            "m_DisabledTrigger": "Disabled",
        },
        "m_Interactable": 1,
        "m_TargetGraphic": ref(target_graphic),
    }


def send_custom_event_call(udon_behaviour_id: int, event: str) -> dict[str, object]:
    """A persistent UnityEvent call: UdonBehaviour.SendCustomEvent(event)."""
    return {
        "m_Target": ref(udon_behaviour_id),
        "m_TargetAssemblyTypeName": "VRC.Udon.UdonBehaviour, VRC.Udon",
        "m_MethodName": "SendCustomEvent",
        "m_Mode": 5,  # string argument
        "m_Arguments": {
            "m_ObjectArgument": NULL,
            "m_ObjectArgumentAssemblyTypeName": "UnityEngine.Object, UnityEngine",
            "m_IntArgument": 0,
            "m_FloatArgument": 0,
            "m_StringArgument": event,
            "m_BoolArgument": 0,
        },
        "m_CallState": 2,  # runtime only
    }


def add_image(b: PrefabBuilder, go: GameObject, col: Flow, sprite: str = "UISprite", *,
           sliced: bool = True, raycast: int = 1) -> int:
    """`raycast` 0: the image lets the pointer through to what lies under it."""
    b.component(go, "CanvasRenderer", CANVAS_RENDERER, "CanvasRenderer",
                {"m_CullTransparentMesh": 1})
    return b.mono(go, "Image", builtin_ref("Image"), {
        **graphic(col, raycast),
        "m_Sprite": builtin_ref(sprite),
        "m_Type": 1 if sliced else 0,
        "m_PreserveAspect": 0,
        "m_FillCenter": 1,
        "m_FillMethod": 4,
        "m_FillAmount": 1,
        "m_FillClockwise": 1,
        "m_FillOrigin": 0,
        "m_UseSpriteMesh": 0,
        "m_PixelsPerUnitMultiplier": 1,
    })


def add_text(b: PrefabBuilder, go: GameObject, text: str, size: int, col: Flow, *,
             alignment: int = 0, style: int = 0, rich: int = 0, raycast: int = 0,
             font: str = "Arial") -> int:
    b.component(go, "CanvasRenderer", CANVAS_RENDERER, "CanvasRenderer",
                {"m_CullTransparentMesh": 1})
    return b.mono(go, "Text", builtin_ref("Text"), {
        **graphic(col, raycast),
        "m_FontData": {
            "m_Font": font_ref(font),
            "m_FontSize": size,
            "m_FontStyle": style,
            "m_BestFit": 0,
            "m_MinSize": 1,
            "m_MaxSize": 300,
            "m_Alignment": alignment,
            "m_AlignByGeometry": 0,
            "m_RichText": rich,
            "m_HorizontalOverflow": 0,
            "m_VerticalOverflow": 1,
            "m_LineSpacing": 1,
        },
        "m_Text": text,
    })


def rect(x: float, y: float, w: float, h: float) -> dict[str, object]:
    """Top-left anchored rectangle: (x, y) from the parent's top-left corner, y downwards."""
    return {"anchor_min": vec(0, 1), "anchor_max": vec(0, 1), "pivot": vec(0, 1),
            "anchored": vec(x, -y), "size": vec(w, h)}


def fill(margin: float = 0) -> dict[str, object]:
    return {"anchor_min": vec(0, 0), "anchor_max": vec(1, 1), "pivot": vec(0.5, 0.5),
            "anchored": vec(0, 0), "size": vec(-2 * margin, -2 * margin)}


def add_button(b: PrefabBuilder, parent: GameObject, name: str, label: str,
            rect: dict[str, object], col: Flow) -> tuple[GameObject, int]:
    go = b.add(name, parent, rect=True, **rect)
    image = add_image(b, go, col)
    label_go = b.add("Text", go, rect=True, **fill(4))
    add_text(b, label_go, label, 28, color(0.1, 0.1, 0.1, 1), alignment=4)
    return go, image



def set_active_call(game_object_id: int) -> dict[str, object]:
    """A persistent UnityEvent<bool> call: GameObject.SetActive with the event's own value
    (m_Mode 0, a dynamic argument)."""
    return {
        "m_Target": ref(game_object_id),
        "m_TargetAssemblyTypeName": "UnityEngine.GameObject, UnityEngine",
        "m_MethodName": "SetActive",
        "m_Mode": 0,  # event defined: Toggle.onValueChanged passes isOn
        "m_Arguments": {
            "m_ObjectArgument": NULL,
            "m_ObjectArgumentAssemblyTypeName": "UnityEngine.Object, UnityEngine",
            "m_IntArgument": 0,
            "m_FloatArgument": 0,
            "m_StringArgument": "",
            "m_BoolArgument": 0,
        },
        "m_CallState": 2,  # runtime only
    }


def add_button_click(go: GameObject, image_id: int, udon_behaviour_id: int, event: str) -> None:
    """Adds the Button component to a button object built by add_button."""
    fid = go.cid("Button")
    go.components.append(UnityObject(MONO_BEHAVIOUR, fid, "MonoBehaviour", {
        **COMMON,
        "m_GameObject": ref(go.id),
        "m_Enabled": 1,
        "m_EditorHideFlags": 0,
        "m_Script": builtin_ref("Button"),
        "m_Name": "",
        "m_EditorClassIdentifier": "",
        **selectable(image_id),
        "m_OnClick": {"m_PersistentCalls": {"m_Calls": [
            send_custom_event_call(udon_behaviour_id, event),
        ]}},
    }))


def add_world_canvas(b: PrefabBuilder, parent: GameObject, name: str, *, width: float,
                     height: float, position: tuple[float, float, float], scale: float,
                     background: Flow | None = None) -> GameObject:
    """A world-space canvas on the Default layer that VRChat's UI pointer can use (a VRC
    UiShape and a trigger collider of the canvas's size), with an optional background."""
    x, y, z = position
    canvas = b.add(name, parent, rect=True, anchor_min=vec(0, 0), anchor_max=vec(0, 0),
                   pivot=vec(0.5, 0.5), anchored=vec(x, y), size=vec(width, height),
                   position=vec(x, y, z), scale=vec(scale, scale, scale))
    b.component(canvas, "Canvas", CANVAS, "Canvas", {
        "m_Enabled": 1,
        "serializedVersion": 3,
        "m_RenderMode": 2,  # world space
        "m_Camera": NULL,
        "m_PlaneDistance": 100,
        "m_PixelPerfect": 0,
        "m_ReceivesEvents": 1,
        "m_OverrideSorting": 0,
        "m_OverridePixelPerfect": 0,
        "m_SortingBucketNormalizedSize": 0,
        "m_VertexColorAlwaysGammaSpace": 0,
        "m_AdditionalShaderChannelsFlag": 0,
        "m_UpdateRectTransformForStandalone": 0,
        "m_SortingLayerID": 0,
        "m_SortingOrder": 0,
        "m_TargetDisplay": 0,
    })
    b.mono(canvas, "CanvasScaler", builtin_ref("CanvasScaler"), {
        "m_UiScaleMode": 0, "m_ReferencePixelsPerUnit": 100, "m_ScaleFactor": 1,
        "m_ReferenceResolution": vec(800, 600), "m_ScreenMatchMode": 0,
        "m_MatchWidthOrHeight": 0, "m_PhysicalUnit": 3, "m_FallbackScreenDPI": 96,
        "m_DefaultSpriteDPI": 96, "m_DynamicPixelsPerUnit": 1, "m_PresetInfoIsWorld": 1,
    })
    b.mono(canvas, "GraphicRaycaster", builtin_ref("GraphicRaycaster"), {
        "m_IgnoreReversedGraphics": 1, "m_BlockingObjects": 0,
        "m_BlockingMask": {"serializedVersion": 2, "m_Bits": 4294967295},
    })
    b.mono(canvas, "VRCUiShape", builtin_ref("VRCUiShape"), {})
    add_box_collider(b, canvas, vec(width, height, 1), trigger=1)
    if background is not None:
        bg = b.add("Background", canvas, rect=True, **fill())
        add_image(b, bg, background)
    return canvas


def add_input_field(b: PrefabBuilder, parent: GameObject, name: str, area: dict[str, object],
                    *, placeholder: str, font_size: int, character_limit: int,
                    font: str = "Arial", margin: float = 12, text: str = "",
                    behind_text: Callable[[GameObject], object] | None = None,
                    text_z: float = 0) -> int:
    """A legacy multi-line InputField (Enter inserts a newline) with placeholder and text
    children; returns the InputField's fileID. `behind_text` builds children drawn over the
    box's background and under its text (called before the text children are made, so they
    come first in the hierarchy); `text_z` lifts the texts that far towards the reader, in
    canvas units (the caret follows the text's position)."""
    code = b.add(name, parent, rect=True, **area)
    code_bg = add_image(b, code, color(0.95, 0.95, 0.95, 1), "InputFieldBackground")
    if behind_text is not None:
        behind_text(code)
    lifted = {"position": vec(0, 0, text_z)} if text_z else {}
    placeholder_go = b.add("Placeholder", code, rect=True, **fill(margin), **lifted)
    placeholder_text = add_text(b, placeholder_go, placeholder, font_size,
                                color(0.2, 0.2, 0.2, 0.5), style=2, font=font)
    code_text_go = b.add("Text", code, rect=True, **fill(margin), **lifted)
    code_text = add_text(b, code_text_go, "", font_size, color(0.05, 0.05, 0.05, 1), font=font)
    return b.mono(code, "InputField", builtin_ref("InputField"), {
        **selectable(code_bg),
        "m_TextComponent": ref(code_text),
        "m_Placeholder": ref(placeholder_text),
        "m_ContentType": 0,
        "m_InputType": 0,
        "m_AsteriskChar": 42,
        "m_KeyboardType": 0,
        "m_LineType": 2,  # multi-line, Enter inserts a newline
        "m_HideMobileInput": 0,
        "m_CharacterValidation": 0,
        "m_CharacterLimit": character_limit,
        "m_OnSubmit": NO_CALLS,
        "m_OnDidEndEdit": NO_CALLS,
        "m_OnEndEdit": NO_CALLS,
        "m_OnValueChanged": NO_CALLS,
        "m_CaretColor": color(0.19607843, 0.19607843, 0.19607843, 1),
        "m_CustomCaretColor": 0,
        "m_SelectionColor": color(0.65882355, 0.80784315, 1, 0.7529412),
        "m_Text": text,
        "m_CaretBlinkRate": 0.85,
        "m_CaretWidth": 1,
        "m_ReadOnly": 0,
        "m_ShouldActivateOnSelect": 1,
    })


def add_url_field(b: PrefabBuilder, parent: GameObject, name: str, area: dict[str, object],
                  *, placeholder: str, font: str, end_edit: list[dict[str, object]],
                  font_size: int = 24) -> int:
    """VRChat's single-line VRCUrlInputField (uGUI InputField's fields; legacy UI Text
    children) whose end-edit event (Enter, or VRChat's keyboard closing) makes the given
    persistent calls (send_custom_event_call); returns its fileID."""
    go = b.add(name, parent, rect=True, **area)
    background = add_image(b, go, color(0.95, 0.95, 0.95, 1), "InputFieldBackground")
    placeholder_go = b.add("Placeholder", go, rect=True, **fill(10))
    placeholder_text = add_text(b, placeholder_go, placeholder, font_size,
                                color(0.2, 0.2, 0.2, 0.5), style=2, font=font)
    text_go = b.add("Text", go, rect=True, **fill(10))
    text = add_text(b, text_go, "", font_size, color(0.05, 0.05, 0.05, 1), font=font)
    return b.mono(go, "VRCUrlInputField", builtin_ref("VRCUrlInputField"), {
        **selectable(background),
        "m_TextComponent": ref(text),
        "m_Placeholder": ref(placeholder_text),
        "m_ContentType": 0,
        "m_InputType": 0,
        "m_AsteriskChar": 42,
        "m_KeyboardType": 0,
        "m_LineType": 0,  # single line
        "m_HideMobileInput": 0,
        "m_CharacterValidation": 0,
        "m_CharacterLimit": 0,
        "m_OnEndEdit": {"m_PersistentCalls": {"m_Calls": end_edit}},
        "m_OnValueChanged": NO_CALLS,
        "m_CaretColor": color(0.19607843, 0.19607843, 0.19607843, 1),
        "m_CustomCaretColor": 0,
        "m_SelectionColor": color(0.65882355, 0.80784315, 1, 0.7529412),
        "m_Text": "",
        "m_CaretBlinkRate": 0.85,
        "m_CaretWidth": 1,
        "m_ReadOnly": 0,
    })


def add_toggle(b: PrefabBuilder, parent: GameObject, name: str, label: str,
               area: dict[str, object], *, on: bool, calls: list[dict[str, object]],
               font_size: int = 28) -> int:
    """A uGUI Toggle (box, check mark, label) whose onValueChanged makes the given persistent
    calls (send_custom_event_call: the behaviour then reads isOn); returns its fileID."""
    go = b.add(name, parent, rect=True, **area)
    box = b.add("Background", go, rect=True, anchor_min=vec(0, 0.5), anchor_max=vec(0, 0.5),
                pivot=vec(0, 0.5), anchored=vec(0, 0), size=vec(48, 48))
    box_image = add_image(b, box, color(0.95, 0.95, 0.95, 1))
    check = b.add("Checkmark", box, rect=True, **fill(4))
    check_image = add_image(b, check, color(0.1, 0.1, 0.1, 1), "Checkmark", sliced=False)
    label_go = b.add("Label", go, rect=True, anchor_min=vec(0, 0), anchor_max=vec(1, 1),
                     pivot=vec(0.5, 0.5), anchored=vec(30, 0), size=vec(-60, 0))
    add_text(b, label_go, label, font_size, color(0.9, 0.9, 0.9, 1), alignment=3)
    return b.mono(go, "Toggle", builtin_ref("Toggle"), {
        **selectable(box_image),
        "toggleTransition": 1,  # fade
        "graphic": ref(check_image),
        "m_Group": NULL,
        "onValueChanged": {"m_PersistentCalls": {"m_Calls": calls}},
        "m_IsOn": int(on),
    })


def add_scroll_panel(b: PrefabBuilder, parent: GameObject, name: str, area: dict[str, object],
                     *, text: str, font_size: int, font: str = "Arial",
                     background: Flow | None = None, rich: int = 1,
                     content_name: str = "Content") -> int:
    """A vertically scrolling text panel (ScrollRect over a RectMask2D viewport; the content
    Text grows with its text through a ContentSizeFitter); returns the Text's fileID, which a
    behaviour writes (the compiler's output) or which holds fixed text (the reference).
    `rich` 0 for text that may hold '<' (errors, listings): it shows as typed."""
    panel = b.add(name, parent, rect=True, **area)
    add_image(b, panel, background if background is not None else color(0.08, 0.08, 0.1, 0.95))
    viewport = b.add("Viewport", panel, rect=True, **fill(12))
    b.mono(viewport, "RectMask2D", builtin_ref("RectMask2D"), {
        "m_Padding": vec(0, 0, 0, 0), "m_Softness": Flow(x=0, y=0),
    })
    content = b.add(content_name, viewport, rect=True, anchor_min=vec(0, 1), anchor_max=vec(1, 1),
                    pivot=vec(0.5, 1), anchored=vec(0, 0), size=vec(0, 0))
    text_id = add_text(b, content, text, font_size, color(0.9, 0.9, 0.9, 1), rich=rich,
                       font=font)
    b.mono(content, "ContentSizeFitter", builtin_ref("ContentSizeFitter"), {
        "m_HorizontalFit": 0, "m_VerticalFit": 2,  # preferred height: the text's
    })
    b.mono(panel, "ScrollRect", builtin_ref("ScrollRect"), {
        "m_Content": ref(content.transform_id),
        "m_Horizontal": 0,
        "m_Vertical": 1,
        "m_MovementType": 2,  # clamped
        "m_Elasticity": 0.1,
        "m_Inertia": 1,
        "m_DecelerationRate": 0.135,
        "m_ScrollSensitivity": 30,
        "m_Viewport": ref(viewport.transform_id),
        "m_HorizontalScrollbar": NULL,
        "m_VerticalScrollbar": NULL,
        "m_HorizontalScrollbarVisibility": 2,
        "m_VerticalScrollbarVisibility": 2,
        "m_HorizontalScrollbarSpacing": -3,
        "m_VerticalScrollbarSpacing": -3,
        "m_OnValueChanged": NO_CALLS,
    })
    return text_id
