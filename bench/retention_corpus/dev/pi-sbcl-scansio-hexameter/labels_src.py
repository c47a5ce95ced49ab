# ruff: noqa: E501
"""Labels for pi-sbcl-scansio-hexameter, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "scansio (Common Lisp, Latin hexameter scansion): elision before h, syllables with onsets, exported scan-line (D/S string), Aeneid 1 corpus test with HALF marker and six known exceptions, version 0.4.0; not committed",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7b test split",
    "voice": "a classics professor writing long formal paragraphs, rules numbered in footnote style (1)-(9); numbers only in the assistant's prose and tool output",
    "toolchain": "SBCL 2.4.9, ASDF 3.3.7, Quicklisp dist 2023-10-21, FiveAM via asdf:test-system, alexandria, cl-ppcre",
}
COMPACTIONS = [
    ("Elision now works (ELISION-M passes), but two things are wrong", 1200),
    ("The corpus test works and reports by line number, as you asked", 1200),
    ("Hmm: with only a blank line added, the reader now sees DEFPARAMETER", 1000),
]
FACTS = [
    f("l01", "request", "must", "elision before a word beginning with h is not performed", "Fix elision before h: 'monstrum horrendum' (Aen. 3.658) must lose the -um of monstrum; h does not make position, and the line failed to scan.", [r"elision|elide", r"\bh\b|horrendum|monstrum"], "done"),
    f("l02", "request", "should", "the README advertises a function scan-line which has never existed", "README advertised a non-existent scan-line; corrected at once to call the exported scan-verse (later the README also documents the new scan-line).", [r"README", r"scan-verse|scan-line"], "done"),
    f("l03", "request", "must", "I wish to add a proper function scan-line", "Add scan-line returning the pattern as a string of D and S (six letters) for handouts, and a corpus test over Aeneid 1 from data/aen1.txt and data/aen1.patterns.", [r"scan-line", r"\bD\b.{0,20}\bS\b|string|six|corpus"], "done"),
    f("l04", "constraint", "must", "(1) The exported symbols of the package SCANSIO must not change or disappear", "Rule (1): exported symbols of package SCANSIO (syllabify, quantities, scan-verse) must not change or disappear; new exports may be added.", [r"export", r"syllabify|scan-verse|remov|change|disappear"]),
    f("l05", "constraint", "should", "(2) No dependency is to be added beyond alexandria, cl-ppcre", "Rule (2): no dependencies beyond alexandria, cl-ppcre and (tests only) fiveam, from the pinned Quicklisp dist.", [r"alexandria|cl-ppcre|fiveam", r"depend|only|no (new|other)"]),
    f("l06", "constraint", "must", "(3) The system must compile under SBCL without a single warning or style-warning", "Rule (3): the system must compile under SBCL with no warnings and no style-warnings (a style-warning is a defect).", [r"style-?warning|warning", r"no |without|zero|defect|0 "]),
    f("l07", "constraint", "should", "(4) Tests are written with FiveAM and run through asdf:test-system", "Rule (4): tests are FiveAM, run through asdf:test-system (as CI's .github-ci.sh does), never by loading the test file by hand.", [r"asdf:test-system|test-system", r"FiveAM|never|load|CI"]),
    f("l08", "constraint", "must", "(5) Please do not commit; I review every change myself", "Rule (5): do not commit; the professor reviews every change himself. Nothing was committed.", [r"commit", r"not|never|review|no "]),
    f("l09", "value", "nice", "Environment: SBCL 2.4.9, ASDF 3.3.7, Quicklisp dist 2023-10-21", "SBCL 2.4.9, ASDF 3.3.7, Quicklisp dist 2023-10-21.", [r"2\.4\.9|3\.3\.7|2023-10-21"]),
    f("l10", "command", "must", "The CI script `.github-ci.sh` loads `:scansio/tests`", "Run tests as CI does: sbcl --non-interactive --no-userinit --load ~/quicklisp/setup.lisp --eval '(push #p\"./\" asdf:*central-registry*)' --eval '(ql:quickload :scansio/tests)' --eval '(asdf:test-system :scansio)' (or ./.github-ci.sh); latest 9 checks, 9 pass.", [r"test-system|github-ci\.sh|quickload", r"scansio"]),
    f("l11", "finding", "should", "Baseline: 5 checks, 3 pass, 2 fail", "Baseline 5 checks: 3 pass, ELISION-M and AENEID-3-658 fail because elide only tested (vowelp (char next 0)) and h is not a vowel.", [r"baseline|3 pass|2 fail|ELISION-M", r"\bh\b|vowelp|vowel|AENEID-3-658"]),
    f("l12", "error", "should", "`The variable NEXT is defined but never used.` This is curious", "Existing STYLE-WARNING on main: 'The variable NEXT is defined but never used' from loop destructuring (for (w next) on words) in elide; gone after rewriting with for tail on words.", [r"NEXT", r"style-?warning|never used|destructur|tail"], "fixed"),
    f("l13", "value", "nice", "Finally, data/ is untracked", "data/ (aen1.txt, aen1.patterns) is untracked; the professor adds it himself.", [r"data/?", r"untracked|add (it|them) (him|your)self|himself|not tracked"]),
    f("l14", "constraint", "should", "(6) Whatever the scanner does internally, syllabify must continue to return the letters", "Rule (6): h neither makes position nor prevents elision, but stays in the printed syllables; syllabify returns the letters of the line as written, less the elided ones.", [r"syllabify|printed|letters", r"\bh\b|elided|as written"]),
    f("l15", "decision", "should", "Design for h, respecting your condition (6)", "Design: a following word counts as vowel-initial when it starts with a vowel or h + vowel (vowel-initial-p); h is ignored only when counting consonants for position in quantities.", [r"vowel-initial|h \+ vowel|h followed|\bh\b", r"position|quantities|elision|vowel-initial"]),
    f("l16", "path", "should", "Summary of this step in src/syllables.lisp", "src/syllables.lisp: new vowel-initial-p, elidable-ending-p, tokens, split-cluster, *muta-cum-liquida*, nucleus-and-coda; elide, syllabify and quantities rewritten.", [r"syllables\.lisp|vowel-initial-p|elidable-ending-p|split-cluster"]),
    f("l17", "constraint", "must", "(7) Syllabify shall return proper syllables, each with its onset", "Rule (7): syllabify returns proper syllables with onsets: single consonant goes with the next vowel; of two or more, the last goes with the next vowel, except mute + liquid which go together; qu is one consonant, x two. Return type stays a list of strings.", [r"onset|syllab", r"consonant|liquid|list of strings|qu"]),
    f("l18", "finding", "nice", "the regex `[^aeiouy]*` only collects consonants *after* a nucleus", "Found that syllabify had never printed onsets (only nucleus + following consonants), e.g. Arma -> arm, a.", [r"onset", r"never|lost|only|after"]),
    f("l19", "error", "should", "My mistake: `push-end` is not Common Lisp", "Used a non-existent push-end (undefined function SCANSIO::PUSH-END); replaced with (setf cluster (append cluster (list tok))).", [r"push-end", r"undefined|append|not Common Lisp"], "fixed"),
    f("l20", "error", "nice", "Syllables now divide by rule (7): `na demp tum`", "syllabify first gave 'nadem ptum' for ademptum: current was kept in reverse order so onsets were placed wrongly; fixed by keeping current in natural order (now na demp tum).", [r"nadem|demp|ademptum", r"order|onset|revers|rule|divide"], "fixed"),
    f("l21", "state", "should", "All 5 checks pass, and a forced compile of `:scansio` now gives **0** warnings", "After the elision/syllable rewrite: 5 of 5 checks pass and a forced compile gives 0 warnings and 0 style-warnings; no exports touched.", [r"0 warnings|\*\*0\*\* warnings|no warnings|0 style", r"compile|pass"]),
    f("l22", "constraint", "must", "(8) It shall be exported, take the line as a string", "Rule (8): scan-line is exported, takes the line as a string, returns exactly six letters D/S (sixth foot always S), and returns NIL rather than signalling an error when the line does not scan.", [r"scan-line", r"NIL|six|export|error"]),
    f("l23", "request", "should", "report the lines on which they disagree, by line number, in its failure message", "The corpus test compares scan-line on every line of aen1.txt with aen1.patterns and reports disagreeing lines by number in its failure message.", [r"corpus", r"line number|by number|failure message|disagree"], "done"),
    f("l24", "finding", "should", "**7 of 120 lines disagree**: 2, 8, 41, 73, 96, 104, 118", "First corpus run: 7 of 120 lines disagree: 2, 8, 41, 73, 96, 104, 118 (no lexicon of natural vowel lengths; 96 is a half line; 41 synizesis in Oilei).", [r"7 of 120|\b(2, 8, 41|41|73|104|118)\b", r"lines?|disagree|exception"]),
    f("l25", "decision", "must", "I agree with (b), and (a) I shall give to a doctoral student next term", "Decision: record the failures as known exceptions in the test (option b); a lexicon of natural lengths (option a) is left aside entirely, for a doctoral student next term.", [r"lexicon|natural length|doctoral", r"not now|next term|leave|aside|student|exception"]),
    f("l26", "request", "must", "I propose the single word HALF in place of a pattern", "Half lines are their own category: marked by the word HALF in the patterns file, not scanned by the corpus test (line 96 of data/aen1.patterns changed from DDDSDS to HALF).", [r"HALF"]),
    f("l27", "constraint", "must", "(9) A known exception which begins to scan correctly must make the test fail too", "Rule (9): a known exception that starts to scan correctly must make the test fail, so the exception list stays honest.", [r"exception", r"scan.{0,15}correct|fail|honest|stale"]),
    f("l28", "path", "should", "lists the six known exceptions 2, 8, 41, 73, 104 and 118", "t/tests.lisp: *aen1-known-exceptions* lists lines 2, 8, 41, 73, 104, 118 with reasons; aeneid-1-corpus skips HALF, fails on new disagreements and on exceptions that now scan; scan-line-string test added.", [r"aen1-known-exceptions|known exceptions", r"tests\.lisp|2, 8, 41|118|reason"]),
    f("l29", "error", "should", "undefined variable: SCANSIO/TESTS::*AEN1-KNOWN-EXCEPTIONS*\n;\n; compilation unit finished\n;   Undefined variable:\n;     *AEN1-KNOWN-EXCEPTIONS*\n;   caught 1 WARNING condition\n; \n; compilation", "Compiling the tests failed (COMPILE-FILE-ERROR) with 'undefined variable SCANSIO/TESTS::*AEN1-KNOWN-EXCEPTIONS*': the defparameter was not read as a top-level form.", [r"AEN1-KNOWN-EXCEPTIONS|undefined variable", r"undefined|COMPILE-FILE-ERROR|top-level"], "fixed"),
    f("l30", "fix", "should", "Hmm: with only a blank line added, the reader now sees DEFPARAMETER", "A blank line after corpus-path made the reader see DEFPARAMETER at top level (checked by reading the file's top-level forms); the cause was not fully explained and the professor was asked to review that part of t/tests.lisp.", [r"blank line|top.level|reader", r"defparameter|corpus-path|review"]),
    f("l31", "state", "must", "The suite passes: **9 checks, 9 pass**", "Suite passes 9 of 9 checks (also via ./.github-ci.sh, exit 0); 113 of 120 corpus lines guarded (6 known exceptions + 1 HALF line).", [r"9 checks|9 pass|9 of 9|113", r"pass|guard|check"]),
    f("l32", "value", "nice", "Timing, for the notebooks: scanning the 120 lines ten times takes 0.412 s", "Timing: 120 lines x 10 scans in 0.412 s, about 0.34 ms per line (186 MB consed, mostly append in syllabify).", [r"0\.412|0\.34 ?ms|186"]),
    f("l33", "request", "should", "the version in scansio.asd should become 0.4.0", "Bump scansio.asd version 0.3.1 -> 0.4.0 (new export scan-line, syllables with onsets) and describe scan-line and the HALF marker in the README.", [r"0\.4\.0"], "done"),
    f("l34", "state", "should", "Version is 0.4.0 (ASDF reports \"0.4.0\")", "Final: version 0.4.0, README updated, 9/9 checks; changed README.md, scansio.asd, src/package.lisp (export scan-line), src/scan.lisp, src/syllables.lisp, t/tests.lisp; data/ untracked; nothing committed.", [r"0\.4\.0|9 of 9|nothing (is )?committed|not committed", r"README|package\.lisp|scan\.lisp|committed"]),
    f("l35", "path", "should", "(defun scan-line (line)", "src/scan.lisp: new scan-line maps scan-verse's feet to a D/S string or NIL; src/package.lisp exports scan-line.", [r"scan-line", r"scan-verse|scan\.lisp|D|string"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
