"""What every ``memsim`` subcommand shares: failing with exit status 2 on bad input,
turning the errors a user can fix into one clear line, and the progress bar.

The subcommand modules import this, and ``_main`` imports them: no module of the CLI
imports ``_main``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from memsim._io import OutputExistsError, OutputWriteError

if TYPE_CHECKING:
    from memsim.schema import Schema

F = TypeVar("F", bound=Callable[..., Any])
BAD_INPUT = 2
MAX_WORKERS = 256
"""Worker processes a run may ask for (each holds the schema, the pool and a QA context)."""


def fail(message: str) -> NoReturn:
    click.echo(f"memsim: error: {message}", err=True)
    sys.exit(BAD_INPUT)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors a user can fix into a clear message and exit status 2 (a broken
    file of a known format is a FormatError or a RecordError, both ValueErrors, named
    with the file, the record and the field)."""
    from memsim._registry import UnknownPluginError
    from memsim.graph import MissingExtraError
    from memsim.schema import SchemaError

    try:
        yield
    except SchemaError as exc:
        for line in exc.messages:
            click.echo(line, err=True)
        click.echo(f"memsim: {len(exc.messages)} problem(s) found", err=True)
        sys.exit(BAD_INPUT)
    except UnknownPluginError as exc:
        fail(str(exc))
    except (
        OutputExistsError,
        OutputWriteError,
        MissingExtraError,
        FileNotFoundError,
        ValueError,
    ) as exc:
        fail(str(exc))
    except OSError as exc:  # a full disk, a file that vanished: say which and why
        fail(f"{exc.filename or 'memsim'}: {exc.strerror or exc}")


def load(path: str) -> Schema:
    """The schema at ``path`` with its locale overlay read and checked (as `memsim schema
    validate` checks it), or a clear error and exit status 2 before any work: an overlay
    file that is missing or invalid otherwise surfaced as a traceback mid-run."""
    from memsim.schema import load_schema
    from memsim.verbalize import schema_locale

    with user_errors():
        schema = load_schema(path)
        schema_locale(schema)
        return schema


def progress_bar(items: Any, total: int, unit: str, enabled: bool | None) -> Any:
    from tqdm import tqdm

    disable = not sys.stderr.isatty() if enabled is None else not enabled
    return tqdm(items, total=total, unit=f" {unit}", disable=disable, file=sys.stderr)


def shard_option(units: str) -> Callable[[F], F]:
    """``--shard I/N``: make only slice I of N of the run's ``units`` (numbered from 0);
    ``memsim merge`` joins the N outputs into what one machine makes."""
    return click.option(
        "--shard",
        "shard_spec",
        default=None,
        metavar="I/N",
        help=f"Make only shard I of N (0-based) of {units}, by index range; join the N "
        "outputs with `memsim merge` (byte-identical to one machine's).",
    )


def format_names() -> list[str]:
    """Every registered format (``memsim ls formats``): the choices of ``--format``."""
    from memsim.formats import FORMATS

    return FORMATS.names()


__all__ = [
    "BAD_INPUT",
    "MAX_WORKERS",
    "fail",
    "format_names",
    "load",
    "progress_bar",
    "shard_option",
    "user_errors",
]
