"""The package's version, written here and nowhere else: pyproject.toml reads it (its
``version`` is dynamic), the package exports it, the CLI and the HTML viewer show it.
It imports nothing, so every layer may import it."""

__version__ = "0.5.0"
