"""The VRChat Worlds SDK the package needs: every VRChat API its scripts call, the SDK
release that introduced it and where that is documented. The package's declared floor
(package.json's `com.vrchat.worlds`, the README, docs/world-setup.md) is the newest of them;
tests/test_package_sdk.py finds every VRChat extern and event in the generated scripts here
and checks the floor everywhere it is written.

An API that is missing here fails that test: add it with the release that introduced it,
from VRChat's release notes (creators.vrchat.com/releases) or, for APIs older than the notes,
the earliest public record of it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SdkApi:
    """VRChat APIs that came in one SDK release."""

    what: str
    version: tuple[int, int, int]
    source: str
    #: Udon extern signatures (docs/compiler-contract.md's inventory) starting with any of these
    externs: tuple[str, ...] = ()
    #: VRChat events the scripts override (`public override void <name>(`)
    events: tuple[str, ...] = ()


SDK_APIS: tuple[SdkApi, ...] = (
    SdkApi("Udon networking, players, input events and URLs of SDK3 (VRCPlayerApi, "
           "Networking ownership and IsInstanceOwner, manual sync, Input events, VRCUrl, "
           "VRCUrlInputField)", (3, 0, 0),
           "VRChat SDK3 for Worlds (2020-2021, before the SDK's numbered releases); "
           "Networking.IsInstanceOwner is in CyanEmu 0.3.6's release notes (2021)",
           externs=("VRCSDKBaseNetworking.__get_LocalPlayer", "VRCSDKBaseNetworking.__IsOwner",
                    "VRCSDKBaseNetworking.__SetOwner", "VRCSDKBaseNetworking.__get_IsMaster",
                    "VRCSDKBaseNetworking.__get_IsInstanceOwner",
                    "VRCSDKBaseVRCPlayerApi.", "VRCSDKBaseVRCPlayerApiArray.", "VRCSDKBaseVRCUrl",
                    "VRCSDK3ComponentsVRCUrlInputField",
                    "VRCSDKBaseUtilities.", "VRCUdonCommonInterfacesIUdonEventReceiver"),
           events=("OnDeserialization", "OnPostSerialization", "OnPlayerJoined",
                   "OnPlayerLeft", "OnOwnershipTransferred", "Interact", "InputJump",
                   "InputUse", "InputGrab", "InputDrop", "InputMoveHorizontal",
                   "InputMoveVertical", "InputLookHorizontal", "InputLookVertical")),
    SdkApi("Video players (BaseVRCVideoPlayer.PlayURL and Stop, VideoError, "
           "OnVideoStart and OnVideoError)", (3, 0, 0),
           "VRChat SDK3 video players (2020), USharpVideo's public prefabs",
           externs=("VRCSDK3VideoComponentsBaseBaseVRCVideoPlayer.",
                    "VRCSDK3ComponentsVideoVideoError"),
           events=("OnVideoStart", "OnVideoError")),
    SdkApi("UdonSharp inside the Worlds SDK (the package has no other UdonSharp dependency)",
           (3, 4, 0), "VRChat SDK release 3.4.0: UdonSharp ships in com.vrchat.worlds"),
    SdkApi("String Loading (VRCStringDownloader, IVRCStringDownload)", (3, 1, 11),
           "VRChat SDK release 3.1.11: \"Udon can now load remote strings\"",
           externs=("VRCSDK3StringLoading",),
           events=("OnStringLoadSuccess", "OnStringLoadError")),
    SdkApi("Persistence: PlayerData and OnPlayerRestored", (3, 7, 4),
           "Persistent User Data went live with SDK 3.7.4 (VRChat 2024.4.1p3, "
           "November 21, 2024)",
           externs=("VRCSDK3PersistencePlayerData",), events=("OnPlayerRestored",)),
    SdkApi("PlayerData storage events", (3, 10, 0),
           "VRChat SDK release 3.10.0: \"2 new events for PlayerData usage: "
           "OnPlayerDataStorageWarning and OnPlayerDataStorageExceeded\"",
           events=("OnPlayerDataStorageWarning", "OnPlayerDataStorageExceeded")),
)


def version_text(v: tuple[int, int, int]) -> str:
    return ".".join(str(x) for x in v)


#: The oldest Worlds SDK the package's scripts compile on: the newest API they use.
SDK_FLOOR: tuple[int, int, int] = max(a.version for a in SDK_APIS)
SDK_FLOOR_TEXT = version_text(SDK_FLOOR)
#: package.json's dependency range: this release or any later 3.x
SDK_RANGE = f"^{SDK_FLOOR_TEXT}"


def api_of_extern(extern: str) -> SdkApi | None:
    for api in SDK_APIS:
        if any(extern.startswith(p) for p in api.externs):
            return api
    return None


def api_of_event(name: str) -> SdkApi | None:
    for api in SDK_APIS:
        if name in api.events:
            return api
    return None


def markdown_table() -> str:
    """The table docs/world-setup.md carries (a test keeps it current)."""
    rows = ["| VRChat API | introduced in Worlds SDK | source |", "|---|---|---|"]
    rows += [f"| {a.what} | {version_text(a.version)} | {a.source} |"
             for a in sorted(SDK_APIS, key=lambda a: a.version)]
    return "\n".join(rows) + "\n"
