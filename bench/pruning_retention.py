"""Retention of labelled facts with the pruning tier instead of a full compaction (issue 34), on the
retention corpus (bench/retention_corpus/, docs/retention.md; harness bench/_retention_replay.py).

Each session is replayed twice up to its last labelled compaction point:

- `extractive`: compacted at each point with that point's keep-recent, as bench/retention.py does;
- `pruned`: at each point, the pruning tier instead (docs/compaction.md, E1): every tool result
  outside the newest keep-recent tokens becomes its stub (minimum saving 0), nothing summarized.

The facts scored are the ones the extractive replay summarized (bench/retention.py's set); each is
looked up, by its hand-written probe, in what the model sees at the end of each replay. Printed per
split: weighted retention (must=3, should=2, nice=1), the `must` facts alone, and the context the
model sees at the end (tokens, estimates).

    python bench/pruning_retention.py [--split dev|test|all] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from _django import add_smoke


def pruned_path(s: Any, code: Any) -> list[Any]:
    """The session's entries up to its last labelled point, with a pruning edit at each point."""
    from _retention_replay import _chain

    from sessions_app.compaction.context import context_entries
    from sessions_app.compaction.edits import PruneSettings, edit_data, plan_pruning
    from sessions_app.compaction.messages import CONTEXT_EDIT, Entry
    from sessions_app.retention.salient import describe_result as describe

    points = dict(s.points)
    last = s.points[-1][0] if s.points else None
    path: list[Any] = []
    for e in s.entries:
        if e.kind == "compaction":
            continue
        path.append(e)
        _chain(path[-2:])
        if e.key in points:
            settings = PruneSettings(True, protect_tokens=points[e.key], min_saving_tokens=0)
            plan = plan_pruning(context_entries(path), settings, describe)
            if plan is not None:
                edit = Entry(f"edit-{len(path)}", e.key, CONTEXT_EDIT, data=edit_data(plan, settings))
                path.append(edit)
        if e.key == last:
            break
    return path


def measure(s: Any, code: Any) -> dict[str, dict[str, float | int]]:
    import _retention_replay as R

    from sessions_app.compaction.context import context_entries

    r = R.replay(s, code, code.strategies["extractive"])
    if not r.compactions:
        return {}
    at = {e.key: i for i, e in enumerate(r.path)}
    end = R.first_kept_index(r.path, r.compactions[-1])
    facts = [
        f
        for f in s.labels["facts"]
        if f.get("status") != "reversed" and at.get(s.source.get(f["id"], ""), end) < end
    ]
    pruned = pruned_path(s, code)
    views = {
        "extractive": r.path[: r.compactions[-1] + 1],
        "pruned": pruned,
    }
    out: dict[str, dict[str, float | int]] = {}
    for name, path in views.items():
        paras = R.paragraphs("\n\n".join(R.message_text(m) for m in code.build_context(path)))
        row: dict[str, float | int] = {
            "facts": 0,
            "kept": 0,
            "weight": 0,
            "kept_weight": 0,
            "must": 0,
            "must_kept": 0,
        }
        for f in facts:
            hit = int(R.kept_in(R.compile_probe(f), paras))
            w = R.WEIGHTS[f["importance"]]
            row["facts"] += 1
            row["kept"] += hit
            row["weight"] += w
            row["kept_weight"] += w * hit
            if f["importance"] == "must":
                row["must"] += 1
                row["must_kept"] += hit
        row["context_tokens"] = sum(e.tokens for e in context_entries(path))
        out[name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import _retention_replay as R

    checker = R.load_checker()
    code = R.Code.load()
    splits = ("dev",) if args.smoke else (("dev", "test") if args.split == "all" else (args.split,))
    report: dict[str, Any] = {}
    for split, folder in R.sessions([(sp, R.CORPUS / sp) for sp in splits]):
        s = R.load_session(folder, split, checker, code)
        rows = measure(s, code)
        totals = report.setdefault(split, {})
        for name, row in rows.items():
            t = totals.setdefault(name, dict.fromkeys(row, 0) | {"sessions": 0})
            for k, v in row.items():
                t[k] += v
            t["sessions"] += 1
        if args.smoke and rows:
            break
    if not report:
        raise SystemExit("no corpus session was measured")
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for split, totals in report.items():
        for name, t in totals.items():
            ret = 100 * t["kept_weight"] / t["weight"] if t["weight"] else 0.0
            must = 100 * t["must_kept"] / t["must"] if t["must"] else 0.0
            print(
                f"{split:<5} {name:<11} sessions {t['sessions']:>2}  retention {ret:5.1f}%  "
                f"({t['kept']}/{t['facts']})  must {must:5.1f}%  "
                f"context at the end {t['context_tokens']:,} tokens (summed over the sessions)"
            )


if __name__ == "__main__":
    main()
