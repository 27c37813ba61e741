"""A click group whose subcommands live in modules imported only when run (or when
``--help`` lists them): ``memsim audit`` does not pay for importing the bench, the
exporters or the LLM clients."""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """``lazy`` maps a command name to "module:attribute" of its click command."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attr = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


__all__ = ["LazyGroup"]
