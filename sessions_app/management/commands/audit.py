"""`manage.py audit SESSION_ID [--compaction KEY] [--json] [--refresh]`: the retention audit of a
session's compactions — which facts of each summarized span the model still sees afterwards.

Audits are read as stored (computed and stored first where missing or outdated); `--refresh`
recomputes them. `--json` prints one object:
`{"session": id, "compactions": [{"key", "kept", "total", "retention", "summarizer", "by_kind",
"facts", ["before"]}]}`.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.models import CompactionEntry, Session
from sessions_app.presenters.audit import counts, kind_label, score_label, summarizer_label
from sessions_app.store.audits import audit_session, current_audit, refresh_audit, session_compactions

FACT_FIELDS = ("kind", "text", "node", "kept", "where", "detail")


def _facts(audit: dict[str, Any]) -> list[dict[str, Any]]:
    raw = audit.get("facts")
    if not isinstance(raw, list):
        return []
    return [{k: f.get(k) for k in FACT_FIELDS} for f in raw if isinstance(f, dict)]


def _by_kind(audit: dict[str, Any]) -> dict[str, Any]:
    raw = audit.get("by_kind")
    return raw if isinstance(raw, dict) else {}


def compaction_json(entry: CompactionEntry, audit: dict[str, Any] | None) -> dict[str, Any]:
    c = counts(audit)
    out: dict[str, Any] = {
        "key": entry.node.key,
        "kept": c[0] if c else None,
        "total": c[1] if c else None,
        "retention": (c[0] / c[1]) if c and c[1] else None,
        "summarizer": entry.summarizer,
        "by_kind": _by_kind(audit) if audit else {},
        "facts": _facts(audit) if audit else [],
    }
    if audit is None:
        out["error"] = "the audit could not be computed (see the log)"
    elif isinstance(audit.get("before"), dict):
        before = audit["before"]
        out["before"] = {
            "kept": before.get("kept"),
            "total": before.get("total"),
            "by_kind": _by_kind(before),
            "facts": _facts(before),
        }
    return out


class Command(BaseCommand):
    help = "Show the retention audit of a session's compactions: which facts each summary kept or lost."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int, metavar="SESSION_ID")
        parser.add_argument("--compaction", metavar="KEY", help="only the compaction with this node key")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--refresh", action="store_true", help="recompute the audits and store them")

    def handle(self, *args: Any, session_id: int, **opts: Any) -> None:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"no session with id {session_id}")
        key: str | None = opts["compaction"]
        results = self._audits(session, key, refresh=opts["refresh"])
        if opts["json"]:
            payload = {"session": session.pk, "compactions": [compaction_json(e, a) for e, a in results]}
            self.stdout.write(json.dumps(payload, ensure_ascii=False))
            return
        self._report(session, results)

    def _audits(
        self, session: Session, key: str | None, *, refresh: bool
    ) -> list[tuple[CompactionEntry, dict[str, Any] | None]]:
        if key is None:
            return audit_session(session, refresh=refresh)
        entry = session_compactions(session).filter(node__key=key).first()
        if entry is None:
            raise CommandError(f"session {session.pk} has no compaction with node key {key!r}")
        if not refresh:
            return [(entry, current_audit(entry))]
        try:
            return [(entry, refresh_audit(entry))]
        except Exception as exc:
            raise CommandError(f"could not audit compaction {key}: {type(exc).__name__}: {exc}") from exc

    def _report(self, session: Session, results: list[tuple[CompactionEntry, dict[str, Any] | None]]) -> None:
        write = self.stdout.write
        title = session.title or "(untitled)"
        write(f"session {session.pk} {title!r}: {len(results)} compaction{'s' if len(results) != 1 else ''}")
        if not results:
            return
        for entry, audit in results:
            write("")
            by = summarizer_label(entry, session.source)
            head = f"compaction {entry.node.key} ({entry.reason}; summarizer: {by})"
            c = counts(audit)
            if audit is None or c is None:
                write(f"{head}: no audit (it could not be computed; see the log)")
                continue
            write(f"{head}: kept {score_label(*c)}")
            for kind, score in _by_kind(audit).items():
                if isinstance(score, dict):
                    write(f"  {kind_label(kind):<24}{score_label(score.get('kept'), score.get('total'))}")
            before = audit.get("before")
            bc = counts(before) if isinstance(before, dict) else None
            if bc is not None:
                write(f"  the model's own summary kept {score_label(*bc)} before the carry-over guard")
            lost = [f for f in _facts(audit) if not f["kept"]]
            if not lost:
                write("  nothing lost" if c[1] else "  no facts to check")
                continue
            write(f"  lost ({len(lost)}):")
            for f in lost:
                detail = f" ({f['detail']})" if f["detail"] else ""
                write(f"    - [{kind_label(str(f['kind']))}] {f['text']}{detail} · node {f['node']}")
