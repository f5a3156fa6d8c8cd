"""Generators: Jinja templates rendered from the registry (one module per target)."""
