"""What compaction keeps, measured on the labelled corpus (bench/retention_corpus/, docs/retention.md).

Each session is replayed: its entries are appended in order (the agent's own recorded compactions
left out) and compacted at each labelled point with that point's keep_recent_tokens, by each
strategy (extractive; masking when `sessions_app.retention.masking` exists); on a transcript that
holds the agent's own compactions, the imported summaries are scored as a strategy too.

Per session × strategy it prints:
  ret%     weighted retention: labelled facts of the summarized spans whose hand-written probe matches
           one paragraph of what the model sees after the last compaction (summary + kept tail, via
           build_context), weighted must=3, should=2, nice=1; facts in the kept tail or after the last
           compaction are not scored; withdrawn (`reversed`) facts are not scored but counted as `rev`
           when still visible;
  raw      the same, unweighted (kept/total);  must%  the `must` facts alone;
  recall   labelled facts of the summarized spans that a fact the extractor found at the same or a
           nearby entry (within 6 entries) satisfies (its probe matches the fact's text and detail);
  prec     extracted facts of the summarized spans that satisfy some label's probe / all extracted facts
           (labels withdrawn later included: finding them is right);  prec1  the same against the
           scored labels only (withdrawn ones left out), round 1's definition, shown for comparison;
  sumtok   the largest summary (o200k tokens);  after%  the largest context right after a compaction,
           as % of a 200k window;  cmd  the most lines of one summary that quote a command the session
           ran;  stale  Next Steps items of the last summary that match a finished or withdrawn fact.
Totals per split (dev, test) follow; a split with no session folder (test/ empty or absent while
the held-out split is being written) prints "<split>: no sessions". "before" is the code at the
base commit, measured once with this harness (bench/retention_before.json says how) and shown
beside "after".

    python bench/retention.py [--split dev|test|all] [--json] [--dir SPLIT=PATH ...] [--lost] [--misses]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BEFORE = Path(__file__).resolve().parent / "retention_before.json"


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", choices=("dev", "test", "all"), default="all")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lost", action="store_true", help="list the labelled facts each summary lost")
    p.add_argument(
        "--misses",
        action="store_true",
        help="also list, per session, the labels extraction missed and the extracted facts no label matches",
    )
    p.add_argument(
        "--dir", action="append", default=[], help="SPLIT=PATH: extra sessions (a split or a session)"
    )
    p.add_argument(
        "--code", type=Path, default=ROOT, help="the Cutpoint checkout to measure (default: this one)"
    )
    p.add_argument(
        "--record-before",
        action="store_true",
        help=f"write the figures of --code (the base checkout) to {BEFORE.name}, the 'before' column",
    )
    return p.parse_args(argv)


def _fmt(x: float | None, width: int = 5) -> str:
    return f"{x:{width}.1f}" if x is not None else " " * (width - 1) + "-"


def totals(rows: list[Any]) -> dict[str, Any]:
    from _retention_replay import Score

    t = Score("TOTAL", rows[0].split if rows else "", rows[0].strategy if rows else "")
    rec = [r for r in rows if r.recall is not None]
    pre = [r for r in rows if r.precision is not None]
    for r in rows:
        t.facts += r.facts
        t.kept += r.kept
        t.weight += r.weight
        t.kept_weight += r.kept_weight
        t.must += r.must
        t.must_kept += r.must_kept
        t.summary_tokens = max(t.summary_tokens, r.summary_tokens)
        t.tokens_after_pct = max(t.tokens_after_pct, r.tokens_after_pct)
        t.command_lines = max(t.command_lines, r.command_lines)
        t.stale_next += r.stale_next
        t.reversed_shown += r.reversed_shown
    # Recall and precision pooled over sessions, weighted by their labelled facts.
    if rec:
        t.recall = sum(r.recall * r.facts for r in rec) / max(1, sum(r.facts for r in rec))
    if pre:
        t.precision = sum(r.precision * r.facts for r in pre) / max(1, sum(r.facts for r in pre))
        t.precision_scored = sum((r.precision_scored or 0.0) * r.facts for r in pre) / max(
            1, sum(r.facts for r in pre)
        )
    return as_dict(t)


def as_dict(r: Any) -> dict[str, Any]:
    return {
        "session": r.session,
        "split": r.split,
        "strategy": r.strategy,
        "facts": r.facts,
        "kept": r.kept,
        "retention_pct": _round(r.retention),
        "raw_pct": _round(r.raw),
        "must_pct": _round(r.must_pct),
        "recall_pct": _round(r.recall),
        "precision_pct": _round(r.precision),
        "precision_scored_pct": _round(r.precision_scored),
        "summary_tokens": r.summary_tokens,
        "tokens_after_pct": round(r.tokens_after_pct, 1),
        "command_lines": r.command_lines,
        "stale_next": r.stale_next,
        "reversed_shown": r.reversed_shown,
        "compactions": r.compactions,
        "lost": list(r.lost),
        "unrecalled": list(r.unrecalled),
        "unmatched": list(r.unmatched),
    }


def _round(x: float | None) -> float | None:
    return round(x, 1) if x is not None else None


HEADER = (
    f"{'session':<28} {'strategy':<10} {'ret%':>5} {'raw':>9} {'must%':>5} {'recall':>6} {'prec':>5} "
    f"{'prec1':>5} {'sumtok':>6} {'after%':>6} {'cmd':>3} {'stale':>5} {'rev':>3} | "
    f"{'before ret%/must%/rec/prec':>26}"
)


def line(d: dict[str, Any], before: dict[str, Any] | None) -> str:
    b = (
        f"{_fmt(before['retention_pct'])}/{_fmt(before['must_pct'])}/{_fmt(before['recall_pct'])}/"
        f"{_fmt(before['precision_pct'])}"
        if before
        else ""
    )
    raw = f"{d['kept']}/{d['facts']}"
    return (
        f"{d['session'][:28]:<28} {d['strategy']:<10} {_fmt(d['retention_pct'])} {raw:>9} "
        f"{_fmt(d['must_pct'])} {_fmt(d['recall_pct'], 6)} {_fmt(d['precision_pct'])} "
        f"{_fmt(d.get('precision_scored_pct'))} "
        f"{d['summary_tokens']:>6} {d['tokens_after_pct']:>6.1f} {d['command_lines']:>3} "
        f"{d['stale_next']:>5} {d['reversed_shown']:>3} | {b:>26}"
    )


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(args.code.resolve()))
    import _retention_replay as R

    checker = R.load_checker()
    code = R.Code.load()
    splits = ("dev", "test") if args.split == "all" else (args.split,)
    dirs = [(sp, R.CORPUS / sp) for sp in splits]
    for spec in args.dir:
        sp, _, where = spec.partition("=")
        if sp in splits:
            dirs.append((sp, Path(where)))
    results: dict[str, list[dict[str, Any]]] = {}
    problems: list[str] = []
    for split, folder in R.sessions(dirs):
        s = R.load_session(folder, split, checker, code)
        problems += [f"{split}/{s.name}: {p}" for p in s.problems]
        for sc in R.measure(s, code):
            results.setdefault(split, []).append(as_dict(sc) | {"_score": sc})
    report: dict[str, Any] = {"window": R.WINDOW, "weights": R.WEIGHTS, "splits": {}, "problems": problems}
    for split in splits:
        rows = results.get(split, [])
        by_strategy: dict[str, list[Any]] = {}
        for d in rows:
            by_strategy.setdefault(d["strategy"], []).append(d.pop("_score"))
        report["splits"][split] = {
            "sessions": rows,
            "totals": {name: totals(scores) for name, scores in by_strategy.items()},
        }
    if args.record_before:
        given = list(argv if argv is not None else sys.argv[1:])
        if "--code" in given:  # the checkout's own path says nothing to a reader: CHECKOUT instead
            i = given.index("--code")
            del given[i : i + 2]
        command = "PYTHONPATH=CHECKOUT python bench/retention.py --code CHECKOUT " + " ".join(given)
        recorded = {"code": _commit(args.code), "command": command.strip()} | report
        old = json.loads(BEFORE.read_text()) if BEFORE.is_file() else {}
        recorded["splits"] = old.get("splits", {}) | report["splits"]  # a split measured later joins
        BEFORE.write_text(json.dumps(_public(recorded), indent=1) + "\n")
        print(f"wrote {BEFORE}")
        return 0
    before = json.loads(BEFORE.read_text()) if BEFORE.is_file() and args.code.resolve() == ROOT else None
    report["before"] = before
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    _print(report, before, args.lost or args.misses, args.misses)
    return 0


def _commit(checkout: Path) -> str:
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or str(checkout)


def _public(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the lists of lost facts (they name labels; the figures are enough)."""
    lists = ("lost", "unrecalled", "unmatched")
    out = dict(report)
    out["splits"] = {
        sp: {
            "sessions": [{k: v for k, v in r.items() if k not in lists} for r in part["sessions"]],
            "totals": {n: {k: v for k, v in t.items() if k not in lists} for n, t in part["totals"].items()},
        }
        for sp, part in report["splits"].items()
    }
    out.pop("before", None)
    return out


def _before_row(
    before: dict[str, Any] | None, split: str, session: str, strategy: str
) -> dict[str, Any] | None:
    if not before:
        return None
    part = before.get("splits", {}).get(split, {})
    if session == "TOTAL":
        return part.get("totals", {}).get(strategy)
    return next(
        (r for r in part.get("sessions", []) if r["session"] == session and r["strategy"] == strategy), None
    )


def _print(report: dict[str, Any], before: dict[str, Any] | None, lost: bool, misses: bool = False) -> None:
    print(f"retention by hand-written probes; weights {report['weights']}; window {report['window']} tokens")
    if before:
        print(f"before = {before.get('code', 'base')}: {before.get('command', '')}")
    for split, part in report["splits"].items():
        print(f"\n== {split}")
        if not part["sessions"]:
            # The held-out split is empty while tuning (bench/retention_corpus/README.md).
            print(f"{split}: no sessions")
            continue
        print(HEADER)
        for d in part["sessions"]:
            print(line(d, _before_row(before, split, d["session"], d["strategy"])))
            if lost:
                for item in d["lost"]:
                    print(f"      lost {item}")
            if misses:
                for item in d["unrecalled"]:
                    print(f"      not extracted {item}")
                for item in d["unmatched"]:
                    print(f"      unlabelled {item}")
        for name, t in part["totals"].items():
            print(line(t | {"session": f"TOTAL {split}"}, _before_row(before, split, "TOTAL", name)))
    for p in report["problems"]:
        print(f"problem: {p}")


if __name__ == "__main__":
    sys.exit(main())
