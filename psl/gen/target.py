"""The generator interface (glad's shape): a target names its output files, the template each
is rendered from, and one function that computes the template context from the registry.

Every generator module defines `TARGET`; `psl-gen <name>` and the Unity package call it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from psl.gen.env import render, write_outputs


@dataclass(frozen=True)
class Target:
    name: str  # the psl-gen subcommand
    outputs: Mapping[str, str]  # output file (relative path) -> template under templates/
    context: Callable[..., Mapping[str, object]]  # options -> template variables

    def render(self, **options: object) -> dict[str, str]:
        """Every output: file name -> text (deterministic)."""
        ctx = self.context(**options)
        return {name: render(template, **ctx) for name, template in self.outputs.items()}

    def write(self, out: Path, **options: object) -> list[Path]:
        return write_outputs(out, self.render(**options))
