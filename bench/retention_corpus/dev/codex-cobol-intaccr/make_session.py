# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout6a split.

A Hindi-flavoured English user at a cooperative bank has Codex add slab rates and a senior-citizen
bonus to a GnuCOBOL nightly savings-interest accrual batch; the place of the rate table changes
twice (copybook -> RATES.DAT file -> copybook). cobc 3.2, a shell test runner diffing fixed-width
output, libcob runtime errors, rounding and size-error fixes. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/pradeep/work/sahakari-batch"
r = Rollout(CWD, "2026-07-21T04:41:09", seed="intaccr-slabs", repo_url="git@gitlab.sahakari.example:core/sahakari-batch.git")

PROG = "src/INTACCR.cbl"
ACCT = "copybooks/ACCTREC.cpy"
OUTC = "copybooks/ACCROUT.cpy"
RATES = "copybooks/RATETAB.cpy"
RUN = "tests/run.sh"
BUILD = "build.sh"

r.files.update({
    ACCT: """      *> Savings account master record, 60 bytes, LINE SEQUENTIAL export from core
       01  ACCT-REC.
           05  ACCT-NO            PIC X(12).
           05  ACCT-TYPE          PIC X(2).
           05  ACCT-DOB           PIC 9(8).
           05  ACCT-BAL           PIC S9(11)V99 SIGN LEADING SEPARATE.
           05  ACCT-STATUS        PIC X.
           05  FILLER             PIC X(23).
""",
    OUTC: """      *> Accrual output for GL posting, fixed width 80 (GLPOST reads by position)
       01  ACCR-REC.
           05  ACCR-ACCT-NO       PIC X(12).
           05  ACCR-DATE          PIC 9(8).
           05  ACCR-BAL           PIC S9(11)V99 SIGN LEADING SEPARATE.
           05  ACCR-RATE          PIC 9V9(4).
           05  ACCR-INT           PIC S9(5)V9(4) SIGN LEADING SEPARATE.
           05  FILLER             PIC X(31).
""",
    PROG: """       IDENTIFICATION DIVISION.
       PROGRAM-ID. INTACCR.
      *> Nightly savings interest accrual: one ACCR-REC per active SB account.
      *> Daily interest = balance * rate / 365, 4 decimals, truncated.
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT ACCT-FILE ASSIGN TO ACCTIN
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-ACCT-FS.
           SELECT ACCR-FILE ASSIGN TO ACCROUT
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-ACCR-FS.
       DATA DIVISION.
       FILE SECTION.
       FD  ACCT-FILE.
       COPY ACCTREC.
       FD  ACCR-FILE.
       COPY ACCROUT.
       WORKING-STORAGE SECTION.
       01  WS-ACCT-FS             PIC XX.
       01  WS-ACCR-FS             PIC XX.
       01  WS-EOF                 PIC X VALUE 'N'.
       01  WS-RUN-DATE            PIC 9(8).
       01  WS-RATE                PIC 9V9(4) VALUE 0.0300.
       01  WS-COUNT               PIC 9(7) VALUE 0.
       PROCEDURE DIVISION.
       MAIN-PARA.
           ACCEPT WS-RUN-DATE FROM ENVIRONMENT 'RUN_DATE'
           OPEN INPUT ACCT-FILE OUTPUT ACCR-FILE
           PERFORM UNTIL WS-EOF = 'Y'
               READ ACCT-FILE
                   AT END MOVE 'Y' TO WS-EOF
                   NOT AT END PERFORM ACCRUE-PARA
               END-READ
           END-PERFORM
           CLOSE ACCT-FILE ACCR-FILE
           DISPLAY 'INTACCR ' WS-RUN-DATE ' RECORDS ' WS-COUNT
           STOP RUN.
       ACCRUE-PARA.
           IF ACCT-TYPE NOT = 'SB' OR ACCT-STATUS NOT = 'A'
               EXIT PARAGRAPH
           END-IF
           MOVE SPACES TO ACCR-REC
           MOVE ACCT-NO TO ACCR-ACCT-NO
           MOVE WS-RUN-DATE TO ACCR-DATE
           MOVE ACCT-BAL TO ACCR-BAL
           MOVE WS-RATE TO ACCR-RATE
           COMPUTE ACCR-INT = ACCT-BAL * WS-RATE / 365
           WRITE ACCR-REC
           ADD 1 TO WS-COUNT.
""",
    BUILD: """#!/bin/sh
set -e
mkdir -p bin
cobc -x -std=default -I copybooks -o bin/intaccr src/INTACCR.cbl
""",
    RUN: """#!/bin/sh
# Runs every tests/cases/<name>/ : input acct.dat, expected accr.dat, RUN_DATE in run_date
fail=0
for d in tests/cases/*/; do
  n=$(basename "$d")
  RUN_DATE=$(cat "$d/run_date") ACCTIN="$d/acct.dat" ACCROUT="/tmp/accr_$n.dat" ./bin/intaccr > /tmp/log_$n.txt 2>&1
  if diff -u "$d/accr.dat" "/tmp/accr_$n.dat" > /tmp/diff_$n.txt; then echo "PASS $n"; else echo "FAIL $n"; cat /tmp/diff_$n.txt; fail=1; fi
done
exit $fail
""",
})


def sh(cmd: str, out: str, code: int = 0, secs: float = 0.6, reasoning: str | None = None) -> None:
    r.run(cmd, out, code=code, secs=secs, reasoning=reasoning)


# ============================================================================================ turn 1
r.user(
    "Namaste. In sahakari-batch we have INTACCR, the nightly interest accrual for savings (SB) accounts, GnuCOBOL. Right now it is flat 3% for everybody. From 1 August board has approved slab rates:\n"
    "balance up to 1,00,000 -> 3.00% p.a., above 1,00,000 -> 3.50% p.a. on the FULL balance (not only the part above, kindly note this), and senior citizens (60+ years on run date) get extra 0.50%.\n"
    "Daily interest = balance * rate / 365, always 365 even in leap year, this is bank policy. 4 decimals, truncated, same as now.\n"
    "Please put the slab table in a copybook, RATETAB. And do not change ACCR-REC layout, GLPOST of other team reads it by position, 80 bytes."
)
sh("ls -R | head -40", ".:\nbuild.sh\ncopybooks\nsrc\ntests\n\n./copybooks:\nACCROUT.cpy\nACCTREC.cpy\n\n./src:\nINTACCR.cbl\n\n./tests:\ncases\nrun.sh\n\n./tests/cases:\nbasic\ninactive\n\n./tests/cases/basic:\nacct.dat\naccr.dat\nrun_date\n\n./tests/cases/inactive:\nacct.dat\naccr.dat\nrun_date\n", reasoning="**Exploring the batch repo**\n\nLayout, program, copybooks and the test runner first.")
r.cat(PROG)
r.cat(ACCT)
r.cat(OUTC)
r.cat(RUN)
sh("cobc --version | head -3; cat build.sh", "cobc (GnuCOBOL) 3.2.0\nCopyright (C) 2023 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>\n" + r.files[BUILD])
sh("cat tests/cases/basic/run_date; cat -A tests/cases/basic/acct.dat | head -3; cat tests/cases/basic/accr.dat", "20260720\n100000000417SB19580312+0000041666600A                       $\n100000000418SB19910704+0000000450050A                       $\n100000000419CA19850101+0000990000000A                       $\n100000000417202607200000041666600300+000342465\n100000000418202607200000000450050300+000003699\n", reasoning="**Checking fixtures**\n\nThe record layouts against the sample data.")
sh("./build.sh && tests/run.sh", "PASS basic\nPASS inactive\n", secs=2.1)
r.say(
    "Baseline: `cobc (GnuCOBOL) 3.2.0`, `./build.sh` compiles, `tests/run.sh` passes 2 cases (basic, inactive). The test runner runs `bin/intaccr` per `tests/cases/<name>/` with `RUN_DATE`, `ACCTIN`, `ACCROUT` env vars and diffs the output file.\n\n"
    "ACCR-REC: ACCT-NO 12 + date 8 + ACCR-BAL 14 (sign separate) + ACCR-RATE 5 (`00300` = 3.00%, PIC 9V9(4), enough for 4.00%) + ACCR-INT 10 (S9(5)V9(4), sign separate) + FILLER 31 = 80; LINE SEQUENTIAL trims the trailing FILLER, so the lines look 49 long. Layout stays untouched.\n\n"
    "Plan: `copybooks/RATETAB.cpy` with the slab table (limit, rate) and the senior bonus, a rate paragraph in INTACCR that picks the rate from ACCT-BAL and the age on RUN_DATE from ACCT-DOB, and new test cases for the slab boundary, a senior, and a leap-year run date."
)
r.patch([("add", RATES, """      *> Savings slab rates, board resolution 2026/07-14, effective 01-08-2026.
      *> Rate applies to the FULL balance of the slab the balance falls in.
       01  RATE-TABLE-DATA.
           05  FILLER  PIC X(18) VALUE '000000010000000300'.
           05  FILLER  PIC X(18) VALUE '999999999999990350'.
       01  RATE-TABLE REDEFINES RATE-TABLE-DATA.
           05  RATE-SLAB OCCURS 2 TIMES INDEXED BY RS-IX.
               10  RS-LIMIT       PIC 9(11)V99.
               10  RS-RATE        PIC 9V9(4).
       01  SENIOR-BONUS           PIC 9V9(4) VALUE 0.0050.
       01  SENIOR-AGE             PIC 99 VALUE 60.
""")], reasoning="**Adding the rate copybook**\n\nTwo slabs as a REDEFINES table, plus the senior bonus.")
r.patch([("update", PROG, [("""       01  WS-RATE                PIC 9V9(4) VALUE 0.0300.
       01  WS-COUNT               PIC 9(7) VALUE 0.""", """       01  WS-RATE                PIC 9V9(4) VALUE 0.
       01  WS-COUNT               PIC 9(7) VALUE 0.
       01  WS-AGE                 PIC 999.
       COPY RATETAB."""), ("""           MOVE WS-RATE TO ACCR-RATE
           COMPUTE ACCR-INT = ACCT-BAL * WS-RATE / 365""", """           PERFORM RATE-PARA
           MOVE WS-RATE TO ACCR-RATE
           COMPUTE ACCR-INT = ACCT-BAL * WS-RATE / 365"""), ("""           WRITE ACCR-REC
           ADD 1 TO WS-COUNT.
""", """           WRITE ACCR-REC
           ADD 1 TO WS-COUNT.
       RATE-PARA.
           SET RS-IX TO 1
           SEARCH RATE-SLAB
               WHEN ACCT-BAL <= RS-LIMIT (RS-IX)
                   MOVE RS-RATE (RS-IX) TO WS-RATE
           END-SEARCH
           COMPUTE WS-AGE = (WS-RUN-DATE - ACCT-DOB) / 10000
           IF WS-AGE >= SENIOR-AGE
               ADD SENIOR-BONUS TO WS-RATE
           END-IF.
""")])])
sh("./build.sh", """src/INTACCR.cbl:29: warning: line not terminated by a newline [-Wothers]
src/INTACCR.cbl:66: error: 'RS-IX' is not defined
src/INTACCR.cbl:67: error: 'RS-LIMIT' is not defined
src/INTACCR.cbl:68: error: 'RS-RATE' is not defined
src/INTACCR.cbl:69: error: 'RATE-SLAB' is not defined
""", code=1)
r.say("`'RS-IX' is not defined` and the other table names, although `COPY RATETAB.` is in WORKING-STORAGE. Checking what the preprocessor actually copies in (`cobc -E`).")
sh("cobc -E -I copybooks src/INTACCR.cbl | sed -n '20,32p'", """       01 WS-ACCT-FS PIC XX.
       01 WS-ACCR-FS PIC XX.
       01 WS-EOF PIC X VALUE 'N'.
       01 WS-RUN-DATE PIC 9(8).
       01 WS-RATE PIC 9V9(4) VALUE 0.
       01 WS-COUNT PIC 9(7) VALUE 0.
       01 WS-AGE PIC 999.
       01 LN-RATE-TABLE.
       05 LN-RATE OCCURS 12 TIMES PIC 99V99.
       PROCEDURE DIVISION.
""")
r.say("The expansion of `COPY RATETAB.` is **`LN-RATE-TABLE` / `LN-RATE OCCURS 12`** — not our file. cobc found another RATETAB copybook first. `-v` shows where from.")
sh("cobc -fsyntax-only -v -I copybooks src/INTACCR.cbl 2>&1 | grep -i 'copy\\|error' | head; echo COBCPY=$COBCPY", """copy: /usr/local/share/gnucobol/copy/RATETAB.cpy
copy: copybooks/ACCTREC.cpy
copy: copybooks/ACCROUT.cpy
src/INTACCR.cbl:66: error: 'RS-IX' is not defined
COBCPY=/usr/local/share/gnucobol/copy
""", code=1)
sh("head -5 /usr/local/share/gnucobol/copy/RATETAB.cpy; ls /usr/local/share/gnucobol/copy/; grep -rn COBCPY /etc/profile.d/ 2>/dev/null", "      *> LOANS module rate table (installed by loans-batch make install)\n       01  LN-RATE-TABLE.\n           05  LN-RATE OCCURS 12 TIMES PIC 99V99.\nLNPARM.cpy\nRATETAB.cpy\n/etc/profile.d/gnucobol.sh:2:export COBCPY=/usr/local/share/gnucobol/copy\n")
r.say("Cause: `/etc/profile.d/gnucobol.sh` exports **COBCPY=/usr/local/share/gnucobol/copy**, and that directory holds the **loans module's** RATETAB.cpy (installed by loans-batch `make install`); on this box it wins over `-I copybooks` for that name. You asked for the name RATETAB — two options: rename ours to `SBRATES.cpy`, or keep RATETAB and unset COBCPY in build.sh. The production build server may have the same loans install. Which do you prefer?")

# ============================================================================================ turn 2
r.user("Arre, that loans copybook is everywhere, yes also on prod build server. Rename ours to SBRATES, no problem.")
sh("git mv copybooks/RATETAB.cpy copybooks/SBRATES.cpy 2>/dev/null || mv copybooks/RATETAB.cpy copybooks/SBRATES.cpy; sed -i 's/COPY RATETAB\\./COPY SBRATES./' src/INTACCR.cbl && ./build.sh && tests/run.sh", """FAIL basic
--- tests/cases/basic/accr.dat	2026-07-02 10:11:40.000000000 +0530
+++ /tmp/accr_basic.dat	2026-07-21 10:22:31.000000000 +0530
@@ -1,2 +1,2 @@
-100000000417202607200000041666600300+000342465
+100000000417202607200000041666600350+000399543
 100000000418202607200000000450050300+000003699
PASS inactive
""", code=1, secs=2.4)
r.files[RATES.replace("RATETAB", "SBRATES")] = r.files.pop(RATES)
RATES = "copybooks/SBRATES.cpy"
r.files[PROG] = r.files[PROG].replace("COPY RATETAB.", "COPY SBRATES.")
r.say("Compiles now. basic fails on account 100000000417: rate 00300 → 00350. Looking at its balance: `cut -c22-35` gives `2+000004166660`, i.e. ₹41,666.60 — that is *below* the ₹1,00,000 slab limit, so 3.50% would be wrong and my slab search is broken. Checking RATE-PARA before touching the expected file.")
r.user("why you are confusing? balance is 4,16,666.00 - you are reading wrong column. ACCT-BAL starts at 23, first DOB is 8 digits from 15. Check again.")
sh("cut -c15-22 tests/cases/basic/acct.dat | head -2; cut -c23-36 tests/cases/basic/acct.dat | head -2; python3 -c \"print(416666*0.03/365, 416666*0.035/365)\"", "19580312\n19910704\n+0000041666600\n+0000000450050\n34.24652054794521\n39.95435616438356\n")
r.say("You're right, I cut one column early. ACCT-BAL (23-36) is `+0000041666600` = **₹4,16,666.00**, above the limit, so 3.50% on the full balance is correct: 416666 × 3.5% / 365 = 39.95435… → truncated **39.9543** (was 34.2465 at 3%). The only needed change is the expected file, line 1: rate 00350, interest +000399543.")
sh("sed -i '1s/.*/100000000417202607200000041666600350+000399543/' tests/cases/basic/accr.dat && tests/run.sh", "PASS basic\nPASS inactive\n", secs=1.3)
r.say("Both cases pass. Adding new cases: slab boundary (exactly 1,00,000.00 → 3.00%, 1,00,000.01 → 3.50%), senior (DOB 1966-07-20 turns 60 on run date 2026-07-20 → +0.50%), and a leap-year run date (2028-02-29, still /365).")
sh("mkdir -p tests/cases/slab tests/cases/senior tests/cases/leap && printf '20260720\\n' > tests/cases/slab/run_date && printf '100000000501SB19800101+0000010000000A%23s\\n100000000502SB19800101+0000010000001A%23s\\n' '' '' > tests/cases/slab/acct.dat && printf '20260720\\n' > tests/cases/senior/run_date && printf '100000000601SB19660720+0000005000000A%23s\\n100000000602SB19660721+0000005000000A%23s\\n' '' '' > tests/cases/senior/acct.dat && printf '20280229\\n' > tests/cases/leap/run_date && printf '100000000701SB19900101+0000036500000A%23s\\n' '' > tests/cases/leap/acct.dat && for c in slab senior leap; do RUN_DATE=$(cat tests/cases/$c/run_date) ACCTIN=tests/cases/$c/acct.dat ACCROUT=tests/cases/$c/accr.dat ./bin/intaccr; cat tests/cases/$c/accr.dat; done", "INTACCR 20260720 RECORDS 0000002\n100000000501202607200000010000000300+000082191\n100000000502202607200000010000001350+000095890\nINTACCR 20260720 RECORDS 0000002\n100000000601202607200000005000000350+000047945\n100000000602202607200000005000000300+000041095\nINTACCR 20280229 RECORDS 0000001\n100000000701202802290000036500000300+000300000\n")
r.say(
    "Generated outputs, checked by hand before accepting them as expected files:\n"
    "- slab: 1,00,000.00 → 3.00%, 100000 × 0.03 / 365 = 8.21917… → **8.2191** ✓; 1,00,000.01 → 3.50%, 9.58904… → **9.5890** ✓\n"
    "- senior: DOB 1966-07-20 turns 60 on 2026-07-20 → 3.50%, 50000 × 0.035 / 365 = **4.7945** ✓; DOB 1966-07-21 is still 59 → 3.00%, **4.1095** ✓ (age = (RUN_DATE − DOB) / 10000 truncated)\n"
    "- leap: 3,65,000 × 3% / 365 = **30.0000** on 2028-02-29, so /365 also in a leap year ✓\n\n"
    "Stored as tests/cases/{slab,senior,leap}/accr.dat."
)
sh("tests/run.sh", "PASS basic\nPASS inactive\nPASS leap\nPASS senior\nPASS slab\n", secs=2.2)

# ============================================================================================ turn 3
r.user(
    "Good. But I talked with Joshi ji (ops head). He says rates change maybe twice a year and every time recompile and CAB approval is headache. "
    "So not copybook: read slab table from a file RATES.DAT (same two columns limit and rate, plus one line for senior bonus), ops can edit. Sorry for changing."
)
r.patch([("add", "data/RATES.DAT", """SLAB 0000000100000.00 0.0300
SLAB 9999999999999.99 0.0350
SNR  0.0050
"""), ("update", PROG, [("""           SELECT ACCR-FILE ASSIGN TO ACCROUT
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-ACCR-FS.""", """           SELECT ACCR-FILE ASSIGN TO ACCROUT
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-ACCR-FS.
           SELECT RATE-FILE ASSIGN TO RATESIN
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-RATE-FS."""), ("""       FD  ACCR-FILE.
       COPY ACCROUT.""", """       FD  ACCR-FILE.
       COPY ACCROUT.
       FD  RATE-FILE.
       01  RATE-LINE.
           05  RL-KIND            PIC X(5).
           05  RL-LIMIT           PIC X(17).
           05  FILLER             PIC X.
           05  RL-RATE            PIC X(6)."""), ("""       01  WS-ACCR-FS             PIC XX.""", """       01  WS-ACCR-FS             PIC XX.
       01  WS-RATE-FS             PIC XX."""), ("""           ACCEPT WS-RUN-DATE FROM ENVIRONMENT 'RUN_DATE'
""", """           ACCEPT WS-RUN-DATE FROM ENVIRONMENT 'RUN_DATE'
           PERFORM LOAD-RATES-PARA
"""), ("""       RATE-PARA.""", """       LOAD-RATES-PARA.
           OPEN INPUT RATE-FILE
           SET RS-IX TO 1
           PERFORM UNTIL WS-RATE-FS NOT = '00'
               READ RATE-FILE
                   AT END EXIT PERFORM
               END-READ
               EVALUATE RL-KIND
                   WHEN 'SLAB '
                       COMPUTE RS-LIMIT (RS-IX) = FUNCTION NUMVAL (RL-LIMIT)
                       COMPUTE RS-RATE (RS-IX) = FUNCTION NUMVAL (RL-LIMIT (19:6))
                       SET RS-IX UP BY 1
                   WHEN 'SNR  '
                       COMPUTE SENIOR-BONUS = FUNCTION NUMVAL (RL-LIMIT (1:6))
               END-EVALUATE
           END-PERFORM
           CLOSE RATE-FILE.
       RATE-PARA.""")])], reasoning="**Switching to a rate file**\n\nRATES.DAT read at start into the same table; the copybook keeps the layout only.")
sh("./build.sh && sed -i 's|RUN_DATE=$(cat \"$d/run_date\") ACCTIN|RATESIN=data/RATES.DAT RUN_DATE=$(cat \"$d/run_date\") ACCTIN|' tests/run.sh && tests/run.sh", """src/INTACCR.cbl:79: error: 'RL-LIMIT' cannot be reference-modified beyond its length (19:6 > 17)
""", code=1)
r.say("Compile error: `RL-LIMIT (19:6)` is beyond its 17 characters — I wanted `RL-RATE`. Fixing both NUMVALs to use the proper fields.")
r.patch([("update", PROG, [("""                       COMPUTE RS-RATE (RS-IX) = FUNCTION NUMVAL (RL-LIMIT (19:6))""", """                       COMPUTE RS-RATE (RS-IX) = FUNCTION NUMVAL (RL-RATE)"""), ("""                       COMPUTE SENIOR-BONUS = FUNCTION NUMVAL (RL-LIMIT (1:6))""", """                       COMPUTE SENIOR-BONUS = FUNCTION NUMVAL (RL-LIMIT (1:6))
      *> SNR line: 'SNR  0.0050' - the bonus sits where SLAB lines have the limit""")])])
sh("./build.sh && tests/run.sh", """FAIL basic
--- tests/cases/basic/accr.dat	2026-07-21 10:31:02.000000000 +0530
+++ /tmp/accr_basic.dat	2026-07-21 10:52:47.000000000 +0530
@@ -1,2 +0,0 @@
-100000000417202607200000041666600350+000399543
-100000000418202607200000000450050300+000003699
PASS inactive
FAIL leap
--- tests/cases/leap/accr.dat	2026-07-21 10:40:13.000000000 +0530
+++ /tmp/accr_leap.dat	2026-07-21 10:52:48.000000000 +0530
@@ -1 +0,0 @@
-100000000701202802290000036500000300+000300000
FAIL senior
--- tests/cases/senior/accr.dat	2026-07-21 10:36:40.000000000 +0530
+++ /tmp/accr_senior.dat	2026-07-21 10:52:48.000000000 +0530
@@ -1,2 +0,0 @@
-100000000601202607200000005000000350+000047945
-100000000602202607200000005000000300+000041095
FAIL slab
--- tests/cases/slab/accr.dat	2026-07-21 10:36:40.000000000 +0530
+++ /tmp/accr_slab.dat	2026-07-21 10:52:48.000000000 +0530
@@ -1,2 +0,0 @@
-100000000501202607200000010000000300+000082191
-100000000502202607200000010000001350+000095890
""", code=1, secs=2.6)
r.say("Every case with accounts produced an **empty** output file (`inactive` passes only because its expected file is empty). The program must be dying before the first WRITE; the per-case log says why.")
sh("cat /tmp/log_basic.txt; grep -c RATESIN tests/run.sh", "libcob: error: file does not exist (status = 35) for file RATE-FILE ('RATESIN' => RATESIN)\n0\n", code=1)
r.say("`libcob: error: file does not exist (status = 35) for file RATE-FILE ('RATESIN' => RATESIN)`: RATESIN isn't set, because my `sed` adding `RATESIN=data/RATES.DAT` to tests/run.sh was chained after `./build.sh` in the command that failed to compile, so it never ran. Applying it now. (Also noted: a missing rate file aborts the job with status 35 — that's the behaviour we want, not a silent 0%.)")
sh("sed -i 's|RUN_DATE=$(cat \"$d/run_date\") ACCTIN|RATESIN=data/RATES.DAT RUN_DATE=$(cat \"$d/run_date\") ACCTIN|' tests/run.sh && tests/run.sh", """FAIL basic
--- tests/cases/basic/accr.dat	2026-07-21 10:31:02.000000000 +0530
+++ /tmp/accr_basic.dat	2026-07-21 10:54:02.000000000 +0530
@@ -1,2 +1,2 @@
-100000000417202607200000041666600350+000399543
-100000000418202607200000000450050300+000003699
+100000000417202607200000041666600000+000000000
+100000000418202607200000000450050000+000000000
PASS inactive
FAIL leap
FAIL senior
--- tests/cases/senior/accr.dat	2026-07-21 10:36:40.000000000 +0530
+++ /tmp/accr_senior.dat	2026-07-21 10:54:02.000000000 +0530
@@ -1,2 +1,2 @@
-100000000601202607200000005000000350+000047945
-100000000602202607200000005000000300+000041095
+100000000601202607200000005000000050+000006849
+100000000602202607200000005000000000+000000000
FAIL slab
""", code=1, secs=2.5)
r.say("Now the file is read, but every slab rate is **0** and the senior gets only the 0.50% bonus (0.6849): the SNR line works, the SLAB lines don't. `SLAB 0000000100000.00 0.0300`: KIND 5 + limit 16 chars + space → the rate starts at column 23, but RL-LIMIT is X(17), so RL-RATE starts at 24 and reads `.0300`+space... and the limit field swallows the space. Off by one: RL-LIMIT must be X(16).")
r.patch([("update", PROG, [("""           05  RL-LIMIT           PIC X(17).""", """           05  RL-LIMIT           PIC X(16).""")])])
sh("./build.sh && tests/run.sh", "PASS basic\nPASS inactive\nPASS leap\nPASS senior\nPASS slab\n", secs=2.3)
r.say("All 5 cases pass with the table read from `data/RATES.DAT` (env `RATESIN`). Rate file layout: `SLAB <limit, 16 chars> <rate, 6>` per slab and `SNR  <bonus>`. A missing file aborts the run with libcob status 35. Next I'd add a check that the file has at least one SLAB line and that the last limit is 9999999999999.99, so a truncated file can't give 0%.")
r.user("Wait. Please do not do more on file. I discussed with audit (Mrs. Kulkarni) - they say rate must be in compiled code, with board resolution number, because file can be changed by anybody on ops server without trace. So back to copybook, SBRATES like before. Sorry, last change, final.")
r.patch([("update", PROG, [("""           SELECT RATE-FILE ASSIGN TO RATESIN
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-RATE-FS.""", ""), ("""       FD  RATE-FILE.
       01  RATE-LINE.
           05  RL-KIND            PIC X(5).
           05  RL-LIMIT           PIC X(16).
           05  FILLER             PIC X.
           05  RL-RATE            PIC X(6).""", ""), ("""       01  WS-RATE-FS             PIC XX.
""", ""), ("""           PERFORM LOAD-RATES-PARA
""", ""), ("""       LOAD-RATES-PARA.
           OPEN INPUT RATE-FILE
           SET RS-IX TO 1
           PERFORM UNTIL WS-RATE-FS NOT = '00'
               READ RATE-FILE
                   AT END EXIT PERFORM
               END-READ
               EVALUATE RL-KIND
                   WHEN 'SLAB '
                       COMPUTE RS-LIMIT (RS-IX) = FUNCTION NUMVAL (RL-LIMIT)
                       COMPUTE RS-RATE (RS-IX) = FUNCTION NUMVAL (RL-RATE)
                       SET RS-IX UP BY 1
                   WHEN 'SNR  '
                       COMPUTE SENIOR-BONUS = FUNCTION NUMVAL (RL-LIMIT (1:6))
      *> SNR line: 'SNR  0.0050' - the bonus sits where SLAB lines have the limit
               END-EVALUATE
           END-PERFORM
           CLOSE RATE-FILE.
""", "")])], reasoning="**Reverting to the copybook**\n\nRemove the RATE-FILE, keep SBRATES.cpy as the only source of rates.")
sh("git rm -q --cached data/RATES.DAT 2>/dev/null; rm -f data/RATES.DAT; rmdir data; sed -i 's|RATESIN=data/RATES.DAT ||' tests/run.sh && ./build.sh && tests/run.sh && grep -c RATESIN src/INTACCR.cbl tests/run.sh || true", "PASS basic\nPASS inactive\nPASS leap\nPASS senior\nPASS slab\nsrc/INTACCR.cbl:0\ntests/run.sh:0\n", code=0, secs=2.2)
r.say("Back to the compiled table: RATE-FILE, RATESIN and data/RATES.DAT are gone, rates come only from `copybooks/SBRATES.cpy`; 5/5 cases pass. The copybook header already cites **board resolution 2026/07-14, effective 01-08-2026** — is that the right resolution number for audit?")
r.user("Resolution number is BR/2026/117 dated 14-07-2026, please correct. Effective 01-08-2026 yes.")
r.patch([("update", RATES, [("""      *> Savings slab rates, board resolution 2026/07-14, effective 01-08-2026.""", """      *> Savings slab rates, board resolution BR/2026/117 dated 14-07-2026, effective 01-08-2026.
      *> Changes need a new board resolution and CAB approval (audit, Mrs. Kulkarni).""")])])

# ============================================================================================ turn 4
r.user(
    "Now one more problem from last month's run, not related. For big balance account (a trust account 9,87,65,43,210.55) ACCR-INT came wrong, small number. Kindly check. Also TDS deduction on interest we will need, but not now, after August."
)
sh("mkdir -p tests/cases/big && printf '20260720\\n' > tests/cases/big/run_date && printf '100000000801SB19700101+0987654321055A%23s\\n' '' > tests/cases/big/acct.dat && RUN_DATE=20260720 ACCTIN=tests/cases/big/acct.dat ACCROUT=/tmp/big.dat ./bin/intaccr && cat /tmp/big.dat && python3 -c \"print(9876543210.55*0.035/365)\"", "INTACCR 20260720 RECORDS 0000001\n100000000801202607200987654321055350+470644403\n947064.4403924657\n")
r.say(
    "Reproduced. Balance `+0987654321055` = 9,87,65,43,210.55 ✓, rate 3.50% ✓ (DOB 1970, not senior). Correct daily interest = **9,47,064.4403**, but ACCR-INT shows `+470644403` = 47,064.4403: the leading 9 is cut off.\n\n"
    "Cause: `ACCR-INT PIC S9(5)V9(4)` in copybooks/ACCROUT.cpy holds at most 99,999.9999, and `COMPUTE ACCR-INT = ...` has no ON SIZE ERROR, so COBOL silently truncates the high-order digits. Any account above about ₹10.4 crore at 3.5% is affected."
)
sh("git log --oneline -3 -- copybooks/ACCROUT.cpy; grep -rn 'ACCR-INT\\|40:9\\|(40' ../glpost/src/*.cbl 2>/dev/null | head -3 || echo 'glpost not checked out'", "8c11f70 accrout: initial\nglpost not checked out\n")
r.say(
    "The field has been S9(5)V9(4) since the first commit. Fixing it means widening ACCR-INT, and that **changes ACCR-REC**, which you said not to touch because GLPOST reads it by position (the interest is at 40-49 now; S9(7)V9(4) would be 40-51, record still 80 with FILLER 29).\n\n"
    "Options:\n"
    "1. Widen ACCR-INT to S9(7)V9(4) — needs GLPOST to read the new width in the same release.\n"
    "2. Keep the layout, add ON SIZE ERROR so such an account abends the job (RC 16) instead of posting a wrong figure; trust accounts then need manual accrual.\n\n"
    "I'd do 2 now in any case, and 1 only with the GLPOST team's agreement."
)
r.user("I called Mehta from GLPOST team. They can read new width, they release same night as us. So widen ACCR-INT to S9(7)V9(4), FILLER less, record stays 80. And yes add ON SIZE ERROR also.")
r.patch([("update", OUTC, [("""      *> Accrual output for GL posting, fixed width 80 (GLPOST reads by position)""", """      *> Accrual output for GL posting, fixed width 80 (GLPOST reads by position).
      *> ACCR-INT widened S9(5)V9(4) -> S9(7)V9(4) for SB-2291, agreed with GLPOST (Mehta), same release."""), ("""           05  ACCR-INT           PIC S9(5)V9(4) SIGN LEADING SEPARATE.
           05  FILLER             PIC X(31).""", """           05  ACCR-INT           PIC S9(7)V9(4) SIGN LEADING SEPARATE.
           05  FILLER             PIC X(29).""")]), ("update", PROG, [("""           COMPUTE ACCR-INT = ACCT-BAL * WS-RATE / 365
           WRITE ACCR-REC""", """           COMPUTE ACCR-INT = ACCT-BAL * WS-RATE / 365
               ON SIZE ERROR
                   DISPLAY 'INTACCR SIZE ERROR ACCT ' ACCT-NO UPON SYSERR
                   MOVE 16 TO RETURN-CODE
                   STOP RUN
           END-COMPUTE
           WRITE ACCR-REC""")])], reasoning="**Widening ACCR-INT**\n\nCopybook width plus a size-error abend in the COMPUTE.")
sh("./build.sh && tests/run.sh", """FAIL basic
--- tests/cases/basic/accr.dat	2026-07-21 10:31:02.000000000 +0530
+++ /tmp/accr_basic.dat	2026-07-21 11:14:09.000000000 +0530
@@ -1,2 +1,2 @@
-100000000417202607200000041666600350+000399543
-100000000418202607200000000450050300+000003699
+100000000417202607200000041666600350+00000399543
+100000000418202607200000000450050300+00000003699
FAIL inactive
FAIL leap
FAIL senior
FAIL slab
""", code=1, secs=3.1)
r.say("As expected every old expected file differs only in the interest width (two more leading zeros; digits unchanged: 39.9543, 0.3699). `inactive` fails with no diff shown — checking its log before regenerating anything.")
sh("cat /tmp/log_inactive.txt; cat /tmp/diff_inactive.txt | head -5", "INTACCR 20260720 RECORDS 0000000\n--- tests/cases/inactive/accr.dat\t2026-07-02 10:12:05.000000000 +0530\n+++ /tmp/accr_inactive.dat\t2026-07-21 11:14:09.000000000 +0530\n@@ -0,0 +0,0 @@\n\\ No newline at end of file\n")
r.say("`inactive` has zero records; its expected file is empty but without the trailing newline difference diff complains about. Harmless — regenerating all expected files from the fresh build, then checking the digits of every line against the old ones.")
sh("for c in basic inactive leap senior slab big; do RUN_DATE=$(cat tests/cases/$c/run_date) ACCTIN=tests/cases/$c/acct.dat ACCROUT=tests/cases/$c/accr.dat ./bin/intaccr >/dev/null; done; git diff --word-diff=porcelain tests/cases | grep '^[-+][0-9]' | sed 's/+0\\+/+/' | sort | uniq -c | head; cat tests/cases/big/accr.dat; tests/run.sh", "      1 +100000000417202607200000041666600350+399543\n      1 +100000000418202607200000000450050300+3699\n      1 -100000000417202607200000041666600350+399543\n      1 -100000000418202607200000000450050300+3699\n100000000801202607200987654321055350+09470644403\nPASS basic\nPASS big\nPASS inactive\nPASS leap\nPASS senior\nPASS slab\n", secs=3.0)
r.say("All 6 cases pass (new: `big`), and the trust account now gives **+09470644403 = 9,47,064.4403**. The regenerated files have the same interest digits as before, only the width changed.")
sh("cobc -x -Wall -std=default -I copybooks -o /tmp/intaccr_wall src/INTACCR.cbl", "src/INTACCR.cbl:58: warning: some digits may be truncated [-Wtruncate]\n", reasoning="**Compiler warnings**\n\nA -Wall build to see what else cobc flags.")
r.say("`-Wall` flags line 58 (`-Wtruncate`), the COMPUTE into ACCR-INT: the intermediate `ACCT-BAL * WS-RATE / 365` can still exceed S9(7)V9(4) in theory (balances above ~₹1,000 crore at 3.5%), which is exactly what ON SIZE ERROR now catches at run time. Leaving the warning; build.sh doesn't use -Wall.")
sh("git diff copybooks/ACCROUT.cpy", """diff --git a/copybooks/ACCROUT.cpy b/copybooks/ACCROUT.cpy
index 5d1e0a2..c8b41f7 100644
--- a/copybooks/ACCROUT.cpy
+++ b/copybooks/ACCROUT.cpy
@@ -1,8 +1,9 @@
-      *> Accrual output for GL posting, fixed width 80 (GLPOST reads by position)
+      *> Accrual output for GL posting, fixed width 80 (GLPOST reads by position).
+      *> ACCR-INT widened S9(5)V9(4) -> S9(7)V9(4) for SB-2291, agreed with GLPOST (Mehta), same release.
        01  ACCR-REC.
            05  ACCR-ACCT-NO       PIC X(12).
            05  ACCR-DATE          PIC 9(8).
            05  ACCR-BAL           PIC S9(11)V99 SIGN LEADING SEPARATE.
            05  ACCR-RATE          PIC 9V9(4).
-           05  ACCR-INT           PIC S9(5)V9(4) SIGN LEADING SEPARATE.
-           05  FILLER             PIC X(31).
+           05  ACCR-INT           PIC S9(7)V9(4) SIGN LEADING SEPARATE.
+           05  FILLER             PIC X(29).
""")
sh("git status --short", " M copybooks/ACCROUT.cpy\n M src/INTACCR.cbl\n M tests/cases/basic/accr.dat\n M tests/cases/inactive/accr.dat\n M tests/run.sh\n?? copybooks/SBRATES.cpy\n?? tests/cases/big/\n?? tests/cases/leap/\n?? tests/cases/senior/\n?? tests/cases/slab/\n")
r.say(
    "Done, 6/6 cases pass. Summary:\n"
    "- Slab rates 3.00% up to ₹1,00,000.00 / 3.50% above, on the full balance; senior (60+ on run date) +0.50%; /365 always. Rates only in `copybooks/SBRATES.cpy` (BR/2026/117 dated 14-07-2026, effective 01-08-2026), named SBRATES because the loans module's RATETAB.cpy in COBCPY shadows RATETAB.\n"
    "- ACCR-INT widened to S9(7)V9(4) (record still 80, FILLER 29), agreed with GLPOST (Mehta) for the same release; ON SIZE ERROR now abends with RC 16 instead of truncating.\n"
    "- Last month's trust-account accrual was truncated (47,064.4403 posted instead of 9,47,064.4403 per day), so those postings need correction.\n"
    "- tests/run.sh is unchanged in content apart from the RATESIN prefix I added and removed (`git diff` shows only whitespace; I'll restore it exactly).\n"
    "- Not done: TDS deduction (after August). Nothing committed yet."
)
sh("git checkout -- tests/run.sh && tests/run.sh | tail -1", "PASS slab\n")
r.user("very good. commit please, message with ticket SB-2291. Trust account correction I will do with Joshi ji, not you.")
sh("git add -A && git commit -qm 'SB-2291 INTACCR slab rates + senior bonus (BR/2026/117), SBRATES copybook, ACCR-INT S9(7)V9(4) + size error abend, tests' && git log --oneline -1", "a7c04d2 SB-2291 INTACCR slab rates + senior bonus (BR/2026/117), SBRATES copybook, ACCR-INT S9(7)V9(4) + size error abend, tests\n")
r.say("Committed **a7c04d2** (SB-2291) on main, not pushed. Open: correction of last month's trust-account accruals (you, with Joshi ji), GLPOST must ship the new ACCR-INT width in the same night's release, TDS after August.")

r.save(HERE / "session.jsonl")
