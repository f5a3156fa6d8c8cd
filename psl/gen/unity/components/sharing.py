"""Sharing with manners and typing without walking, in the prefab: the SyncCode and
TypingLock behaviours with their controls (Share, Load shared, Restore, the Follow toggle,
the info line, the Stay-in-place toggle). Both behaviours' objects are created by the caller
so that the controls can be laid out anywhere on any canvas."""

from __future__ import annotations

from dataclasses import dataclass

from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import Wiring, add_udonsharp, backing_id
from psl.gen.unity.components.ugui import (
    add_button,
    add_button_click,
    add_text,
    add_toggle,
    rect,
    send_custom_event_call,
)
from psl.gen.unity.serialization import color, ref

SHARE_NAME, LOAD_SHARED_NAME, RESTORE_NAME = "ShareButton", "LoadSharedButton", "RestoreButton"
FOLLOW_NAME, INFO_NAME, PIN_NAME = "FollowToggle", "SharedInfo", "StayInPlaceToggle"
#: the owner controls (SyncCode refuses them to anyone but the instance owner, or the master)
LOCK_NAME, CLEAR_NAME = "LockSharingButton", "ClearSharedButton"


@dataclass
class SharingControls:
    """What add_sharing_controls made: buttons to wire once SyncCode exists."""

    buttons: list[tuple[GameObject, int, str]]  # (button, image, SyncCode event)


def add_sharing_controls(b: PrefabBuilder, canvas: GameObject, wiring: Wiring,
                         sync_go: GameObject, lock_go: GameObject, *, x: float, y: float,
                         width: float) -> SharingControls:
    """Three rows at (x, y): Share / Load shared / Restore and the Follow toggle; the info
    line; the Stay-in-place toggle and the owner's Lock sharing / Clear shared. Registers
    the info text and toggles in `wiring` for SyncCode.sharedInfo, SyncCode.follow and
    TypingLock.pin."""
    gap = 20
    w = (width - 3 * gap) / 4
    buttons = []
    for k, (name, label, event) in enumerate((
            (SHARE_NAME, "Share", udonsharp.SHARE_EVENT),
            (LOAD_SHARED_NAME, "Load shared", udonsharp.LOAD_SHARED_EVENT),
            (RESTORE_NAME, "Restore", udonsharp.RESTORE_EVENT))):
        go, image = add_button(b, canvas, name, label, rect(x + k * (w + gap), y, w, 70),
                               color(0.95, 0.8, 0.5, 1) if k == 0 else color(0.8, 0.85, 0.95, 1))
        buttons.append((go, image, event))
    follow = add_toggle(b, canvas, FOLLOW_NAME, "Follow shared", rect(x + 3 * (w + gap), y + 5,
                                                                     w, 60),
                        on=udonsharp.FOLLOW_DEFAULT,
                        calls=[send_custom_event_call(backing_id(sync_go, "SyncCode"),
                                                      udonsharp.FOLLOW_EVENT)])
    info_go = b.add(INFO_NAME, canvas, rect=True, **rect(x, y + 80, width, 50))
    info = add_text(b, info_go, "", 24, color(0.95, 0.85, 0.6, 1))
    half = (width - gap) / 2
    for k, (name, label, event) in enumerate((
            (LOCK_NAME, "Lock sharing", udonsharp.LOCK_EVENT),
            (CLEAR_NAME, "Clear shared", udonsharp.CLEAR_EVENT))):
        go, image = add_button(b, canvas, name, label,
                               rect(x + half + gap + k * (half - gap) / 2 + k * gap, y + 140,
                                    (half - gap) / 2, 60),
                               color(0.9, 0.75, 0.75, 1))
        buttons.append((go, image, event))
    pin = add_toggle(b, canvas, PIN_NAME, "Stay in place (typing never walks you)",
                     rect(x, y + 140, half, 60), on=False, font_size=24,
                     calls=[send_custom_event_call(backing_id(lock_go, "TypingLock"),
                                                   udonsharp.PIN_EVENT)])
    wiring.offer_field("sharedInfo", ref(info))
    wiring.offer_field("follow", ref(follow))
    wiring.offer_field("pin", ref(pin))
    return SharingControls(buttons)


def add_sharing_behaviours(b: PrefabBuilder, assets: PrefabAssets, wiring: Wiring,
                           sync_go: GameObject, lock_go: GameObject,
                           controls: SharingControls) -> None:
    _, sync_backing = add_udonsharp(b, sync_go, assets.classes["SyncCode"], assets, wiring)
    add_udonsharp(b, lock_go, assets.classes["TypingLock"], assets, wiring)
    for go, image, event in controls.buttons:
        add_button_click(go, image, sync_backing, event)
