"""rephrase-ls: a language server that improves prose through a rephrase service."""

__version__ = "0.1.0"
