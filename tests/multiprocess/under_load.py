"""Run one test N times while every core spins, and print the pass count.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python tests/multiprocess/under_load.py -n 20 \\
        tests/multiprocess/test_two_servers.py::test_deltas_of_a_compaction_triggered_on_b_reach_a_client_on_a

A busy loop per core (`--burners`, default: the number of cores) runs for the whole series, each
bounded by `--seconds` even if this script is killed. Tests are run with `-m multiprocess or not
multiprocess` so a marked test is not deselected. Prints one line per run and then the totals.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BURN = (
    "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("test", nargs="+", help="pytest node ids")
    parser.add_argument("-n", "--runs", type=int, default=20)
    parser.add_argument(
        "--burners", type=int, default=os.cpu_count() or 2, help="busy loops (default: one per core)"
    )
    parser.add_argument("--seconds", type=float, default=1800.0, help="longest a busy loop lives")
    parser.add_argument("--stop-on-failure", action="store_true")
    args = parser.parse_args()

    burners = [
        subprocess.Popen([sys.executable, "-c", BURN, str(args.seconds)], stdin=subprocess.DEVNULL)
        for _ in range(args.burners)
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    passed = 0
    durations: list[float] = []
    try:
        for i in range(1, args.runs + 1):
            start = time.monotonic()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "-m",
                    "multiprocess or not multiprocess",
                    *args.test,
                ],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            elapsed = time.monotonic() - start
            durations.append(elapsed)
            ok = proc.returncode == 0
            passed += ok
            load = os.getloadavg()[0]
            summary = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
            print(
                f"run {i:2d}: {'pass' if ok else 'FAIL'} in {elapsed:5.1f} s, load {load:4.1f}: {summary}",
                flush=True,
            )
            if not ok:
                print(proc.stdout[-6000:], proc.stderr[-2000:], sep="\n", flush=True)
                if args.stop_on_failure:
                    break
    finally:
        for b in burners:
            b.terminate()
        for b in burners:
            b.wait(timeout=10)
    runs = len(durations)
    print(
        f"passed {passed} of {runs} runs with {args.burners} busy loops; longest run {max(durations):.1f} s"
    )
    sys.exit(0 if passed == runs else 1)


if __name__ == "__main__":
    main()
