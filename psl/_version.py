"""The one place the version is written (pyproject.toml and `psl.__version__` read it)."""

__version__ = "0.1.0"
