"""The Listing button: a ListingView behaviour that writes the listing of the program on
this player's screens into the output panel (read back from the VM material)."""

from __future__ import annotations

from psl.gen import udonsharp
from psl.gen.unity.components.builder import GameObject, PrefabAssets, PrefabBuilder
from psl.gen.unity.components.udon import FieldResolver, add_udonsharp
from psl.gen.unity.components.ugui import add_button, add_button_click
from psl.gen.unity.serialization import color

LISTING_BUTTON, LISTING_VIEW = "ListingButton", "ListingView"


def add_listing(b: PrefabBuilder, root: GameObject, canvas: GameObject, assets: PrefabAssets,
                resolve: FieldResolver, area: dict[str, object]) -> None:
    """The button on `canvas` at `area`, its behaviour on <root>/ListingView (wired by type:
    the VM material and the output Text)."""
    go, image = add_button(b, canvas, LISTING_BUTTON, "Listing", area, color(0.8, 0.85, 0.95, 1))
    view = b.add(LISTING_VIEW, root, rect=False)
    _, backing = add_udonsharp(b, view, assets.classes["ListingView"], assets, resolve)
    add_button_click(go, image, backing, udonsharp.LISTING_EVENT)
