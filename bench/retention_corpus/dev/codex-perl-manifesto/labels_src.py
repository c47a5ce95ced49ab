# ruff: noqa: E501
"""Labels for codex-perl-manifesto, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "manifesto (Perl manifest importer): Tidewater Express carrier (cp1252, ';', pounds with decimal comma), half-up gram rounding, Perl 5.16.3 compatibility",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5a test split",
    "voice": "long paragraphs with the rules buried mid-paragraph and in parentheses, decisions written \"decision: ...\"",
    "toolchain": "Perl 5.36 locally and 5.16.3 (perlbrew, RHEL 7 box), prove -lr t/, Test::More, perlcritic severity 4, cpanm + cpanfile, Text::CSV_XS, Template Toolkit",
}
COMPACTIONS = [
    ("Status:\n- `Manifesto::Carriers` (new)", 900),
    ("Done:\n- perlbrew perl-5.16.3 lacked", 1200),
    ("Done: a weight that is not a plain number", 1500),
]
FACTS = [
    f("p01", "request", "must", "Tidewater Express, and their manifests do not look like anything", "Import the new carrier Tidewater Express (starts 1 July) into the weekly report like the other carriers.", [r"Tidewater", r"report|import|read|manifest|carrier"], "done"),
    f("p02", "constraint", "must", "please do not edit the fixture files", "Do not edit the Tidewater fixture files in t/fixtures/tidewater/ (real anonymised manifests), not even to fix typos; tests must live with what the carrier sends.", [r"fixtures?", r"not edit|don.?t edit|do not|untouched|unmodified|never edit"]),
    f("p03", "constraint", "must", "Internally we always keep weights as integer grams", "Weights are always kept internally as integer grams.", [r"integer grams|grams? as integers?|weight_g|whole grams", r"internal|keep|stay|always|stored"]),
    f("p04", "constraint", "must", "which has the system perl of RHEL 7 (5.16.3", "The script runs on the old reporting box with RHEL 7's system Perl 5.16.3 (no upgrade this year): code must work on 5.16.3.", [r"5\.16", r"RHEL|box|server|system perl|reporting"]),
    f("p05", "constraint", "must", "must be in the cpanfile", "Only modules already in the cpanfile may be used: ops install from it and a new entry means a ticket and two weeks of waiting.", [r"cpanfile", r"already|only|ticket|no new|ops"]),
    f("p06", "finding", "should", "Here is what I found and how I'd do it", "Tidewater files: semicolon-separated, CRLF, Windows-1252 (0x96 en dash, so not latin1), header Shipment No;Consignee;Dest Ctry;Wt (lb);Pieces, weights in pounds with a decimal comma, country codes sometimes lower case.", [r"cp1252|Windows-1252", r"semicolon|decimal comma|pounds|\blb\b"]),
    f("p07", "value", "nice", "1,284 data rows in the two samples", "The two samples have 1,284 data rows; 2 rows have an empty weight (TWX_MANIFEST_20260602.csv lines 311 and 502).", [r"1,?284|311|502", r"rows?|empty|weight"]),
    f("p08", "decision", "must", "decision: we keep the CSV reader and give it the encoding option", "Keep the single CSV reader (Manifesto::Reader::CSV) and give it an encoding option; no second reader class.", [r"reader", r"encoding|no second|one reader|single|keep"]),
    f("p09", "path", "should", "Status:\n- `Manifesto::Carriers` (new)", "New lib/Manifesto/Carriers.pm holds the per-carrier profiles (sep, encoding, unit, column names; tidewater: ';', cp1252, lb, decimal comma) plus carrier_for_file; bin/manifesto uses it.", [r"Carriers(\.pm)?", r"profiles?|sep|encoding|unit|column"]),
    f("p10", "decision", "must", "so for now please warn on STDERR with the shipment number and skip the row", "Rows with an empty weight (envelopes weighed at the hub): warn on STDERR with the shipment number and skip; never count them as zero.", [r"empty|no weight|without weight|missing weight", r"warn|skip"]),
    f("p11", "decision", "must", "the normal school rounding, half up", "Grams are rounded half up (2.5 g -> 3 g), because the hub invoices bill per gram and are checked against the report; previously int() truncated.", [r"half[- ]up", r"round|gram"]),
    f("p12", "constraint", "should", "the tests are plain Test::More everywhere", "Tests stay plain Test::More (the box has no Test2 and no Test::Deep).", [r"Test::More|Test2|Test::Deep", r"plain|only|\bno\b|keep"]),
    f("p13", "constraint", "should", "perlcritic at severity 4 has to be clean", "perlcritic at severity 4 must be clean (the pre-commit hook runs it).", [r"perlcritic", r"severity ?4|clean|hook|pre-commit"]),
    f("p14", "error", "should", "Everything passes except the half-up test", "sprintf '%.0f' rounds half to even: test '2.5 g rounds half up to 3' got 2.", [r"half[- ]to[- ]even|banker|sprintf", r"2\.5|round"], "fixed"),
    f("p15", "fix", "should", "Still failing, and for an honest reason", "int($g + 0.5) still gave 2 because 0.0025 kg * 1000 is 2.4999999999999996 in binary; to_grams now rounds to 6 decimals with sprintf('%.6f') and then adds 0.5 and truncates.", [r"2\.4999|binary|floating", r"%\.6f|6 decimals|round"]),
    f("p16", "error", "nice", "\"return\" statement with explicit \"undef\" at line 31", "perlcritic ProhibitExplicitReturnUndef on return undef in normalize_row (a one-element list in list context); changed to a bare return.", [r"return undef|explicit \"?undef|ProhibitExplicitReturnUndef", r"return|perlcritic|Normalize"], "fixed"),
    f("p17", "finding", "should", "perlcritic: the two bin/manifesto findings", "The pre-commit hook (tools/pre-commit, symlinked into .git/hooks) only ran perlcritic lib t, so bin/manifesto's old bareword two-arg open was never checked.", [r"tools/pre-commit|hook", r"\bbin\b|lib t|two-arg|bareword"]),
    f("p18", "request", "should", "the two-arg open in bin/manifesto: fix it", "Fix the two-arg open in bin/manifesto and make the hook check bin/ too: done (three-arg lexical open; tools/pre-commit runs perlcritic lib bin t).", [r"two-arg|three-arg|open|hook", r"bin/manifesto|\bbin\b"], "done"),
    f("p19", "error", "should", "Perl v5.18.0 required--this is only v5.16.3", "cpanm --installdeps into perlbrew 5.16.3 failed: Text-CSV_XS-1.56 needs Perl 5.18; installed Text::CSV_XS@1.35 and Template@2.27 instead (the box's versions).", [r"5\.18|1\.56", r"required|only v5\.16|CSV_XS"], "fixed"),
    f("p20", "value", "should", "Text::CSV_XS 1.56 (newest) needs Perl 5.18. The reporting box has 1.35", "The reporting box has Text::CSV_XS 1.35 and Template 2.27 (cpanfile minimums); the same versions are now in perlbrew perl-5.16.3.", [r"1\.35|2\.27", r"CSV_XS|Template|box|install"]),
    f("p21", "command", "should", "prove -lr t/ 2>&1 | tail -20", "Test on the box's Perl: perlbrew exec --with perl-5.16.3 prove -lr t/.", [r"perlbrew", r"prove|5\.16\.3"]),
    f("p22", "finding", "nice", "01-reader.t skips itself", "t/01-reader.t skips itself (plan skip_all) when Text::CSV_XS is missing, so an 'ok' there can hide a missing module.", [r"skip", r"01-reader|CSV_XS"]),
    f("p23", "error", "should", "The report runs, but Tidewater names come out double-encoded", "Report had double-encoded names (MÃ¼ller) and 'Wide character in print' at Report.pm line 52: rows are now decoded, so Report.pm opens the output with :encoding(UTF-8).", [r"double-encoded|MÃ¼ller|Wide character", r"encoding|UTF-8|Report"], "fixed"),
    f("p24", "value", "should", "Done:\n- perlbrew perl-5.16.3 lacked", "Weekly report over the dpd/gls fixtures and both Tidewater samples: 2103 parcels, total 15,531,742 g (DE 6,114,380 g); 40 tests pass on 5.16.3.", [r"2103|15,?531,?742", r"parcels?|total|report|\bg\b"]),
    f("p25", "decision", "must", "decision: any row where the weight does not look like a plain number dies", "A weight that is not a plain number (e.g. '4 kg') makes the import die with the file name and line number; empty weights keep warn-and-skip.", [r"\bdie|dies|stops?", r"file|line|plain number|non-numeric|not a (plain )?number"]),
    f("p26", "decision", "nice", "I first thought we could warn and continue", "First idea for a bad weight unit was to warn and continue like empty weights; replaced by dying with file and line.", [r"warn(ed|ing)? and continu"], "reversed"),
    f("p27", "fix", "nice", "The reader adds `_file` and `_line` to every row", "The reader adds _file and _line to every row for the error message; t/01-reader.t deletes those keys before is_deeply (it failed on them first).", [r"_file|_line", r"row|reader|01-reader"]),
    f("p28", "request", "nice", "the DHL profile will switch to pounds in August", "DHL switches to pounds in August: the unit must stay easy to change per carrier (it is one unit field per profile); no work today.", [r"DHL", r"August|pounds|\blb\b|unit"], "open"),
    f("p29", "finding", "should", "DHL manifests arrive in /srv/manifests/incoming (41 files)", "There is no dhl profile: the 41 DHL files in /srv/manifests/incoming were never imported by manifesto (carrier_for_file dies on them); Sven copies DHL numbers from their portal by hand.", [r"DHL|dhl", r"never|no (dhl )?profile|unknown carrier|41"]),
    f("p30", "request", "must", "I will ask Sven for a sample file", "Add a DHL carrier profile once Sven provides a sample file: open.", [r"DHL|Sven", r"sample|open|profile|later"], "open"),
    f("p31", "state", "must", "Committed on the new branch `carrier-tidewater` as d47a9b2", "Committed as d47a9b2 on new branch carrier-tidewater (not pushed); working tree clean.", [r"d47a9b2|carrier-tidewater", r"commit|branch"], "done"),
    f("p32", "request", "should", "write the commit message so that the rounding change is visible", "The commit message must make the rounding change visible (int() truncation -> half up): DPD and GLS totals move up by a few grams.", [r"round", r"commit|message|visible|DPD|GLS"], "done"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
