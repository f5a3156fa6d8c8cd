"""`psl-gen` lives in psl/cli/gen.py; this name stays for tools that import it (the shared
udon_cost benchmark runs `from psl.gen.cli import main`). The layering contract lists this
one upward import as allowed."""

from psl.cli.gen import main

__all__ = ["main"]
