"""pi 0.73.1 itself, for bench/engine.py: find the installed package and run pi's own code on a
file in one node process that stays up for the whole bench."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as WaitExpired
from pathlib import Path
from typing import IO, Any, cast

PI_PACKAGE = "node_modules/@mariozechner/pi-coding-agent"
RESERVE = 16384  # pi's default reserveTokens
# The longest one answer may take: a block of runs on the 100k file takes pi about 15 s here. Once
# (of about twenty runs) node spun at full CPU for 15 minutes on a request; the bench must end.
ANSWER_TIMEOUT_S = 300.0

# Runs in node, written to a temporary folder at run time, and stays up for the whole bench: it
# imports pi's own modules from the installed package by file URL and answers one request per
# line on stdin (a block of runs on one file, see `bench_file`). A run times pi exactly like the
# Python side:
# `new SessionManager(...)` + `getBranch()` (load), `prepareCompaction`, `buildSessionContext`.
PI_HARNESS = r"""
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const core = join(spec.package, "dist", "core");
const load = (p) => import(pathToFileURL(join(core, p)).href);
const sm = await load("session-manager.js");
const cp = await load("compaction/compaction.js");
const utils = await load("compaction/utils.js");
const settings = { enabled: true, reserveTokens: spec.reserve, keepRecentTokens: spec.keep };

function run(file, runs) {
  const out = { load: [], prep: [], ctx: [] };
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const manager = new sm.SessionManager(dirname(file), dirname(file), file, false);
    const path = manager.getBranch();
    const t1 = performance.now();
    const p = cp.prepareCompaction(path, settings);
    const t2 = performance.now();
    manager.buildSessionContext();
    const t3 = performance.now();
    out.load.push(t1 - t0); out.prep.push(t2 - t1); out.ctx.push(t3 - t2);
    out.entries = path.length;
    out.plan = { nothing: "prepareCompaction returned undefined" };
    if (p) {
      const files = utils.computeFileLists(p.fileOps);
      out.plan = {
        first_kept: p.firstKeptEntryId, split: p.isSplitTurn, summarize: p.messagesToSummarize.length,
        turn_prefix: p.turnPrefixMessages.length, tokens_before: p.tokensBefore,
        read_files: files.readFiles.length, modified_files: files.modifiedFiles.length,
      };
    }
  }
  return out;
}

function keyOrder(file, origin) {
  // Key order of our migrated copy against pi's own migration of the original, entry by entry.
  const mine = readFileSync(file, "utf8").trim().split("\n").map((l) => Object.keys(JSON.parse(l)));
  const theirs = sm.loadEntriesFromFile(origin);
  sm.migrateSessionEntries(theirs);
  return theirs.length === mine.length &&
    theirs.every((e, i) => JSON.stringify(Object.keys(e)) === JSON.stringify(mine[i]));
}

for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  const answer = req.origin ? { matches: keyOrder(req.file, req.origin) } : run(req.file, req.runs);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
"""


def pi_package(pi_dir: str | None) -> tuple[Path | None, str]:
    """The installed pi package, or None and why not."""
    hint = (
        "to compare with pi: npm install --prefix /tmp/pi-bench @mariozechner/pi-coding-agent@0.73.1 "
        "and set PI_BENCH_DIR=/tmp/pi-bench (or pass --pi-dir)"
    )
    if not pi_dir:
        return None, f"pi comparison skipped: PI_BENCH_DIR is not set; {hint}"
    if shutil.which("node") is None:
        return None, f"pi comparison skipped: node is not on PATH; {hint}"
    package = Path(pi_dir) / PI_PACKAGE
    meta = package / "package.json"
    if not meta.is_file():
        return None, f"pi comparison skipped: no {PI_PACKAGE} under {pi_dir}; {hint}"
    version = json.loads(meta.read_text()).get("version")
    if version != "0.73.1":
        return package, f"note: pi {version} installed; the engine reproduces 0.73.1"
    return package, "pi 0.73.1 at " + str(package)


class PiError(Exception):
    """The node harness failed; the message says how."""


class Pi:
    """pi itself, in a node process that runs one request at a time (see PI_HARNESS)."""

    def __init__(self, package: Path, keep: int, scratch: Path) -> None:
        harness = scratch / "pi-harness.mjs"
        harness.write_text(PI_HARNESS)
        spec = scratch / "pi-spec.json"
        spec.write_text(json.dumps({"package": str(package), "keep": keep, "reserve": RESERVE}))
        self.errors = scratch / "pi-stderr.txt"
        try:
            self.proc = subprocess.Popen(
                ["node", str(harness), str(spec)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors.open("w"),
                text=True,
            )
        except OSError as exc:
            raise PiError(f"node failed to start ({exc})") from exc
        # Both pipes exist: they were asked for above.
        self.requests = cast(IO[str], self.proc.stdin)
        self.answers = cast(IO[str], self.proc.stdout)
        self.reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pi-answers")

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            self.requests.write(json.dumps(request) + "\n")
            self.requests.flush()
            answer = self.reader.submit(self.answers.readline).result(timeout=ANSWER_TIMEOUT_S)
        except WaitExpired:  # before OSError: TimeoutError is one
            self.proc.kill()  # the reader thread then sees end of file and ends
            self.close()
            waited = f"{ANSWER_TIMEOUT_S:.0f} s"
            raise PiError(f"pi gave no answer within {waited} on {request.get('file')}") from None
        except OSError:
            answer = ""
        if not answer:
            self.close()
            raise PiError("the node harness failed:\n" + self.errors.read_text()[-2000:])
        result: dict[str, Any] = json.loads(answer)
        return result

    def run(self, file: Path, runs: int) -> dict[str, Any]:
        """`runs` runs on `file`: lists of load, prep and ctx times, the path's length, the plan."""
        return self.ask({"file": str(file), "runs": runs})

    def key_order_matches(self, file: Path, origin: Path) -> bool:
        return bool(self.ask({"file": str(file), "origin": str(origin)})["matches"])

    def close(self) -> None:
        with contextlib.suppress(OSError):  # node is gone already: nothing is left to tell it
            self.requests.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.reader.shutdown(wait=False)
