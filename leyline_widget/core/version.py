"""The package version, kept in the core so every layer can name it in the files it writes."""

__all__ = ["VERSION"]

VERSION = "0.1.0"
