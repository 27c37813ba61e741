"""Hugging Face dataset folder: ``data/<config>-test.parquet`` and a ``README.md`` card.

One config per record type (``simple``, ``comparative``..., or a read format's own types)
plus ``all`` (the default), whose ``data_files`` is every file, so nothing is stored twice;
one split, ``test``. Parquet is written with pyarrow alone (``pip install 'memsim[hf]'``;
``datasets`` is not needed to write or to read back here). Every row has every column and
every nested key, with one Arrow schema (:data:`ROW`) for all files, so ``datasets`` loads
typed features; the card's YAML front matter declares them (``dataset_info.features``),
with ``configs``, license, language, task category and size category, and its prose gives
the figures per config.

A row is a :class:`~memsim.records.Record` with every field, nested as the types nest:
``tid``, ``type``, ``scenario``, ``sessions`` (each with its ``turns``), ``qa`` (with
``options``, ``gold``, ``evidence`` and ``provenance``), ``profile_id``, ``locale``,
``flags``, ``extra``; the columns come from the types' annotations (:mod:`._hf_rows`), and
values of no fixed type (``qa.provenance.params``, ``answer_value``, the extras) are JSON
text. So the format holds every field of a record; the reader gives the records back
grouped by config file (sorted by name), each file in the order written. Rows are
buffered per config and written in row groups of :data:`ROW_GROUP` records, so memory
stays flat in the number of records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats import _hf_card as card
from memsim.formats._hf_rows import (
    SharedHistory,
    check_schema,
    record_from_row,
    row_of_record,
    row_schema,
)
from memsim.records import Record

DATA, SPLIT, ALL = "data", "test", "all"
ROW_GROUP = 1000
READ_BATCH = 100
"""Rows turned into Python objects at a time when reading: small, since a row holds its
whole history (a LoCoMo question, a conversation of ~600 turns)."""


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        from memsim.graph import MissingExtraError

        raise MissingExtraError(
            "the hf format needs pyarrow, an optional extra: pip install 'memsim[hf]'"
        ) from exc
    return pyarrow


def config_name(record_type: str) -> str:
    """A config (and file) name for a type: letters, digits, ``_`` and ``-``."""
    name = "".join(c if c.isalnum() or c in "_-" else "_" for c in record_type) or "untyped"
    return f"{name}_" if name == ALL else name


class HuggingFaceFormat:
    name = "hf"
    summary = "Hugging Face dataset folder: data/<config>-test.parquet and a README.md card"
    holds = "every field of a record (free-form values as JSON text); one config per type"
    cannot = "nothing of a record; needs pyarrow to write and read"

    def detect(self, path: Path) -> bool:
        return path.is_dir() and any((path / DATA).glob(f"*-{SPLIT}.parquet"))

    def read(self, path: Path) -> Iterator[Record]:
        pa = _pyarrow()
        schema = row_schema(pa)
        files = sorted((path / DATA).glob(f"*-{SPLIT}.parquet"))
        if not files:
            raise FormatError(path, f"no {DATA}/*-{SPLIT}.parquet files")
        for file in files:
            try:
                parquet = pa.parquet.ParquetFile(file)
            except (OSError, pa.ArrowException) as exc:
                raise FormatError(file, f"not a Parquet file: {exc}") from None
            check_schema(file, parquet.schema_arrow, schema)
            shared = SharedHistory()
            for batch in parquet.iter_batches(batch_size=READ_BATCH):
                for row in batch.to_pylist():
                    yield record_from_row(file, row, shared)

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        pa = _pyarrow()
        schema = row_schema(pa)
        (out / DATA).mkdir(parents=True, exist_ok=True)
        writers: dict[str, Any] = {}
        buffers: dict[str, list[dict[str, Any]]] = {}
        figures: dict[str, card.Figures] = {}
        shared = SharedHistory()

        def flush(config: str) -> None:
            if config not in writers:
                path = out / DATA / f"{config}-{SPLIT}.parquet"
                writers[config] = pa.parquet.ParquetWriter(path, schema)
            table = pa.Table.from_pylist(buffers[config], schema=schema)
            writers[config].write_table(table, row_group_size=ROW_GROUP)
            figures[config].nbytes += table.nbytes
            buffers[config] = []

        try:
            for record in records:
                config = config_name(record.type)
                buffers.setdefault(config, []).append(row_of_record(record, shared))
                figures.setdefault(config, card.Figures()).add(record)
                if len(buffers[config]) >= ROW_GROUP:
                    flush(config)
            for config in sorted(buffers):
                if buffers[config] or config not in writers:
                    flush(config)
        finally:
            for writer in writers.values():
                writer.close()
        files = [f"{DATA}/{config}-{SPLIT}.parquet" for config in sorted(writers)]
        text = card.render(figures, card.features_yaml(schema), info, SPLIT, ALL, DATA)
        (out / card.README).write_text(text, encoding="utf-8")
        return [*files, card.README]


FORMATS.register("hf")(HuggingFaceFormat())
