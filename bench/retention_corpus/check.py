"""Check the retention evaluation corpus: every session loads, every anchor names exactly one
entry, every probe matches its source entry, and the facts are counted.

Run from the repository root (README.md next to this file describes the corpus):

    PYTHONPATH=$PWD /work/main/.venv/bin/python bench/retention_corpus/check.py [DIR ...]

A DIR is a split folder (holding session folders) or one session folder (holding labels.json);
with none, the corpus's own `dev/` and `test/` folders are checked. The split of a session is
the name of the folder it sits in (`dev`, `test`). Exits 1 on any problem, 2 on bad arguments.

Transcripts are read with Cutpoint's format readers only (`sessions_app.formats`), without a
database and without anything of the compaction engine beyond its entry type. The text of an
entry, which anchors and probes are matched against:

- user / assistant / tool result / custom messages: their text blocks, one per line;
- an assistant's tool calls: each call's arguments as JSON text (`json.dumps`, non-ASCII kept,
  default separators), one per line after the text;
- a pi bash execution: the command, then its output;
- a compaction: its summary.

Thinking blocks, images and entries of other kinds have no text. A Codex compaction's
replacement-history items (keys `L<line>.<i>`) repeat earlier messages, so they are left out of
anchor matching; Claude Code sub-agent (sidechain) records are left out too (they are off the
main chain a compaction sees).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from sessions_app.compaction.messages import COMPACTION, CUSTOM_MESSAGE, MESSAGE, Entry
from sessions_app.formats import claude, codex, detect_format
from sessions_app.formats.claude import Record
from sessions_app.formats.fields import rest
from sessions_app.formats.pi import reader as pi_reader

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FORMATS = ("pi", "claude", "codex")
KINDS = (
    "constraint",
    "preference",
    "request",
    "decision",
    "value",
    "path",
    "command",
    "error",
    "fix",
    "finding",
    "state",
)
IMPORTANCE = ("must", "should", "nice")
STATUS = ("open", "done", "reversed", "fixed")
MIN_ANCHOR = 12
REQUIRED = ("title", "format", "transcript", "origin", "voice", "toolchain", "compactions", "facts")
FACT_KEYS = {"id", "kind", "source", "importance", "status", "text", "probe", "synthesis"}


@dataclass(slots=True)
class Loaded:
    """A transcript as anchors see it: entries in file order, with their text."""

    entries: list[Entry]
    texts: list[str]
    searchable: list[bool]  # False for copies and sub-agent entries (see the module doc)
    warnings: list[str] = field(default_factory=list)


# --- reading transcripts -----------------------------------------------------------------------


def entry_text(e: Entry) -> str:
    if e.kind == COMPACTION:
        return str(e.data.get("summary") or "")
    if e.kind not in (MESSAGE, CUSTOM_MESSAGE):
        return ""
    if e.role == "bash_execution":
        return f"{e.data.get('command') or ''}\n{e.data.get('output') or ''}"
    parts: list[str] = []
    calls: list[str] = []
    content = e.content if isinstance(e.content, list) else []
    for b in content:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "text":
            parts.append(str(b.get("text") or ""))
        elif b.get("type") == "tool_call":
            calls.append(json.dumps(b.get("arguments"), ensure_ascii=False))
    if isinstance(e.content, str):  # custom messages may carry a plain string
        parts.append(e.content)
    return "\n".join(parts + calls)


def read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for n, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        obj = orjson.loads(line)
        if isinstance(obj, dict):
            out.append((n, obj))
    return out


def load_pi(path: Path) -> Loaded:
    session = pi_reader.load(path, lazy=False)
    on_path = {e.key for e in session.path()}
    entries = session.entries
    warnings = []
    if len(on_path) != len(entries):
        warnings.append(f"{len(entries) - len(on_path)} entries are off the path to the last entry")
    return Loaded(entries, [entry_text(e) for e in entries], [e.key in on_path for e in entries], warnings)


def load_codex(path: Path) -> Loaded:
    rollout = codex.Rollout()
    entries: list[Entry] = []
    warnings: list[str] = []
    for n, rec in read_records(path):
        ts = rec.get("timestamp") if isinstance(rec.get("timestamp"), str) else None
        bad = rollout.add(n, rec, ts)
        if bad is not None:
            warnings.append(f"line {n}: {bad}")
        entries.extend(node.entry for node in rollout.ready)
        rollout.ready.clear()
        rollout.kept.clear()
        rollout.issues.clear()
    rollout.finish()
    entries.extend(node.entry for node in rollout.ready)
    warnings += [f"line {n}: {text}" for n, text in rollout.notes]
    compacted = {e.key for e in entries if e.kind == COMPACTION}
    copies = [e.key.split(".")[0] in compacted and "." in e.key for e in entries]
    return Loaded(entries, [entry_text(e) for e in entries], [not c for c in copies], warnings)


def load_claude(path: Path) -> Loaded:
    """The main chain's records as entries, the way `sessions_app.importers.claude` maps them
    (assistant parts merged by message id, a boundary and its summary one compaction), minus
    the store. Sub-agent records are read but not searchable."""
    entries: list[Entry] = []
    side: list[bool] = []
    tool_names: dict[str, str] = {}
    by_message: dict[tuple[bool, str], Entry] = {}
    boundary: Entry | None = None
    warnings: list[str] = []
    for _, rec in read_records(path):
        uuid = rec.get("uuid")
        if not isinstance(uuid, str) or not uuid:
            continue
        sidechain = rec.get("isSidechain") is True
        parent = rec.get("parentUuid") if isinstance(rec.get("parentUuid"), str) else None
        r = Record(uuid, parent, rec.get("timestamp"), rest(rec, claude.BASE))
        msg = rec.get("message")
        t = rec.get("type")
        new: list[Entry] = []
        if t == "system" and rec.get("subtype") == "compact_boundary":
            tokens, _ = claude.boundary(rec)
            boundary = claude.compaction_entry(r, "", tokens, {})
            new = [boundary]
        elif t == "user" and rec.get("isCompactSummary") is True and isinstance(msg, dict):
            text = claude.text_of(msg.get("content"))
            if boundary is not None:
                boundary.data["summary"] = text
                boundary = None
            else:
                new = [claude.compaction_entry(r, text, 0, {})]
        elif t == "assistant" and isinstance(msg, dict):
            blocks = claude.blocks(msg.get("content"))
            for b in blocks:
                if b.get("type") == "tool_call" and isinstance(b.get("id"), str):
                    tool_names[b["id"]] = str(b.get("name") or "")
            mid = msg.get("id")
            first = by_message.get((sidechain, mid)) if isinstance(mid, str) else None
            if first is not None:
                claude.merge_assistant(first, msg, blocks, uuid)
            else:
                e = claude.assistant_entry(r, msg, blocks, with_usage=True)
                if isinstance(mid, str):
                    by_message[(sidechain, mid)] = e
                new = [e]
        elif t == "user" and isinstance(msg, dict):
            new = claude.user_entries(r, msg, tool_names)
        else:
            new = [claude.custom_entry(r, rec)]
        entries.extend(new)
        side.extend([sidechain] * len(new))
    if boundary is not None:
        warnings.append("a compact boundary without its isCompactSummary record")
    return Loaded(entries, [entry_text(e) for e in entries], [not s for s in side], warnings)


LOADERS = {"pi": load_pi, "codex": load_codex, "claude": load_claude}


def first_record(path: Path) -> dict[str, Any] | None:
    for _, rec in read_records(path):
        return rec
    return None


# --- checking one session ----------------------------------------------------------------------


@dataclass(slots=True)
class Report:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    before_last: int = 0  # facts whose source comes before the last compaction point
    entries: int = 0


def resolve(anchor: Any, loaded: Loaded) -> tuple[int | None, str | None]:
    """The index of the one searchable entry whose text holds `anchor`, or why there is none."""
    if not isinstance(anchor, str):
        return None, f"anchor is {type(anchor).__name__}, not a string"
    if len(anchor) < MIN_ANCHOR:
        return None, f"anchor {anchor!r} is shorter than {MIN_ANCHOR} characters"
    hits = [
        i for i, (t, ok) in enumerate(zip(loaded.texts, loaded.searchable, strict=True)) if ok and anchor in t
    ]
    if not hits:
        return None, f"anchor {anchor[:60]!r} is in no entry"
    if len(hits) > 1:
        keys = ", ".join(loaded.entries[i].key for i in hits[:5])
        return None, f"anchor {anchor[:60]!r} is in {len(hits)} entries ({keys})"
    return hits[0], None


def transcript_path(folder: Path, name: str) -> Path:
    local = folder / name
    return local if local.exists() else REPO / name


def check_fact(f: Any, loaded: Loaded, seen: set[str], report: Report) -> int | None:
    if not isinstance(f, dict):
        report.problems.append(f"a fact is {type(f).__name__}, not an object")
        return None
    fid = f.get("id")
    where = f"fact {fid}"
    p = report.problems
    if not isinstance(fid, str) or not fid:
        p.append(f"a fact without an id: {str(f)[:80]}")
    elif fid in seen:
        p.append(f"{where}: duplicate id")
    seen.add(str(fid))
    unknown = set(f) - FACT_KEYS
    if unknown:
        p.append(f"{where}: unknown keys {sorted(unknown)}")
    if f.get("kind") not in KINDS:
        p.append(f"{where}: kind {f.get('kind')!r} is not one of {KINDS}")
    if f.get("importance") not in IMPORTANCE:
        p.append(f"{where}: importance {f.get('importance')!r} is not one of {IMPORTANCE}")
    if "status" in f and f["status"] not in STATUS:
        p.append(f"{where}: status {f['status']!r} is not one of {STATUS}")
    if not isinstance(f.get("text"), str) or len(f["text"].strip()) < 10:
        p.append(f"{where}: text is missing or too short")
    if "synthesis" in f and not isinstance(f["synthesis"], bool):
        p.append(f"{where}: synthesis must be true or false")
    probe = f.get("probe")
    regexes = probe.get("all") if isinstance(probe, dict) else None
    compiled: list[re.Pattern[str]] = []
    if not isinstance(probe, dict) or set(probe) != {"all"} or not isinstance(regexes, list):
        p.append(f'{where}: probe must be {{"all": [regex, ...]}}')
    elif not 1 <= len(regexes) <= 4:
        p.append(f"{where}: probe has {len(regexes)} regexes, not 1-4")
    else:
        for rx in regexes:
            try:
                compiled.append(re.compile(rx, re.IGNORECASE))
            except (re.error, TypeError) as exc:
                p.append(f"{where}: regex {rx!r} does not compile: {exc}")
    index, why = resolve(f.get("source"), loaded)
    if why is not None:
        p.append(f"{where}: {why}")
        return None
    assert index is not None
    if not f.get("synthesis"):
        text = loaded.texts[index]
        missing = [c.pattern for c in compiled if not c.search(text)]
        if missing:
            p.append(f"{where}: probe {missing} does not match its source entry {loaded.entries[index].key}")
    return index


def check_session(folder: Path) -> Report:
    report = Report()
    try:
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        report.problems.append(f"labels.json: {exc}")
        return report
    if not isinstance(labels, dict):
        report.problems.append("labels.json is not an object")
        return report
    missing = [k for k in REQUIRED if k not in labels]
    if missing:
        report.problems.append(f"labels.json lacks {missing}")
        return report
    fmt = labels["format"]
    if fmt not in FORMATS:
        report.problems.append(f"format {fmt!r} is not one of {FORMATS}")
        return report
    origin = str(labels["origin"])
    if not origin.startswith(("synthetic:", "real:")):
        report.problems.append('origin must start with "synthetic:" or "real:"')
    path = transcript_path(folder, str(labels["transcript"]))
    if not path.is_file():
        report.problems.append(f"transcript {labels['transcript']!r} not found")
        return report
    if path.parent == folder and origin.startswith("real:") and not (folder / "LICENSE").is_file():
        report.problems.append("a real transcript copied here needs its LICENSE next to it")
    try:
        first = first_record(path)
        detected = detect_format(first) if first is not None else None
        if detected != fmt:
            report.problems.append(f"the transcript reads as {detected!r}, labels say {fmt!r}")
            return report
        loaded = LOADERS[fmt](path)
    except Exception as exc:  # a reader failure is a finding to report, not a crash
        report.problems.append(f"the {fmt} reader failed on {path.name}: {type(exc).__name__}: {exc}")
        return report
    report.entries = sum(loaded.searchable)
    report.warnings += loaded.warnings
    comps = labels["compactions"]
    points: list[int] = []
    if not isinstance(comps, list) or not comps:
        report.problems.append("compactions must be a non-empty list")
        comps = []
    for i, c in enumerate(comps):
        if not isinstance(c, dict) or set(c) - {"at", "keep_recent_tokens"}:
            report.problems.append(f"compaction {i}: must be {{at, keep_recent_tokens}}")
            continue
        krt = c.get("keep_recent_tokens")
        if not isinstance(krt, int) or isinstance(krt, bool) or krt <= 0:
            report.problems.append(f"compaction {i}: keep_recent_tokens must be a positive integer")
        index, why = resolve(c.get("at"), loaded)
        if why is not None:
            report.problems.append(f"compaction {i}: {why}")
            continue
        assert index is not None
        if points and index <= points[-1]:
            report.problems.append(f"compaction {i}: comes before or at the previous one")
        points.append(index)
    facts = labels["facts"]
    if not isinstance(facts, list) or not facts:
        report.problems.append("facts must be a non-empty list")
        return report
    seen: set[str] = set()
    for f in facts:
        index = check_fact(f, loaded, seen, report)
        if isinstance(f, dict):
            report.facts.append(f)
        if index is not None and points and index <= points[-1]:
            report.before_last += 1
    if points and report.before_last * 2 < len(facts):
        report.warnings.append(
            f"only {report.before_last} of {len(facts)} facts come before the last compaction"
        )
    return report


# --- the corpus --------------------------------------------------------------------------------


def sessions(dirs: list[Path]) -> list[Path]:
    found: list[Path] = []
    for d in dirs:
        if (d / "labels.json").is_file():
            found.append(d)
        elif d.is_dir():
            found += sorted(p for p in d.iterdir() if (p / "labels.json").is_file())
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("dirs", nargs="*", type=Path, help="split or session folders (default: dev/ and test/)")
    args = ap.parse_args(argv)
    dirs = [d.resolve() for d in args.dirs] or [HERE / "dev", HERE / "test"]
    absent = [str(d) for d in args.dirs if not d.exists()]
    if absent:
        print(f"no such folder: {', '.join(absent)}", file=sys.stderr)
        return 2
    found = sessions(dirs)
    if not args.dirs and not sessions([HERE / "test"]):
        # While the summarizer is tuned the held-out split lives outside the repository (README).
        print("test: no sessions")
    if not found:
        print("no session folder (one holding labels.json) found", file=sys.stderr)
        return 1
    failed = 0
    by_split: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str]] = Counter()
    by_importance: Counter[tuple[str, str]] = Counter()
    sessions_in: Counter[str] = Counter()
    for folder in found:
        split = folder.parent.name
        report = check_session(folder)
        n = len(report.facts)
        sessions_in[split] += 1
        by_split[split] += n
        for f in report.facts:
            by_kind[(split, str(f.get("kind")))] += 1
            by_importance[(split, str(f.get("importance")))] += 1
        imp = Counter(str(f.get("importance")) for f in report.facts)
        status = "FAIL" if report.problems else "ok"
        print(
            f"{status:4} {split}/{folder.name}: {n} facts ({report.before_last} before the last compaction; "
            f"must {imp['must']}, should {imp['should']}, nice {imp['nice']}), {report.entries} entries"
        )
        for w in report.warnings:
            print(f"       warning: {w}")
        for prob in report.problems:
            print(f"       problem: {prob}")
        failed += bool(report.problems)
    print()
    for split in sorted(by_split):
        kinds = ", ".join(f"{k} {by_kind[(split, k)]}" for k in KINDS if by_kind[(split, k)])
        imps = ", ".join(f"{i} {by_importance[(split, i)]}" for i in IMPORTANCE)
        print(f"{split}: {sessions_in[split]} sessions, {by_split[split]} facts")
        print(f"  by kind: {kinds}")
        print(f"  by importance: {imps}")
    if failed:
        print(f"\n{failed} session(s) with problems", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
