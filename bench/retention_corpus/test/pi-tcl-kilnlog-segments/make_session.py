# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a pi v3 session written by hand for the heldout8b split.

A ceramics-studio developer who corrects with sed-style "s/old/new/" messages and forwards a
colleague's wishes ("Priya wants ...") has pi make kilnlog, a Tcl 8.6 / Tk viewer for kiln
controller logs, parse the new firmware's semicolon/decimal-comma CSV and show a segment table
with an export. tcltest, make, xvfb-run, nagelfar. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/tomasz/studio/kilnlog"
s = PiSession(CWD, "2026-03-19T15:02:00", seed="kilnlog-segments")

PARSE = "lib/parse.tcl"
SEG = "lib/segments.tcl"
GUI = "lib/gui.tcl"
MAIN = "kilnlog.tcl"
MK = "Makefile"
ALL = "tests/all.tcl"
TP = "tests/parse.test"
TS = "tests/segments.test"
TG = "tests/gui.test"

s.files.update({
    PARSE: """# parse.tcl -- read a kiln controller log (Skutt/Bartlett style CSV)
package require Tcl 8.6
package require csv

namespace eval kilnlog::parse {
    namespace export read_log
}

# Returns a list of {seconds temperature} pairs.
proc kilnlog::parse::read_log {path} {
    set f [open $path r]
    set rows {}
    gets $f header
    while {[gets $f line] >= 0} {
        if {$line eq ""} continue
        lassign [csv::split $line ,] t temp
        lappend rows [list [expr {int($t)}] [expr {double($temp)}]]
    }
    close $f
    return $rows
}
""",
    GUI: """package require Tk 8.6

namespace eval kilnlog::gui {}

proc kilnlog::gui::build {w rows} {
    canvas $w.plot -width 720 -height 360 -background white
    pack $w.plot -fill both -expand 1
    kilnlog::gui::plot $w.plot $rows
}

proc kilnlog::gui::plot {c rows} {
    set pts {}
    foreach r $rows {
        lassign $r t temp
        lappend pts [expr {20 + $t / 60.0}] [expr {340 - $temp / 4.0}]
    }
    if {[llength $pts] >= 4} { $c create line {*}$pts -fill firebrick -width 2 }
}
""",
    MAIN: """#!/usr/bin/env tclsh8.6
set here [file dirname [file normalize [info script]]]
source [file join $here lib parse.tcl]
source [file join $here lib gui.tcl]
set rows [kilnlog::parse::read_log [lindex $argv 0]]
kilnlog::gui::build "" $rows
""",
    MK: """TCLSH ?= tclsh8.6

test:
\t$(TCLSH) tests/all.tcl

lint:
\tnagelfar -H lib/*.tcl kilnlog.tcl

.PHONY: test lint
""",
    ALL: """package require tcltest 2.5
namespace import tcltest::*
configure -testdir [file dirname [file normalize [info script]]] {*}$argv
runAllTests
""",
    TP: """package require tcltest 2.5
namespace import tcltest::*
source [file join [testsDirectory] .. lib parse.tcl]

test parse-1.1 {old firmware log} -body {
    set rows [kilnlog::parse::read_log [file join [testsDirectory] data fw21.csv]]
    list [llength $rows] [lindex $rows end]
} -result {4 {180 412.0}}

cleanupTests
""",
})

# ===================================================================== turn 1
s.user(
    "kilnlog broke with the new controller firmware (fw 3.2). logs now come with ; as separator and decimal comma. sample in tests/data/fw32.csv. fix the parser, old logs (fw 2.1) must still load. "
    "also Priya wants a segment table under the plot: one row per firing segment, columns segment, ramp C/h, target C, hold min. lab PCs run debian 12, tcl 8.6.13, keep it 8.6. tests are tcltest, `make test`."
)
s.bash("ls -R | head -30; git log --oneline -4", """.:
Makefile
kilnlog.tcl
lib
tests

./lib:
gui.tcl
parse.tcl

./tests:
all.tcl
data
parse.test

./tests/data:
fw21.csv
fw32.csv
b3e0d4c (HEAD -> main) plot: scale 4 C per pixel
61f20a8 parse: csv package
0d7c1e9 tests: tcltest
a1c22b7 initial
""")
s.reads([PARSE, GUI, MK, ALL, TP])
s.bash("head -5 tests/data/fw21.csv; echo ---; head -8 tests/data/fw32.csv; wc -l tests/data/fw32.csv", """time_s,temp_c
0,21
60,74
120,241
180,412
---
# Skutt KMT fw 3.2;program=Glaze6;cone=6
zeit_s;temp_c;segment;setpoint_c
0;21,4;1;21,0
600;98,7;1;100,0
1200;176,1;1;180,0
3600;597,3;2;600,0
7200;1012,5;2;1020,0
9000;1221,8;3;1222,0
49 tests/data/fw32.csv
""")
s.bash("echo 'puts [info patchlevel]; puts [package require csv]; puts [package require tcltest]' | tclsh8.6; which nagelfar xvfb-run", """8.6.13
0.8.1
2.5.5
/usr/local/bin/nagelfar
/usr/bin/xvfb-run
""")
s.bash("make test", """tclsh8.6 tests/all.tcl
Tests running in interp:  /usr/bin/tclsh8.6
Tests located in:  /home/tomasz/studio/kilnlog/tests
Tests running in working dir:  /home/tomasz/studio/kilnlog
Only running tests that match:  *
Skipping test files that match:  l.*.test
Only sourcing test files that match:  *.test
Tests began at Thu Mar 19 15:04:11 CET 2026
parse.test
Tests ended at Thu Mar 19 15:04:11 CET 2026
all.tcl:	Total	1	Passed	1	Skipped	0	Failed	0
Sourced 1 Test Files.
""")
s.assistant(
    "Baseline: Tcl 8.6.13, csv 0.8.1, tcltest 2.5.5; `make test` = 1 test, passes. fw 3.2 format: a `#` comment line with program and cone (`program=Glaze6;cone=6`), a German header `zeit_s;temp_c;segment;setpoint_c`, `;` separator, decimal comma, and two extra columns: segment number and setpoint. So the segment table can use the controller's own segment column instead of guessing segments from the curve.\n\n"
    "Plan: detect the format from the first line (`#` comment or `;` in the header), normalise decimal comma, return rows as {seconds temp segment setpoint} (segment/setpoint empty for fw 2.1)."
)

# ===================================================================== turn 2
s.user("go. keep read_log returning pairs for the plot, other scripts use it. s/other scripts/the glaze-calc scripts of Jonas/")
s.write(PARSE, """# parse.tcl -- read a kiln controller log (fw 2.1: comma CSV; fw 3.2: ';' and decimal comma)
package require Tcl 8.6
package require csv

namespace eval kilnlog::parse {
    namespace export read_log read_records
}

# fw 3.2 writes 1012,5 for 1012.5
proc kilnlog::parse::num {s} {
    return [string map {, .} [string trim $s]]
}

# Returns a list of dicts: t, temp, segment, setpoint (segment/setpoint "" for fw 2.1),
# plus the header comment's key=value pairs in the variable named by metaVar.
proc kilnlog::parse::read_records {path {metaVar ""}} {
    if {$metaVar ne ""} { upvar 1 $metaVar meta }
    set meta [dict create]
    set f [open $path r]
    fconfigure $f -encoding utf-8
    gets $f first
    if {[string match "#*" $first]} {
        foreach kv [lrange [split [string range $first 1 end] ";"] 1 end] {
            lassign [split $kv =] k v
            dict set meta $k $v
        }
        gets $f header
    } else {
        set header $first
    }
    set sep [expr {[string first ";" $header] >= 0 ? ";" : ","}]
    set recs {}
    while {[gets $f line] >= 0} {
        if {[string trim $line] eq ""} continue
        lassign [csv::split $line $sep] t temp seg sp
        lappend recs [dict create t [expr {int([num $t])}] temp [expr {double([num $temp])}] \\
            segment $seg setpoint [expr {$sp eq "" ? "" : double([num $sp])}]]
    }
    close $f
    return $recs
}

# Kept for Jonas' glaze-calc scripts: list of {seconds temperature} pairs.
proc kilnlog::parse::read_log {path} {
    set rows {}
    foreach r [read_records $path] {
        lappend rows [list [dict get $r t] [dict get $r temp]]
    }
    return $rows
}
""")
s.edit(TP, """cleanupTests""", """test parse-2.1 {fw 3.2: semicolons and decimal comma} -body {
    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv] meta]
    list [llength $recs] [dict get [lindex $recs 4] temp] [dict get [lindex $recs 4] segment] [dict get $meta cone]
} -result {48 1012.5 2 6}

test parse-2.2 {read_log still returns pairs for fw 3.2} -body {
    lindex [kilnlog::parse::read_log [file join [testsDirectory] data fw32.csv]] 4
} -result {7200 1012.5}

cleanupTests""")
s.bash("make test 2>&1 | tail -14", """parse.test

==== parse-2.1 fw 3.2: semicolons and decimal comma FAILED
==== Contents of test case:

    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv] meta]
    list [llength $recs] [dict get [lindex $recs 4] temp] [dict get [lindex $recs 4] segment] [dict get $meta cone]

---- Test generated error; Return code was: 1
---- Return code should have been one of: 0 2
---- errorInfo: expected floating-point number but got "1012.5"
    while executing
"expr {double([num $temp])}"
    (procedure "kilnlog::parse::read_records" line 23)
==== parse-2.1 FAILED
""")
s.assistant("`expected floating-point number but got \"1012.5\"`: the string looks numeric, so it must contain an invisible character. fw 3.2 probably writes a BOM or non-breaking spaces. Hex dump of line 6:")
s.bash("sed -n '6p' tests/data/fw32.csv | od -c | head -3", """0000000   7   2   0   0   ;   1   0   1   2   ,   5   ;   2   ;   1   0
0000020   2   0   ,   0  \\r  \\n
0000026
""")
s.assistant("No BOM in the value, but the file has **CRLF** line endings (`\\r\\n`). Line 6 is not the one failing though: temp is column 2 — `1012,5` is clean. The `\\r` lands at the end of the *last* column (setpoint `1020,0\\r`). The error message shows temp... Tcl error shows the first failing expr; `double([num $temp])` is line 23 counting from the proc start, which is actually the `setpoint` expression on the continuation line. So: `1020.0\\r` fails and the message prints the value with an invisible \\r. Fix: `fconfigure -translation auto` is already the default for reading... but I set `-encoding utf-8` only; let me check what the default translation is here.")
s.bash("echo 'set f [open tests/data/fw32.csv]; puts [fconfigure $f -translation]; gets $f; gets $f; gets $f l; puts [string length $l]' | tclsh8.6; file tests/data/fw32.csv", """auto
26
tests/data/fw32.csv: ASCII text, with CRLF, CR line terminators
""")
s.bash("grep -c $'\\r\\r' tests/data/fw32.csv; sed -n '6p' tests/data/fw32.csv | od -c | sed -n '2p'; sed -n '6p' tests/data/fw32.csv | cat -A", """1
0000020   2   0   ,   0  \\r  \\n
7200;1012,5;2;1020,0^M$
""")
s.bash("grep -n $'\\r\\r' tests/data/fw32.csv | cat -A | head -2", """6:7200;1012,5^M^M;2;1020,0^M$
""")
s.assistant(
    "Found: `file` says *CRLF, CR line terminators*. Row 6 (t=7200) contains a stray **`\\r\\r` inside the temp field** (`1012,5\\r\\r;2;...`) — a firmware glitch or the sample was edited on a Mac. With translation auto Tcl turns the lone CRs into line breaks, so the row is split. The earlier od output was from the line as `sed` sees it. Fix in the parser: read in binary-ish mode with `-translation crlf`? No: safer to strip all `\\r` from each line and treat only `\\n` as line end (`-translation lf`, then `string map {\\r {}}`)."
)
s.edit(PARSE, """    fconfigure $f -encoding utf-8""", """    # fw 3.2 logs are CRLF and sometimes have stray CRs inside a field: split on LF only
    fconfigure $f -encoding utf-8 -translation lf""")
s.edit(PARSE, """    while {[gets $f line] >= 0} {
        if {[string trim $line] eq ""} continue""", """    while {[gets $f line] >= 0} {
        set line [string map {\\r {}} $line]
        if {[string trim $line] eq ""} continue""")
s.edit(PARSE, """    gets $f first
    if""", """    gets $f first
    set first [string map {\\r {}} $first]
    if""")
s.edit(PARSE, """        gets $f header
    } else {""", """        gets $f header
        set header [string map {\\r {}} $header]
    } else {""")
s.bash("make test 2>&1 | tail -3", """Tests ended at Thu Mar 19 15:19:40 CET 2026
all.tcl:	Total	3	Passed	3	Skipped	0	Failed	0
Sourced 1 Test Files.
""")
s.assistant("3/3 pass: fw 2.1 still loads, fw 3.2 gives 48 records, t=7200 temp 1012.5 segment 2, meta cone=6, and read_log still returns {7200 1012.5} pairs for Jonas' scripts.")

# ===================================================================== turn 3
s.user("good. Priya wants the hold column in h:mm not minutes. s/hold min/hold h:mm/. segments come from the segment column, yes.")
s.write(SEG, """# segments.tcl -- per-segment summary of a fw 3.2 log
package require Tcl 8.6

namespace eval kilnlog::segments {
    namespace export summarize fmt_hold
}

# 95 -> 1:35
proc kilnlog::segments::fmt_hold {minutes} {
    return [format "%d:%02d" [expr {$minutes / 60}] [expr {$minutes % 60}]]
}

# One dict per segment: segment ramp (C/h) target (C) hold (minutes at the setpoint +-2 C).
proc kilnlog::segments::summarize {recs} {
    set by [dict create]
    foreach r $recs {
        dict lappend by [dict get $r segment] $r
    }
    set out {}
    dict for {seg rs} $by {
        set first [lindex $rs 0]
        set target [dict get [lindex $rs end] setpoint]
        set reached ""
        set hold 0
        foreach r $rs {
            if {$reached eq "" && abs([dict get $r temp] - $target) <= 2.0} {
                set reached [dict get $r t]
            }
        }
        if {$reached ne ""} {
            set hold [expr {([dict get [lindex $rs end] t] - $reached) / 60}]
            set dt [expr {($reached - [dict get $first t]) / 3600.0}]
        } else {
            set dt [expr {([dict get [lindex $rs end] t] - [dict get $first t]) / 3600.0}]
        }
        set dT [expr {$target - [dict get $first temp]}]
        set ramp [expr {$dt > 0 ? round($dT / $dt) : 0}]
        lappend out [dict create segment $seg ramp $ramp target $target hold $hold]
    }
    return $out
}
""")
s.write(TS, """package require tcltest 2.5
namespace import tcltest::*
source [file join [testsDirectory] .. lib parse.tcl]
source [file join [testsDirectory] .. lib segments.tcl]

test seg-1.1 {fmt_hold} -body {
    list [kilnlog::segments::fmt_hold 95] [kilnlog::segments::fmt_hold 10] [kilnlog::segments::fmt_hold 0]
} -result {1:35 0:10 0:00}

test seg-2.1 {Glaze6 sample: three segments} -body {
    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv]]
    lmap s [kilnlog::segments::summarize $recs] {
        list [dict get $s segment] [dict get $s ramp] [dict get $s target] [kilnlog::segments::fmt_hold [dict get $s hold]]
    }
} -result {{1 160 180.0 0:00} {2 140 1020.0 0:30} {3 110 1222.0 0:15}}

cleanupTests
""")
s.bash("make test 2>&1 | grep -A12 'FAILED' | head -16; make test 2>&1 | tail -2", """==== seg-2.1 Glaze6 sample: three segments FAILED
==== Contents of test case:

    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv]]
    lmap s [kilnlog::segments::summarize $recs] {
        list [dict get $s segment] [dict get $s ramp] [dict get $s target] [kilnlog::segments::fmt_hold [dict get $s hold]]
    }

---- Result was:
{1 160 180.0 0:00} {2 140 1020.0 0:30} {3 108 1222.0 0:15} {4 0 {} 0:00}
---- Result should have been (exact matching):
{1 160 180.0 0:00} {2 140 1020.0 0:30} {3 108 1222.0 0:15}
==== seg-2.1 FAILED
all.tcl:	Total	5	Passed	4	Skipped	0	Failed	0
Sourced 2 Test Files.
""")
s.assistant("Two things. (1) A 4th segment `{4 0 {} 0:00}` with empty setpoint: the log ends with cooling rows (segment 4, no setpoint). (2) Segment 3 ramp is 108 C/h, I wrote 110 in the expectation by hand; 108 is what the data gives ((1222−1012.5)/1.94 h), so the test was wrong there. \n\nAnd (3), more serious: the summary line says **Failed 0** although seg-2.1 FAILED. `make test` would pass in CI with failing tests. tcltest's runAllTests doesn't set an exit code. Fixing all three: skip segments without setpoint (cooling), expectation 108, and all.tcl exits 1 on failures.")
s.bash("sed -n '/^cool\\|;4;/p' tests/data/fw32.csv | head -3; tail -3 tests/data/fw32.csv", """39600;1180,2;4;
43200;980,0;4;
46800;760,4;4;
46800;760,4;4;
48600;655,0;4;
50400;561,9;4;
""")
s.edit(SEG, """    dict for {seg rs} $by {
        set first [lindex $rs 0]
        set target [dict get [lindex $rs end] setpoint]""", """    dict for {seg rs} $by {
        set first [lindex $rs 0]
        set target [dict get [lindex $rs end] setpoint]
        if {$target eq ""} continue   ;# natural cooling after the program: no setpoint, not a segment""")
s.edit(TS, "{3 110 1222.0 0:15}}", "{3 108 1222.0 0:15}}")
s.write(ALL, """package require tcltest 2.5
namespace import tcltest::*
configure -testdir [file dirname [file normalize [info script]]] {*}$argv

# runAllTests always exits 0; count failures per file (-singleproc 0 runs each file in a child)
set ::kilnlog_failed 0
proc tcltest::cleanupTestsHook {} {
    variable numTests
    incr ::kilnlog_failed $numTests(Failed)
}
configure -singleproc 1
runAllTests
exit [expr {$::kilnlog_failed > 0}]
""")
s.bash("make test 2>&1 | tail -3; echo make-rc=$?", """Tests ended at Thu Mar 19 15:41:02 CET 2026
all.tcl:	Total	5	Passed	5	Skipped	0	Failed	0
Sourced 2 Test Files.
make-rc=0
""")
s.bash("sed -i 's/{3 108 1222.0 0:15}}/{3 999 1222.0 0:15}}/' tests/segments.test && make test >/dev/null 2>&1; echo make-rc=$?; sed -i 's/{3 999 1222.0 0:15}}/{3 108 1222.0 0:15}}/' tests/segments.test", "make-rc=2\n")
s.assistant("5/5 pass, and the exit code now works: with a deliberately broken expectation `make test` exits non-zero (make-rc=2, tclsh exit 1), restored afterwards. The cleanupTestsHook needs `-singleproc 1` so all files run in one interp and the counter survives.")

# ===================================================================== turn 4
s.user("now the table in the gui. ttk::treeview. and Priya wants an export button, csv. s/csv/tab separated, she pastes into the studio spreadsheet/")
s.edit(GUI, """proc kilnlog::gui::build {w rows} {
    canvas $w.plot -width 720 -height 360 -background white
    pack $w.plot -fill both -expand 1
    kilnlog::gui::plot $w.plot $rows
}""", """proc kilnlog::gui::build {w rows {segs {}}} {
    canvas $w.plot -width 720 -height 360 -background white
    pack $w.plot -fill both -expand 1
    kilnlog::gui::plot $w.plot $rows
    ttk::treeview $w.segs -columns {segment ramp target hold} -show headings -height 5
    foreach {col title} {segment Segment ramp {Ramp C/h} target {Target C} hold {Hold h:mm}} {
        $w.segs heading $col -text $title
        $w.segs column $col -anchor e -width 110
    }
    foreach s $segs {
        $w.segs insert {} end -values [list [dict get $s segment] [dict get $s ramp] \\
            [format %.0f [dict get $s target]] [kilnlog::segments::fmt_hold [dict get $s hold]]]
    }
    pack $w.segs -fill x
    ttk::button $w.export -text "Export segments..." -command [list kilnlog::gui::export_dialog $segs]
    pack $w.export -anchor e -padx 6 -pady 4
}

# Tab separated, for pasting into the studio spreadsheet.
proc kilnlog::gui::export_tsv {path segs} {
    set f [open $path w]
    fconfigure $f -encoding utf-8 -translation lf
    puts $f [join {Segment {Ramp C/h} {Target C} {Hold h:mm}} \\t]
    foreach s $segs {
        puts $f [join [list [dict get $s segment] [dict get $s ramp] [format %.0f [dict get $s target]] \\
            [kilnlog::segments::fmt_hold [dict get $s hold]]] \\t]
    }
    close $f
}

proc kilnlog::gui::export_dialog {segs} {
    set path [tk_getSaveFile -defaultextension .tsv -filetypes {{{Tab separated} .tsv} {{All files} *}}]
    if {$path ne ""} { export_tsv $path $segs }
}""")
s.edit(MAIN, """source [file join $here lib gui.tcl]
set rows [kilnlog::parse::read_log [lindex $argv 0]]
kilnlog::gui::build "" $rows""", """source [file join $here lib segments.tcl]
source [file join $here lib gui.tcl]
set recs [kilnlog::parse::read_records [lindex $argv 0]]
set rows [kilnlog::parse::read_log [lindex $argv 0]]
kilnlog::gui::build "" $rows [kilnlog::segments::summarize $recs]""")
s.write(TG, """package require tcltest 2.5
namespace import tcltest::*
package require Tk 8.6
wm withdraw .
foreach lib {parse segments gui} { source [file join [testsDirectory] .. lib $lib.tcl] }

test gui-1.1 {segment table rows} -setup {
    toplevel .t
} -body {
    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv]]
    kilnlog::gui::build .t [kilnlog::parse::read_log [file join [testsDirectory] data fw32.csv]] [kilnlog::segments::summarize $recs]
    lmap i [.t.segs children {}] { .t.segs item $i -values }
} -cleanup { destroy .t } -result {{1 160 180 0:00} {2 140 1020 0:30} {3 108 1222 0:15}}

test gui-1.2 {export is tab separated} -body {
    set tmp [makeFile {} segs.tsv]
    kilnlog::gui::export_tsv $tmp [kilnlog::segments::summarize [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv]]]
    set f [open $tmp]; set d [read $f]; close $f
    lindex [split $d \\n] 2
} -result "2\\t140\\t1020\\t0:30"

cleanupTests
""")
s.bash("make test 2>&1 | tail -8; echo make-rc=$?", """Tests began at Thu Mar 19 15:58:30 CET 2026
gui.test
Test file error: couldn't connect to display ":0"
    while executing
"load /usr/lib/x86_64-linux-gnu/libtk8.6.so Tk"
parse.test
segments.test
all.tcl:	Total	5	Passed	5	Skipped	0	Failed	0
make-rc=0
""")
s.assistant("gui.test can't load Tk (`couldn't connect to display \":0\"`, no X in this shell or in CI), and that counts as a *test file error*, not a failure, so the exit code stays 0 again. Two fixes: run the suite under `xvfb-run -a` in the Makefile, and count sourcing errors in all.tcl too (tcltest records them in `::tcltest::failFiles`... in 2.5 it's the `numTestFiles`/`failFiles` list).")
s.edit(MK, """test:
\t$(TCLSH) tests/all.tcl""", """# gui.test needs a display: run headless under Xvfb (lab PCs and CI have none in the shell)
test:
\txvfb-run -a $(TCLSH) tests/all.tcl""")
s.edit(ALL, """runAllTests
exit [expr {$::kilnlog_failed > 0}]""", """runAllTests
# a test file that errors while sourcing (e.g. no display for Tk) is not counted in numTests
exit [expr {$::kilnlog_failed > 0 || [llength $::tcltest::failFiles] > 0}]""")
s.bash("make test 2>&1 | tail -4; echo make-rc=$?", """segments.test
Tests ended at Thu Mar 19 16:02:14 CET 2026
all.tcl:	Total	7	Passed	7	Skipped	0	Failed	0
make-rc=0
""")
s.bash("DISPLAY= tclsh8.6 tests/all.tcl >/dev/null 2>&1; echo rc=$?", "rc=1\n")
s.assistant("7/7 under xvfb-run; and without a display all.tcl now exits 1 (rc=1) instead of silently passing. Running lint.")
s.bash("make lint", """nagelfar -H lib/*.tcl kilnlog.tcl
lib/gui.tcl: Line  15: W Unknown command "kilnlog::segments::fmt_hold"
lib/gui.tcl: Line  27: W Unknown command "kilnlog::segments::fmt_hold"
lib/segments.tcl: Line  26: N Suspicious variable name "$target"
kilnlog.tcl: Line   7: E Wrong number of arguments (3) to "kilnlog::gui::build"
make: *** [Makefile:8] Error 1
""", code=2)
s.assistant("nagelfar: one **E** (kilnlog.tcl line 7, `kilnlog::gui::build` called with 3 args) because -H checks each file separately against the *old* proc header cached in... no, it reads lib/*.tcl in order, and gui.tcl's new `build {w rows {segs {}}}` accepts 3. The file order puts gui.tcl before parse/segments and kilnlog.tcl last, so it should know. Let me check for a stale nagelfar db.")
s.bash("ls -a; cat .nagelfar* 2>/dev/null | head -5", """.
..
.git
.nagelfar_db.tcl
Makefile
kilnlog.tcl
lib
tests
##Nagelfar Database
set ::syntax(kilnlog::gui::build) 2
set ::syntax(kilnlog::parse::read_log) 1
""")
s.bash("git log --oneline -1 -- .nagelfar_db.tcl; grep -n nagelfar_db Makefile .gitignore 2>/dev/null", """a1c22b7 initial
""")
s.assistant("A committed `.nagelfar_db.tcl` from the initial commit declares `kilnlog::gui::build` with 2 args, and nagelfar loads it automatically from the cwd. It's stale, and nothing generates it. Options: regenerate it (`nagelfar -header`) as part of `make lint`, or delete it. Regenerating keeps the cross-file checks; I'd do that.")

# ===================================================================== turn 5
s.user("regenerate in make lint, yes. W for fmt_hold ok then? Priya also wants the program name and cone from the header in the window title. s/window title/title AND the first line of the export/")
s.edit(MK, """lint:
\tnagelfar -H lib/*.tcl kilnlog.tcl""", """# .nagelfar_db.tcl was stale (build with 2 args): regenerate it from the sources every time
lint:
\tnagelfar -header .nagelfar_db.tcl lib/*.tcl
\tnagelfar -H -s .nagelfar_db.tcl lib/*.tcl kilnlog.tcl""")
s.bash("make lint", """nagelfar -header .nagelfar_db.tcl lib/*.tcl
Writing header to .nagelfar_db.tcl
nagelfar -H -s .nagelfar_db.tcl lib/*.tcl kilnlog.tcl
lib/segments.tcl: Line  26: N Suspicious variable name "$target"
""")
s.assistant("Lint clean apart from one N (note) at segments.tcl:26 (`abs(... - $target)` inside expr braces: a nagelfar false positive for a variable in a math function). The fmt_hold warnings are gone with the regenerated db. Now program/cone: title and the first export line.")
s.edit(GUI, """proc kilnlog::gui::build {w rows {segs {}}} {""", """proc kilnlog::gui::build {w rows {segs {}} {meta {}}} {
    set top [expr {$w eq "" ? "." : $w}]
    wm title $top [kilnlog::gui::title $meta]""")
s.edit(GUI, """    ttk::button $w.export -text "Export segments..." -command [list kilnlog::gui::export_dialog $segs]""", """    ttk::button $w.export -text "Export segments..." -command [list kilnlog::gui::export_dialog $segs $meta]""")
s.edit(GUI, """# Tab separated, for pasting into the studio spreadsheet.
proc kilnlog::gui::export_tsv {path segs} {
    set f [open $path w]
    fconfigure $f -encoding utf-8 -translation lf""", """# "kilnlog - Glaze6, cone 6" (fw 2.1 logs have no header: just "kilnlog")
proc kilnlog::gui::title {meta} {
    if {![dict exists $meta program]} { return kilnlog }
    set t "kilnlog - [dict get $meta program]"
    if {[dict exists $meta cone]} { append t ", cone [dict get $meta cone]" }
    return $t
}

# Tab separated, for pasting into the studio spreadsheet; first line: program and cone.
proc kilnlog::gui::export_tsv {path segs {meta {}}} {
    set f [open $path w]
    fconfigure $f -encoding utf-8 -translation lf
    puts $f [string range [title $meta] [string length "kilnlog - "] end]""")
s.edit(GUI, """proc kilnlog::gui::export_dialog {segs} {
    set path [tk_getSaveFile -defaultextension .tsv -filetypes {{{Tab separated} .tsv} {{All files} *}}]
    if {$path ne ""} { export_tsv $path $segs }""", """proc kilnlog::gui::export_dialog {segs meta} {
    set path [tk_getSaveFile -defaultextension .tsv -filetypes {{{Tab separated} .tsv} {{All files} *}}]
    if {$path ne ""} { export_tsv $path $segs $meta }""")
s.edit(MAIN, """set recs [kilnlog::parse::read_records [lindex $argv 0]]""", """set recs [kilnlog::parse::read_records [lindex $argv 0] meta]""")
s.edit(MAIN, """kilnlog::gui::build "" $rows [kilnlog::segments::summarize $recs]""", """kilnlog::gui::build "" $rows [kilnlog::segments::summarize $recs] $meta""")
s.edit(TG, """    lindex [split $d \\n] 2
} -result "2\\t140\\t1020\\t0:30\"""", """    lindex [split $d \\n] 2
} -result "1\\t160\\t180\\t0:00"

test gui-1.3 {title and first export line from the fw 3.2 header} -body {
    set recs [kilnlog::parse::read_records [file join [testsDirectory] data fw32.csv] meta]
    set tmp [makeFile {} segs2.tsv]
    kilnlog::gui::export_tsv $tmp [kilnlog::segments::summarize $recs] $meta
    set f [open $tmp]; set first [gets $f]; close $f
    list [kilnlog::gui::title $meta] $first [kilnlog::gui::title {}]
} -result {{kilnlog - Glaze6, cone 6} {Glaze6, cone 6} kilnlog}""")
s.bash("make test 2>&1 | tail -3; echo make-rc=$?", """Tests ended at Thu Mar 19 16:21:47 CET 2026
all.tcl:	Total	8	Passed	8	Skipped	0	Failed	0
make-rc=0
""")
s.bash("make lint 2>&1 | tail -2; xvfb-run -a tclsh8.6 kilnlog.tcl tests/data/fw32.csv & sleep 2; xdotool search --name 'kilnlog' getwindowname 2>/dev/null; kill %1", """nagelfar -H -s .nagelfar_db.tcl lib/*.tcl kilnlog.tcl
lib/segments.tcl: Line  26: N Suspicious variable name "$target"
""")
s.assistant("8/8 tests pass (gui-1.2 expectation moved to line 3 since line 1 is now the program line), lint has only the known N note. The xdotool title check printed nothing because xdotool runs outside the Xvfb display that xvfb-run created; the title is covered by gui-1.3 (`kilnlog - Glaze6, cone 6`, plain `kilnlog` for fw 2.1 logs).")

# ===================================================================== turn 6
s.user("fine. commit, two commits: parser+tests infra, then segments+gui. s/two commits/one commit, Priya reviews it as one/. message in english, mention fw 3.2.")
s.bash("git add -A && git status --short && git commit -qm 'Support fw 3.2 logs (; and decimal comma, stray CRs), segment table with TSV export, tests fail the build' && git log --oneline -2", """M  .nagelfar_db.tcl
M  Makefile
M  kilnlog.tcl
M  lib/gui.tcl
M  lib/parse.tcl
A  lib/segments.tcl
M  tests/all.tcl
A  tests/gui.test
M  tests/parse.test
A  tests/segments.test
7f2a9c1 Support fw 3.2 logs (; and decimal comma, stray CRs), segment table with TSV export, tests fail the build
b3e0d4c plot: scale 4 C per pixel
""")
s.assistant("Committed `7f2a9c1` on main (one commit, for Priya's review): fw 3.2 parsing, segment table + TSV export with program/cone line, title, tests that fail the build, xvfb-run in `make test`, regenerated nagelfar db. Not pushed. Open: the N note at segments.tcl:26 (false positive, left as is).")

s.save(HERE / "session.jsonl")
print("tool calls:", s.calls)

META = {
    "title": "kilnlog (Tcl 8.6/Tk kiln-log viewer): fw 3.2 CSV (';', decimal comma, stray CRs), segment table (ttk::treeview) with TSV export and program/cone title, tests that fail the build under xvfb-run, nagelfar db regenerated; commit 7f2a9c1",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8b test split",
    "voice": "terse lower-case developer who corrects with sed-style s/old/new/ and forwards a colleague's wishes (\"Priya wants ...\")",
    "toolchain": "Tcl/Tk 8.6.13, tcllib csv 0.8.1, tcltest 2.5.5, make, xvfb-run, nagelfar",
}
COMPACTIONS = [
    ("3/3 pass: fw 2.1 still loads, fw 3.2 gives 48 records", 1000),
    ("5/5 pass, and the exit code now works", 1000),
    ("Lint clean apart from one N (note) at segments.tcl:26", 1000),
]
FACTS = [
    f("k01", "request", "must", "kilnlog broke with the new controller firmware (fw 3.2)", "Fix the parser for fw 3.2 logs (';' separator, decimal comma; sample tests/data/fw32.csv); fw 2.1 logs must still load.", [r"fw ?3\.2|semicolon|;|decimal comma", r"pars|fw ?2\.1|comma"], "done"),
    f("k02", "request", "must", "also Priya wants a segment table under the plot", "Priya wants a segment table under the plot: one row per firing segment with segment, ramp C/h, target C, hold (h:mm after correction).", [r"segment", r"table|ramp|target|hold"], "done"),
    f("k03", "constraint", "must", "lab PCs run debian 12, tcl 8.6.13, keep it 8.6", "Keep it Tcl 8.6 (lab PCs run Debian 12 with Tcl 8.6.13).", [r"8\.6", r"Tcl|Debian|lab"]),
    f("k04", "command", "must", "Tests ended at Thu Mar 19 16:21:47", "Tests: make test (now xvfb-run -a tclsh8.6 tests/all.tcl); latest 8/8 pass, exit 0.", [r"make test|all\.tcl", r"8|pass|xvfb"]),
    f("k05", "finding", "should", "fw 3.2 format: a `#` comment line with program and cone", "fw 3.2 logs: '# Skutt KMT fw 3.2;program=Glaze6;cone=6' comment line, header zeit_s;temp_c;segment;setpoint_c, ';' separator, decimal comma, own segment and setpoint columns.", [r"setpoint|segment column|zeit_s|program=|cone", r"fw ?3\.2|header|column"]),
    f("k06", "constraint", "must", "keep read_log returning pairs for the plot, other scripts use it", "read_log must keep returning {seconds temperature} pairs: Jonas' glaze-calc scripts use it (new read_records returns dicts).", [r"read_log", r"pairs|Jonas|glaze-calc"]),
    f("k07", "path", "should", "proc kilnlog::parse::read_records {path {metaVar \\\"\\\"}}", "lib/parse.tcl: new read_records path ?metaVar? returning dicts t/temp/segment/setpoint and header meta; format detected from '#' line and ';' in header; read_log wraps it.", [r"read_records", r"dict|meta|segment|setpoint"]),
    f("k08", "error", "should", "errorInfo: expected floating-point number but got \"1012.5\"", "parse-2.1 failed 'expected floating-point number but got \"1012.5\"' (an invisible CR).", [r"expected floating-point|1012\.5", r"CR|\\r|float|parse"], "fixed"),
    f("k09", "finding", "must", "Found: `file` says *CRLF, CR line terminators*", "fw32.csv has CRLF endings and a stray \\r\\r inside the temp field of the t=7200 row; parser now reads with -translation lf and strips all \\r from each line.", [r"CR|\\r|carriage", r"translation|strip|string map|stray|lf"], "fixed"),
    f("k10", "request", "should", "Priya wants the hold column in h:mm not minutes. s/hold min/hold h:mm/", "Hold column in h:mm, not minutes (Priya); fmt_hold 95 -> 1:35.", [r"h:mm|fmt_hold", r"hold"]),
    f("k11", "decision", "should", "segments come from the segment column, yes", "Segments come from the controller's segment column (fw 3.2), not guessed from the curve.", [r"segment column|segment", r"controller|column|not guess"]),
    f("k12", "path", "should", "# segments.tcl -- per-segment summary of a fw 3.2 log", "New lib/segments.tcl: summarize recs -> dicts segment/ramp/target/hold (hold = minutes at setpoint +-2 C), fmt_hold; tests/segments.test.", [r"segments\.tcl|summarize", r"ramp|hold|segment"]),
    f("k13", "finding", "must", "the summary line says **Failed 0** although seg-2.1 FAILED", "tcltest runAllTests never set an exit code: make test passed with failing tests. all.tcl now counts failures via cleanupTestsHook (-singleproc 1) and exits 1.", [r"exit code|Failed 0|cleanupTestsHook|exit", r"runAllTests|tcltest|all\.tcl|fail"], "fixed"),
    f("k14", "fix", "should", "Two things. (1) A 4th segment", "Cooling rows (segment 4, no setpoint) are skipped in summarize; segment 3 ramp is really 108 C/h (the hand-written 110 in the test was wrong).", [r"cool|segment 4|108", r"setpoint|skip|ramp|continue"]),
    f("k15", "value", "should", "{1 160 180.0 0:00} {2 140 1020.0 0:30} {3 108 1222.0 0:15} {4 0 {} 0:00}", "Glaze6 sample segments: 1: 160 C/h to 180, hold 0:00; 2: 140 C/h to 1020, hold 0:30; 3: 108 C/h to 1222, hold 0:15.", [r"1222|1020|108|140", r"segment|ramp|hold|0:30|0:15"]),
    f("k16", "request", "must", "s/csv/tab separated, she pastes into the studio spreadsheet/", "Export button for the segment table: tab separated (not csv) because Priya pastes into the studio spreadsheet.", [r"tab|TSV|\\\\t", r"export|spreadsheet|separat"], "done"),
    f("k17", "path", "should", "ttk::treeview $w.segs -columns {segment ramp target hold}", "lib/gui.tcl: build w rows ?segs? ?meta? adds a ttk::treeview segment table and an 'Export segments...' button (export_tsv, export_dialog via tk_getSaveFile .tsv); kilnlog.tcl passes segments and meta.", [r"treeview|export_tsv|Export segments", r"gui|button|table"]),
    f("k18", "error", "should", "Test file error: couldn't connect to display \":0\"", "gui.test could not load Tk headless ('couldn't connect to display \":0\"'), counted as a file error so exit stayed 0; fixed with xvfb-run -a in make test and failFiles counted in all.tcl.", [r"display|xvfb", r"Tk|headless|xvfb-run|failFiles"], "fixed"),
    f("k19", "command", "should", "DISPLAY= tclsh8.6 tests/all.tcl >/dev/null 2>&1; echo rc=$?", "Check that a missing display fails the suite: DISPLAY= tclsh8.6 tests/all.tcl -> rc=1.", [r"DISPLAY=|rc=1", r"all\.tcl|display|fail"]),
    f("k20", "command", "should", "Writing header to .nagelfar_db.tcl", "Lint: make lint (nagelfar -header .nagelfar_db.tcl lib/*.tcl, then nagelfar -H -s .nagelfar_db.tcl lib/*.tcl kilnlog.tcl); only a false-positive N note at segments.tcl:26 remains.", [r"nagelfar|make lint", r"header|db|N note|segments\.tcl:26|clean"]),
    f("k21", "finding", "should", "A committed `.nagelfar_db.tcl` from the initial commit declares", "A stale committed .nagelfar_db.tcl (build with 2 args) caused the 'Wrong number of arguments' E; decided to regenerate it in make lint.", [r"nagelfar_db|stale", r"2 arg|regenerat|Wrong number"], "fixed"),
    f("k22", "request", "should", "s/window title/title AND the first line of the export/", "Program name and cone from the fw 3.2 header go in the window title AND the first line of the TSV export ('kilnlog - Glaze6, cone 6'; plain 'kilnlog' for fw 2.1).", [r"title|first line", r"program|cone|Glaze6"], "done"),
    f("k23", "preference", "should", "s/two commits/one commit, Priya reviews it as one/", "One commit (not two), Priya reviews it as one; message in English mentioning fw 3.2.", [r"one commit|single commit", r"Priya|review|fw ?3\.2"]),
    f("k24", "state", "must", "Committed `7f2a9c1` on main", "Committed 7f2a9c1 on main, not pushed; open: the nagelfar N note at segments.tcl:26 (false positive).", [r"7f2a9c1"]),
    f("k25", "value", "nice", "8.6.13\n0.8.1\n2.5.5", "Toolchain: Tcl 8.6.13, csv 0.8.1, tcltest 2.5.5; nagelfar and xvfb-run installed.", [r"0\.8\.1|2\.5\.5|8\.6\.13"]),
    f("k26", "path", "should", "# gui.test needs a display: run headless under Xvfb", "Makefile: test runs 'xvfb-run -a $(TCLSH) tests/all.tcl'; lint regenerates the nagelfar db first.", [r"Makefile|xvfb-run", r"test|Xvfb|lint"]),
    f("k27", "path", "should", "test gui-1.3 {title and first export line from the fw 3.2 header}", "tests/gui.test: gui-1.1 table rows, gui-1.2 TSV export line, gui-1.3 title and first export line (8 tests in total).", [r"gui\.test|gui-1\.[123]", r"title|export|table"]),
    f("k28", "finding", "nice", "The xdotool title check printed nothing", "The xdotool title check found nothing (runs outside the Xvfb display); the title is covered by gui-1.3 instead.", [r"xdotool", r"Xvfb|display|gui-1\.3|nothing"]),
    f("k29", "value", "should", "48 1012.5 2 6", "fw32.csv sample: 48 records; t=7200 temp 1012.5 segment 2; meta cone=6.", [r"48", r"records|1012\.5|cone"]),
    f("k30", "constraint", "should", "s/other scripts/the glaze-calc scripts of Jonas/", "(Correction) the callers of read_log are Jonas' glaze-calc scripts.", [r"Jonas|glaze-calc"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
