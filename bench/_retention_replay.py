"""Replay a labelled corpus session and score what survives its compactions (bench/retention.py).

Independent of the code it measures: the sessions are read with the corpus checker's loaders
(bench/retention_corpus/check.py, which uses only the format readers), the facts are the
hand-written labels, and a fact counts as kept when its probe (regexes written by a person)
matches one paragraph of what the model sees after the last compaction. The code under test is
used only to compact (`prepare` + a summarizer), to build the context, and, for extraction recall
and precision, to extract facts; it is reached through `Code`, so the same harness measures an
older checkout of Cutpoint (the "before" column).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "retention_corpus"
WEIGHTS = {"must": 3, "should": 2, "nice": 1}
WINDOW = 200_000  # the context window tokens_after is a share of (Claude's and most current models')
RESERVE = 16_384
NEARBY = 6  # entries either side of a label's source where an extracted fact may come from

_PARAGRAPH_START = re.compile(r"^\s*(?:[-*]\s|\d+\.\s|#)")


def load_checker() -> Any:
    spec = importlib.util.spec_from_file_location("retention_corpus_check", CORPUS / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@dataclass(slots=True)
class Code:
    """The parts of Cutpoint under test, imported from whichever checkout is first on sys.path."""

    prepare: Callable[..., Any]
    settings: Callable[..., Any]
    build_context: Callable[..., Any]
    context_tokens: Callable[..., Any]
    count_text: Callable[[str], int]
    estimate_entry: Callable[..., int]
    extract_facts: Callable[..., Any]
    strategies: dict[str, Callable[[Any], Any]]

    @classmethod
    def load(cls) -> Code:
        def first(*names: str) -> Any:
            for name in names:
                try:
                    return importlib.import_module(name)
                except ImportError:
                    continue
            return None

        extractive = first("sessions_app.retention.extractive", "sessions_app.compaction.extractive")
        facts = first("sessions_app.retention.facts", "sessions_app.compaction.facts")
        masking = first("sessions_app.retention.masking")
        from sessions_app.compaction.budget import context_tokens
        from sessions_app.compaction.context import build_context
        from sessions_app.compaction.prepare import prepare
        from sessions_app.compaction.settings import CompactionSettings
        from sessions_app.compaction.tokens import count_text, estimate_entry

        strategies: dict[str, Callable[[Any], Any]] = {"extractive": extractive.compact_extractive}
        masker = getattr(masking, "compact_masking", None) if masking is not None else None
        if callable(masker):
            strategies["masking"] = masker
        return cls(
            prepare,
            CompactionSettings,
            build_context,
            context_tokens,
            count_text,
            estimate_entry,
            facts.extract_facts,
            strategies,
        )


# --- what the model sees -----------------------------------------------------------------------


def message_text(m: Any) -> str:
    parts: list[str] = []
    for b in m.content if isinstance(m.content, list) else []:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "text":
            parts.append(str(b.get("text") or ""))
        elif b.get("type") == "tool_call":
            parts.append(f"{b.get('name')} {json.dumps(b.get('arguments'), ensure_ascii=False)}")
    return "\n".join(parts)


def paragraphs(text: str) -> list[str]:
    """Blocks separated by blank lines; each markdown list item or heading starts a new one."""
    out: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if not line.strip() or _PARAGRAPH_START.match(line):
            if current:
                out.append("\n".join(current))
            current = [line] if line.strip() else []
        else:
            current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def compile_probe(fact: dict[str, Any]) -> list[re.Pattern[str]]:
    return [re.compile(rx, re.IGNORECASE) for rx in fact["probe"]["all"]]


def satisfies(probe: Sequence[re.Pattern[str]], text: str) -> bool:
    return all(p.search(text) for p in probe)


def kept_in(probe: Sequence[re.Pattern[str]], paras: Sequence[str]) -> bool:
    return any(satisfies(probe, p) for p in paras)


# --- one session ------------------------------------------------------------------------------


@dataclass(slots=True)
class Session:
    name: str
    split: str
    labels: dict[str, Any]
    entries: list[Any]  # the main chain, file order, recorded compactions included
    source: dict[str, str]  # fact id -> entry key
    points: list[tuple[str, int]]  # (entry key, keep_recent_tokens)
    commands: list[str]  # every shell command the session ran (for counting command lines)
    problems: list[str] = field(default_factory=list)


def load_session(folder: Path, split: str, checker: Any, code: Code) -> Session:
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    path = checker.transcript_path(folder, labels["transcript"])
    loaded = checker.LOADERS[labels["format"]](path)
    s = Session(folder.name, split, labels, [], {}, [], [])
    for f in labels["facts"]:
        index, why = checker.resolve(f["source"], loaded)
        if index is None:
            s.problems.append(f"{f['id']}: {why}")
        else:
            s.source[f["id"]] = loaded.entries[index].key
    for c in labels["compactions"]:
        index, why = checker.resolve(c["at"], loaded)
        if index is None:
            s.problems.append(f"compaction: {why}")
        else:
            s.points.append((loaded.entries[index].key, int(c["keep_recent_tokens"])))
    for e, ok in zip(loaded.entries, loaded.searchable, strict=True):
        if ok:
            e.tokens = code.estimate_entry(e)
            s.entries.append(e)
            for b in e.content if isinstance(e.content, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_call":
                    raw = b.get("arguments")
                    args: dict[str, Any] = raw if isinstance(raw, dict) else {}
                    cmd = args.get("command") or args.get("cmd")
                    if isinstance(cmd, list):
                        cmd = cmd[-1] if cmd[:1] in (["bash"], ["sh"]) else " ".join(map(str, cmd))
                    if isinstance(cmd, str):
                        s.commands += command_forms(cmd)
            if e.role == "bash_execution":
                s.commands += command_forms(str(e.data.get("command") or ""))
    s.commands = list(dict.fromkeys(s.commands))
    return s


_OUTPUT_NOISE = re.compile(r"\s*(?:2>&1|[12]?>\s*/dev/null|&>\s*/dev/null)")
_CD = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)+")
_TRAILING_FILTER = re.compile(r"\s*\|\s*(?:head|tail|grep|egrep|rg|wc|sort|uniq|cut|less|more|tr)\b[^|]*$")


def command_forms(command: str) -> list[str]:
    """How a summary may quote a command the session ran: its first line (80 characters), and
    that line without a leading `cd DIR &&`, `2>&1`-style redirections and trailing output filters
    (`| tail -n 20`, `| grep error`). A line quoting either form is a command line; a form shorter
    than 6 characters would match prose and is not looked for."""
    line = command.strip().splitlines()[0].strip() if command.strip() else ""
    bare = _CD.sub("", _OUTPUT_NOISE.sub("", line)).strip()
    while (m := _TRAILING_FILTER.search(bare)) and m.start() > 0:
        bare = bare[: m.start()].rstrip()
    return [f[:80] for f in dict.fromkeys((line, bare)) if len(f) >= 6]


@dataclass(slots=True)
class Replay:
    path: list[Any]  # root to the last compaction
    compactions: list[int]  # indices of the compaction entries on `path`
    spans: list[tuple[list[Any], list[Any]]]  # (summarized span, what followed it) per compaction
    skipped: int = 0


def _chain(entries: list[Any]) -> list[Any]:
    for prev, e in zip([None, *entries], entries, strict=False):
        e.parent = prev.key if prev is not None else None
    return entries


def replay(s: Session, code: Code, compactor: Callable[[Any], Any]) -> Replay:
    """Append the session's entries (recorded compactions left out), compacting at each labelled
    point with that point's keep_recent_tokens; stop after the last compaction."""
    from sessions_app.compaction.messages import Entry

    points = dict(s.points)
    last = s.points[-1][0] if s.points else None
    path: list[Any] = []
    out = Replay(path, [], [])
    for e in s.entries:
        if e.kind == "compaction":
            continue
        path.append(e)
        _chain(path[-2:])
        if e.key not in points:
            continue
        settings = code.settings(keep_recent_tokens=points[e.key], reserve_tokens=RESERVE)
        prep = code.prepare(path, settings)
        if not hasattr(prep, "summarize"):
            out.skipped += 1
        else:
            payload = compactor(prep)
            c = Entry(f"compaction-{len(out.compactions)}", e.key, "compaction", data=payload.to_data())
            c.tokens = code.estimate_entry(c)
            path.append(c)
            out.compactions.append(len(path) - 1)
            out.spans.append(([*prep.summarize, *prep.turn_prefix], list(prep.kept)))
        if e.key == last:
            break
    return out


def recorded(s: Session) -> Replay | None:
    """The session as its agent compacted it (the imported summaries), up to the last one."""
    last = max((i for i, e in enumerate(s.entries) if e.kind == "compaction"), default=None)
    if last is None:
        return None
    path = _chain(list(s.entries[: last + 1]))
    return Replay(path, [i for i, e in enumerate(path) if e.kind == "compaction"], [])


def first_kept_index(path: Sequence[Any], index: int) -> int:
    key = path[index].data.get("first_kept")
    return next((i for i in range(index) if path[i].key == key), index)


@dataclass(slots=True)
class Score:
    session: str
    split: str
    strategy: str
    facts: int = 0
    kept: int = 0
    weight: int = 0
    kept_weight: int = 0
    must: int = 0
    must_kept: int = 0
    recall: float | None = None
    precision: float | None = None
    precision_scored: float | None = None  # precision against the scored labels only (round 1)
    summary_tokens: int = 0  # the largest summary of the replay
    tokens_after_pct: float = 0.0  # the largest context right after a compaction, % of WINDOW
    command_lines: int = 0  # the most in any one summary
    stale_next: int = 0  # Next Steps items that name a finished or withdrawn item
    reversed_shown: int = 0  # withdrawn constraints/decisions still visible after the last compaction
    compactions: int = 0
    lost: list[str] = field(default_factory=list)
    unrecalled: list[str] = field(default_factory=list)  # labels no extracted fact satisfies
    unmatched: list[str] = field(default_factory=list)  # extracted facts no label's probe matches

    @property
    def retention(self) -> float | None:
        return 100 * self.kept_weight / self.weight if self.weight else None

    @property
    def raw(self) -> float | None:
        return 100 * self.kept / self.facts if self.facts else None

    @property
    def must_pct(self) -> float | None:
        return 100 * self.must_kept / self.must if self.must else None


def _next_steps(summary: str) -> list[str]:
    items: list[str] = []
    inside = False
    for para in paragraphs(summary):
        if para.lstrip().startswith("#"):
            inside = bool(re.search(r"\bnext\b", para.splitlines()[0], re.I))
            continue
        if inside:
            items.append(para)
    return items


def _command_lines(summary: str, commands: Sequence[str]) -> int:
    return sum(1 for line in summary.splitlines() if any(c in line for c in commands))


def score(s: Session, code: Code, strategy: str, r: Replay, *, extract: bool) -> Score:
    out = Score(s.name, s.split, strategy, compactions=len(r.compactions))
    if not r.compactions:
        return out
    path = r.path
    at = {e.key: i for i, e in enumerate(path)}
    last = r.compactions[-1]
    summarized_end = first_kept_index(path, last)
    seen = "\n\n".join(message_text(m) for m in code.build_context(path[: last + 1]))
    paras = paragraphs(seen)
    scored = []
    withdrawn: list[list[re.Pattern[str]]] = []  # probes of facts the user withdrew later
    for f in s.labels["facts"]:
        i = at.get(s.source.get(f["id"], ""))
        if i is None or i >= summarized_end:
            continue  # in the kept tail (trivially kept) or after the last compaction: not scored
        probe = compile_probe(f)
        if f.get("status") == "reversed":
            out.reversed_shown += kept_in(probe, paras)
            withdrawn.append(probe)
            continue
        scored.append((f, i, probe))
        w = WEIGHTS[f["importance"]]
        hit = kept_in(probe, paras)
        out.facts += 1
        out.kept += hit
        out.weight += w
        out.kept_weight += w * hit
        if f["importance"] == "must":
            out.must += 1
            out.must_kept += hit
        if not hit:
            out.lost.append(f"{f['id']} {f['importance']} {f['kind']}: {f['text'][:140]}")
    for index in r.compactions:
        summary = str(path[index].data.get("summary") or "")
        out.summary_tokens = max(out.summary_tokens, code.count_text(summary))
        after = code.context_tokens(path[: index + 1], code.settings()).tokens
        out.tokens_after_pct = max(out.tokens_after_pct, 100 * after / WINDOW)
        out.command_lines = max(out.command_lines, _command_lines(summary, s.commands))
    finished = [
        compile_probe(f) for f in s.labels["facts"] if f.get("status") in ("done", "reversed", "fixed")
    ]
    last_summary = str(path[last].data.get("summary") or "")
    out.stale_next = sum(1 for item in _next_steps(last_summary) if any(satisfies(p, item) for p in finished))
    if extract and r.spans:
        _extraction(out, code, r, scored, withdrawn)
    return out


def _fact_text(f: Any) -> str:
    return f"{getattr(f, 'text', '')} {getattr(f, 'detail', '')}"


def _extraction(
    out: Score, code: Code, r: Replay, scored: list[Any], withdrawn: Sequence[Sequence[re.Pattern[str]]]
) -> None:
    """Recall: labelled facts (of the summarized spans) that an extracted fact from the same or a
    nearby entry (within NEARBY entries) satisfies. Precision: extracted facts of the summarized
    spans that satisfy some label's probe, over all of them. A label the user withdrew later
    (`reversed`) is still a fact of the span: extracting it is right (whether a summary shows it as
    current is what `rev` counts), so its probe counts for precision; `precision_scored` leaves
    those labels out, as round 1 of issue 30 did, and is shown beside it."""
    at = {e.key: i for i, e in enumerate(r.path)}
    extracted: list[tuple[int, str]] = []
    kinds: list[str] = []
    for span, after in r.spans:
        for f in code.extract_facts(span, after):
            extracted.append((at.get(f.node, -(10**9)), _fact_text(f)))
            kinds.append(str(getattr(f.kind, "value", f.kind)))
    if not extracted:
        out.recall, out.precision = (0.0 if scored else None), None
        return
    recalled = 0
    for f, i, probe in scored:
        if any(abs(j - i) <= NEARBY and satisfies(probe, t) for j, t in extracted):
            recalled += 1
        else:
            out.unrecalled.append(f"{f['id']} {f['importance']} {f['kind']}: {f['text'][:140]}")
    out.recall = 100 * recalled / len(scored) if scored else None
    probes = [probe for _, _, probe in scored]
    good = good_scored = 0
    for (_, t), kind in zip(extracted, kinds, strict=True):
        if any(satisfies(p, t) for p in probes):
            good += 1
            good_scored += 1
        elif any(satisfies(p, t) for p in withdrawn):
            good += 1
        else:
            out.unmatched.append(f"{kind}: {t[:160]}")
    out.precision = 100 * good / len(extracted)
    out.precision_scored = 100 * good_scored / len(extracted)


def measure(s: Session, code: Code) -> list[Score]:
    scores = []
    for name, compactor in code.strategies.items():
        scores.append(score(s, code, name, replay(s, code, compactor), extract=name == "extractive"))
    own = recorded(s)
    if own is not None:
        scores.append(score(s, code, "imported", own, extract=False))
    return scores


def sessions(dirs: Sequence[tuple[str, Path]]) -> list[tuple[str, Path]]:
    found = []
    for split, d in dirs:
        if (d / "labels.json").is_file():
            found.append((split, d))
        elif d.is_dir():
            found += [(split, p) for p in sorted(d.iterdir()) if (p / "labels.json").is_file()]
    return found
