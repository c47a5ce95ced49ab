# ruff: noqa: E501
"""Writes session.jsonl (+ sub-agent file) and labels.json: a Claude Code session written by hand for
the heldout8b split.

A terse Swedish-flavoured maintainer ("ja", "nej", "bra", rules as "not X. (reason)") has Claude add
midsommarafton and fix an Easter bug in Date::Helgdag, a Raku module of Swedish public holidays.
zef, prove6, Test, a Task sub-agent that checks Easter dates against a reference table, Rakudo
2022.12 compatibility in docker. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

CWD = "/home/elin/src/raku-Date-Helgdag"
c = ClaudeSession(CWD, "2026-06-08T08:12:00", seed="helgdag-midsommar")

LIB = "lib/Date/Helgdag.rakumod"
META = "META6.json"
T1 = "t/01-fixed.rakutest"
T2 = "t/02-easter.rakutest"
T3 = "t/03-midsommar.rakutest"
CH = "Changes"

c.files.update({
    LIB: """unit module Date::Helgdag;

# Swedish public holidays (allmänna helgdagar), lag (1989:253).

sub easter-sunday(Int $year --> Date) is export {
    # Gauss' algorithm
    my $a = $year % 19;
    my $b = $year % 4;
    my $c = $year % 7;
    my $k = $year div 100;
    my $p = (13 + 8 * $k) div 25;
    my $q = $k div 4;
    my $M = (15 - $p + $k - $q) % 30;
    my $N = (4 + $k - $q) % 7;
    my $d = (19 * $a + $M) % 30;
    my $e = (2 * $b + 4 * $c + 6 * $d + $N) % 7;
    Date.new($year, 3, 22 + $d + $e)
}

sub midsummer-day(Int $year --> Date) {
    # Saturday between 20 and 26 June
    my $d = Date.new($year, 6, 20);
    $d .= succ until $d.day-of-week == 6;
    $d
}

sub holidays-in(Int $year --> List) is export {
    my $e = easter-sunday($year);
    (
        nyårsdagen           => Date.new($year, 1, 1),
        trettondedag-jul     => Date.new($year, 1, 6),
        långfredagen         => $e - 2,
        påskdagen            => $e,
        annandag-påsk        => $e + 1,
        första-maj           => Date.new($year, 5, 1),
        kristi-himmelsfärd   => $e + 39,
        pingstdagen          => $e + 49,
        nationaldagen        => Date.new($year, 6, 6),
        midsommardagen       => midsummer-day($year),
        juldagen             => Date.new($year, 12, 25),
        annandag-jul         => Date.new($year, 12, 26),
    ).List
}

sub is-holiday(Date $d --> Bool) is export {
    so holidays-in($d.year).first(*.value == $d)
}
""",
    T1: """use Test;
use Date::Helgdag;

plan 3;
ok is-holiday(Date.new(2026, 1, 6)), 'trettondedag';
ok is-holiday(Date.new(2026, 6, 6)), 'nationaldagen';
nok is-holiday(Date.new(2026, 6, 7)), 'vanlig söndag';
""",
    T2: """use Test;
use Date::Helgdag;

plan 3;
is easter-sunday(2024), Date.new(2024, 3, 31), '2024';
is easter-sunday(2025), Date.new(2025, 4, 20), '2025';
is easter-sunday(2026), Date.new(2026, 4, 5), '2026';
""",
    META: """{
  "name": "Date::Helgdag",
  "version": "0.4.2",
  "auth": "zef:elin",
  "raku": "6.d",
  "depends": [],
  "test-depends": ["Test"],
  "provides": { "Date::Helgdag": "lib/Date/Helgdag.rakumod" },
  "license": "Artistic-2.0"
}
""",
    CH: """Revision history for Date::Helgdag

0.4.2  2025-11-30
    - Fix midsommardagen when 20 June is a Saturday

0.4.1  2025-05-02
    - Export easter-sunday
""",
})

# ===================================================================== turn 1
c.user("midsommarafton missing. add it. and issue #14: someone says easter wrong for some years. look.")
c.bash("ls -a; git log --oneline -5; cat .github/workflows/*.yml 2>/dev/null | head -30", """.
..
.git
.github
Changes
META6.json
README.md
lib
t
3f1e0a9 (HEAD -> main, origin/main) 0.4.2
b77d120 midsommardagen: 20 June edge case
4c2e8f3 export easter-sunday
0a19d55 holidays-in returns pairs
e10d6b2 initial
name: test
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        rakudo: ['2022.12', 'latest']
    steps:
      - uses: actions/checkout@v4
      - uses: Raku/setup-raku@v1
        with: { raku-version: '${{ matrix.rakudo }}' }
      - run: zef install --deps-only .
      - run: prove6 -l t/
""", description="Look around")
c.reads([LIB, META, T1, T2])
c.bash("gh issue view 14 --json title,body,comments --jq '.title, .body, (.comments[].body)'", """easter-sunday wrong for 2049 and 2076?
Hi, I compared with the Church of Sweden calendar. easter-sunday(2049) gives 2049-04-25 but the almanac says 2049-04-18. Also 2076-04-26 vs 2076-04-19. Newer years not checked.
I think this is the Gauss exceptions (d=29, e=6 and d=28...). -- erik.s
""", description="Issue 14")
c.bash("raku --version; zef --version; prove6 --version 2>&1 | head -1; prove6 -l t/", """Welcome to Rakudo™ v2025.04.
Implementing the Raku® Programming Language v6.d.
Built on MoarVM version 2025.04.
v0.0.303
prove6 0.0.17
t/01-fixed.rakutest ... ok
t/02-easter.rakutest .. ok
All tests successful.
Files=2, Tests=6,  1 wallclock secs
Result: PASS
""", description="Baseline tests")
c.assistant(
    "Baseline: Rakudo 2025.04 locally, CI matrix runs Rakudo 2022.12 and latest with `prove6 -l t/`. 6 tests pass.\n\n"
    "Issue #14 (erik.s): easter-sunday(2049) gives 2049-04-25, almanac says 2049-04-18; 2076 gives 04-26 vs 04-19. The code is plain Gauss without the two exceptions (d=29 and e=6 → 26 April becomes 19 April; d=28, e=6, (11M+11) mod 30 < 19 → 25 April becomes 18 April). I'll have a sub-agent check easter-sunday against a reference table for a long range while I look at midsommarafton."
)

# ===================================================================== Task sub-agent
PROMPT = "In /home/elin/src/raku-Date-Helgdag, check easter-sunday(Int) from lib/Date/Helgdag.rakumod against the Anonymous Gregorian (Meeus/Jones/Butcher) computus for every year 1900..2200. Write the reference implementation as a throwaway Raku script in /tmp (not in the repo), list every year where the two differ with both dates, and say which Gauss exception explains each. Read-only for the repo: do not edit any file there."
(tid,) = c.assistant("Starting the sub-agent for the Easter comparison.", calls=[("Task", {"description": "Check easter-sunday 1900-2200", "prompt": PROMPT, "subagent_type": "general-purpose"})])
AG = "b4e19d2"
c.user(PROMPT, agent=AG)
c.bash("cat > /tmp/easter-ref.raku <<'EOF'\nuse lib 'lib';\nuse Date::Helgdag;\nsub ref(Int $y) {\n    my $a = $y % 19; my $b = $y div 100; my $c = $y % 100;\n    my $d = $b div 4; my $e = $b % 4; my $f = ($b + 8) div 25;\n    my $g = ($b - $f + 1) div 3; my $h = (19*$a + $b - $d - $g + 15) % 30;\n    my $i = $c div 4; my $k = $c % 4; my $l = (32 + 2*$e + 2*$i - $h - $k) % 7;\n    my $m = ($a + 11*$h + 22*$l) div 451;\n    my $mo = ($h + $l - 7*$m + 114) div 31; my $da = (($h + $l - 7*$m + 114) % 31) + 1;\n    Date.new($y, $mo, $da)\n}\nfor 1900..2200 -> $y { my $g = try easter-sunday($y); my $r = ref($y); say \"$y gauss={$g // 'DIED: ' ~ $!.message} ref=$r\" unless $g.defined && $g == $r }\nEOF\ncd /home/elin/src/raku-Date-Helgdag && raku /tmp/easter-ref.raku", """1954 gauss=1954-04-25 ref=1954-04-18
1981 gauss=1981-04-26 ref=1981-04-19
2049 gauss=2049-04-25 ref=2049-04-18
2076 gauss=2076-04-26 ref=2076-04-19
2106 gauss=DIED: Day out of range. Is: 32, should be in 1..31 ref=2106-04-18
2133 gauss=DIED: Day out of range. Is: 33, should be in 1..31 ref=2133-04-19
2147 gauss=DIED: Day out of range. Is: 32, should be in 1..31 ref=2147-04-08
2150 gauss=DIED: Day out of range. Is: 40, should be in 1..31 ref=2150-04-12
2173 gauss=DIED: Day out of range. Is: 42, should be in 1..31 ref=2173-04-25
""", description="Compare with Meeus", agent=AG)
c.bash("cd /home/elin/src/raku-Date-Helgdag && raku -e 'use lib q{lib}; use Date::Helgdag; say (1900..2200).grep({ (try easter-sunday($_)) andthen .month == 3 }).elems; say easter-sunday(2008)'", """143
2008-03-23
""", description="March Easters still work", agent=AG)
REPORT = """Compared easter-sunday (Gauss, lib/Date/Helgdag.rakumod) with the Meeus/Jones/Butcher computus for 1900..2200. Reference script: /tmp/easter-ref.raku (outside the repo). No repo files edited.

Result: 292 of 301 years agree. 9 differ:

Wrong date (the two Gauss exceptions are missing):
- 1954: gauss 1954-04-25, ref 1954-04-18  (d=28, e=6, (11M+11) mod 30 < 19 → 18 April)
- 1981: gauss 1981-04-26, ref 1981-04-19  (d=29, e=6 → 19 April)
- 2049: gauss 2049-04-25, ref 2049-04-18  (d=28 exception; this is issue #14)
- 2076: gauss 2076-04-26, ref 2076-04-19  (d=29 exception; issue #14)

Crashes (Date.new gets day > 31 because the April case is not handled at all):
- 2106: X::OutOfRange "Day out of range. Is: 32, should be in 1..31" (ref 2106-04-18)
- 2133: Is: 33 (ref 2133-04-19)
- 2147: Is: 32 (ref 2147-04-08)
- 2150: Is: 40 (ref 2150-04-12)
- 2173: Is: 42 (ref 2173-04-25)

Why the crash only shows after 2100: `Date.new($year, 3, 22 + $d + $e)` relies on Date.new
rolling 32 March over to 1 April, which Raku's Date does not do; it throws X::OutOfRange.
Before 2100 every April Easter happens to... no: 1900..2099 April Easters should also crash.
Checked: 143 March Easters work (e.g. 2008-03-23). For April years before 2100 the current code
does not crash because Rakudo... I could not explain this from the source; the crash years are
only 2106, 2133, 2147, 2150, 2173. Worth a look by hand before trusting the April branch.

Suggested fix: compute month/day explicitly (22+d+e > 31 → April, day d+e-9) and add the two
exceptions (d=29 & e=6 → 19 April; d=28 & e=6 & (11M+11) mod 30 < 19 → 18 April), or switch to
Meeus/Jones/Butcher, which needs no exceptions.

Tests worth adding: 1954, 1981, 2049, 2076 (wrong dates), 2008 (March), 2106 (former crash)."""
c.assistant(REPORT, agent=AG)
c.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": PROMPT, "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 61240, "totalTokens": 18311, "totalToolUseCount": 2})
c.bash("sed -n '5,18p' lib/Date/Helgdag.rakumod; raku -e 'say Date.new(2026, 3, 35)' 2>&1 | head -2", """sub easter-sunday(Int $year --> Date) is export {
    # Gauss' algorithm
    my $a = $year % 19;
    my $b = $year % 4;
    my $c = $year % 7;
    my $k = $year div 100;
    my $p = (13 + 8 * $k) div 25;
    my $q = $k div 4;
    my $M = (15 - $p + $k - $q) % 30;
    my $N = (4 + $k - $q) % 7;
    my $d = (19 * $a + $M) % 30;
    my $e = (2 * $b + 4 * $c + 6 * $d + $N) % 7;
    Date.new($year, 3, 22 + $d + $e)
}
Day out of range. Is: 35, should be in 1..31
  in block <unit> at -e line 1
""", description="Check the April branch myself")
c.assistant(
    "Sub-agent: 9 of 301 years (1900–2200) differ from Meeus/Jones/Butcher. Wrong dates 1954, 1981, 2049, 2076 (the two missing Gauss exceptions; 2049/2076 is issue #14). Crashes with `Day out of range. Is: 32` in 2106, 2133, 2147, 2150, 2173.\n\n"
    "It flagged something it couldn't explain: `Date.new($year, 3, 22+d+e)` throws for day > 31 (I confirmed: `Date.new(2026, 3, 35)` dies), so *every* April Easter should crash, yet 2025 (20 April) passes. Explanation: the test file only works because `$M` and `$N` are computed with the table formula and... no. Let me just check 2025 directly before I claim anything."
)
c.bash("raku -Ilib -e 'use Date::Helgdag; say easter-sunday(2025); say &easter-sunday.candidates».signature'", """2025-04-20
((Int $year --> Date))
""", description="2025 directly")
c.bash("raku -Ilib -e 'my $d = 9; my $e = 0; say Date.new(2025, 3, 22 + $d + $e)' 2>&1; grep -rn 'Date.new' lib/ | head; ls lib/Date/", """Day out of range. Is: 31... 
2025-03-31
lib/Date/Helgdag.rakumod:17:    Date.new($year, 3, 22 + $d + $e)
Helgdag.rakumod
Helgdag.rakumod.orig
""", description="Stale files?")
c.bash("diff lib/Date/Helgdag.rakumod.orig lib/Date/Helgdag.rakumod | head; git status --short --ignored", """17c17
<     Date.new($year, 3, 1) + 21 + $d + $e
---
>     Date.new($year, 3, 22 + $d + $e)
!! lib/Date/Helgdag.rakumod.orig
!! .precomp/
""", description="Diff .orig")
c.bash("git log -p -S'Date.new($year, 3, 1) + 21' --format='%h %s' | head -8; raku -Ilib -e 'use Date::Helgdag; say $?FILE' ; ls -la .precomp | head -3", """b77d120 midsommardagen: 20 June edge case
-    Date.new($year, 3, 1) + 21 + $d + $e
+    Date.new($year, 3, 22 + $d + $e)
total 12
drwxr-xr-x 3 elin elin 4096 Jun  1 19:02 .
drwxr-xr-x 7 elin elin 4096 Jun  8 08:10 ..
""", description="History of that line")
c.assistant(
    "Found it. Commit b77d120 (\"midsommardagen: 20 June edge case\") also changed Easter from `Date.new($year, 3, 1) + 21 + $d + $e` (date arithmetic, rolls into April fine) to `Date.new($year, 3, 22 + $d + $e)`, which **dies for every April Easter**. Tests still pass locally because `.precomp/` holds a stale precompiled module from before that commit (prove6 -l uses it). So 0.4.2 as released is broken for ~2/3 of all years, not just 2049/2076. CI would show it... but CI ran on b77d120? Checking the Actions result."
)
c.bash("gh run list --limit 3 --json headSha,conclusion,displayTitle --jq '.[] | \"\\(.headSha[0:7]) \\(.conclusion) \\(.displayTitle)\"'; rm -rf .precomp && prove6 -l t/ 2>&1 | tail -12", """3f1e0a9 failure 0.4.2
b77d120 failure midsommardagen: 20 June edge case
4c2e8f3 success export easter-sunday
Exit code 1
t/01-fixed.rakutest ... ok
t/02-easter.rakutest .. 
Dubious, test returned 1
Failed 2/3 subtests
    # Failed test '2024'
    Day out of range. Is: 32, should be in 1..31
      in sub easter-sunday at /home/elin/src/raku-Date-Helgdag/lib/Date/Helgdag.rakumod (Date::Helgdag) line 17
Files=2, Tests=6,  2 wallclock secs
Result: FAIL
""", description="CI history, clear precomp")
c.assistant("Confirmed with a clean `.precomp`: t/02-easter fails 2/3 with `Day out of range. Is: 32` at Helgdag.rakumod line 17. CI has been red since b77d120 and 0.4.2 was released anyway (3f1e0a9 failure). Proposal: replace Gauss with Meeus/Jones/Butcher (no exceptions, integer only), add the sub-agent's years as tests, and release 0.4.3 quickly as a bugfix before midsommarafton goes in a 0.5.0. Ok?")

# ===================================================================== turn 2
c.user("ja. meeus. not a new dependency. (zef mirror at work frozen). 0.4.3 first, alone. then midsommar.")
c.edit(LIB, """sub easter-sunday(Int $year --> Date) is export {
    # Gauss' algorithm
    my $a = $year % 19;
    my $b = $year % 4;
    my $c = $year % 7;
    my $k = $year div 100;
    my $p = (13 + 8 * $k) div 25;
    my $q = $k div 4;
    my $M = (15 - $p + $k - $q) % 30;
    my $N = (4 + $k - $q) % 7;
    my $d = (19 * $a + $M) % 30;
    my $e = (2 * $b + 4 * $c + 6 * $d + $N) % 7;
    Date.new($year, 3, 22 + $d + $e)
}""", """sub easter-sunday(Int $year --> Date) is export {
    # Anonymous Gregorian algorithm (Meeus/Jones/Butcher): no special cases, unlike Gauss
    # (0.4.2 missed Gauss' exceptions and died for April Easters, issue #14).
    my $a = $year % 19;
    my $b = $year div 100;
    my $c = $year % 100;
    my $h = (19 * $a + $b - $b div 4 - ($b - ($b + 8) div 25 + 1) div 3 + 15) % 30;
    my $l = (32 + 2 * ($b % 4) + 2 * ($c div 4) - $h - $c % 4) % 7;
    my $m = ($a + 11 * $h + 22 * $l) div 451;
    my $n = $h + $l - 7 * $m + 114;
    Date.new($year, $n div 31, $n % 31 + 1)
}""")
c.write(T2, """use Test;
use Date::Helgdag;

# Reference dates: Meeus/Jones/Butcher, checked against the Church of Sweden almanac (issue #14).
my %easter =
    1954 => '1954-04-18',   # Gauss exception d=28
    1981 => '1981-04-19',   # Gauss exception d=29
    2008 => '2008-03-23',   # early March Easter
    2024 => '2024-03-31',
    2025 => '2025-04-20',
    2026 => '2026-04-05',
    2049 => '2049-04-18',   # issue #14
    2076 => '2076-04-19',   # issue #14
    2106 => '2106-04-18';   # 0.4.2 died here

plan +%easter;
for %easter.sort -> (:$key, :$value) {
    is easter-sunday($key.Int), Date.new($value), "påskdagen $key";
}
""")
c.bash("rm -rf .precomp && prove6 -l t/", """t/01-fixed.rakutest ... ok
t/02-easter.rakutest .. ok
All tests successful.
Files=2, Tests=12,  2 wallclock secs
Result: PASS
""", description="Tests after Meeus")
c.bash("raku -Ilib -e 'use Date::Helgdag; my @bad = (1583..4099).grep({ my $e = easter-sunday($_); !(Date.new($_,3,22) <= $e <= Date.new($_,4,25)) }); say @bad.elems'", "0\n", description="Range sanity 1583-4099")
c.assistant("12/12 pass with a clean .precomp. Sanity: every Easter from 1583 to 4099 falls within 22 March–25 April. Now Rakudo 2022.12 (your CI's oldest), in docker since I only have 2025.04 here.")
c.bash("docker run --rm -v $PWD:/m -w /m rakudo-star:2022.12 bash -c 'rm -rf .precomp; prove6 -l t/' 2>&1 | tail -8", """Exit code 1
t/01-fixed.rakutest ... ok
t/02-easter.rakutest .. 
===SORRY!=== Error while compiling /m/t/02-easter.rakutest
Cannot use a hash in a sub-signature of a positional parameter; did you mean to use an unpacked pair? (:$key, :$value)
at /m/t/02-easter.rakutest:18
------> for %easter.sort -> (:$key, :$value)⏏ {
Files=2, Tests=3,  4 wallclock secs
Result: FAIL
""", description="Rakudo 2022.12")
c.assistant("Rakudo 2022.12 rejects the pair-unpacking sub-signature `-> (:$key, :$value)` in the test (`Cannot use a hash in a sub-signature...`, t/02-easter.rakutest:18). Newer Rakudo accepts it. Rewriting with `.kv`.")
c.edit(T2, """for %easter.sort -> (:$key, :$value) {
    is easter-sunday($key.Int), Date.new($value), "påskdagen $key";
}""", """for %easter.sort(*.key).map(*.kv).flat -> $year, $date {
    is easter-sunday($year.Int), Date.new($date), "påskdagen $year";
}""")
c.bash("docker run --rm -v $PWD:/m -w /m rakudo-star:2022.12 bash -c 'rm -rf .precomp; prove6 -l t/' 2>&1 | tail -4; rm -rf .precomp && prove6 -l t/ | tail -2", """All tests successful.
Files=2, Tests=12,  3 wallclock secs
Result: PASS
Files=2, Tests=12,  2 wallclock secs
Result: PASS
""", description="2022.12 and 2025.04")
c.edit(META, '"version": "0.4.2"', '"version": "0.4.3"')
c.edit(CH, """Revision history for Date::Helgdag
""", """Revision history for Date::Helgdag

0.4.3  2026-06-08
    - Fix easter-sunday: use Meeus/Jones/Butcher. 0.4.2 died with
      "Day out of range" for every April Easter and had wrong dates
      for 1954, 1981, 2049, 2076 (#14)
""")
c.assistant("Both Rakudo 2022.12 (docker rakudo-star:2022.12) and 2025.04 pass 12/12. META6.json is 0.4.3, Changes has the entry. Commit + tag v0.4.3? And `fez upload`?")

# ===================================================================== turn 3
c.user("commit, tag. not fez upload. (I release myself, 2FA). not push yet.")
c.bash("git add lib/Date/Helgdag.rakumod t/02-easter.rakutest META6.json Changes && git commit -qm 'easter-sunday: Meeus/Jones/Butcher, fixes #14 and April crash (0.4.3)' && git tag -a v0.4.3 -m 0.4.3 && git log --oneline -2 && git tag --points-at HEAD", """9c41d7e easter-sunday: Meeus/Jones/Butcher, fixes #14 and April crash (0.4.3)
3f1e0a9 0.4.2
v0.4.3
""", description="Commit and tag 0.4.3")
c.assistant("Committed `9c41d7e` and tagged `v0.4.3`, not pushed, no fez upload. Now midsommarafton. Question: should it be in `holidays-in`/`is-holiday`? By law (1989:253) midsommarafton is not an allmän helgdag, it's a de facto day off (like julafton, nyårsafton).")

# ===================================================================== turn 4
c.user("nej, not in is-holiday. (law says no, banks use this). new sub `helgdagsaftnar` with midsommarafton, julafton, nyårsafton. bra if also påskafton.")
c.edit(LIB, """sub is-holiday(Date $d --> Bool) is export {""", """sub helgdagsaftnar(Int $year --> List) is export {
    # De facto days off, not allmänna helgdagar by law: never part of is-holiday.
    my $e = easter-sunday($year);
    (
        påskafton        => $e - 1,
        midsommarafton   => midsummer-day($year) - 1,
        julafton         => Date.new($year, 12, 24),
        nyårsafton       => Date.new($year, 12, 31),
    ).List
}

sub is-holiday(Date $d --> Bool) is export {""")
c.write(T3, """use Test;
use Date::Helgdag;

plan 6;
my %a = helgdagsaftnar(2026);
is %a<midsommarafton>, Date.new(2026, 6, 19), 'midsommarafton 2026';
is %a<påskafton>,      Date.new(2026, 4, 4),  'påskafton 2026';
is helgdagsaftnar(2027).Hash<midsommarafton>, Date.new(2027, 6, 25), 'midsommarafton 2027';
is helgdagsaftnar(2021).Hash<midsommarafton>, Date.new(2021, 6, 25), '2021: 20 June is a Sunday';
nok is-holiday(Date.new(2026, 6, 19)), 'midsommarafton is not a helgdag';
nok is-holiday(Date.new(2026, 12, 24)), 'julafton is not a helgdag';
""")
c.bash("rm -rf .precomp && prove6 -l t/", """t/01-fixed.rakutest ..... ok
t/02-easter.rakutest .... ok
t/03-midsommar.rakutest . 
Dubious, test returned 1
Failed 1/6 subtests
    # Failed test '2021: 20 June is a Sunday'
    # at t/03-midsommar.rakutest line 10
    # expected: '2021-06-25'
    #      got: '2021-06-18'
Files=3, Tests=18,  2 wallclock secs
Result: FAIL
""", code=1, description="Tests with midsommar")
c.assistant("One failure, and it's my test, not the code: in 2021 midsommardagen was Saturday **26 June**? 20 June 2021 was a Sunday, so the Saturday in 20–26 June is the 26th → afton 25th. Code gave 2021-06-18, i.e. midsommardagen 19 June, which is outside 20–26. Checking `midsummer-day(2021)` and the weekday.")
c.bash("raku -Ilib -e 'say Date.new(2021,6,20).day-of-week; use Date::Helgdag; say helgdagsaftnar(2021).Hash<midsommarafton>; say holidays-in(2021).Hash<midsommardagen>'", """7
2021-06-18
2021-06-19
""", description="2021 midsommar")
c.bash("sed -n '/sub midsummer-day/,/^}/p' lib/Date/Helgdag.rakumod; git show b77d120 -- lib/Date/Helgdag.rakumod | grep '^[-+] ' ", """sub midsummer-day(Int $year --> Date) {
    # Saturday between 20 and 26 June
    my $d = Date.new($year, 6, 20);
    $d .= succ until $d.day-of-week == 6;
    $d
}
-    my $d = Date.new($year, 6, 19);
+    my $d = Date.new($year, 6, 20);
-    Date.new($year, 3, 1) + 21 + $d + $e
+    Date.new($year, 3, 22 + $d + $e)
""", description="midsummer-day source")
c.assistant(
    "The source of midsummer-day looks right (start 20 June, step to Saturday). 2021 gives the 19th, so something else is defining it. `holidays-in(2021)` gives midsommardagen 2021-06-19 too. Is another `midsummer-day` in scope?"
)
c.bash("grep -rn 'midsummer-day\\|sub midsummer' lib/ t/ ; raku -Ilib -e 'use Date::Helgdag; say Date::Helgdag::.keys.sort'", """lib/Date/Helgdag.rakumod:19:sub midsummer-day(Int $year --> Date) {
lib/Date/Helgdag.rakumod:44:        midsommardagen       => midsummer-day($year),
lib/Date/Helgdag.rakumod:58:        midsommarafton   => midsummer-day($year) - 1,
()
""", description="Who defines it")
c.bash("rm -rf .precomp lib/.precomp ~/.raku/precomp 2>/dev/null; ls -a lib lib/Date; raku -Ilib -e 'use Date::Helgdag; say helgdagsaftnar(2021).Hash<midsommarafton>'", """.
..
.precomp
Date
.
..
Helgdag.rakumod
Helgdag.rakumod.orig
2021-06-25
""", description="Clear all precomp")
c.assistant(
    "Stale precompilation again, a second cache this time: **lib/.precomp** (used by `-Ilib`), which I hadn't removed; `rm -rf .precomp` only cleared the top-level one. After clearing `lib/.precomp` too, 2021 gives 2021-06-25 as expected. Rerunning everything with both caches cleared. I'll add both to a `make`-free helper? No: just document it; tell me if you want a script."
)
c.bash("rm -rf .precomp lib/.precomp && prove6 -l t/ && docker run --rm -v $PWD:/m -w /m rakudo-star:2022.12 bash -c 'rm -rf .precomp lib/.precomp; prove6 -l t/' 2>&1 | tail -3", """t/01-fixed.rakutest ..... ok
t/02-easter.rakutest .... ok
t/03-midsommar.rakutest . ok
All tests successful.
Files=3, Tests=18,  2 wallclock secs
Result: PASS
All tests successful.
Files=3, Tests=18,  3 wallclock secs
Result: PASS
""", description="Both Rakudos, clean caches")
c.assistant("18/18 on Rakudo 2025.04 and 2022.12, both caches cleared. `helgdagsaftnar(Int)` returns påskafton, midsommarafton, julafton, nyårsafton; not in `is-holiday`.")

# ===================================================================== turn 5
c.user("bra. .orig file: delete. precomp: add both to .gitignore. version 0.5.0 not 1.0. (API may change). README section too, short.")
c.bash("rm lib/Date/Helgdag.rakumod.orig && cat .gitignore", """.precomp/
*.orig
""", description="rm .orig, see .gitignore")
c.bash("printf 'lib/.precomp/\\n' >> .gitignore && cat .gitignore", """.precomp/
*.orig
lib/.precomp/
""", description="ignore lib/.precomp")
c.edit(META, '"version": "0.4.3"', '"version": "0.5.0"')
c.edit(CH, """Revision history for Date::Helgdag
""", """Revision history for Date::Helgdag

0.5.0  2026-06-08
    - New helgdagsaftnar(Int): påskafton, midsommarafton, julafton,
      nyårsafton (de facto days off, never in is-holiday)
""")
c.bash("cat README.md | head -20", """# Date::Helgdag

Swedish public holidays (allmänna helgdagar) for Raku.

    use Date::Helgdag;
    say holidays-in(2026);
    say is-holiday(Date.today);
""", description="README")
c.bash("cat >> README.md <<'EOF'\n\n## Helgdagsaftnar\n\n`helgdagsaftnar(2026)` gives påskafton, midsommarafton, julafton and nyårsafton.\nThey are days off in practice, not allmänna helgdagar by law, so `is-holiday`\nreturns False for them.\nEOF\ntail -5 README.md", """`helgdagsaftnar(2026)` gives påskafton, midsommarafton, julafton and nyårsafton.
They are days off in practice, not allmänna helgdagar by law, so `is-holiday`
returns False for them.
""", description="README section")
c.bash("rm -rf .precomp lib/.precomp && prove6 -l t/ | tail -2 && git add -A && git status --short && git commit -qm 'helgdagsaftnar: påskafton, midsommarafton, julafton, nyårsafton (0.5.0)' && git log --oneline -3", """Files=3, Tests=18,  2 wallclock secs
Result: PASS
M  .gitignore
M  Changes
M  META6.json
M  README.md
M  lib/Date/Helgdag.rakumod
A  t/03-midsommar.rakutest
9b2d6f0 helgdagsaftnar: påskafton, midsommarafton, julafton, nyårsafton (0.5.0)
9c41d7e easter-sunday: Meeus/Jones/Butcher, fixes #14 and April crash (0.4.3)
3f1e0a9 0.4.2
""", description="Commit 0.5.0")
c.assistant("Committed `9b2d6f0` (0.5.0: helgdagsaftnar, README section, lib/.precomp/ ignored, .orig deleted — it was untracked so it's not in the diff). Not tagged yet, not pushed. Tag v0.5.0?")

# ===================================================================== turn 6
c.user("ja tag. push both tags and main. comment on #14, short, english.")
c.bash("git tag -a v0.5.0 -m 0.5.0 && git push origin main v0.4.3 v0.5.0 2>&1 | tail -4", """To github.com:elin/raku-Date-Helgdag.git
   3f1e0a9..9b2d6f0  main -> main
 * [new tag]         v0.4.3 -> v0.4.3
 * [new tag]         v0.5.0 -> v0.5.0
""", description="Push main + tags")
c.bash("gh issue comment 14 --body 'Thanks erik.s. Fixed in 0.4.3 (9c41d7e): easter-sunday now uses the Meeus/Jones/Butcher algorithm. 0.4.2 also died for every April Easter. Tested 1954, 1981, 2049, 2076, 2106.' && sleep 60 && gh run list --limit 1 --json conclusion,headSha --jq '.[0]'", """https://github.com/elin/raku-Date-Helgdag/issues/14#issuecomment-2291044187
{"conclusion":"success","headSha":"9b2d6f0c1e..."}
""", description="Comment + CI")
c.assistant("Pushed main (3f1e0a9..9b2d6f0) and tags v0.4.3, v0.5.0. Commented on #14. CI (2022.12 + latest) is green on 9b2d6f0. Left for you: `fez upload` of 0.4.3 and 0.5.0, and closing #14 if you want.")

c.save(HERE / "session.jsonl")
print("tool calls:", c.calls)

META_ = {
    "title": "Date::Helgdag (Raku, Swedish holidays): easter-sunday rewritten with Meeus/Jones/Butcher (issue #14, April crash hidden by stale precomp) released as 0.4.3; helgdagsaftnar (midsommarafton etc.) in 0.5.0; pushed with tags",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8b test split",
    "voice": "terse Swedish-flavoured maintainer (ja / nej / bra), rules as \"not X. (reason)\"",
    "toolchain": "Raku (Rakudo 2025.04 local, 2022.12 in docker rakudo-star), zef, prove6 + Test, gh, GitHub Actions matrix; Task sub-agent",
}
COMPACTIONS = [
    ("Both Rakudo 2022.12 (docker rakudo-star:2022.12) and 2025.04 pass 12/12", 1200),
    ("Stale precompilation again, a second cache this time", 1200),
]
FACTS = [
    f("h01", "request", "must", "midsommarafton missing. add it. and issue #14", "Add midsommarafton; look at issue #14 (Easter wrong for some years).", [r"midsommarafton|#14|issue 14", r"add|easter|midsommar"], "done"),
    f("h02", "finding", "must", "easter-sunday wrong for 2049 and 2076?", "Issue #14 (erik.s): easter-sunday(2049) gave 2049-04-25 instead of 2049-04-18, 2076 gave 04-26 instead of 04-19 (missing Gauss exceptions).", [r"2049|2076", r"04-18|04-19|exception|wrong|Gauss"]),
    f("h03", "value", "should", "matrix:\n        rakudo: ['2022.12', 'latest']", "CI (GitHub Actions) runs Rakudo 2022.12 and latest: zef install --deps-only . then prove6 -l t/; local Rakudo is 2025.04.", [r"2022\.12", r"CI|matrix|Rakudo|prove6"]),
    f("h04", "finding", "must", "Compared easter-sunday (Gauss, lib/Date/Helgdag.rakumod) with the Meeus/Jones/Butcher", "Sub-agent: 9 of 301 years (1900-2200) differ from Meeus/Jones/Butcher: wrong dates 1954, 1981, 2049, 2076; 'Day out of range' crashes in 2106, 2133, 2147, 2150, 2173. Reference script /tmp/easter-ref.raku, repo untouched.", [r"1954|1981|2106|2133", r"Meeus|differ|crash|out of range"]),
    f("h05", "finding", "must", "Found it. Commit b77d120", "Commit b77d120 changed Easter to Date.new($year, 3, 22+d+e), which dies for every April Easter; tests passed locally only because of a stale precompiled module in .precomp/. 0.4.2 is broken for most years.", [r"b77d120|April|stale|precomp", r"Date\.new|die|crash|precomp|April"]),
    f("h06", "finding", "should", "Confirmed with a clean `.precomp`: t/02-easter fails 2/3", "With a clean .precomp, t/02-easter failed 2/3 ('Day out of range. Is: 32' at Helgdag.rakumod line 17); CI had been red since b77d120 and 0.4.2 was released on a failing run.", [r"Day out of range|Is: 32|red|failure", r"precomp|CI|line 17|0\.4\.2"]),
    f("h07", "decision", "must", "ja. meeus. not a new dependency. (zef mirror at work frozen)", "Use Meeus/Jones/Butcher (no exceptions) for easter-sunday; no new dependency (the zef mirror at work is frozen).", [r"Meeus|dependenc|zef mirror", r"frozen|no new|not|Meeus"]),
    f("h08", "constraint", "must", "0.4.3 first, alone. then midsommar.", "Release the Easter fix alone as 0.4.3 first; midsommarafton comes after, separately.", [r"0\.4\.3", r"first|alone|separate|bugfix|then"]),
    f("h09", "path", "should", "# Reference dates: Meeus/Jones/Butcher, checked against the Church of Sweden", "t/02-easter.rakutest rewritten: reference dates for 1954, 1981, 2008, 2024, 2025, 2026, 2049, 2076, 2106 (9 tests).", [r"02-easter|reference dates|2106", r"test|1954|2049|2106"]),
    f("h10", "command", "must", "rm -rf .precomp lib/.precomp && prove6 -l t/ | tail -2 && git add -A", "Tests: rm -rf .precomp lib/.precomp && prove6 -l t/ (clear both precomp caches first, else stale modules are tested); latest 18/18 PASS.", [r"prove6", r"precomp|18|PASS"]),
    f("h11", "command", "should", "docker run --rm -v $PWD:/m -w /m rakudo-star:2022.12 bash -c 'rm -rf .precomp lib/.precomp; prove6 -l t/' 2>&1 | tail -3", "Old-Rakudo check: docker run rakudo-star:2022.12 ... prove6 -l t/ (clearing precomp); latest 18/18 PASS.", [r"rakudo-star|2022\.12|docker", r"prove6|PASS|18"]),
    f("h12", "error", "should", "Rakudo 2022.12 rejects the pair-unpacking sub-signature", "Rakudo 2022.12 rejected '-> (:$key, :$value)' in t/02-easter ('Cannot use a hash in a sub-signature'); rewritten with .map(*.kv).flat -> $year, $date.", [r"sub-signature|:\$key|\.kv|unpack", r"2022\.12|Rakudo|pair"], "fixed"),
    f("h13", "finding", "nice", "Sanity: every Easter from 1583 to 4099 falls within 22 March", "Sanity check: every Easter 1583-4099 falls within 22 March-25 April with Meeus.", [r"1583|4099", r"22 March|25 April|range|within"]),
    f("h14", "constraint", "must", "commit, tag. not fez upload. (I release myself, 2FA). not push yet.", "Never fez upload: the maintainer releases herself (2FA). (Push was held until later.)", [r"fez", r"not|never|2FA|herself|themsel|yourself|user|maintainer"]),
    f("h15", "state", "should", "Committed `9c41d7e` and tagged `v0.4.3`", "Commit 9c41d7e (easter-sunday Meeus, 0.4.3) tagged v0.4.3; META6.json and Changes updated.", [r"9c41d7e|v0\.4\.3"]),
    f("h16", "decision", "must", "nej, not in is-holiday. (law says no, banks use this)", "Midsommarafton is not in is-holiday (not an allmän helgdag by law; banks use the module): new exported sub helgdagsaftnar(Int) with påskafton, midsommarafton, julafton, nyårsafton.", [r"helgdagsaftnar|is-holiday", r"not|never|law|bank|påskafton|julafton"]),
    f("h17", "path", "should", "plan 6;\\nmy %a = helgdagsaftnar(2026);", "New t/03-midsommar.rakutest (6 tests): midsommarafton 2026-06-19, 2027-06-25, 2021-06-25; påskafton 2026-04-04; julafton and midsommarafton not holidays.", [r"03-midsommar|2026-06-19|06-19|2021", r"midsommarafton|test"]),
    f("h18", "finding", "must", "Stale precompilation again, a second cache this time", "A second stale cache lib/.precomp (used by -Ilib) made midsommarafton 2021 come out as 06-18; both .precomp and lib/.precomp must be cleared before tests.", [r"lib/\.precomp", r"stale|cache|clear"], "fixed"),
    f("h19", "request", "should", "bra. .orig file: delete. precomp: add both to .gitignore", "Delete lib/Date/Helgdag.rakumod.orig; ignore both precomp dirs (.gitignore now has lib/.precomp/); README gets a short Helgdagsaftnar section.", [r"\.orig|gitignore|README", r"delet|precomp|section"], "done"),
    f("h20", "constraint", "must", "version 0.5.0 not 1.0. (API may change)", "Version 0.5.0, not 1.0 (the API may still change).", [r"0\.5\.0", r"1\.0|API|version"]),
    f("h21", "state", "must", "Committed `9b2d6f0` (0.5.0: helgdagsaftnar", "Commit 9b2d6f0: helgdagsaftnar 0.5.0 with README, Changes, .gitignore.", [r"9b2d6f0"]),
    f("h22", "state", "must", "Pushed main (3f1e0a9..9b2d6f0) and tags v0.4.3, v0.5.0", "Pushed main and tags v0.4.3 and v0.5.0, commented on #14, CI green on 9b2d6f0. Left to the maintainer: fez upload of 0.4.3 and 0.5.0, closing #14.", [r"push|v0\.5\.0|fez|#14", r"tag|upload|green|comment"]),
    f("h23", "request", "should", "comment on #14, short, english", "Comment on issue #14, short, in English (done: fixed in 0.4.3 / 9c41d7e).", [r"#14|issue 14", r"comment"], "done"),
    f("h24", "path", "should", "export {\\n    # Gauss' algorithm", "lib/Date/Helgdag.rakumod easter-sunday now computes month and day explicitly (n div 31, n % 31 + 1) via Meeus/Jones/Butcher.", [r"Meeus|Anonymous Gregorian", r"easter-sunday|n div 31|month"]),
    f("h25", "value", "nice", "Revision history for Date::Helgdag\\n\\n0.4.3  2026-06-08", "Changes: 0.4.3 (2026-06-08) Easter fix (#14); 0.5.0 (2026-06-08) helgdagsaftnar.", [r"0\.4\.3|Changes", r"2026-06-08|Easter|#14"]),
    f("h26", "finding", "should", "3f1e0a9 failure 0.4.2", "GitHub Actions: failure on 3f1e0a9 (0.4.2) and b77d120, last success 4c2e8f3.", [r"3f1e0a9|b77d120|4c2e8f3", r"fail|success|CI|red"]),
    f("h27", "decision", "nice", "Gauss exceptions (d=29, e=6 and d=28", "Gauss's two exceptions (d=29,e=6 -> 19 April; d=28,e=6,(11M+11) mod 30 < 19 -> 18 April) were missing; rather than add them, switched algorithm.", [r"d ?= ?29|d ?= ?28|exception", r"Gauss|April|e ?= ?6"]),
    f("h28", "command", "nice", "gh issue comment 14 --body", "gh issue comment 14 posted; gh run list shows success for 9b2d6f0.", [r"gh issue comment|comment", r"14|success"]),
    f("h29", "value", "should", "Helgdag.rakumod:58:", "midsommarafton = midsummer-day($year) - 1, i.e. the Friday before midsommardagen (the Saturday between 20 and 26 June).", [r"midsommarafton", r"midsummer-day|- ?1|Friday|Saturday"]),
    f("h30", "error", "should", "#      got: '2021-06-18'", "t/03-midsommar failed '2021: 20 June is a Sunday' (expected 2021-06-25, got 2021-06-18): caused by the stale lib/.precomp, not the code.", [r"2021", r"06-18|06-25|precomp"], "fixed"),
    f("h31", "finding", "nice", "it was untracked so it's not in the diff", "The deleted lib/Date/Helgdag.rakumod.orig was untracked (ignored by *.orig), so the commit doesn't show it.", [r"\.orig", r"untracked|ignored|not in the diff"]),
]
dump(HERE, META_, COMPACTIONS, FACTS)
