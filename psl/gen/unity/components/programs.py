"""The Programs panel: a URL field with Load and Bring Back (ProgramLoader), the player's save
slots and Last (ProgramSaves), the creator's gallery (one button per entry), a status line
and the help text that tells players how it works.

It is its own world-space canvas (a layout places it; the standard layout puts it left of
the screen). The setup menu (templates/unity/ShaderceptionSetup.cs.j2) repairs the same
objects by these names.
"""

from __future__ import annotations

from psl.gen import world_programs as wp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import Wiring, add_udonsharp
from psl.gen.unity.components.ugui import (
    add_button,
    add_button_click,
    add_text,
    add_url_field,
    add_world_canvas,
    rect,
    send_custom_event_call,
)
from psl.gen.unity.serialization import color, file_id_for, ref

PANEL = "Programs"  # the panel's canvas, a child of the prefab root
PANEL_W, PANEL_H = 800, 1500
URL_FIELD = "UrlField"
LOAD_BUTTON = "LoadButton"
BRING_BACK_BUTTON = "BringBackButton"
LAST_BUTTON = "LastButton"
STATUS = "Status"
HELP = "Help"
SLOTS = "Slots"
GALLERY = "Gallery"
LOADER_OBJECT = "ProgramLoader"
SAVES_OBJECT = "ProgramSaves"
GALLERY_COLUMNS = 2
#: layout of the panel's buttons (top-left anchored; y downwards), shared with the setup menu
HALF_W = (PANEL_W - 50) / 2
GALLERY_Y0, GALLERY_STEP_X, GALLERY_STEP_Y, BUTTON_H = 45, HALF_W + 10, 62, 54


def help_text() -> str:
    """What the panel tells players (also in docs/world-setup.md)."""
    return (
        "Load a program from the web: put it in a GitHub gist or on pastebin, paste its RAW "
        "URL above, press Enter or Load. It goes into the code box and compiles for you; "
        "Bring Back (like Restore) steps back through what the box held before.\n"
        f"Hosts that always load: {', '.join(wp.TRUSTED_DISPLAY)}. Other hosts load only if "
        "you turned on \"Allow Untrusted URLs\" in VRChat's settings.\n"
        "Your programs stay with you: Save puts the code box into a slot, Load brings it "
        "back on any visit; Last is your last compiled program.")


def slot_save_button(n: int) -> str:
    return f"Save{n}Button"


def slot_load_button(n: int) -> str:
    return f"Load{n}Button"


def gallery_button(k: int | str) -> str:
    return f"Entry{k}"


def _url_field(b: PrefabBuilder, canvas: GameObject, font: str, loader_backing: int) -> int:
    """VRChat's VRCUrlInputField. Its end-edit event (Enter, or VRChat's keyboard closing)
    sends the loader URL_ENTERED_EVENT, which loads a URL not requested yet."""
    return add_url_field(b, canvas, URL_FIELD, rect(20, 70, PANEL_W - 40, 70),
                         placeholder="Paste a raw URL (gist.githubusercontent.com/...)",
                         font=font, end_edit=[send_custom_event_call(loader_backing,
                                                                     wp.URL_ENTERED_EVENT)])


def add_programs_panel(b: PrefabBuilder, root: GameObject, assets: PrefabAssets,
                       wiring: Wiring, *, position: tuple[float, float, float],
                       scale: float) -> None:
    """The panel's canvas under `root`, the ProgramLoader and ProgramSaves behaviours and
    their buttons. `wiring` must already offer the code box (InputField) and the Compiler."""
    gallery = tuple(assets.gallery)
    canvas = add_world_canvas(b, root, PANEL, width=PANEL_W, height=PANEL_H,
                              position=position, scale=scale,
                              background=color(0.12, 0.12, 0.14, 0.95))
    title = b.add("Title", canvas, rect=True, **rect(20, 15, PANEL_W - 40, 45))
    add_text(b, title, "Programs from the web", 30, color(0.9, 0.9, 0.9, 1), style=1)
    # the loader's UdonBehaviour (made below; fileIDs come from paths) gets the field's Enter
    loader_backing = file_id_for(f"{root.path}/{LOADER_OBJECT}", "ProgramLoader.UdonBehaviour")
    url_field = _url_field(b, canvas, assets.font, loader_backing)
    half = HALF_W
    load_go, load_img = add_button(b, canvas, LOAD_BUTTON, "Load", rect(20, 150, half, 64),
                                   color(0.55, 0.85, 0.55, 1))
    back_go, back_img = add_button(b, canvas, BRING_BACK_BUTTON, "Bring Back",
                                   rect(30 + half, 150, half, 64), color(0.85, 0.8, 0.6, 1))
    status_go = b.add(STATUS, canvas, rect=True, **rect(20, 225, PANEL_W - 40, 150))
    status = add_text(b, status_go, "", 20, color(1, 0.9, 0.6, 1))
    help_go = b.add(HELP, canvas, rect=True, **rect(20, 380, PANEL_W - 40, 230))
    add_text(b, help_go, help_text(), 20, color(0.8, 0.8, 0.85, 1))

    # Slots: one row per slot (Save n, Load n), then Last.
    slots = b.add(SLOTS, canvas, rect=True, **rect(20, 620, PANEL_W - 40, 400))
    slots_title = b.add("Title", slots, rect=True, **rect(0, 0, PANEL_W - 40, 40))
    add_text(b, slots_title, "Your programs (kept for your next visit)", 26,
             color(0.9, 0.9, 0.9, 1), style=1)
    slot_buttons: list[tuple[GameObject, int, str]] = []
    row_h = 62
    for n in range(1, wp.SAVE_SLOTS + 1):
        y = 45 + (n - 1) * row_h
        go, img = add_button(b, slots, slot_save_button(n), f"Save {n}", rect(0, y, half, 54),
                             color(0.8, 0.85, 0.95, 1))
        slot_buttons.append((go, img, wp.save_event(n)))
        go, img = add_button(b, slots, slot_load_button(n), f"Load {n}",
                             rect(10 + half, y, half, 54), color(0.8, 0.85, 0.95, 1))
        slot_buttons.append((go, img, wp.load_slot_event(n)))
    last_go, last_img = add_button(b, slots, LAST_BUTTON, "Last compiled",
                                   rect(0, 45 + wp.SAVE_SLOTS * row_h, PANEL_W - 40, 54),
                                   color(0.8, 0.85, 0.95, 1))
    slot_buttons.append((last_go, last_img, wp.LOAD_LAST_EVENT))

    # The creator's gallery: one button per entry.
    gallery_go = b.add(GALLERY, canvas, rect=True, **rect(20, 1040, PANEL_W - 40, 450))
    gallery_title = b.add("Title", gallery_go, rect=True, **rect(0, 0, PANEL_W - 40, 40))
    add_text(b, gallery_title, "Gallery", 26, color(0.9, 0.9, 0.9, 1), style=1)
    gallery_buttons: list[tuple[GameObject, int, str]] = []
    for k, entry in enumerate(gallery):
        row, col = divmod(k, GALLERY_COLUMNS)
        go, img = add_button(b, gallery_go, gallery_button(k), entry.title,
                             rect(col * GALLERY_STEP_X, GALLERY_Y0 + row * GALLERY_STEP_Y, half,
                                  BUTTON_H),
                             color(0.8, 0.95, 0.85, 1))
        gallery_buttons.append((go, img, wp.gallery_event(k)))

    loader_go = b.add(LOADER_OBJECT, root, rect=False)
    saves_go = b.add(SAVES_OBJECT, root, rect=False)
    wiring.register(loader_go, "ProgramLoader")
    wiring.register(saves_go, "ProgramSaves")

    def fields(type_name: str, field_name: str) -> object | None:
        if type_name == "VRCUrlInputField":
            return ref(url_field)
        if type_name == "Text":
            return ref(status)
        if type_name == "string[]" and field_name == "galleryTitles":
            return [e.title for e in gallery]
        if type_name == "VRCUrl[]" and field_name == "galleryUrls":
            return [{"url": e.url} for e in gallery]
        return wiring(type_name, field_name)

    classes = assets.classes
    _, loader = add_udonsharp(b, loader_go, classes["ProgramLoader"], assets, fields)
    if loader != loader_backing:
        raise RuntimeError("the URL field's end-edit does not reach the ProgramLoader")
    _, saves = add_udonsharp(b, saves_go, classes["ProgramSaves"], assets, fields)
    add_button_click(load_go, load_img, loader, wp.LOAD_URL_EVENT)
    add_button_click(back_go, back_img, loader, wp.BRING_BACK_EVENT)
    for go, img, event in gallery_buttons:
        add_button_click(go, img, loader, event)
    for go, img, event in slot_buttons:
        add_button_click(go, img, saves, event)
