"""The corpus manifest and the reference render settings of SPEC §9 (64x64, time 1.25, the
golden camera and video frames), shared by the corpus tests and bench/bench_optimizer.py."""

from __future__ import annotations

import json

import numpy as np

from psl.vm.render import RenderSettings
from tests.conftest import CORPUS

MANIFEST = json.loads((CORPUS / "golden" / "manifest.json").read_text(encoding="utf-8"))
SETTINGS = MANIFEST["settings"]


def reference_settings(frames: int) -> RenderSettings:
    return RenderSettings(
        width=SETTINGS["width"], height=SETTINGS["height"], time=1.25, frames=frames, fps=60.0,
        button=tuple(SETTINGS["_InputButton"]), axis=tuple(SETTINGS["_InputAxis"]),
        camera=np.load(CORPUS / "golden" / "camera.npy"),
        video=np.load(CORPUS / "golden" / "video.npy"),
        is_avpro=bool(SETTINGS["_IsAVProInput"]), max_jumps=SETTINGS["max_jumps"])
