"""A query asked on every request, compiled to SQL once per process instead of once per call.

Building and compiling a queryset costs the ORM more than PostgreSQL takes to answer it: the
session page's read of its session (with whether it compacts) was 1.8 ms of CPU per request, of
the ~5 ms a cached page costs a server process; the same SQL run as a raw query with its one
parameter substituted costs 0.4 ms (issue 35, docs/architecture.md "Serving under load"). Under
50 clients on two processes that CPU is what every request queues behind.

The SQL is Django's own, taken from the queryset (`sql_with_params`), so the rows, the
annotations and their conversions are the ones the queryset reads; only the parameter marked
by `ARG` changes between calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

# The value the queryset is built with where the caller's argument goes: found among the compiled
# parameters, and it must be there exactly once (a negative id no row has). Within a 32-bit
# integer: a key outside its field's range compiles to "no rows" (auth's User has a 32-bit key).
ARG = -2_085_129_033


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class _Compiled:
    model: type[Model]
    sql: str
    params: tuple[Any, ...]
    at: int
    init_list: list[str]
    model_columns: slice
    annotations: dict[str, int]
    converters: list[tuple[int, list[Any], Any]]


class CompiledQuery(Generic[M]):
    """`build(ARG)`'s SQL, compiled once per database; `first(value)` runs it with `value` in
    ARG's place and makes the first row a model instance the way Django's ModelIterable does
    (the same converters, `Model.from_db`, annotations as attributes), or returns None."""

    def __init__(self, build: Callable[[int], QuerySet[M]], using: str = "default") -> None:
        self.build = build
        self.using = using
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def _compile(self) -> _Compiled:
        connection = connections[self.using]
        # Keyed by the database it runs on: a test process switches to its test database.
        key = (connection.vendor, str(connection.settings_dict.get("NAME")))
        found = self._compiled.get(key)
        if found is not None:
            return found
        qs = self.build(ARG)[:1]
        related = getattr(qs, "_known_related_objects", None) or getattr(qs, "_prefetch_related_lookups", ())
        if qs.query.select_related or related:
            raise ValueError("a compiled query reads one model's rows: no related objects")
        compiler = qs.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()  # fills compiler.select, klass_info, annotation_col_map
        at = [i for i, p in enumerate(params) if type(p) is int and p == ARG]
        if len(at) != 1:
            raise ValueError(f"the argument must appear once in the compiled query, not {len(at)} times")
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        select_fields = compiler.klass_info["select_fields"]
        columns = slice(select_fields[0], select_fields[-1] + 1)
        found = _Compiled(
            model=compiler.klass_info["model"],
            sql=sql,
            params=tuple(params),
            at=at[0],
            init_list=[f[0].target.attname for f in compiler.select[columns]],
            model_columns=columns,
            annotations=dict(compiler.annotation_col_map),
            converters=[(pos, convs, expr) for pos, (convs, expr) in compiler.get_converters(fields).items()],
        )
        self._compiled[key] = found
        return found

    def first(self, value: int) -> M | None:
        if not _INT64_MIN <= value <= _INT64_MAX:
            # No row has such a key; the ORM answers "none" for it too (an out-of-range integer
            # lookup matches nothing), while the driver would raise (SQLite: OverflowError).
            return None
        c = self._compile()
        args = list(c.params)
        args[c.at] = value
        connection = connections[self.using]
        with connection.cursor() as cursor:
            cursor.execute(c.sql, args)
            fetched = cursor.fetchone()
        if fetched is None:
            return None
        row = list(fetched)
        for pos, convs, expr in c.converters:
            for convert in convs:
                row[pos] = convert(row[pos], expr, connection)
        obj = c.model.from_db(self.using, c.init_list, row[c.model_columns])
        for name, pos in c.annotations.items():
            setattr(obj, name, row[pos])
        return obj  # type: ignore[return-value]  # the queryset's model, M
