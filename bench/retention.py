"""What compaction keeps (docs/compaction.md, rules U2 and R1–R3), measured on the scripted long
session in tests/compaction/long_session.py: ~50 planted facts of ten kinds, four compactions with
split turns and merges.

For each summarizer it prints, after the last compaction:
  retention per kind  planted facts whose probe the model can still read (summary + kept tail),
                      checked by plain substring, independently of the audit;
  summary tokens      of each compaction's summary (o200k);
  tokens_after        the context right after each compaction, as % of the window;
and for the audit:
  recall              planted facts the audit lists (a fact of the same kind whose text holds the probe),
  labels              of those, the share whose kept/lost label matches the substring check,
over every compaction, for the extractive summarizer and for a deliberately lossy one (every other
line of the extractive summary dropped) so that both labels occur.

    python bench/retention.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sessions_app.compaction.budget import context_tokens  # noqa: E402
from sessions_app.compaction.prepare import Preparation  # noqa: E402
from sessions_app.compaction.tokens import count_text  # noqa: E402
from sessions_app.compaction.validate import CompactionPayload  # noqa: E402
from sessions_app.retention.audit import audit_at  # noqa: E402
from sessions_app.retention.extractive import compact_extractive  # noqa: E402
from tests.compaction.long_session import KINDS, SETTINGS, WINDOW, Played, entry_text, norm, play  # noqa: E402


def lossy(prep: Preparation) -> CompactionPayload:
    payload = compact_extractive(prep)
    lines = payload.summary.splitlines()
    kept = [line for i, line in enumerate(lines) if line.startswith("#") or i % 2 == 0]
    payload.summary = "\n".join(kept)
    return payload


def visible_at(played: Played, index: int) -> str:
    """What the model saw right after the compaction at `index`: its summary and kept tail."""
    entry = played.path[index]
    first_kept = next(i for i, e in enumerate(played.path[:index]) if e.key == entry.data["first_kept"])
    tail = "\n".join(entry_text(e) for e in played.path[first_kept:index])
    return norm(entry.data["summary"] + "\n" + tail)


def measure(played: Played) -> dict[str, Any]:
    per_kind: dict[str, list[int]] = {k: [0, 0] for k in KINDS}
    for p in played.planted:
        per_kind[p.kind][1] += 1
        per_kind[p.kind][0] += played.retained(p)
    kept = sum(a for a, _ in per_kind.values())
    total = sum(b for _, b in per_kind.values())
    reversed_active = [p.probe for p in played.reversed if played.retained(p)]

    noticed = correct = 0
    misses: list[str] = []
    for index in played.compactions:
        audit = audit_at(played.path, index)
        visible = visible_at(played, index)
        span_keys = {e.key for e in played.path[:index]}
        facts = [f for f in audit.facts]
        start = (
            next(i for i, e in enumerate(played.path) if e.key == audit.span_start) if audit.span_start else 0
        )
        first_kept = next(i for i, e in enumerate(played.path) if e.key == audit.first_kept)
        in_span = {e.key for e in played.path[start:first_kept]} & span_keys
        for p in played.planted:
            if p.node not in in_span:
                continue
            match = next(
                (f for f in facts if f.fact.kind == p.kind and norm(p.probe) in norm(f.fact.text)), None
            )
            if match is None:
                misses.append(f"{p.kind}: {p.probe}")
                continue
            noticed += 1
            correct += match.kept == (norm(p.probe) in visible)
    audited = noticed + len(misses)
    summaries = [count_text(played.path[i].data["summary"]) for i in played.compactions]
    after = []
    for index in played.compactions:
        after.append(100 * context_tokens(played.path[: index + 1], SETTINGS).tokens / WINDOW)
    return {
        "compactions": len(played.compactions),
        "split_turns": sum(1 for p in played.plans if p.is_split_turn),
        "merges": sum(1 for p in played.plans if p.previous_summary),
        "retention": {k: {"kept": a, "total": b} for k, (a, b) in per_kind.items()},
        "retained_pct": round(100 * kept / total, 1),
        "reversed_still_visible": reversed_active,
        "summary_tokens": summaries,
        "tokens_after_pct_of_window": [round(x, 1) for x in after],
        "audit_recall_pct": round(100 * noticed / audited, 1) if audited else None,
        "audit_label_accuracy_pct": round(100 * correct / noticed, 1) if noticed else None,
        "audit_missed": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {"extractive": measure(play(compact_extractive)), "lossy": measure(play(lossy))}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, r in results.items():
        print(
            f"== {name} summarizer: {r['compactions']} compactions ({r['split_turns']} split turns, "
            f"{r['merges']} merges)"
        )
        print(f"  planted facts visible after the last compaction: {r['retained_pct']}%")
        for kind, v in r["retention"].items():
            print(f"    {kind:<10} {v['kept']:>3}/{v['total']:<3}")
        print(f"  reversed constraints still visible: {r['reversed_still_visible'] or 'none'}")
        print(f"  summary tokens per compaction: {r['summary_tokens']}")
        print(f"  tokens_after, % of the {WINDOW}-token window: {r['tokens_after_pct_of_window']}")
        print(
            f"  audit recall of planted facts: {r['audit_recall_pct']}%; "
            f"labels right: {r['audit_label_accuracy_pct']}%"
        )
        for miss in r["audit_missed"]:
            print(f"    not listed by the audit: {miss}")
    counts = Counter(p.kind for p in play(compact_extractive).planted)
    print(f"planted: {sum(counts.values())} facts of {len(counts)} kinds")


if __name__ == "__main__":
    main()
