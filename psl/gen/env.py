"""The generators' Jinja environment: psl.templating, named here for the generators that
import it from psl.gen (the exporters import psl.templating directly)."""

from __future__ import annotations

from psl.templating import OPTIMIZE_DIR, environment, generated_header, render, write_outputs

__all__ = ["OPTIMIZE_DIR", "environment", "generated_header", "render", "write_outputs"]
