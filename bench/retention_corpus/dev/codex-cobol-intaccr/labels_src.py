# ruff: noqa: E501
"""Labels for codex-cobol-intaccr, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "sahakari-batch INTACCR (GnuCOBOL savings interest accrual): slab rates + senior bonus in the SBRATES copybook (after a detour through a rate file), ACCR-INT widened for a truncated trust account",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6a test split",
    "voice": "Hindi-flavoured English (\"kindly note\", \"Arre\", \"why you are confusing?\"), changes the rate-table design twice (copybook -> file -> copybook), relays other teams' decisions",
    "toolchain": "GnuCOBOL 3.2 (cobc -x, -E, -v, -Wall), shell test runner diffing fixed-width LINE SEQUENTIAL output, libcob runtime errors, COBCPY copybook shadowing",
}
COMPACTIONS = [
    ("Stored as tests/cases/{slab,senior,leap}/accr.dat.", 900),
    ("Back to the compiled table: RATE-FILE, RATESIN and data/RATES.DAT are gone", 1200),
]
FACTS = [
    f("k01", "request", "must", "balance up to 1,00,000 -> 3.00% p.a., above 1,00,000 -> 3.50% p.a. on the FULL balance", "From 1 Aug 2026 slab rates for SB accounts: balance up to 1,00,000 at 3.00% p.a., above 1,00,000 at 3.50% p.a. on the full balance (not only the part above).", [r"3\.50|3\.5 ?%", r"1,00,000|100000|lakh|slab|full balance"], "done"),
    f("k02", "request", "must", "senior citizens (60+ years on run date) get extra 0.50%", "Senior citizens (60 or older on the run date) get an extra 0.50% p.a.", [r"senior|60", r"0\.50|0\.5 ?%|bonus"], "done"),
    f("k03", "constraint", "must", "Daily interest = balance * rate / 365, always 365 even in leap year", "Daily interest = balance x rate / 365, always 365 even in leap years (bank policy), 4 decimals truncated as before.", [r"365", r"leap|always|truncat|4 decimals"]),
    f("k04", "constraint", "must", "do not change ACCR-REC layout, GLPOST of other team reads it by position, 80 bytes", "Originally: do not change the ACCR-REC layout (80 bytes, GLPOST reads it by position); reversed later when GLPOST agreed to read a wider ACCR-INT.", [r"ACCR-REC|layout|GLPOST", r"80|position|not change|untouched|don.?t change"], "reversed"),
    f("k05", "value", "nice", "ACCR-REC: ACCT-NO 12 + date 8 + ACCR-BAL 14", "ACCR-REC = ACCT-NO 12 + date 8 + ACCR-BAL 14 + ACCR-RATE 5 (00300 = 3.00%) + ACCR-INT 10 + FILLER 31 = 80; LINE SEQUENTIAL trims the trailing filler.", [r"ACCR-RATE|ACCR-INT|FILLER", r"80|00300|\b5\b|31"]),
    f("k06", "command", "must", "Baseline: `cobc (GnuCOBOL) 3.2.0`, `./build.sh` compiles", "Build and test: ./build.sh (cobc -x -std=default -I copybooks -o bin/intaccr src/INTACCR.cbl) && tests/run.sh (each tests/cases/<name>/ run with RUN_DATE, ACCTIN, ACCROUT env vars, output diffed); GnuCOBOL 3.2.0; latest 6/6 PASS.", [r"build\.sh|tests/run\.sh|run\.sh", r"cobc|PASS|cases|diff|run"]),
    f("k07", "decision", "should", "Please put the slab table in a copybook, RATETAB", "User's first choice: the slab table in a copybook named RATETAB (later renamed SBRATES, then briefly replaced by a file, then back).", [r"copybook", r"RATETAB|SBRATES|slab|rate"]),
    f("k08", "error", "must", "Cause: `/etc/profile.d/gnucobol.sh` exports **COBCPY=/usr/local/share/gnucobol/copy**", "Compile errors 'RS-IX is not defined': COBCPY (/etc/profile.d/gnucobol.sh) points to /usr/local/share/gnucobol/copy, where the loans module's RATETAB.cpy shadows ours; the prod build server has it too, so ours was renamed to copybooks/SBRATES.cpy.", [r"COBCPY|loans|shadow|/usr/local/share/gnucobol", r"RATETAB|SBRATES|rename"], "fixed"),
    f("k09", "decision", "should", "Rename ours to SBRATES, no problem", "Our copybook is named SBRATES (copybooks/SBRATES.cpy, COPY SBRATES.) because RATETAB clashes with the loans copybook on all servers.", [r"SBRATES"]),
    f("k10", "error", "nice", "why you are confusing? balance is 4,16,666.00", "The assistant cut the balance one column early (-c22-35) and read 41,666.60; ACCT-BAL is columns 23-36 (DOB 15-22).", [r"23|column|cut", r"ACCT-BAL|balance|DOB|4,16,666|41,666"], "fixed"),
    f("k11", "value", "should", "You're right, I cut one column early", "basic case: account 100000000417 has 4,16,666.00, so 3.50% applies: 39.9543 per day (34.2465 at 3%); only the expected file line changed.", [r"39\.9543|4,16,666|416666", r"3\.5|expected|basic|34\.2465"]),
    f("k12", "path", "should", "Generated outputs, checked by hand before accepting them as expected files", "New test cases tests/cases/slab (1,00,000.00 -> 3.00% 8.2191; 1,00,000.01 -> 3.50% 9.5890), senior (DOB 1966-07-20 -> 60 -> 4.7945; 1966-07-21 -> 59 -> 4.1095) and leap (2028-02-29, 3,65,000 -> 30.0000, still /365).", [r"slab|senior|leap", r"8\.2191|9\.5890|4\.7945|4\.1095|30\.0000"]),
    f("k13", "finding", "nice", "(age = (RUN_DATE − DOB) / 10000 truncated)", "Age is computed as (RUN_DATE - DOB) / 10000 truncated into PIC 999, so someone turns 60 exactly on their birthday.", [r"10000|age", r"DOB|RUN_DATE|truncat|birthday"]),
    f("k14", "decision", "should", "So not copybook: read slab table from a file RATES.DAT", "Second design (ops head Joshi ji, to avoid recompiles and CAB approvals): read the slab table from data/RATES.DAT (env RATESIN); withdrawn after audit objected.", [r"RATES\.DAT|RATESIN|rate file|from a file", r"ops|file|recompil|CAB|withdrawn|audit|revers"], "reversed"),
    f("k15", "error", "nice", "'RL-LIMIT' cannot be reference-modified beyond its length (19:6 > 17)", "Compile error: RL-LIMIT (19:6) reference-modified beyond its length; the rate is read from RL-RATE instead.", [r"RL-LIMIT|reference-modif", r"RL-RATE|length|19:6"], "fixed"),
    f("k16", "error", "should", "`libcob: error: file does not exist (status = 35) for file RATE-FILE", "All outputs empty: libcob status 35 for RATE-FILE because RATESIN was never added to tests/run.sh (the sed was chained after a failing build); a missing rate file aborts the job.", [r"status ?=? ?35|libcob|RATESIN", r"sed|not set|missing|never ran|abort|file"], "fixed"),
    f("k17", "error", "nice", "Off by one: RL-LIMIT must be X(16)", "Slab rates came out 0 (senior got only 0.6849 from the bonus) because RL-LIMIT was X(17); fixed to X(16).", [r"X\(16\)|X\(17\)|off by one|RL-LIMIT", r"0|rate|16|off"], "fixed"),
    f("k18", "constraint", "must", "they say rate must be in compiled code, with board resolution number", "Final (audit, Mrs. Kulkarni): rates must be in compiled code with the board resolution number, because a file on the ops server can be changed without trace; back to the SBRATES copybook, no rate file.", [r"compiled|copybook|SBRATES", r"audit|Kulkarni|resolution|trace|final"]),
    f("k19", "value", "must", "Resolution number is BR/2026/117 dated 14-07-2026", "Board resolution BR/2026/117 dated 14-07-2026, effective 01-08-2026, cited in the SBRATES.cpy header (changes need a new resolution and CAB approval).", [r"BR/2026/117"]),
    f("k20", "state", "should", "Back to the compiled table: RATE-FILE, RATESIN and data/RATES.DAT are gone", "RATE-FILE, RATESIN and data/RATES.DAT were removed; rates come only from copybooks/SBRATES.cpy; 5/5 cases passed.", [r"RATES\.DAT|RATESIN|RATE-FILE", r"gone|remov|delet|only|SBRATES"]),
    f("k21", "request", "must", "For big balance account (a trust account 9,87,65,43,210.55) ACCR-INT came wrong", "Check last month's wrong (too small) ACCR-INT for a trust account with balance 9,87,65,43,210.55.", [r"trust|9,87,65,43,210|big balance", r"ACCR-INT|interest|wrong|small|truncat"], "done"),
    f("k22", "request", "should", "Also TDS deduction on interest we will need, but not now, after August", "TDS deduction on interest: needed, but not now, after August.", [r"TDS", r"later|after August|not now|open|not done"], "open"),
    f("k23", "finding", "must", "Cause: `ACCR-INT PIC S9(5)V9(4)` in copybooks/ACCROUT.cpy holds at most 99,999.9999", "Cause: ACCR-INT PIC S9(5)V9(4) holds at most 99,999.9999 and the COMPUTE had no ON SIZE ERROR, so 9,47,064.4403 was silently truncated to 47,064.4403.", [r"S9\(5\)V9\(4\)|99,999|truncat", r"47,064|9,47,064|ACCR-INT|size error"]),
    f("k24", "decision", "must", "I called Mehta from GLPOST team", "Widen ACCR-INT to S9(7)V9(4) (FILLER 29, record still 80), agreed with GLPOST (Mehta), who release the same night; plus ON SIZE ERROR.", [r"S9\(7\)V9\(4\)|widen", r"GLPOST|Mehta|FILLER|80"]),
    f("k25", "fix", "should", "DISPLAY 'INTACCR SIZE ERROR ACCT ' ACCT-NO UPON SYSERR", "COMPUTE ACCR-INT has ON SIZE ERROR: displays INTACCR SIZE ERROR ACCT <no> on SYSERR, RETURN-CODE 16, STOP RUN (abend instead of truncating).", [r"SIZE ERROR", r"16|abend|SYSERR|STOP RUN"]),
    f("k26", "value", "should", "All 6 cases pass (new: `big`), and the trust account now gives", "Expected files regenerated (interest digits unchanged, only the width); new case tests/cases/big: trust account +09470644403 = 9,47,064.4403; 6/6 pass.", [r"9,47,064|09470644403|big", r"6/6|pass|regenerat|width"]),
    f("k27", "finding", "nice", "`-Wall` flags line 58 (`-Wtruncate`)", "cobc -Wall warns -Wtruncate at line 58 (the ACCR-INT COMPUTE); left as is, ON SIZE ERROR covers it at run time.", [r"-Wall|Wtruncate", r"58|warn|truncat|SIZE ERROR"]),
    f("k28", "state", "must", "Last month's trust-account accrual was truncated", "Last month's trust-account accruals were posted truncated (47,064.4403 instead of 9,47,064.4403 per day) and need correction; the user does that with Joshi ji, not the assistant.", [r"trust", r"correct|last month|posted|Joshi"], "open"),
    f("k29", "value", "should", "Committed **a7c04d2** (SB-2291) on main", "Commit a7c04d2 (SB-2291 ...) on main, not pushed.", [r"a7c04d2"]),
    f("k30", "state", "should", "GLPOST must ship the new ACCR-INT width in the same night's release", "GLPOST must ship reading the new ACCR-INT width in the same night's release as INTACCR.", [r"GLPOST", r"same (night|release)|width|release"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
