"""The browser playground's static files (static/), served by `psl serve` (psl.serve)."""
