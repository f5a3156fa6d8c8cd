"""What the playground's "for VRChat" view needs: the world's string-loading facts and
limits (psl.gen.world_programs, psl.registry), so the page and the world say the same."""

from __future__ import annotations

from psl import registry
from psl.gen import world_programs as wp


def vrchat_description() -> dict[str, object]:
    return {
        "source_limit": registry.LIMITS.source_chars,
        "trusted_hosts": list(wp.TRUSTED_HOSTS),
        "trusted_wildcards": list(wp.TRUSTED_WILDCARDS),
        "trusted_display": list(wp.TRUSTED_DISPLAY),
        "download_interval_s": wp.DOWNLOAD_INTERVAL_S,
        "save_slots": wp.SAVE_SLOTS,
    }
