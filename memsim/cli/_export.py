"""``memsim export``: a dataset written in another format (``memsim ls formats``)."""

from __future__ import annotations

from pathlib import Path

import click

from memsim.cli._common import fail, format_names, user_errors


@click.command("export")
@click.argument("dataset", type=click.Path(path_type=Path))
@click.option(
    "--to", "to", required=True, type=click.Choice(format_names()), help="The format to write."
)
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(format_names()),
    default=None,
    help="The format DATASET is in (detected when not given).",
)
@click.option(
    "--profiles",
    type=click.Path(file_okay=False, path_type=Path),
    help="memdaily: the profiles folder, for graphs.json [default: DATASET/../profiles].",
)
@click.option(
    "--schema",
    "schema_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="memdaily: the schema file, for graphs.json [default: the schemas/*.yaml the "
    "dataset's manifest names].",
)
def export_cmd(
    dataset: Path,
    to: str,
    out: Path,
    fmt: str | None,
    profiles: Path | None,
    schema_path: Path | None,
) -> None:
    """Write DATASET (a memsim dataset folder, or any file memsim reads) as FORMAT into
    the folder OUT, atomically, with a manifest. memdaily writes memdaily.json and, from
    the profiles, graphs.json (MemDaily's ground-truth layout: `memsim audit OUT`
    re-derives answers from the folder alone)."""
    from memsim.formats._export import export_dataset, source_manifest
    from memsim.schema import schema_for_manifest

    with user_errors():
        if to == "memdaily":
            folder = dataset if dataset.is_dir() else dataset.parent
            manifest = source_manifest(dataset)
            if profiles is None:
                profiles = _profiles_beside(folder, manifest)
            if profiles is not None and schema_path is None:
                schema_path = schema_for_manifest(manifest, folder)
            if profiles is None:
                click.echo("no profiles folder: writing memdaily.json without graphs.json")
        elif profiles is not None or schema_path is not None:
            fail("--profiles and --schema only apply to --to memdaily")
        result = export_dataset(dataset, to, out, fmt, profiles, schema_path)
    click.echo(
        f"wrote {result.records} records from {result.source_format} as {result.format} "
        f"to {out} ({', '.join(result.files)})"
    )


def _profiles_beside(folder: Path, manifest: dict[str, object]) -> Path | None:
    """``folder/../profiles`` when memsim generated the dataset from profiles of the same
    schema (as ``make dataset`` lays them out), else None."""
    from memsim.profile import read_manifest

    candidate = folder.parent / "profiles"
    schema = manifest.get("schema") if manifest.get("kind") == "dataset" else None
    if not isinstance(schema, dict) or not candidate.is_dir():
        return None
    try:
        found = read_manifest(candidate).get("schema", {}).get("name")
    except (FileNotFoundError, ValueError):
        return None
    return candidate if found == schema.get("name") else None
