"""Programs in and out of the world: the facts and names that the in-world loader and saves
(templates/udonsharp/ProgramLoader.cs.j2, ProgramSaves.cs.j2), the prefab, the setup menu,
`psl-gen unity-package --gallery` and `psl serve`'s "for VRChat" view share.

The platform facts come from VRChat's creator documentation ("String Loading", "External
URLs", "Persistence"; summarised in shared/udon/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Hosts VRChat loads strings from without the player's "Allow Untrusted URLs" setting:
#: exact host names, and `*.domain` wildcards (any subdomain). raw.githubusercontent.com is
#: NOT on the list.
TRUSTED_HOSTS: tuple[str, ...] = ("gist.githubusercontent.com", "pastebin.com")
TRUSTED_WILDCARDS: tuple[str, ...] = ("github.io", "disbridge.com", "vrcdn.cloud")
#: How the in-world messages and the docs name them.
TRUSTED_DISPLAY: tuple[str, ...] = (
    "gist.githubusercontent.com", "pastebin.com",
    *(f"*.{d}" for d in TRUSTED_WILDCARDS))

#: VRChat serves one string download every 5 seconds (queued requests in random order).
DOWNLOAD_INTERVAL_S = 5
#: A pending load blocks a new one for this long; after it a new Load replaces it (the older
#: request's result, if it ever comes, is dropped).
LOAD_RETRY_S = 30
#: How many gallery entries the loader has events for (Gallery0 .. Gallery{n-1}).
GALLERY_MAX = 12

#: PlayerData keys (VRChat: prefabs should prefix their keys; keys cannot be deleted, so an
#: empty slot is an empty string).
KEY_PREFIX = "psl."
LAST_KEY = KEY_PREFIX + "last"
SAVE_SLOTS = 4
#: PlayerData a world keeps per player (100 KB, stored compressed). The saves count the
#: uncompressed UTF-8 bytes of their own keys and values against it, which is conservative.
PLAYERDATA_BUDGET_BYTES = 100_000

#: psl.last (the player's last own compile) is written at most once per this many seconds:
#: a compile marks it due, and the write happens when the interval since the last write has
#: passed (the first at once), or with the next slot Save. Any PlayerData change re-sends all
#: of the player's PlayerData, so it is never written on every compile; nothing can be
#: written once the player is leaving (OnPlayerLeft is too late), so leaving loses at most
#: the compiles of the last interval.
LAST_SAVE_INTERVAL_S = 30
#: The editor's one history (SyncCode): how many replaced texts it keeps (a ring); the
#: player's own text is never dropped from it.
HISTORY_DEPTH = 8

#: Events the prefab's buttons send (SendCustomEvent) to ProgramLoader / ProgramSaves.
LOAD_URL_EVENT = "LoadFromUrl"
#: What the URL field's end-edit (Enter) sends to ProgramLoader: loads a URL not loaded yet.
URL_ENTERED_EVENT = "UrlEntered"
BRING_BACK_EVENT = "BringBack"
LOAD_LAST_EVENT = "LoadLast"
#: The Compiler's entry that compiles the box without sharing it (a load is the player's
#: own action into their own box; sharing is separate).
COMPILE_LOCAL_EVENT = "CompileLocal"


def slot_key(n: int) -> str:
    return f"{KEY_PREFIX}slot{n}"


def gallery_event(k: int) -> str:
    return f"Gallery{k}"


def save_event(n: int) -> str:
    return f"Save{n}"


def load_slot_event(n: int) -> str:
    return f"LoadSlot{n}"


def is_trusted_host(host: str) -> bool:
    host = host.lower()
    return host in TRUSTED_HOSTS or any(host.endswith("." + d) for d in TRUSTED_WILDCARDS)


@dataclass(frozen=True)
class GalleryEntry:
    title: str
    url: str


#: What a gallery line and its parts are trimmed of (the setup menu trims the same two)
GALLERY_BLANKS = " \t"


def is_gallery_control(c: str) -> bool:
    """A character no gallery title or URL may hold: C0 and C1 controls, DEL, and the line
    and paragraph separators (the setup menu tests the same ranges)."""
    o = ord(c)
    return o < 0x20 or 0x7F <= o <= 0x9F or o in (0x2028, 0x2029)


class GalleryError(ValueError):
    """A gallery file line that is not `title | url`: the message names file and line."""


def parse_gallery(text: str, name: str = "gallery") -> list[GalleryEntry]:
    """`title | url` per line; blank lines and lines starting with `#` are skipped. The
    setup menu's C# reads the same format (templates/unity/ShaderceptionSetup.cs.j2)."""
    entries: list[GalleryEntry] = []
    # lines end at LF (CRLF read as LF), as the setup menu splits them; space and tab are
    # trimmed; any other control character (a lone CR, U+2028, ...) is refused
    for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        line = raw.strip(GALLERY_BLANKS)
        if not line or line.startswith("#"):
            continue
        title, bar, url = line.partition("|")
        title, url = title.strip(GALLERY_BLANKS), url.strip(GALLERY_BLANKS)
        where = f"{name}:{number}"
        if not bar or not title or not url:
            raise GalleryError(f"{where}: expected 'title | url', got {line!r}")
        for what, value in (("title", title), ("URL", url)):
            bad = next((c for c in value if is_gallery_control(c)), None)
            if bad is not None:
                raise GalleryError(f"{where}: the {what} holds a control character "
                                   f"(U+{ord(bad):04X})")
        if not url.startswith(("https://", "http://")):
            raise GalleryError(f"{where}: the URL must start with https:// (got {url!r})")
        if len(entries) == GALLERY_MAX:
            raise GalleryError(f"{where}: the gallery holds at most {GALLERY_MAX} entries")
        entries.append(GalleryEntry(title, url))
    return entries


def read_gallery(path: Path) -> list[GalleryEntry]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise GalleryError(f"{path}: cannot read the gallery file ({e})") from e
    return parse_gallery(text, str(path))


def gallery_text(entries: list[GalleryEntry]) -> str:
    """The gallery file the package ships (the setup menu reads it)."""
    head = ("# PSL gallery: one 'title | url' per line (raw text URLs; see docs/world-setup.md).\n"
            "# Run Tools > PSL Shaderception > Create or Repair after editing.\n")
    return head + "".join(f"{e.title} | {e.url}\n" for e in entries)


def context() -> dict[str, object]:
    """Template variables for the loader and saves (templates/udonsharp/Program*.cs.j2)."""
    return {
        "trusted_hosts": TRUSTED_HOSTS,
        "trusted_wildcards": TRUSTED_WILDCARDS,
        "trusted_display": ", ".join(TRUSTED_DISPLAY),
        "load_retry_s": LOAD_RETRY_S,
        "download_interval_s": DOWNLOAD_INTERVAL_S,
        "gallery_max": GALLERY_MAX,
        "last_key": LAST_KEY,
        "slot_keys": [slot_key(n) for n in range(1, SAVE_SLOTS + 1)],
        "save_slots": SAVE_SLOTS,
        "playerdata_budget": PLAYERDATA_BUDGET_BYTES,
        "load_url_event": LOAD_URL_EVENT,
        "url_entered_event": URL_ENTERED_EVENT,
        "last_save_interval_s": LAST_SAVE_INTERVAL_S,
        "history_depth": HISTORY_DEPTH,
        "bring_back_event": BRING_BACK_EVENT,
        "load_last_event": LOAD_LAST_EVENT,
        "compile_local_event": COMPILE_LOCAL_EVENT,
    }
