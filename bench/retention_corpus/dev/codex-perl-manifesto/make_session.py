# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout5a split.

A user writing long paragraphs (rules buried mid-paragraph and in parentheses, decisions written
"decision: ...") has Codex add a new carrier (Tidewater Express: semicolon CSV in Windows-1252,
decimal comma, weights in pounds) to a Perl manifest importer, fix gram rounding, and keep
everything working on the server's Perl 5.16.3. prove -lr t/, Test::More failure diagnostics,
perlcritic (severity 4), cpanm, perlbrew. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/ines/work/manifesto"
r = Rollout(CWD, "2026-06-08T07:48:19", seed="manifesto-tidewater", repo_url="git@git.lagerhaus.example:logistics/manifesto.git")

READER = "lib/Manifesto/Reader/CSV.pm"
NORM = "lib/Manifesto/Normalize.pm"
CARR = "lib/Manifesto/Carriers.pm"
REPORT = "lib/Manifesto/Report.pm"
BIN = "bin/manifesto"
T1 = "t/01-reader.t"
T2 = "t/02-normalize.t"
T4 = "t/04-tidewater.t"
CPANFILE = "cpanfile"
CRITIC = ".perlcriticrc"

r.files.update({
    READER: """package Manifesto::Reader::CSV;
use strict;
use warnings;

use Text::CSV_XS;

# read_manifest($path, %opt) -> arrayref of hashrefs keyed by the header row
sub read_manifest {
    my ($path, %opt) = @_;
    my $csv = Text::CSV_XS->new({ binary => 1, sep_char => $opt{sep} || ',', auto_diag => 1 });
    open my $fh, '<', $path or die "cannot open $path: $!\\n";
    my $header = $csv->getline($fh);
    my @rows;
    while (my $row = $csv->getline($fh)) {
        my %h;
        @h{@$header} = @$row;
        push @rows, \\%h;
    }
    close $fh;
    return \\@rows;
}

1;
""",
    NORM: """package Manifesto::Normalize;
use strict;
use warnings;

use Exporter 'import';
our @EXPORT_OK = qw(normalize_row);

# normalize_row($row, $carrier) -> { parcel, consignee, weight_g, country }
sub normalize_row {
    my ($row, $carrier) = @_;
    my $kg = $row->{weight_kg};
    return {
        parcel    => $row->{parcel_id},
        consignee => $row->{consignee},
        weight_g  => int($kg * 1000),
        country   => uc $row->{country},
        carrier   => $carrier,
    };
}

1;
""",
    T2: """use strict;
use warnings;
use Test::More;

use Manifesto::Normalize qw(normalize_row);

my $n = normalize_row({ parcel_id => 'P1', consignee => 'Acme', weight_kg => '1.25', country => 'de' }, 'dpd');
is($n->{weight_g}, 1250, 'kg converted to grams');
is($n->{country}, 'DE', 'country upper-cased');

done_testing;
""",
    CPANFILE: """requires 'Text::CSV_XS', '1.35';
requires 'Template', '2.27';
requires 'DBI';
requires 'DBD::Pg';

on test => sub {
    requires 'Test::More', '0.98';
};
""",
    CRITIC: """severity = 4
verbose = 8

[TestingAndDebugging::RequireUseStrict]
[-Documentation::RequirePodSections]
""",
})

r.files[BIN] = """#!/usr/bin/env perl
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";

use Getopt::Long;
use Manifesto::Reader::CSV;
use Manifesto::Normalize qw(normalize_row);
use Manifesto::Report;

my %CARRIERS = (
    dpd => { sep => ',' },
    gls => { sep => ',' },
);

GetOptions(\\my %opt, 'week=s', 'out=s', 'skip-list=s') or die "usage: manifesto --week YYYY-Www --out report.html FILES\\n";
my %skip;
if ($opt{'skip-list'}) {
    open SKIP, $opt{'skip-list'} or die "cannot open $opt{'skip-list'}: $!\\n";
    while (<SKIP>) { chomp; $skip{$_} = 1 }
    close SKIP;
}
my @parcels;
for my $file (@ARGV) {
    my ($carrier) = $file =~ m{/(dpd|gls)_[^/]+\\.csv$} or die "unknown carrier for $file\\n";
    my $rows = Manifesto::Reader::CSV::read_manifest($file, %{ $CARRIERS{$carrier} });
    push @parcels, grep { !$skip{ $_->{parcel} } } map { normalize_row($_, $carrier) } @$rows;
}
Manifesto::Report::write_html(\\@parcels, $opt{week}, $opt{out});
"""
PROVE_OK = "t/01-reader.t ...... ok\nt/02-normalize.t ... ok\nt/03-report.t ...... ok\nAll tests successful.\nFiles=3, Tests=23,  1 wallclock secs ( 0.03 usr  0.01 sys +  0.41 cusr  0.06 csys =  0.51 CPU)\nResult: PASS\n"


def prove(out: str, code: int = 0, cmd: str = "prove -lr t/", reasoning: str | None = None) -> None:
    r.run(cmd, out, code=code, secs=1.1, reasoning=reasoning)


# ============================================================================================ turn 1
r.user(
    "Good morning. We have a new carrier starting on the first of July, Tidewater Express, and their manifests do not look like anything we import today, so I would like manifesto to read them "
    "and put them into the same weekly report as the others. I put two of their sample files into t/fixtures/tidewater/ (these are real manifests with the names anonymised by their IT, so please "
    "do not edit the fixture files, not even to fix the obvious typos in them, the tests have to live with what the carrier really sends). From what I can see they use semicolons, the weight is "
    "in pounds with a decimal comma, and the names look broken when I open them, so maybe some Windows encoding. Internally we always keep weights as integer grams and that should stay like that. "
    "The script runs on the old reporting box, which has the system perl of RHEL 7 (5.16.3, and no, we cannot upgrade it this year), and whatever modules we use there must be in the cpanfile "
    "already, because ops install from it and a new entry means a ticket and two weeks of waiting. Could you first look at the code and the samples and tell me how you would do it before changing anything?"
)
r.run("ls -R lib bin t | head -40", "lib:\nManifesto\n\nlib/Manifesto:\nNormalize.pm\nReader\nReport.pm\n\nlib/Manifesto/Reader:\nCSV.pm\n\nbin:\nmanifesto\n\nt:\n01-reader.t\n02-normalize.t\n03-report.t\nfixtures\n\nt/fixtures:\ndpd_2026w21.csv\ngls_2026w21.csv\ntidewater\n\nt/fixtures/tidewater:\nTWX_MANIFEST_20260601.csv\nTWX_MANIFEST_20260602.csv\n", reasoning="**Exploring the repository**\n\nLayout, tests and fixtures first.")
r.cat(READER)
r.cat(NORM)
r.run("sed -n 1,60p bin/manifesto", r.files[BIN])
r.run("file t/fixtures/tidewater/*.csv; head -4 t/fixtures/tidewater/TWX_MANIFEST_20260601.csv | iconv -f cp1252 -t utf-8", "t/fixtures/tidewater/TWX_MANIFEST_20260601.csv: ISO-8859 text, with CRLF line terminators\nt/fixtures/tidewater/TWX_MANIFEST_20260602.csv: ISO-8859 text, with CRLF line terminators\nShipment No;Consignee;Dest Ctry;Wt (lb);Pieces\nTWX-0000418;Müller Logistik GmbH;de;12,40;1\nTWX-0000419;Société Générale Transports;FR;3,5;2\nTWX-0000420;Ørsted Kontor – Lager 2;dk;0,25;1\n")
r.say("The Tidewater samples are 8-bit text with CRLF line ends; comparing with the existing dpd/gls fixtures and looking for empty fields next.")
r.run("head -3 t/fixtures/dpd_2026w21.csv; head -2 t/fixtures/gls_2026w21.csv", "parcel_id,consignee,weight_kg,country\n0148800012,Kaffeerösterei Nord,1.250,de\n0148800013,Hof Lindenau,0.480,DE\nparcel_id,consignee,weight_kg,country\n7700412205,Bauhaus Filiale 112,12.300,de\n")
r.run("wc -l t/fixtures/tidewater/*.csv; grep -c ';;' t/fixtures/tidewater/*.csv", "   642 t/fixtures/tidewater/TWX_MANIFEST_20260601.csv\n   644 t/fixtures/tidewater/TWX_MANIFEST_20260602.csv\n  1286 total\nt/fixtures/tidewater/TWX_MANIFEST_20260601.csv:0\nt/fixtures/tidewater/TWX_MANIFEST_20260602.csv:2\n")
r.run("grep -n ';;' t/fixtures/tidewater/TWX_MANIFEST_20260602.csv | iconv -f cp1252 -t utf-8", "311:TWX-0001066;Bäckerei Holm;de;;1\n502:TWX-0001257;Van den Berg BV;NL;;3\n")
r.run("grep -a -c $'\\x96' t/fixtures/tidewater/*.csv", "t/fixtures/tidewater/TWX_MANIFEST_20260601.csv:7\nt/fixtures/tidewater/TWX_MANIFEST_20260602.csv:4\n")
r.run("perl -v | sed -n 2p; ls ~/perl5/perlbrew/perls; cat cpanfile", "This is perl 5, version 36, subversion 0 (v5.36.0) built for x86_64-linux-gnu-thread-multi\nperl-5.16.3\n" + r.files[CPANFILE])
r.cat(CRITIC)
r.run("sed -n 1,20p t/03-report.t", "use strict;\nuse warnings;\nuse Test::More;\n\nuse Manifesto::Reader::CSV;\nuse Manifesto::Normalize qw(normalize_row);\n\nmy $rows = Manifesto::Reader::CSV::read_manifest('t/fixtures/gls_2026w21.csv');\nmy @p;\n    push @p, normalize_row($_, 'gls') for @{ $rows };\nis(scalar @p, 412, 'all gls parcels');\n")
r.run("sed -n 1,15p templates/week.tt", "<h1>Week [% week %]</h1>\n<table class=\"parcels\">\n[% FOREACH p IN parcels %]\n<tr class=\"parcel\"><td>[% p.parcel %]</td><td>[% p.consignee | html %]</td><td>[% p.country %]</td><td>[% p.weight_g %]</td></tr>\n[% END %]\n</table>\n<table class=\"by-country\">\n[% FOREACH c IN by_country.keys.sort %]\n<tr><td>[% c %]</td><td>[% by_country.$c %] g</td></tr>\n[% END %]\n</table>\n")
prove(PROVE_OK)
r.run("git log --oneline -5", "b3e7d10 report: week totals per country\n5a0c2e9 gls: new header names\n1f8d4a3 normalize: upper-case country\nc61e0b2 reader: auto_diag\n08fd7c5 initial import from svn\n")
r.say(
    "Here is what I found and how I'd do it (nothing changed yet).\n\n"
    "What Tidewater sends:\n"
    "- Semicolon-separated, CRLF, encoded Windows-1252 (the `–` en dash is byte 0x96, which is not in ISO-8859-1, so it is cp1252 and not latin1).\n"
    "- Header `Shipment No;Consignee;Dest Ctry;Wt (lb);Pieces`, weight in pounds with a decimal comma (`12,40`, `3,5`), country code sometimes lower case.\n"
    "- 1,284 data rows in the two samples; 2 rows have an empty weight (02.csv lines 311 and 502).\n\n"
    "Plan:\n"
    "1. Keep `Manifesto::Reader::CSV` and give it an `encoding` option (decode while reading, `<:encoding(cp1252)`), so the reader stays one class.\n"
    "2. Move the carrier table out of bin/manifesto into a `Manifesto::Carriers` module: per carrier `sep`, `encoding`, the column mapping and the weight unit.\n"
    "3. `normalize_row` converts lb or kg to integer grams (1 lb = 453.59237 g) with proper rounding; today it truncates with `int()`.\n"
    "4. Tests in a new t/04-tidewater.t against the unmodified fixtures.\n\n"
    "Everything with core Perl plus Text::CSV_XS (already in the cpanfile), and I'll run the tests under perlbrew's 5.16.3 too. Open question: what should happen to the 2 rows with an empty weight?"
)

# ============================================================================================ turn 2
r.user(
    "That is a good plan and I agree with almost all of it. decision: we keep the CSV reader and give it the encoding option, no second reader class, and the carrier table goes into its own "
    "module as you suggest. For the empty weights, the carrier told us these are envelopes that are weighed at the hub, so for now please warn on STDERR with the shipment number and skip the row, "
    "the report must not count them as zero. The rounding: we are billed per gram by the hubs, and our accountant wants the normal school rounding, half up, so 2.5 g becomes 3 g (I know it is silly "
    "for grams, but the invoices are checked against our report). Oh, and the tests are plain Test::More everywhere, please keep it like that (the box has no Test2 and no Test::Deep), and "
    "perlcritic at severity 4 has to be clean because the pre-commit hook runs it."
)
r.say("Starting with the carrier table as its own module, then the reader's encoding option, then normalize_row and a new test file against the untouched fixtures.")
r.patch([("add", CARR, """package Manifesto::Carriers;
use strict;
use warnings;

use Exporter 'import';
our @EXPORT_OK = qw(carrier_for_file profile);

# Per carrier: how to read the file and which column is what.
# unit is the weight unit of the weight column ('kg' or 'lb').
my %PROFILE = (
    dpd => {
        sep => ',', encoding => 'UTF-8', unit => 'kg',
        cols => { parcel => 'parcel_id', consignee => 'consignee', weight => 'weight_kg', country => 'country' },
    },
    gls => {
        sep => ',', encoding => 'UTF-8', unit => 'kg',
        cols => { parcel => 'parcel_id', consignee => 'consignee', weight => 'weight_kg', country => 'country' },
    },
    tidewater => {
        sep => ';', encoding => 'cp1252', unit => 'lb', decimal_comma => 1,
        cols => { parcel => 'Shipment No', consignee => 'Consignee', weight => 'Wt (lb)', country => 'Dest Ctry' },
    },
);

sub profile {
    my ($carrier) = @_;
    return $PROFILE{$carrier} || die "unknown carrier $carrier\\n";
}

# carrier_for_file($path) -> carrier name from the file name
sub carrier_for_file {
    my ($path) = @_;
    return 'tidewater' if $path =~ m{/TWX_MANIFEST_\\d{8}\\.csv$};
    return $1 if $path =~ m{/(dpd|gls)_[^/]+\\.csv$};
    die "unknown carrier for $path\\n";
}

1;
""")], reasoning="**Carrier profiles**\n\nOne module with the table, used by bin/manifesto and normalize.")
r.run("perl -Ilib -c lib/Manifesto/Carriers.pm", "lib/Manifesto/Carriers.pm syntax OK\n")
r.patch([("update", READER, [("""    open my $fh, '<', $path or die "cannot open $path: $!\\n";""", """    my $enc = $opt{encoding} || 'UTF-8';
    open my $fh, "<:encoding($enc)", $path or die "cannot open $path: $!\\n";""")])])
r.patch([("update", NORM, [("""use Exporter 'import';
our @EXPORT_OK = qw(normalize_row);

# normalize_row($row, $carrier) -> { parcel, consignee, weight_g, country }
sub normalize_row {
    my ($row, $carrier) = @_;
    my $kg = $row->{weight_kg};
    return {
        parcel    => $row->{parcel_id},
        consignee => $row->{consignee},
        weight_g  => int($kg * 1000),
        country   => uc $row->{country},
        carrier   => $carrier,
    };
}
""", """use Exporter 'import';
our @EXPORT_OK = qw(normalize_row to_grams);

use Manifesto::Carriers qw(profile);

my %GRAMS_PER = (kg => 1000, lb => 453.59237);

# to_grams($value, $unit) -> integer grams, rounded half up
sub to_grams {
    my ($value, $unit) = @_;
    my $g = $value * ($GRAMS_PER{$unit} || die "unknown weight unit $unit\\n");
    return sprintf '%.0f', $g;
}

# normalize_row($row, $carrier) -> { parcel, consignee, weight_g, country, carrier }, or undef
# when the row has no weight (warned on STDERR, skipped by the caller)
sub normalize_row {
    my ($row, $carrier) = @_;
    my $p = profile($carrier);
    my %c = %{ $p->{cols} };
    my $w = $row->{ $c{weight} };
    if (!defined $w || $w eq '') {
        warn "skipping $row->{ $c{parcel} }: no weight\\n";
        return undef;
    }
    $w =~ tr/,/./ if $p->{decimal_comma};
    return {
        parcel    => $row->{ $c{parcel} },
        consignee => $row->{ $c{consignee} },
        weight_g  => to_grams($w, $p->{unit}),
        country   => uc $row->{ $c{country} },
        carrier   => $carrier,
    };
}
""")])])
r.patch([("add", T4, """use strict;
use warnings;
use Test::More;

use Manifesto::Reader::CSV;
use Manifesto::Normalize qw(normalize_row to_grams);
use Manifesto::Carriers qw(profile);

my $p = profile('tidewater');
my $rows = Manifesto::Reader::CSV::read_manifest('t/fixtures/tidewater/TWX_MANIFEST_20260601.csv', %$p);
is(scalar @$rows, 641, 'all rows of the 06-01 sample read');

my $first = normalize_row($rows->[0], 'tidewater');
is($first->{parcel}, 'TWX-0000418', 'shipment number');
is($first->{consignee}, "M\\x{fc}ller Logistik GmbH", 'cp1252 decoded');
is($first->{country}, 'DE', 'country upper-cased');
is($first->{weight_g}, 5625, '12,40 lb in grams');

is(to_grams(2.5, 'kg') , 2500, 'kg');
is(to_grams(0.0025, 'kg'), 3, '2.5 g rounds half up to 3');
is(to_grams(0.0035, 'kg'), 4, '3.5 g rounds half up to 4');

{
    my @warn;
    local $SIG{__WARN__} = sub { push @warn, @_ };
    my $r2 = Manifesto::Reader::CSV::read_manifest('t/fixtures/tidewater/TWX_MANIFEST_20260602.csv', %$p);
    my @n = grep { defined } map { normalize_row($_, 'tidewater') } @$r2;
    is(scalar @n, 641, 'rows without weight are skipped');
    is(scalar @warn, 2, 'one warning per skipped row');
    like($warn[0], qr/TWX-0001066/, 'warning names the shipment');
}

done_testing;
""")])
r.run("perl -Ilib -MManifesto::Normalize=normalize_row -MData::Dumper -e 'print Dumper(normalize_row({ parcel_id => q(P1), consignee => q(Acme), weight_kg => q(1.25), country => q(de) }, q(dpd)))'", "$VAR1 = {\n          'weight_g' => '1250',\n          'parcel' => 'P1',\n          'consignee' => 'Acme',\n          'carrier' => 'dpd',\n          'country' => 'DE'\n        };\n")
r.sed(T2, 1, 12)
r.run("grep -n 'normalize_row' t/02-normalize.t t/03-report.t", "t/02-normalize.t:5:use Manifesto::Normalize qw(normalize_row);\nt/03-report.t:9:    push @p, normalize_row($_, 'gls') for @{ $rows };\n")
prove("""t/01-reader.t ...... ok
t/02-normalize.t ... ok
t/03-report.t ...... ok
t/04-tidewater.t ... 1/? 
#   Failed test '2.5 g rounds half up to 3'
#   at t/04-tidewater.t line 20.
#          got: '2'
#     expected: '3'
# Looks like you failed 1 test of 11.
t/04-tidewater.t ... Dubious, test returned 1 (wstat 256, 0x100)
Failed 1/11 subtests 

Test Summary Report
-------------------
t/04-tidewater.t (Wstat: 256 Tests: 11 Failed: 1)
  Failed test:  7
  Non-zero exit status: 1
Files=4, Tests=36,  1 wallclock secs ( 0.03 usr  0.01 sys +  0.52 cusr  0.07 csys =  0.63 CPU)
Result: FAIL
""", code=1)
r.run("git status --short", " M lib/Manifesto/Normalize.pm\n M lib/Manifesto/Reader/CSV.pm\n?? lib/Manifesto/Carriers.pm\n?? t/04-tidewater.t\n")
r.say(
    "Everything passes except the half-up test: `2.5 g rounds half up to 3` got '2'. `sprintf '%.0f'` rounds half to even (2.5 -> 2, 3.5 -> 4), which is the banker's rounding your accountant does not want. "
    "The 12,40 lb row is right (5624.545 g -> 5625) and the cp1252 decoding works (`Müller`). Switching to `int($g + 0.5)` (weights are never negative)."
)
r.patch([("update", NORM, [("""    return sprintf '%.0f', $g;""", """    # half up, as the hub invoices do; sprintf '%.0f' would round half to even (2.5 -> 2)
    return int($g + 0.5);""")])])
prove("""t/01-reader.t ...... ok
t/02-normalize.t ... ok
t/03-report.t ...... ok
t/04-tidewater.t ... 1/? 
#   Failed test '2.5 g rounds half up to 3'
#   at t/04-tidewater.t line 20.
#          got: '2'
#     expected: '3'
# Looks like you failed 1 test of 11.
t/04-tidewater.t ... Dubious, test returned 1 (wstat 256, 0x100)
Failed 1/11 subtests 

Test Summary Report
-------------------
t/04-tidewater.t (Wstat: 256 Tests: 11 Failed: 1)
  Failed test:  7
  Non-zero exit status: 1
Files=4, Tests=36,  1 wallclock secs ( 0.04 usr  0.00 sys +  0.55 cusr  0.06 csys =  0.65 CPU)
Result: FAIL
""", code=1)
r.run("perl -e 'printf qq(%.20f\\n), 0.0025 * 1000'", "2.49999999999999955591\n")
r.say(
    "Still failing, and for an honest reason: 0.0025 kg * 1000 is 2.4999999999999996 in binary floating point, so `int($g + 0.5)` gives 2. "
    "The inputs are decimal strings from the CSV, so I'll scale in decimal first: round the product to 6 decimals with `sprintf '%.6f'` (that removes the binary noise) and then do half up on that. "
)
r.patch([("update", NORM, [("""    # half up, as the hub invoices do; sprintf '%.0f' would round half to even (2.5 -> 2)
    return int($g + 0.5);""", """    # half up, as the hub invoices do; sprintf '%.0f' would round half to even (2.5 -> 2).
    # Round to 6 decimals first: 0.0025 * 1000 is 2.4999999999999996 in binary.
    return int(sprintf('%.6f', $g) + 0.5);""")])])
prove("t/01-reader.t ...... ok\nt/02-normalize.t ... ok\nt/03-report.t ...... ok\nt/04-tidewater.t ... ok\nAll tests successful.\nFiles=4, Tests=36,  1 wallclock secs ( 0.04 usr  0.01 sys +  0.56 cusr  0.07 csys =  0.68 CPU)\nResult: PASS\n")
r.run("prove -lv t/04-tidewater.t 2>&1 | sed -n 1,14p", "t/04-tidewater.t .. \nok 1 - all rows of the 06-01 sample read\nok 2 - shipment number\nok 3 - cp1252 decoded\nok 4 - country upper-cased\nok 5 - 12,40 lb in grams\nok 6 - kg\nok 7 - 2.5 g rounds half up to 3\nok 8 - 3.5 g rounds half up to 4\nok 9 - rows without weight are skipped\nok 10 - one warning per skipped row\nok 11 - warning names the shipment\n1..11\nok\n")
r.run("perlcritic lib bin t/04-tidewater.t", """lib/Manifesto/Normalize.pm: [Subroutines::ProhibitExplicitReturnUndef] "return" statement with explicit "undef" at line 31, column 9.  See page 199 of PBP.  (Severity: 5)
bin/manifesto: [InputOutput::ProhibitBarewordFileHandles] Bareword file handle opened at line 20, column 5.  See pages 202,204 of PBP.  (Severity: 5)
bin/manifesto: [InputOutput::ProhibitTwoArgOpen] Two-argument "open" used at line 20, column 5.  See page 207 of PBP.  (Severity: 5)
""", code=2)
r.run("git stash -q && perlcritic lib bin; echo rc=$?; git stash pop -q", "bin/manifesto: [InputOutput::ProhibitBarewordFileHandles] Bareword file handle opened at line 20, column 5.  See pages 202,204 of PBP.  (Severity: 5)\nbin/manifesto: [InputOutput::ProhibitTwoArgOpen] Two-argument \"open\" used at line 20, column 5.  See page 207 of PBP.  (Severity: 5)\nrc=2\n")
r.run("ls -la .git/hooks/pre-commit; cat tools/pre-commit", "lrwxrwxrwx 1 ines ines 19 Mar  3 10:12 .git/hooks/pre-commit -> ../../tools/pre-commit\n#!/bin/sh\n# installed with: ln -s ../../tools/pre-commit .git/hooks/pre-commit\nset -e\nperlcritic lib t\nprove -lr t/\n")
r.sed(NORM, 20, 42)
r.say(
    "perlcritic: the two bin/manifesto findings (bareword handle and two-arg `open` at line 20) were there before me (same on the stashed tree); the pre-commit hook (tools/pre-commit, symlinked into .git/hooks) only runs `perlcritic lib t`, so it never saw bin/. "
    "Mine is `return undef;` in normalize_row for the empty-weight case: in list context that returns a one-element list `(undef)`, which is exactly why the policy exists. A bare `return;` is correct there (the `map` in the caller then gets an empty list)."
)
r.patch([("update", NORM, [("""        warn "skipping $row->{ $c{parcel} }: no weight\\n";
        return undef;""", """        warn "skipping $row->{ $c{parcel} }: no weight\\n";
        return;""")])])
r.run("perlcritic lib t/04-tidewater.t && echo critic ok", "lib/Manifesto/Normalize.pm source OK\nlib/Manifesto/Carriers.pm source OK\nlib/Manifesto/Reader/CSV.pm source OK\nlib/Manifesto/Report.pm source OK\nt/04-tidewater.t source OK\ncritic ok\n")
prove("t/01-reader.t ...... ok\nt/02-normalize.t ... ok\nt/03-report.t ...... ok\nt/04-tidewater.t ... ok\nAll tests successful.\nFiles=4, Tests=36,  1 wallclock secs ( 0.04 usr  0.00 sys +  0.55 cusr  0.07 csys =  0.66 CPU)\nResult: PASS\n")
r.say(
    "Status:\n"
    "- `Manifesto::Carriers` (new) has the dpd/gls/tidewater profiles: sep, encoding, unit, column names; tidewater is `;`, cp1252, lb, decimal comma.\n"
    "- The reader got the `encoding` option; still the one reader class, as decided.\n"
    "- `to_grams` rounds half up (not `sprintf '%.0f'`, which is half-to-even; plus a 6-decimal step against binary noise: 0.0025 kg was 2.4999999999999996 g).\n"
    "- Rows without weight: warning `skipping TWX-...: no weight` on STDERR, not counted (2 rows in the 06-02 sample).\n"
    "- prove -lr t/: 4 files, 36 tests pass. perlcritic (severity 4, .perlcriticrc) is clean for lib and t; bin/manifesto still has the old bareword two-arg `open` (pre-existing; the hook only checks lib and t)."
)

# ============================================================================================ turn 3
r.user(
    "Thank you, that rounding story is exactly the kind of thing the accountant would have found in September. Now please check it on 5.16.3 as well, perlbrew has it (it is called perl-5.16.3 there, "
    "and the modules from the cpanfile are installed into it with cpanm, if something is missing install it with cpanm from the cpanfile only). Then wire it into bin/manifesto so that I can run the "
    "weekly report with the two samples, and the two-arg open in bin/manifesto: fix it while you are in there, I would rather have the hook check bin/ too."
)
r.say("Running the suite under perlbrew's perl-5.16.3 first, then bin/manifesto.")
r.run("perlbrew list; ssh reportbox 'perl -v | sed -n 2p'", "  perl-5.16.3\n* perl-5.36.0 (system)\nThis is perl 5, version 16, subversion 3 (v5.16.3) built for x86_64-linux-thread-multi\n")
r.run("perlbrew exec --with perl-5.16.3 prove -lr t/ 2>&1 | tail -20", """perl-5.16.3
==========
t/01-reader.t ...... ok
t/02-normalize.t ... ok
t/03-report.t ...... ok
t/04-tidewater.t ... Can't locate Text/CSV_XS.pm in @INC (@INC contains: /home/ines/work/manifesto/lib /home/ines/perl5/perlbrew/perls/perl-5.16.3/lib/site_perl/5.16.3/x86_64-linux /home/ines/perl5/perlbrew/perls/perl-5.16.3/lib/site_perl/5.16.3 /home/ines/perl5/perlbrew/perls/perl-5.16.3/lib/5.16.3/x86_64-linux /home/ines/perl5/perlbrew/perls/perl-5.16.3/lib/5.16.3 .) at lib/Manifesto/Reader/CSV.pm line 5.
BEGIN failed--compilation failed at lib/Manifesto/Reader/CSV.pm line 5.
Compilation failed in require at t/04-tidewater.t line 5.
BEGIN failed--compilation failed at t/04-tidewater.t line 5.
# Looks like your test exited with 2 before it could output anything.
t/04-tidewater.t ... Dubious, test returned 2 (wstat 512, 0x200)
No subtests run 
""", code=1)
r.run("perlbrew exec --with perl-5.16.3 perl -MText::CSV_XS -e 'print $Text::CSV_XS::VERSION' 2>&1 | tail -2; grep -n 'skip_all\\|CSV_XS' t/01-reader.t | head -3", "perl-5.16.3\n==========\nCan't locate Text/CSV_XS.pm in @INC (you may need to install the Text::CSV_XS module) (@INC contains: ...).\n3:plan skip_all => 'Text::CSV_XS not installed' unless eval { require Text::CSV_XS; 1 };\n")
r.say("Text::CSV_XS is not installed in the perlbrew 5.16.3 (01-reader.t skips itself when it's missing, which is why it said ok). It is in the cpanfile, so installing from there with cpanm as you said.")
r.run("perlbrew exec --with perl-5.16.3 cpanm --installdeps --notest . 2>&1 | tail -8", """perl-5.16.3
==========
--> Working on .
Configuring /home/ines/work/manifesto ... OK
==> Found dependencies: Text::CSV_XS, Template
--> Working on Text::CSV_XS
Fetching http://www.cpan.org/authors/id/H/HM/HMBRAND/Text-CSV_XS-1.56.tgz ... OK
Configuring Text-CSV_XS-1.56 ... N/A
! Configure failed for Text-CSV_XS-1.56. See /home/ines/.cpanm/work/1749369120.48211/build.log for details.
""", code=1)
r.run("grep -m3 -i 'perl v5\\|requires\\|error' /home/ines/.cpanm/work/1749369120.48211/build.log", "Perl v5.18.0 required--this is only v5.16.3, stopped at Makefile.PL line 8.\nBEGIN failed--compilation failed at Makefile.PL line 8.\n")
r.run("cat ~/.cpanm/latest-build/build.log | sed -n 1,3p; ssh reportbox 'perl -MText::CSV_XS -e \"print \\$Text::CSV_XS::VERSION\"'", "cpanm (App::cpanminus) 1.7047 on perl 5.016003 built for x86_64-linux\nWork directory is /home/ines/.cpanm/work/1749369120.48211\nYou have make /usr/bin/make\n1.35")
r.say(
    "Text::CSV_XS 1.56 (newest) needs Perl 5.18. The reporting box has 1.35 (the cpanfile minimum). Installing exactly that version into the perlbrew perl, so the local 5.16.3 matches the box."
)
r.run("perlbrew exec --with perl-5.16.3 cpanm --notest Text::CSV_XS@1.35 Template@2.27 2>&1 | tail -4", "perl-5.16.3\n==========\nSuccessfully installed Text-CSV_XS-1.35\nSuccessfully installed Template-Toolkit-2.27\n2 distributions installed\n")
r.run("perlbrew exec --with perl-5.16.3 prove -lr t/ 2>&1 | tail -12", """perl-5.16.3
==========
t/01-reader.t ...... ok
t/02-normalize.t ... ok
t/03-report.t ...... ok
t/04-tidewater.t ... ok
All tests successful.
Files=4, Tests=40,  1 wallclock secs ( 0.05 usr  0.01 sys +  0.61 cusr  0.08 csys =  0.75 CPU)
Result: PASS
""")
r.run("grep -rn -- '->@\\*\\|->%\\*\\|sub [a-z_]* (\\$' lib bin t | head", "")
r.cat(BIN)
r.patch([("update", BIN, [("""use Manifesto::Reader::CSV;
use Manifesto::Normalize qw(normalize_row);
use Manifesto::Report;

my %CARRIERS = (
    dpd => { sep => ',' },
    gls => { sep => ',' },
);
""", """use Manifesto::Reader::CSV;
use Manifesto::Normalize qw(normalize_row);
use Manifesto::Carriers qw(carrier_for_file profile);
use Manifesto::Report;
"""), ("""    open SKIP, $opt{'skip-list'} or die "cannot open $opt{'skip-list'}: $!\\n";
    while (<SKIP>) { chomp; $skip{$_} = 1 }
    close SKIP;""", """    open my $skip_fh, '<', $opt{'skip-list'} or die "cannot open $opt{'skip-list'}: $!\\n";
    while (my $line = <$skip_fh>) { chomp $line; $skip{$line} = 1 }
    close $skip_fh;"""), ("""    my ($carrier) = $file =~ m{/(dpd|gls)_[^/]+\\.csv$} or die "unknown carrier for $file\\n";
    my $rows = Manifesto::Reader::CSV::read_manifest($file, %{ $CARRIERS{$carrier} });
    push @parcels, grep { !$skip{ $_->{parcel} } } map { normalize_row($_, $carrier) } @$rows;""", """    my $carrier = carrier_for_file($file);
    my $rows = Manifesto::Reader::CSV::read_manifest($file, %{ profile($carrier) });
    push @parcels, grep { defined && !$skip{ $_->{parcel} } } map { normalize_row($_, $carrier) } @$rows;""")])])
r.run("perl -Ilib bin/manifesto --week 2026-W23 --out /tmp/w23.html t/fixtures/dpd_2026w21.csv t/fixtures/gls_2026w21.csv t/fixtures/tidewater/*.csv", "skipping TWX-0001066: no weight\nskipping TWX-0001257: no weight\nWide character in print at lib/Manifesto/Report.pm line 52.\n")
r.run("grep -o 'M[^<]*Logistik GmbH' /tmp/w23.html | head -2; file /tmp/w23.html", "MÃ¼ller Logistik GmbH\nMÃ¼ller Logistik GmbH\n/tmp/w23.html: HTML document, UTF-8 Unicode text\n")
r.files[REPORT] = """package Manifesto::Report;
use strict;
use warnings;

use Template;

sub write_html {
    my ($parcels, $week, $out) = @_;
    my %by_country;
    $by_country{ $_->{country} } += $_->{weight_g} for @$parcels;
    my $tt = Template->new({ INCLUDE_PATH => 'templates' }) or die Template->error;
    my $html = '';
    $tt->process('week.tt', { week => $week, parcels => $parcels, by_country => \\%by_country }, \\$html)
        or die $tt->error;
    open my $fh, '>', $out or die "cannot write $out: $!\\n";
    print {$fh} $html;
    close $fh;
    return;
}

1;
"""
r.cat(REPORT)
r.say(
    "The report runs, but Tidewater names come out double-encoded (`MÃ¼ller`) with a `Wide character in print` warning: the reader now decodes cp1252 into Perl characters, and Report.pm prints to a handle without an encoding layer. "
    "The old dpd/gls files were read as bytes and printed as bytes, so this never showed. Now everything is decoded (UTF-8 for dpd/gls via the profile), so the output handle needs `:encoding(UTF-8)`."
)
r.patch([("update", REPORT, [("""    open my $fh, '>', $out or die "cannot write $out: $!\\n";""", """    # parcels hold decoded characters (the reader decodes per carrier profile)
    open my $fh, '>:encoding(UTF-8)', $out or die "cannot write $out: $!\\n";""")])])
r.run("perl -Ilib bin/manifesto --week 2026-W23 --out /tmp/w23.html t/fixtures/dpd_2026w21.csv t/fixtures/gls_2026w21.csv t/fixtures/tidewater/*.csv && grep -o 'M[^<]*Logistik GmbH' /tmp/w23.html | head -1; grep -c '<tr class=\"parcel\"' /tmp/w23.html", "skipping TWX-0001066: no weight\nskipping TWX-0001257: no weight\nMüller Logistik GmbH\n2103\n")
r.run("time perl -Ilib bin/manifesto --week 2026-W23 --out /tmp/w23.html t/fixtures/dpd_2026w21.csv t/fixtures/gls_2026w21.csv t/fixtures/tidewater/*.csv 2>/dev/null", "\nreal\t0m0.412s\nuser\t0m0.371s\nsys\t0m0.036s\n")
r.run("grep -A8 'by-country' /tmp/w23.html | sed 's/<[^>]*>/ /g' | tr -s ' ' | head -8", " DE 6 114 380 g\n FR 1 902 117 g\n NL 2 877 450 g\n DK 611 804 g\n AT 1 004 221 g\n PL 3 021 770 g\n Total 15 531 742 g\n")
r.run("grep -rn 'templates' lib/Manifesto/Report.pm; ls templates", "lib/Manifesto/Report.pm:11:    my $tt = Template->new({ INCLUDE_PATH => 'templates' }) or die Template->error;\nweek.tt\n")
r.run("sed -i 's/^perlcritic lib t$/perlcritic lib bin t/' tools/pre-commit && grep -n perlcritic tools/pre-commit && perlcritic lib bin t && echo critic ok", "4:perlcritic lib bin t\nlib/Manifesto/Normalize.pm source OK\nlib/Manifesto/Carriers.pm source OK\nlib/Manifesto/Reader/CSV.pm source OK\nlib/Manifesto/Report.pm source OK\nbin/manifesto source OK\nt/01-reader.t source OK\nt/02-normalize.t source OK\nt/03-report.t source OK\nt/04-tidewater.t source OK\ncritic ok\n")
prove("t/01-reader.t ...... ok\nt/02-normalize.t ... ok\nt/03-report.t ...... ok\nt/04-tidewater.t ... ok\nAll tests successful.\nFiles=4, Tests=40,  1 wallclock secs ( 0.04 usr  0.01 sys +  0.57 cusr  0.07 csys =  0.68 CPU)\nResult: PASS\n")
r.run("perlbrew exec --with perl-5.16.3 prove -lr t/ 2>&1 | tail -2", "Files=4, Tests=40,  1 wallclock secs ( 0.05 usr  0.01 sys +  0.60 cusr  0.07 csys =  0.72 CPU)\nResult: PASS\n")
r.say(
    "Done:\n"
    "- perlbrew perl-5.16.3 lacked Text::CSV_XS; the newest (1.56) needs Perl 5.18, so I installed exactly Text::CSV_XS 1.35 and Template 2.27 (the cpanfile minimums, which is what the reporting box has). On 5.16.3: 4 files, 40 tests pass (01-reader.t had been skipping itself before).\n"
    "- bin/manifesto uses `Manifesto::Carriers` (`carrier_for_file`, `profile`), drops rows without weight, and the bareword two-arg `open` for `--skip-list` is now a three-arg lexical open. tools/pre-commit now runs `perlcritic lib bin t`, and that is clean.\n"
    "- Report.pm writes with `:encoding(UTF-8)`: Tidewater names were double-encoded (`MÃ¼ller`) before.\n"
    "- Weekly report with the two dpd/gls fixtures and both Tidewater samples: 2103 parcels, total 15,531,742 g (DE 6,114,380 g)."
)

r.user("Before the next thing, a quick question: is your perlbrew 5.16.3 now the same as the box, module-wise? I don't want a test that passes on your machine and dies there.")
r.run("for m in Text::CSV_XS Template DBI DBD::Pg; do printf '%s ' $m; ssh reportbox \"perl -M$m -e 'print \\$$m::VERSION'\" 2>/dev/null || printf 'missing'; printf ' / '; perlbrew exec --with perl-5.16.3 perl -M$m -e \"print \\$$m::VERSION\" 2>/dev/null | tail -1 || printf 'missing'; echo; done", "Text::CSV_XS 1.35 / 1.35\nTemplate 2.27 / 2.27\nDBI 1.627 / missing\nDBD::Pg 2.19.3 / missing\n")
r.say(
    "For what the tests and the report use, yes: Text::CSV_XS 1.35 and Template 2.27 on both. DBI (1.627 on the box) and DBD::Pg (2.19.3) are not installed in my perlbrew 5.16.3; nothing in lib/ or t/ loads them today (they are for the loader script in ops' repo), so it does not matter for this change. "
    "If a future test touches the database, those two need installing at the box's versions first."
)

# ============================================================================================ turn 4
r.user(
    "Very nice. I showed the numbers to Jorge from the hub and he had one more thing: sometimes Tidewater sends a weight with a unit that is not pounds, last month one file had \"4 kg\" in the weight "
    "column (the weight was in kilos), and with a different file it could as well be a plain number in kilos that our import would silently read as pounds. I first thought we could warn and continue like for the empty weights, but Jorge is right that "
    "a wrong weight is worse than no report, so decision: any row where the weight does not look like a plain number dies with the file name and line number, and the empty-weight rows keep the warning "
    "and skip behaviour. Also (and this is for the future, no work today) the DHL profile will switch to pounds in August, so the unit should be easy to change per carrier, which I think it already is."
)
r.run("grep -n 'kg\\|KG' t/fixtures/tidewater/*.csv | head -3", "")
r.patch([("update", NORM, [("""    $w =~ tr/,/./ if $p->{decimal_comma};""", """    $w =~ tr/,/./ if $p->{decimal_comma};
    # a wrong weight is worse than no report: anything but a plain number stops the import
    die "bad weight '$w' for $row->{ $c{parcel} }" . ($row->{_line} ? " at line $row->{_line}" : '') . "\\n"
        if $w !~ /\\A\\d+(?:\\.\\d+)?\\z/;""")])])
r.patch([("update", READER, [("""    my @rows;
    while (my $row = $csv->getline($fh)) {
        my %h;
        @h{@$header} = @$row;
        push @rows, \\%h;
    }""", """    my @rows;
    while (my $row = $csv->getline($fh)) {
        my %h;
        @h{@$header} = @$row;
        $h{_file} = $path;
        $h{_line} = $.;
        push @rows, \\%h;
    }""")])])
r.patch([("update", NORM, [("""    die "bad weight '$w' for $row->{ $c{parcel} }" . ($row->{_line} ? " at line $row->{_line}" : '') . "\\n"
        if $w !~ /\\A\\d+(?:\\.\\d+)?\\z/;""", """    die "bad weight '$w' for $row->{ $c{parcel} } in $row->{_file} line $row->{_line}\\n"
        if $w !~ /\\A\\d+(?:\\.\\d+)?\\z/;""")])])
r.run("printf 'Shipment No;Consignee;Dest Ctry;Wt (lb);Pieces\\r\\nTWX-9;A;de;4 kg;1\\r\\n' > /tmp/bad.csv && perl -Ilib -MManifesto::Reader::CSV -MManifesto::Normalize=normalize_row -e 'normalize_row($_, q(tidewater)) for @{ Manifesto::Reader::CSV::read_manifest(q(/tmp/bad.csv), sep => q(;), encoding => q(cp1252)) }'", "bad weight '4 kg' for TWX-9 in /tmp/bad.csv line 2\n", code=255)
r.patch([("update", T4, [("""done_testing;""", """{
    my $bad = { 'Shipment No' => 'TWX-X', Consignee => 'A', 'Dest Ctry' => 'de', 'Wt (lb)' => '4 kg', _file => 'x.csv', _line => 7 };
    eval { normalize_row($bad, 'tidewater'); 1 };
    like($@, qr/bad weight '4 kg' for TWX-X in x\\.csv line 7/, 'non-numeric weight dies with file and line');
}

done_testing;""")])])
prove("""t/01-reader.t ...... 1/? 
#   Failed test 'rows as hashes'
#   at t/01-reader.t line 14.
#     Structures begin differing at:
#          $got->[0]{_file} = 't/fixtures/dpd_2026w21.csv'
#     $expected->[0]{_file} = Does not exist
# Looks like you failed 1 test of 6.
t/01-reader.t ...... Dubious, test returned 1 (wstat 256, 0x100)
Failed 1/6 subtests 
t/02-normalize.t ... ok
t/03-report.t ...... ok
t/04-tidewater.t ... ok

Test Summary Report
-------------------
t/01-reader.t (Wstat: 256 Tests: 6 Failed: 1)
  Failed test:  1
  Non-zero exit status: 1
Files=4, Tests=41,  1 wallclock secs ( 0.04 usr  0.01 sys +  0.58 cusr  0.07 csys =  0.70 CPU)
Result: FAIL
""", code=1)
r.files[T1] = """use strict;
use warnings;
use Test::More;
plan skip_all => 'Text::CSV_XS not installed' unless eval { require Text::CSV_XS; 1 };

use Manifesto::Reader::CSV;

my $rows = Manifesto::Reader::CSV::read_manifest('t/fixtures/dpd_2026w21.csv');
is_deeply(
    $rows->[0],
    { parcel_id => '0148800012', consignee => 'Kaffeerösterei Nord', weight_kg => '1.250', country => 'de' },
    'rows as hashes'
);
"""
r.sed(T1, 8, 13)
r.say("01-reader.t compares a whole row with `is_deeply`, and the row now carries `_file` and `_line`. Those keys are bookkeeping, so I'll delete them in the test's comparison rather than change what the test means.")
r.patch([("update", T1, [("""is_deeply(
    $rows->[0],""", """my %first = %{ $rows->[0] };
delete @first{qw(_file _line)};
is_deeply(
    \\%first,""")])])
prove("t/01-reader.t ...... ok\nt/02-normalize.t ... ok\nt/03-report.t ...... ok\nt/04-tidewater.t ... ok\nAll tests successful.\nFiles=4, Tests=41,  1 wallclock secs ( 0.04 usr  0.01 sys +  0.58 cusr  0.07 csys =  0.69 CPU)\nResult: PASS\n")
r.run("perlbrew exec --with perl-5.16.3 prove -lr t/ 2>&1 | tail -1; perlcritic lib bin t | grep -v 'source OK'", "Result: PASS\n")
r.say(
    "Done: a weight that is not a plain number (after the decimal comma is turned into a point) now dies with `bad weight '4 kg' for TWX-X in x.csv line 7`; empty weights still warn and skip. The reader adds `_file` and `_line` to every row for that message; t/01-reader.t ignores those keys. "
    "41 tests pass on 5.36 and 5.16.3, perlcritic clean.\n\n"
    "About DHL in August: yes, the unit is one field per carrier in `Manifesto::Carriers` (`unit => 'kg'` -> `'lb'`), nothing else changes. There is no `dhl` profile yet though, DHL files go through... let me check."
)
r.run("cut -d';' -f5 t/fixtures/tidewater/*.csv | sort | uniq -c | sort -rn | head -4", "   1081 1\n    141 2\n     47 3\n     13 4\n")
r.run("grep -rln 'dhl' lib bin t; ls /srv/manifests/incoming | sed 's/_.*//' | sort | uniq -c", "     41 dhl\n     52 dpd\n     49 gls\n")
r.say(
    "DHL manifests arrive in /srv/manifests/incoming (41 files), but nothing in manifesto knows a `dhl` carrier: `carrier_for_file` dies with `unknown carrier` for them, as the old regex in bin/manifesto did. So DHL has never been in this report; whoever runs the weekly job must be passing only dpd and gls files. "
    "Adding a DHL profile needs their header names; I've not done anything about it."
)

# ============================================================================================ turn 5
r.user(
    "Oh, that is news to me, the DHL numbers come from their own portal and Sven copies them into the spreadsheet by hand, so it was never in manifesto, fine. I will ask Sven for a sample file and "
    "we add the DHL profile when I have it (so it stays open for now). Please commit what we have on a branch, carrier-tidewater, one commit is fine, and write the commit message so that the rounding "
    "change is visible, because the DPD and GLS totals will move by a few grams and someone will ask."
)
r.run("git switch -c carrier-tidewater && git add -A lib bin t && git status --short", "Switched to a new branch 'carrier-tidewater'\nM  bin/manifesto\nA  lib/Manifesto/Carriers.pm\nM  lib/Manifesto/Normalize.pm\nM  lib/Manifesto/Reader/CSV.pm\nM  lib/Manifesto/Report.pm\nM  t/01-reader.t\nA  t/04-tidewater.t\n")
r.run("git stash -q -- lib/Manifesto/Normalize.pm 2>/dev/null || true; git diff --cached --stat | tail -1", " 7 files changed, 142 insertions(+), 21 deletions(-)\n")
r.run("git commit -q -F - <<'EOF'\nTidewater Express carrier; weights rounded half up to grams\n\n- Manifesto::Carriers: per-carrier profile (separator, encoding, unit, columns);\n  tidewater is ';', cp1252, pounds with a decimal comma.\n- Reader decodes per profile; report written as UTF-8.\n- Rows without weight: warning and skipped. Non-numeric weight: dies with file and line.\n- ROUNDING CHANGE: weights were truncated with int(); now rounded half up to whole\n  grams (as the hub invoices). DPD and GLS totals move up by a few grams.\n- bin/manifesto: three-arg open for --skip-list.\nEOF\ngit log --oneline -2", "d47a9b2 Tidewater Express carrier; weights rounded half up to grams\nb3e7d10 report: week totals per country\n")
r.run("git log --format=%B -1 | head -3", "Tidewater Express carrier; weights rounded half up to grams\n\n- Manifesto::Carriers: per-carrier profile (separator, encoding, unit, columns);\n")
r.run("git show --stat HEAD | tail -9", " bin/manifesto               | 19 ++++----\n lib/Manifesto/Carriers.pm   | 42 +++++++++++++++++\n lib/Manifesto/Normalize.pm  | 41 ++++++++++++-----\n lib/Manifesto/Reader/CSV.pm |  6 ++-\n lib/Manifesto/Report.pm     |  3 +-\n t/01-reader.t               |  6 ++-\n t/04-tidewater.t            | 47 +++++++++++++++++++\n 7 files changed, 142 insertions(+), 21 deletions(-)\n")
r.run("git stash list", "stash@{0}: WIP on main: b3e7d10 report: week totals per country\n")
r.run("git stash show -p stash@{0} | head -5", "diff --git a/lib/Manifesto/Normalize.pm b/lib/Manifesto/Normalize.pm\nindex 4c1e2a8..9f30b6d 100644\n--- a/lib/Manifesto/Normalize.pm\n+++ b/lib/Manifesto/Normalize.pm\n")
r.run("git diff stash@{0} HEAD -- lib/Manifesto/Normalize.pm | head -3; echo rc=$?", "rc=0\n")
r.run("git stash drop -q && git status --short && git log --oneline -1", "d47a9b2 Tidewater Express carrier; weights rounded half up to grams\n")
r.say(
    "Committed on the new branch `carrier-tidewater` as d47a9b2 (not pushed); the message calls out the rounding change (int() truncation -> half up) and that DPD/GLS totals move by a few grams.\n\n"
    "One slip to own up to: I ran a `git stash -- lib/Manifesto/Normalize.pm` by mistake before the commit, but the staged version had already gone into the index, so the commit has the full Normalize.pm; I checked the stash was identical to HEAD and dropped it. Working tree is clean.\n\n"
    "Still open: the DHL profile, waiting for Sven's sample file."
)
r.user("Thanks, that was a productive morning.")
r.say("You're welcome. Summary of where it stands: branch carrier-tidewater at d47a9b2, 41 tests on 5.36 and 5.16.3, perlcritic clean for lib, bin and t; DHL profile open until a sample arrives.")

r.save(HERE / "session.jsonl")
