"""The ``memsim`` command line (click)."""

from memsim.cli._main import main

__all__ = ["main"]
