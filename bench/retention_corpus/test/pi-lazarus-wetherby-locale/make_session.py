# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a pi v3 session written by hand for the heldout8a split.

A British lab engineer who phrases every constraint softly ("might be worth not touching…",
"I'd rather we didn't…") has pi fix locale-dependent parsing in wetherby, a Free Pascal / Lazarus
logger for temperature chambers, and add a daily summary export. fpcunit console runner,
lazbuild, make. The summary's separator preference is changed back later.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/gareth/dev/wetherby"
s = PiSession(CWD, "2026-11-26T10:14:00", seed="wetherby-locale")

PARSE = "src/chamberparse.pas"
TPARSE = "tests/tcchamberparse.pas"
SUMM = "src/dailysummary.pas"
TSUMM = "tests/tcdailysummary.pas"
CLI = "cli/wetherbycli.lpr"
TRUNNER = "tests/testrunner.lpr"
MK = "Makefile"

s.files.update({
    MK: """LAZBUILD ?= lazbuild

.PHONY: all gui cli test clean

all: gui cli

gui:
\t$(LAZBUILD) --build-mode=Release wetherby.lpi

cli:
\t$(LAZBUILD) --build-mode=Release cli/wetherbycli.lpi

test:
\t$(LAZBUILD) tests/testrunner.lpi
\t./bin/testrunner --all --format=plain

clean:
\trm -rf lib bin/*
""",
    PARSE: """unit chamberparse;

{$mode objfpc}{$H+}

interface

uses
  SysUtils;

type
  TReading = record
    Chamber: string;
    Stamp: TDateTime;
    TempC: Double;
    RelHum: Double;
  end;

function ParseLine(const Line: string; out R: TReading): Boolean;

implementation

function ParseLine(const Line: string; out R: TReading): Boolean;
var
  Parts: TStringArray;
begin
  Result := False;
  Parts := Line.Split([',']);
  if Length(Parts) <> 4 then
    Exit;
  R.Chamber := Trim(Parts[0]);
  R.Stamp := StrToDateTime(Trim(Parts[1]));
  R.TempC := StrToFloat(Trim(Parts[2]));
  R.RelHum := StrToFloat(Trim(Parts[3]));
  Result := True;
end;

end.
""",
    TPARSE: """unit tcchamberparse;

{$mode objfpc}{$H+}

interface

uses
  Classes, SysUtils, fpcunit, testregistry, chamberparse;

type
  TTestChamberParse = class(TTestCase)
  published
    procedure TestGoodLine;
    procedure TestTooFewFields;
    procedure TestNegativeTemp;
  end;

implementation

procedure TTestChamberParse.TestGoodLine;
var
  R: TReading;
begin
  AssertTrue(ParseLine('C3, 2026-11-20 14:05:00, 21.5, 44.0', R));
  AssertEquals('C3', R.Chamber);
  AssertEquals(21.5, R.TempC, 1e-9);
end;

procedure TTestChamberParse.TestTooFewFields;
var
  R: TReading;
begin
  AssertFalse(ParseLine('C3, 2026-11-20 14:05:00, 21.5', R));
end;

procedure TTestChamberParse.TestNegativeTemp;
var
  R: TReading;
begin
  AssertTrue(ParseLine('F1, 2026-11-20 14:05:00, -18.25, 12.0', R));
  AssertEquals(-18.25, R.TempC, 1e-9);
end;

initialization
  RegisterTest(TTestChamberParse);
end.
""",
})

# ===================================================================== turn 1
s.user(
    "Morning. Bit of a puzzle on the wetherby logger. On the two new lab PCs (the ones Sabine set up, German Windows) the CLI falls over on every line of the chamber logs with an EConvertError, while on our old machines it's fine. I suspect the decimal separator, but I haven't looked properly.\n\n"
    "A few things, if you don't mind. It might be worth not touching the .lfm files by hand; the Lazarus form designer gets rather upset when they're edited outside it. I'd rather we didn't move past FPC 3.2.2 either, the lab PCs are on Lazarus 3.4 with 3.2.2 and I'd rather not chase an upgrade this month. And we keep {$mode objfpc} throughout, please, not delphi mode.\n\n"
    "Tests are fpcunit, `make test` runs them."
)
s.bash("git log --oneline -5; git status --short; ls; ls src tests cli", """e41b7a2 cli: --since filter
9c03d11 gui: chart per chamber (TAChart)
77fa2e0 chamberparse: split on comma
3b1e9c4 tests: fpcunit console runner
10ad5f8 initial
Makefile
README.md
bin
cli
data
src
tests
wetherby.lpi
wetherby.lpr
mainform.lfm
mainform.pas
cli:
wetherbycli.lpi
wetherbycli.lpr
src:
chamberparse.pas
chamberstore.pas
tests:
tcchamberparse.pas
testrunner.lpi
testrunner.lpr""")
s.bash("fpc -iV; lazbuild --version", """3.2.2
3.4""")
s.read(MK)
s.read(PARSE)
s.read(TPARSE)
s.bash("make test 2>&1 | tail -8", """(lazbuild) Building tests/testrunner.lpi
Linking bin/testrunner
29 lines compiled, 0.2 sec
 Time:00.001 N:3 E:0 F:0 I:0
  TTestChamberParse Time:00.001 N:3 E:0 F:0 I:0
    00.000  TestGoodLine
    00.000  TestTooFewFields
    00.000  TestNegativeTemp""")
s.bash("head -3 data/2026-11-20.log; wc -l data/2026-11-20.log", """C3, 2026-11-20 00:00:00, 21.48, 44.1
F1, 2026-11-20 00:00:00, -18.31, 11.9
C3, 2026-11-20 00:05:00, 21.52, 44.0
1152 data/2026-11-20.log""")
s.assistant(
    "Baseline: FPC 3.2.2, lazbuild 3.4, 3 fpcunit tests pass. `ParseLine` uses `StrToDateTime` and `StrToFloat` with no format settings, so both go through `DefaultFormatSettings`, which on Windows comes from the user locale. On a German locale `DecimalSeparator` is ',' and `DateSeparator` is '.', so '21.48' and '2026-11-20 00:00:00' both fail. Let me reproduce it in a test by switching the default settings to German-style ones."
)
s.edit(TPARSE, """    procedure TestNegativeTemp;
  end;""", """    procedure TestNegativeTemp;
    procedure TestGermanLocale;
  end;""")
s.edit(TPARSE, """initialization""", """procedure TTestChamberParse.TestGermanLocale;
var
  R: TReading;
  Saved: TFormatSettings;
begin
  Saved := DefaultFormatSettings;
  try
    DefaultFormatSettings.DecimalSeparator := ',';
    DefaultFormatSettings.ThousandSeparator := '.';
    DefaultFormatSettings.DateSeparator := '.';
    DefaultFormatSettings.ShortDateFormat := 'dd.mm.yyyy';
    AssertTrue(ParseLine('C3, 2026-11-20 14:05:00, 21.5, 44.0', R));
    AssertEquals(21.5, R.TempC, 1e-9);
    AssertEquals('2026-11-20 14:05', FormatDateTime('yyyy-mm-dd hh:nn', R.Stamp));
  finally
    DefaultFormatSettings := Saved;
  end;
end;

initialization""")
s.bash("make test 2>&1 | tail -12", """(lazbuild) Building tests/testrunner.lpi
Linking bin/testrunner
 Time:00.002 N:4 E:1 F:0 I:0
  TTestChamberParse Time:00.002 N:4 E:1 F:0 I:0
    00.000  TestGoodLine
    00.000  TestTooFewFields
    00.000  TestNegativeTemp
    00.001  Error: TestGermanLocale
      Exception:   "2026-11-20 14:05:00" is not a valid date format
      Exception class:   EConvertError

Number of run tests: 4
Number of errors:    1""", code=2)
s.assistant("Reproduced, and it's the date that goes first: `\"2026-11-20 14:05:00\" is not a valid date format` (EConvertError), before the float is even reached. Fix: a private `TFormatSettings` with '.' as decimal separator for the numbers, and `ScanDateTime('yyyy-mm-dd hh:nn:ss', …)` from DateUtils for the stamp, which does not depend on the locale at all.")
s.edit(PARSE, """uses
  SysUtils;
""", """uses
  SysUtils, DateUtils;
""")
s.edit(PARSE, """implementation

function ParseLine(const Line: string; out R: TReading): Boolean;
var
  Parts: TStringArray;
begin
  Result := False;
  Parts := Line.Split([',']);
  if Length(Parts) <> 4 then
    Exit;
  R.Chamber := Trim(Parts[0]);
  R.Stamp := StrToDateTime(Trim(Parts[1]));
  R.TempC := StrToFloat(Trim(Parts[2]));
  R.RelHum := StrToFloat(Trim(Parts[3]));
  Result := True;
end;""", """implementation

var
  LogFormat: TFormatSettings; // the chamber logs always use '.' whatever the PC's locale

function ParseLine(const Line: string; out R: TReading): Boolean;
var
  Parts: TStringArray;
  T, H: Single;
begin
  Result := False;
  Parts := Line.Split([',']);
  if Length(Parts) <> 4 then
    Exit;
  R.Chamber := Trim(Parts[0]);
  try
    R.Stamp := ScanDateTime('yyyy-mm-dd hh:nn:ss', Trim(Parts[1]));
  except
    on EConvertError do
      Exit;
  end;
  if not TryStrToFloat(Trim(Parts[2]), T, LogFormat) then
    Exit;
  if not TryStrToFloat(Trim(Parts[3]), H, LogFormat) then
    Exit;
  R.TempC := T;
  R.RelHum := H;
  Result := True;
end;

initialization
  LogFormat := DefaultFormatSettings;
  LogFormat.DecimalSeparator := '.';
  LogFormat.ThousandSeparator := #0;""")
s.bash("make test 2>&1 | grep -E 'Error|Fatal|N:' | head -6", """chamberparse.pas(45,41) Error: Call by var for arg no. 2 has to match exactly: Got "Single" expected "Double"
chamberparse.pas(47,41) Error: Call by var for arg no. 2 has to match exactly: Got "Single" expected "Double"
chamberparse.pas(59) Fatal: There were 2 errors compiling module, stopping""", code=2)
s.assistant("`Call by var for arg no. 2 has to match exactly: Got \"Single\" expected \"Double\"`: I declared the temporaries as Single; TryStrToFloat's var overloads in 3.2.2 are Double/Extended. They should be Double anyway, to match TReading.")
s.edit(PARSE, """  T, H: Single;""", """  T, H: Double;""")
s.bash("make test 2>&1 | tail -8", """ Time:00.002 N:4 E:0 F:0 I:0
  TTestChamberParse Time:00.002 N:4 E:0 F:0 I:0
    00.000  TestGoodLine
    00.000  TestTooFewFields
    00.000  TestNegativeTemp
    00.001  TestGermanLocale

Number of run tests: 4""")
s.bash("make cli 2>&1 | tail -3 && LANG=de_DE.UTF-8 ./bin/wetherbycli data/2026-11-20.log | tail -3", """(lazbuild) Building cli/wetherbycli.lpi
Linking bin/wetherbycli
156 lines compiled, 0.4 sec
F1  2026-11-20 23:55  -18,29 °C  12,0 %
C3  2026-11-20 23:55   21,50 °C  44,2 %
1152 readings, 0 rejected""")
s.assistant("Parser fixed: 4/4, and the CLI reads all 1152 lines of data/2026-11-20.log under LANG=de_DE.UTF-8 (output formatting stays in the PC's locale, '−18,29 °C', which I assume is what the lab wants on screen). Note a malformed number or date now makes `ParseLine` return False (counted as rejected) instead of raising.")

# ===================================================================== turn 2
s.user(
    "Splendid, that's exactly it. Screen output in the local style is right, yes.\n\n"
    "While you're in there: the lab would quite like a daily summary per chamber — min, max and mean temperature and humidity — written to a CSV they can open in Excel. Given the German PCs, semicolon-separated would probably be kinder. Perhaps as a `--summary` switch on the CLI, writing next to the log as `<log>.summary.csv`. I'd rather we didn't pull in any new packages for it; the build server has a fairly bare Lazarus."
)
s.bash("grep -n 'ParamStr\\|HasOption\\|GetOptionValue\\|since' cli/wetherbycli.lpr | head -12", """12:  TWetherbyCli = class(TCustomApplication)
31:  ErrorMsg := CheckOptions('hs:', ['help', 'since:']);
38:  if HasOption('s', 'since') then
39:    Since := ScanDateTime('yyyy-mm-dd', GetOptionValue('s', 'since'))
52:  LogPath := GetNonOptionParameters[0];""")
s.bash("sed -n 52,80p cli/wetherbycli.lpr", """  LogPath := GetNonOptionParameters[0];
  Lines := TStringList.Create;
  try
    Lines.LoadFromFile(LogPath);
    for Line in Lines do
      if ParseLine(Line, R) then
      begin
        if R.Stamp < Since then
          Continue;
        WriteLn(Format('%-3s %s %7.2f °C %5.1f %%', [R.Chamber, FormatDateTime('yyyy-mm-dd hh:nn', R.Stamp), R.TempC, R.RelHum]));
        Inc(Good);
      end
      else
        Inc(Bad);
    WriteLn(Format('%d readings, %d rejected', [Good, Bad]));
  finally
    Lines.Free;
  end;
  Terminate;""")
s.write(SUMM, """unit dailysummary;

{$mode objfpc}{$H+}

interface

uses
  Classes, SysUtils, Generics.Collections, chamberparse;

type
  TStat = record
    Count: Integer;
    MinT, MaxT, SumT: Double;
    MinH, MaxH, SumH: Double;
  end;

  { Per (chamber, day) statistics; keys are 'C3|2026-11-20'. }
  TDailySummary = class
  private
    FStats: specialize TDictionary<string, TStat>;
  public
    constructor Create;
    destructor Destroy; override;
    procedure Add(const R: TReading);
    { CSV with '.' decimals regardless of locale; Sep is the field separator. }
    procedure WriteCsv(const Path: string; Sep: Char);
  end;

implementation

var
  CsvFormat: TFormatSettings;

constructor TDailySummary.Create;
begin
  FStats := specialize TDictionary<string, TStat>.Create;
end;

destructor TDailySummary.Destroy;
begin
  FStats.Free;
  inherited;
end;

procedure TDailySummary.Add(const R: TReading);
var
  Key: string;
  S: TStat;
begin
  Key := R.Chamber + '|' + FormatDateTime('yyyy-mm-dd', R.Stamp);
  if not FStats.TryGetValue(Key, S) then
  begin
    S.Count := 0;
    S.MinT := R.TempC; S.MaxT := R.TempC; S.SumT := 0;
    S.MinH := R.RelHum; S.MaxH := R.RelHum; S.SumH := 0;
  end;
  Inc(S.Count);
  if R.TempC < S.MinT then S.MinT := R.TempC;
  if R.TempC > S.MaxT then S.MaxT := R.TempC;
  if R.RelHum < S.MinH then S.MinH := R.RelHum;
  if R.RelHum > S.MaxH then S.MaxH := R.RelHum;
  S.SumT := S.SumT + R.TempC;
  S.SumH := S.SumH + R.RelHum;
  FStats.AddOrSetValue(Key, S);
end;

procedure TDailySummary.WriteCsv(const Path: string; Sep: Char);
var
  Out: TStringList;
  Keys: specialize TList<string>;
  Key: string;
  S: TStat;
  Parts: TStringArray;
begin
  Out := TStringList.Create;
  Keys := specialize TList<string>.Create(FStats.Keys);
  try
    Keys.Sort;
    Out.Add(string.Join(Sep, ['chamber', 'day', 'n', 'min_c', 'max_c', 'mean_c', 'min_rh', 'max_rh', 'mean_rh']));
    for Key in Keys do
    begin
      S := FStats[Key];
      Parts := Key.Split(['|']);
      Out.Add(string.Join(Sep, [Parts[0], Parts[1], IntToStr(S.Count),
        FormatFloat('0.00', S.MinT, CsvFormat), FormatFloat('0.00', S.MaxT, CsvFormat), FormatFloat('0.00', S.SumT / S.Count, CsvFormat),
        FormatFloat('0.0', S.MinH, CsvFormat), FormatFloat('0.0', S.MaxH, CsvFormat), FormatFloat('0.0', S.SumH / S.Count, CsvFormat)]));
    end;
    Out.SaveToFile(Path);
  finally
    Keys.Free;
    Out.Free;
  end;
end;

initialization
  CsvFormat := DefaultFormatSettings;
  CsvFormat.DecimalSeparator := '.';
end.
""")
s.write(TSUMM, """unit tcdailysummary;

{$mode objfpc}{$H+}

interface

uses
  Classes, SysUtils, fpcunit, testregistry, chamberparse, dailysummary;

type
  TTestDailySummary = class(TTestCase)
  published
    procedure TestMinMaxMean;
  end;

implementation

procedure TTestDailySummary.TestMinMaxMean;
var
  S: TDailySummary;
  R: TReading;
  Csv: TStringList;
  Path: string;
begin
  S := TDailySummary.Create;
  Csv := TStringList.Create;
  Path := GetTempFileName;
  try
    ParseLine('C3, 2026-11-20 00:00:00, 21.0, 40.0', R); S.Add(R);
    ParseLine('C3, 2026-11-20 12:00:00, 23.0, 50.0', R); S.Add(R);
    ParseLine('C3, 2026-11-21 00:00:00, 19.0, 45.0', R); S.Add(R);
    S.WriteCsv(Path, ';');
    Csv.LoadFromFile(Path);
    AssertEquals(3, Csv.Count);
    AssertEquals('C3;2026-11-20;2;21.00;23.00;22.00;40.0;50.0;45.0', Csv[1]);
    AssertEquals('C3;2026-11-21;1;19.00;19.00;19.00;45.0;45.0;45.0', Csv[2]);
  finally
    DeleteFile(Path);
    Csv.Free;
    S.Free;
  end;
end;

initialization
  RegisterTest(TTestDailySummary);
end.
""")
s.bash("grep -n 'uses' -A3 tests/testrunner.lpr; grep -n 'OtherUnitFiles' tests/testrunner.lpi cli/wetherbycli.lpi", """5:uses
6-  Classes, consoletestrunner, tcchamberparse;
7-
tests/testrunner.lpi:18:        <OtherUnitFiles Value="../src"/>
cli/wetherbycli.lpi:21:        <OtherUnitFiles Value="../src"/>""")
s.bash("sed -i 's/consoletestrunner, tcchamberparse;/consoletestrunner, tcchamberparse, tcdailysummary;/' tests/testrunner.lpr && make test 2>&1 | grep -E 'Error|Fatal|N:|Failure|Expected|Test' | head -12", """ Time:00.003 N:5 E:0 F:1 I:0
  TTestChamberParse Time:00.001 N:4 E:0 F:0 I:0
    00.000  TestGoodLine
    00.000  TestTooFewFields
    00.000  TestNegativeTemp
    00.001  TestGermanLocale
  TTestDailySummary Time:00.002 N:1 E:0 F:1 I:0
    00.002  Failure: TestMinMaxMean
      Expected: "C3;2026-11-20;2;21.00;23.00;22.00;40.0;50.0;45.0" But was: "C3;2026-11-20;2;21.00;23.00;44.00;40.0;50.0;90.0\"""", code=2)
s.assistant("Mean is double: 44.00 instead of 22.00, 90.0 instead of 45.0. The first reading of a key sets Min/Max and zero sums, then falls through and adds itself... that's right. Oh: `S.Count := 0` and then `Inc(S.Count)` gives 1 for the first; fine. The sum is initialised to 0 and then added once. Hmm, unless `TryGetValue` on a miss leaves S untouched and... it would still work. Let me look at what the test feeds in.")
s.bash("make test 2>&1 | grep -c Linking; grep -n 'ParseLine' tests/tcdailysummary.pas", """1
29:    ParseLine('C3, 2026-11-20 00:00:00, 21.0, 40.0', R); S.Add(R);
30:    ParseLine('C3, 2026-11-20 12:00:00, 23.0, 50.0', R); S.Add(R);
31:    ParseLine('C3, 2026-11-21 00:00:00, 19.0, 45.0', R); S.Add(R);""")
s.assistant("The test is fine too, so the sums must be right and the division wrong: `S.SumT / S.Count` with Count 2 → 22. Unless Count is 1... Count IS 1 for the 20th if the two readings land on different keys, but then there'd be 3 data rows plus header = 4, and the test saw 3. I'm going round in circles: the record `S` is a stale copy. `TryGetValue` with `out`-like semantics in FPC's Generics.Collections returns `Default(TStat)` on a miss... no, wait — on a *hit* the copy is fine too. Let me print rather than reason.")
s.write("/tmp/dbg.lpr", """program dbg;
{$mode objfpc}{$H+}
uses SysUtils, chamberparse, dailysummary;
var S: TDailySummary; R: TReading;
begin
  S := TDailySummary.Create;
  ParseLine('C3, 2026-11-20 00:00:00, 21.0, 40.0', R); WriteLn(R.TempC:0:2, ' ', R.RelHum:0:1); S.Add(R);
  ParseLine('C3, 2026-11-20 12:00:00, 23.0, 50.0', R); WriteLn(R.TempC:0:2, ' ', R.RelHum:0:1); S.Add(R);
  S.WriteCsv('/tmp/dbg.csv', ';');
end.
""")
s.bash("fpc -Fusrc -FE/tmp -o/tmp/dbg /tmp/dbg.lpr >/dev/null && /tmp/dbg && cat /tmp/dbg.csv", """21.00 40.0
23.00 50.0
chamber;day;n;min_c;max_c;mean_c;min_rh;max_rh;mean_rh
C3;2026-11-20;2;21.00;23.00;22.00;40.0;50.0;45.0""")
s.assistant("Standalone it's correct: 22.00 / 45.0. So in the test runner the difference is... `GetTempFileName`: the runner's earlier test leaves nothing there, but `Csv[1]` reading 44.00 means the file had different data. And it does: `TestGermanLocale` ran first... no, it restores DefaultFormatSettings. Look again at the failing line: n=2 with mean 44 means sum 88 = 21+23+21+23: the same two readings added twice. The test file has no duplicate... but `make test` only relinked, and `Linking` appears once: the runner binary is built from a stale `lib/` object of tcdailysummary from my first sed+build where — no. I'd better do a clean build before theorising further.")
s.bash("make clean && make test 2>&1 | grep -E 'N:|Failure|Expected' | head -5", """ Time:00.003 N:5 E:0 F:0 I:0
  TTestChamberParse Time:00.001 N:4 E:0 F:0 I:0
  TTestDailySummary Time:00.002 N:1 E:0 F:0 I:0""")
s.bash("ls -la lib/x86_64-linux/ 2>/dev/null | head -3; git check-ignore -v lib; grep -n 'UnitOutputDirectory' tests/testrunner.lpi cli/wetherbycli.lpi", """total 0
.gitignore:1:lib/	lib
tests/testrunner.lpi:17:        <UnitOutputDirectory Value="../lib/$(TargetCPU)-$(TargetOS)"/>
cli/wetherbycli.lpi:20:        <UnitOutputDirectory Value="../lib/$(TargetCPU)-$(TargetOS)"/>""")
s.assistant(
    "After `make clean` it passes, 5/5. The cause: the test runner and the CLI share one unit output directory, `lib/$(TargetCPU)-$(TargetOS)`, and the CLI build earlier and my edits since left `.ppu`/`.o` files there; my best guess is that lazbuild linked a stale compiled unit. I can't prove that from here; what I can say is that a clean build is green and the code as it stands is right.\n\n"
    "To make this less likely: give the runner and the CLI separate output dirs (`lib/tests/...`, `lib/cli/...`) in their .lpi files. That's an .lpi edit, not .lfm; shall I?"
)

# ===================================================================== turn 3
s.user(
    "Hmm, I'd rather we didn't fiddle with the .lpi output paths today, the build server's scripts know where things land. Just make `make test` do a clean first; slower, but honest.\n\n"
    "And, sorry to be a pain, Sabine's just told me the LIMS import on those PCs wants plain commas after all, it ignores Excel's regional settings entirely. So commas, not semicolons. Decimal point stays a point."
)
s.edit(MK, """test:
\t$(LAZBUILD) tests/testrunner.lpi""", """test: clean
\t$(LAZBUILD) tests/testrunner.lpi""")
s.edit(TSUMM, """    S.WriteCsv(Path, ';');
    Csv.LoadFromFile(Path);
    AssertEquals(3, Csv.Count);
    AssertEquals('C3;2026-11-20;2;21.00;23.00;22.00;40.0;50.0;45.0', Csv[1]);
    AssertEquals('C3;2026-11-21;1;19.00;19.00;19.00;45.0;45.0;45.0', Csv[2]);""", """    S.WriteCsv(Path, ',');
    Csv.LoadFromFile(Path);
    AssertEquals(3, Csv.Count);
    AssertEquals('chamber,day,n,min_c,max_c,mean_c,min_rh,max_rh,mean_rh', Csv[0]);
    AssertEquals('C3,2026-11-20,2,21.00,23.00,22.00,40.0,50.0,45.0', Csv[1]);
    AssertEquals('C3,2026-11-21,1,19.00,19.00,19.00,45.0,45.0,45.0', Csv[2]);""")
s.files[CLI] = """program wetherbycli;
{$mode objfpc}{$H+}
uses
  Classes, SysUtils, DateUtils, CustApp, chamberparse;

type
  TWetherbyCli = class(TCustomApplication)
  protected
    procedure DoRun; override;
  end;

procedure TWetherbyCli.DoRun;
var
  ErrorMsg, LogPath, Line: string;
  Lines: TStringList;
  R: TReading;
  Since: TDateTime;
  Good, Bad: Integer;
begin
  ErrorMsg := CheckOptions('hs:', ['help', 'since:']);
  if ErrorMsg <> '' then
  begin
    WriteLn(ErrorMsg);
    Terminate;
    Exit;
  end;
  Since := 0;
  Good := 0;
  Bad := 0;
  if HasOption('s', 'since') then
    Since := ScanDateTime('yyyy-mm-dd', GetOptionValue('s', 'since'));
  LogPath := GetNonOptionParameters[0];
  Lines := TStringList.Create;
  try
    Lines.LoadFromFile(LogPath);
    for Line in Lines do
      if ParseLine(Line, R) then
      begin
        if R.Stamp < Since then
          Continue;
        WriteLn(Format('%-3s %s %7.2f °C %5.1f %%', [R.Chamber, FormatDateTime('yyyy-mm-dd hh:nn', R.Stamp), R.TempC, R.RelHum]));
        Inc(Good);
      end
      else
        Inc(Bad);
    WriteLn(Format('%d readings, %d rejected', [Good, Bad]));
  finally
    Lines.Free;
  end;
  Terminate;
end;

var
  App: TWetherbyCli;
begin
  App := TWetherbyCli.Create(nil);
  App.Run;
  App.Free;
end.
"""
s.edit(CLI, """  ErrorMsg := CheckOptions('hs:', ['help', 'since:']);""", """  ErrorMsg := CheckOptions('hs:S', ['help', 'since:', 'summary']);""")
s.edit(CLI, """    WriteLn(Format('%d readings, %d rejected', [Good, Bad]));""", """    WriteLn(Format('%d readings, %d rejected', [Good, Bad]));
    if HasOption('S', 'summary') then
    begin
      Summary.WriteCsv(LogPath + '.summary.csv', ',');
      WriteLn('summary: ', LogPath + '.summary.csv');
    end;""")
s.bash("grep -n 'Inc(Good)' cli/wetherbycli.lpr && sed -i 's/        Inc(Good);/        Inc(Good);\\n        Summary.Add(R);/' cli/wetherbycli.lpr && sed -i 's/^uses$/uses dailysummary,/' cli/wetherbycli.lpr && grep -n 'Summary\\|dailysummary' cli/wetherbycli.lpr", """62:        Inc(Good);
3:uses dailysummary,
63:        Summary.Add(R);
67:    if HasOption('S', 'summary') then
69:      Summary.WriteCsv(LogPath + '.summary.csv', ',');""")
s.bash("make cli 2>&1 | grep -E 'Error|Fatal|Linking' | head -4", """wetherbycli.lpr(63,9) Error: Identifier not found "Summary"
wetherbycli.lpr(69,7) Error: Identifier not found "Summary"
wetherbycli.lpr(91) Fatal: There were 2 errors compiling module, stopping""", code=2)
s.assistant("Forgot to declare and create `Summary`. Adding `Summary: TDailySummary` to DoRun's vars, created before the loop and freed in the finally.")
s.bash("sed -i 's/^  Lines: TStringList;$/  Lines: TStringList;\\n  Summary: TDailySummary;/; s/^  Lines := TStringList.Create;$/  Lines := TStringList.Create;\\n  Summary := TDailySummary.Create;/; s/^    Lines.Free;$/    Summary.Free;\\n    Lines.Free;/' cli/wetherbycli.lpr && make cli 2>&1 | grep -E 'Error|Fatal|Linking|compiled'", """Linking bin/wetherbycli
161 lines compiled, 0.4 sec""")
s.bash("./bin/wetherbycli --summary data/2026-11-20.log | tail -2 && cat data/2026-11-20.log.summary.csv", """1152 readings, 0 rejected
summary: data/2026-11-20.log.summary.csv
chamber,day,n,min_c,max_c,mean_c,min_rh,max_rh,mean_rh
C3,2026-11-20,288,21.31,21.74,21.50,43.2,45.1,44.1
C4,2026-11-20,288,37.02,37.19,37.10,58.9,61.8,60.2
F1,2026-11-20,288,-18.62,-17.94,-18.30,11.4,12.6,12.0
F2,2026-11-20,288,-80.41,-79.57,-80.02,4.1,5.0,4.6""")
s.bash("make test 2>&1 | grep -E 'N:|Failure|Error' | head -4", """ Time:00.003 N:5 E:0 F:0 I:0
  TTestChamberParse Time:00.001 N:4 E:0 F:0 I:0
  TTestDailySummary Time:00.002 N:1 E:0 F:0 I:0""")
s.bash("LANG=de_DE.UTF-8 ./bin/wetherbycli --summary data/2026-11-20.log >/dev/null && sed -n 2p data/2026-11-20.log.summary.csv && rm data/2026-11-20.log.summary.csv", """C3,2026-11-20,288,21.31,21.74,21.50,43.2,45.1,44.1""")
s.assistant(
    "Done:\n- `make test` now depends on `clean` (5/5 from a clean build).\n- Summary CSV is comma-separated with '.' decimals, also under LANG=de_DE.UTF-8. `wetherbycli --summary <log>` writes `<log>.summary.csv`; on data/2026-11-20.log: 4 chambers × 288 readings, e.g. F2 −80.41…−79.57 °C, mean −80.02.\n- New unit src/dailysummary.pas (Generics.Collections from the FPC RTL, no new Lazarus packages), test tests/tcdailysummary.pas, registered in tests/testrunner.lpr.\n- No .lfm or .lpi touched; still {$mode objfpc}."
)

# ===================================================================== turn 4
s.user("Lovely. Might be worth a quick check that the GUI still builds, since it uses chamberparse too, and then commit on a branch, fix/locale-parsing. No need to push, I'll have a look at it this afternoon.")
s.bash("make gui 2>&1 | grep -E 'Error|Warning|Fatal|Linking|compiled' | head -6", """mainform.pas(88,24) Warning: Implicit string type conversion from "AnsiString" to "WideString"
mainform.pas(141,5) Error: Identifier not found "StrToDateTime"
mainform.pas(176) Fatal: There were 1 errors compiling module, stopping""", code=2)
s.bash("sed -n 136,144p mainform.pas; grep -n '^uses' -A3 mainform.pas | head -5; git stash -q && make gui 2>&1 | grep -E 'Error|Linking'; git stash pop -q", """procedure TMainForm.SinceEditChange(Sender: TObject);
begin
  if SinceEdit.Text = '' then Exit;
  FSince := StrToDateTime(SinceEdit.Text);
  RefreshChart;
end;
5:uses
6-  Classes, SysUtils, Forms, Controls, Graphics, Dialogs, ExtCtrls, StdCtrls,
7-  TAGraph, TASeries, chamberparse;
mainform.pas(141,5) Error: Identifier not found "StrToDateTime"
""", code=0)
s.assistant(
    "The GUI error isn't ours: with my changes stashed, main fails the same way (`mainform.pas(141,5) Error: Identifier not found \"StrToDateTime\"`). The line numbers are odd for a SysUtils function that is plainly in the uses clause... unless a unit later in the uses list shadows SysUtils' scope. TAGraph? No, it would then be 'wrong number of parameters'. Let me look at the exact line 141."
)
s.bash("sed -n 139,142p mainform.pas | cat -A | head -4", """  if SinceEdit.Text = '' then Exit;$
  FSince := StrToDateTime(SinceEdit.Text);$
  RefreshChart;$
end;$""")
s.bash("git log --oneline -3 -- mainform.pas; git show 9c03d11 --stat | tail -3; grep -rn 'StrToDateTime' ~/.lazarus/ 2>/dev/null | head -2; lazbuild --build-mode=Release wetherby.lpi --verbose 2>&1 | grep -i 'Using unit path\\|mainform.pas(141' | head -3", """9c03d11 gui: chart per chamber (TAChart)
10ad5f8 initial
 mainform.lfm | 212 ++++++++++++++
 mainform.pas | 176 ++++++++++++
 2 files changed, 388 insertions(+)
Using unit path: /home/gareth/dev/wetherby/src/
Using unit path: /home/gareth/dev/wetherby/
mainform.pas(141,5) Error: Identifier not found "StrToDateTime\"""", code=0)
s.assistant("I'm stuck on why the compiler says SysUtils' StrToDateTime isn't found at column 5 of line 141, which is `FSince :=`. That column points at the assignment target, not the call. I'd rather not guess further in a form file you've asked me not to hand-edit around. What I can say: it fails identically on main before my changes, so my branch doesn't make the GUI worse. Want me to leave it and commit?")
s.user("Ah, that'll be my fault; FSince was a local I moved into the form class in the designer yesterday and didn't save the .pas. Leave it, I'll sort it in the IDE. Commit what you've got.")
s.bash("git switch -c fix/locale-parsing && git add src/chamberparse.pas src/dailysummary.pas tests/tcchamberparse.pas tests/tcdailysummary.pas tests/testrunner.lpr cli/wetherbycli.lpr Makefile && git commit -qm 'chamberparse: locale-independent parsing (ScanDateTime, fixed TFormatSettings); CLI --summary daily CSV; make test cleans first' && git status --short && git log --oneline -1", """d8a3f50 chamberparse: locale-independent parsing (ScanDateTime, fixed TFormatSettings); CLI --summary daily CSV; make test cleans first""")
s.assistant("Committed d8a3f50 on fix/locale-parsing (parser, daily summary, tests, CLI, Makefile). Not pushed. The GUI build failure at mainform.pas:141 (FSince) is left for you in the IDE; it predates this branch.")

s.save(HERE / "session.jsonl")
print("tool calls:", s.calls)

META = {
    "title": "wetherby (Free Pascal/Lazarus chamber logger): locale-independent log parsing (ScanDateTime + fixed TFormatSettings) for German lab PCs, CLI --summary daily CSV (commas after a semicolon detour), make test cleans first; d8a3f50 on fix/locale-parsing, GUI FSince error left to the user",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8a test split",
    "voice": "British lab engineer, understated, constraints phrased softly (\"might be worth not touching…\", \"I'd rather we didn't…\"); changes the CSV separator back",
    "toolchain": "FPC 3.2.2, Lazarus 3.4 lazbuild, fpcunit console runner, make, Generics.Collections, TAChart GUI",
}
COMPACTIONS = [
    ("Parser fixed: 4/4, and the CLI reads all 1152 lines", 1000),
    ("After `make clean` it passes, 5/5. The cause", 1000),
    ("The GUI error isn't ours: with my changes stashed", 800),
]
FACTS = [
    f("w01", "request", "must", "the CLI falls over on every line of the chamber logs with an EConvertError", "Fix the wetherby CLI failing with EConvertError on every log line on the two new German-locale Windows lab PCs (suspected decimal separator).", [r"EConvertError|German|locale", r"parse|separator|CLI|lab PC|fail"], "done"),
    f("w02", "constraint", "must", "It might be worth not touching the .lfm files by hand", "Do not hand-edit the .lfm files (the Lazarus form designer gets upset).", [r"\.lfm|form", r"touch|hand|edit|designer"]),
    f("w03", "constraint", "must", "I'd rather we didn't move past FPC 3.2.2 either", "Stay on FPC 3.2.2: lab PCs run Lazarus 3.4 with FPC 3.2.2, no upgrade this month.", [r"3\.2\.2", r"FPC|upgrade|stay|Lazarus"]),
    f("w04", "constraint", "should", "we keep {$mode objfpc} throughout, please, not delphi mode", "Keep {$mode objfpc} throughout, not delphi mode.", [r"objfpc", r"mode|delphi"]),
    f("w05", "command", "must", "make test 2>&1 | grep -E 'N:|Failure|Error' | head -4", "Tests: make test (lazbuild tests/testrunner.lpi, then ./bin/testrunner --all --format=plain; now cleans first); latest 5/5 (N:5 E:0 F:0).", [r"make test"]),
    f("w06", "finding", "must", "On a German locale `DecimalSeparator` is ','", "Cause: ParseLine used StrToDateTime/StrToFloat with DefaultFormatSettings, which on Windows follow the user locale (German: DecimalSeparator ',' and DateSeparator '.'), so dates and numbers failed.", [r"DefaultFormatSettings|DecimalSeparator|DateSeparator|locale", r"German|StrToFloat|StrToDateTime|','|comma"]),
    f("w07", "error", "should", "Exception:   \"2026-11-20 14:05:00\" is not a valid date format", "New TestGermanLocale reproduced it: EConvertError '\"2026-11-20 14:05:00\" is not a valid date format' (the date fails before the float).", [r"not a valid date format|TestGermanLocale", r"date|EConvertError|German"], "fixed"),
    f("w08", "fix", "must", "Fix: a private `TFormatSettings` with '.' as decimal separator", "Fix in src/chamberparse.pas: ScanDateTime('yyyy-mm-dd hh:nn:ss') from DateUtils for the stamp and TryStrToFloat with a private LogFormat TFormatSettings (DecimalSeparator '.'); bad fields make ParseLine return False (counted as rejected) instead of raising.", [r"ScanDateTime|TFormatSettings|LogFormat|TryStrToFloat", r"locale|'\.'|decimal|date|separator"]),
    f("w09", "error", "nice", "chamberparse.pas(45,41) Error: Call by var", "Compile error: 'Call by var for arg no. 2 has to match exactly: Got Single expected Double' for TryStrToFloat; temporaries changed to Double.", [r"Call by var|Single|Double", r"TryStrToFloat|Double|match"], "fixed"),
    f("w10", "path", "should", "procedure TestGermanLocale;", "tests/tcchamberparse.pas: new TestGermanLocale (switches DefaultFormatSettings to German-style separators, restores them in finally).", [r"TestGermanLocale|tcchamberparse"]),
    f("w11", "command", "should", "make cli 2>&1 | tail -3 && LANG=de_DE.UTF-8 ./bin/wetherbycli data/2026-11-20.log", "CLI check: make cli, then LANG=de_DE.UTF-8 ./bin/wetherbycli data/2026-11-20.log: 1152 readings, 0 rejected.", [r"wetherbycli|make cli", r"de_DE|1152|rejected"]),
    f("w12", "preference", "should", "Screen output in the local style is right, yes.", "Screen output stays in the PC's locale style (e.g. -18,29 °C); only parsing and the CSV are locale-independent.", [r"screen|output|display", r"local|locale|style|,29"]),
    f("w13", "request", "must", "the lab would quite like a daily summary per chamber", "Daily summary per chamber (min/max/mean temperature and humidity) as CSV for Excel, via a `--summary` CLI switch writing `<log>.summary.csv` next to the log.", [r"summary", r"--summary|summary\.csv|min|mean|chamber"], "done"),
    f("w14", "preference", "must", "semicolon-separated would probably be kinder", "First preference: semicolon-separated summary CSV for the German PCs. Changed later: plain commas (the LIMS import ignores Excel's regional settings).", [r"semicolon|;", r"comma|CSV|separat|revers|instead|LIMS"], "reversed"),
    f("w15", "constraint", "must", "I'd rather we didn't pull in any new packages for it", "No new packages: the build server has a fairly bare Lazarus (Generics.Collections from the FPC RTL is fine).", [r"package|Lazarus|build server", r"no new|bare|didn't|not"]),
    f("w16", "path", "should", "{ Per (chamber, day) statistics; keys are 'C3|2026-11-20'. }", "New src/dailysummary.pas: TDailySummary (TDictionary per chamber|day, Add, WriteCsv(Path, Sep) with '.' decimals) and tests/tcdailysummary.pas, registered in tests/testrunner.lpr.", [r"dailysummary|TDailySummary|tcdailysummary", r"WriteCsv|summary|test|chamber"]),
    f("w17", "error", "should", "Expected: \"C3;2026-11-20;2;21.00;23.00;22.00;40.0;50.0;45.0\" But was:", "TestMinMaxMean failed with doubled means (44.00 vs 22.00, 90.0 vs 45.0); standalone the code was correct and after make clean the test passed: stale units in the shared lib/$(TargetCPU)-$(TargetOS) output dir (cause not fully proven).", [r"TestMinMaxMean|44\.00|22\.00|stale|make clean", r"mean|clean|stale|lib|double"], "fixed"),
    f("w18", "finding", "should", "the test runner and the CLI share one unit output directory", "The test runner and the CLI share one unit output directory, lib/$(TargetCPU)-$(TargetOS) (UnitOutputDirectory in both .lpi files).", [r"lib/\$\(TargetCPU\)|UnitOutputDirectory|output dir", r"share|runner|CLI|same"]),
    f("w19", "decision", "must", "I'd rather we didn't fiddle with the .lpi output paths today", "Do not change the .lpi output paths (build server scripts rely on them); instead `make test` cleans first (Makefile: test: clean).", [r"\.lpi|output path|make test|clean", r"clean|don't|didn't|not|build server"]),
    f("w20", "preference", "must", "So commas, not semicolons. Decimal point stays a point.", "Summary CSV uses plain commas, not semicolons, and '.' decimals (the LIMS import on the lab PCs wants commas).", [r"comma", r"semicolon|LIMS|decimal|point|CSV"]),
    f("w21", "path", "should", "ErrorMsg := CheckOptions('hs:S', ['help', 'since:', 'summary']);", "cli/wetherbycli.lpr: -S/--summary option, TDailySummary fed per good reading, written to <log>.summary.csv with ','.", [r"wetherbycli|--summary|CheckOptions", r"summary|option|Summary"]),
    f("w22", "error", "nice", "wetherbycli.lpr(63,9) Error: Identifier not found \"Summary\"", "CLI build failed: Identifier not found 'Summary' (not declared); declared, created before the loop and freed in finally.", [r"Identifier not found|Summary", r"Summary|declar|not found"], "fixed"),
    f("w23", "value", "should", "F2,2026-11-20,288,-80.41,-79.57,-80.02,4.1,5.0,4.6", "Summary of data/2026-11-20.log: 4 chambers x 288 readings; C3 21.31-21.74 mean 21.50 °C, C4 mean 37.10, F1 mean -18.30, F2 -80.41 to -79.57 mean -80.02.", [r"-80\.02|-80\.41|21\.50|288|37\.10"]),
    f("w24", "command", "should", "./bin/wetherbycli --summary data/2026-11-20.log | tail -2", "Summary run: ./bin/wetherbycli --summary data/2026-11-20.log writes data/2026-11-20.log.summary.csv (same output under LANG=de_DE.UTF-8).", [r"--summary", r"wetherbycli|summary\.csv"]),
    f("w25", "request", "should", "Might be worth a quick check that the GUI still builds", "Check that the GUI still builds (it uses chamberparse too), then commit on branch fix/locale-parsing; no push.", [r"GUI|make gui|fix/locale-parsing", r"build|commit|branch|push"], "done"),
    f("w26", "error", "must", "mainform.pas(141,5) Error: Identifier not found \"StrToDateTime\"\nmainform.pas(176)", "make gui fails: mainform.pas(141,5) Error: Identifier not found (FSince / StrToDateTime line); it fails identically on main without our changes.", [r"mainform\.pas|make gui|GUI", r"141|Identifier not found|FSince|StrToDateTime"]),
    f("w27", "finding", "should", "FSince was a local I moved into the form class in the designer yesterday", "Cause of the GUI error: the user moved FSince into the form class in the designer and didn't save the .pas; the user fixes it in the IDE, left alone here.", [r"FSince|GUI|mainform", r"designer|IDE|user|didn't save|leave|left"]),
    f("w28", "state", "must", "Committed d8a3f50 on fix/locale-parsing", "Committed d8a3f50 on fix/locale-parsing (chamberparse, dailysummary, tests, testrunner.lpr, wetherbycli.lpr, Makefile); not pushed; GUI error left for the user.", [r"d8a3f50|fix/locale-parsing", r"commit|push|branch"]),
    f("w29", "value", "nice", "Baseline: FPC 3.2.2, lazbuild 3.4, 3 fpcunit tests pass", "Baseline: FPC 3.2.2, lazbuild 3.4, 3 fpcunit tests pass; data/2026-11-20.log has 1152 lines.", [r"3 fpcunit|N:3|lazbuild 3\.4|1152"]),
    f("w30", "command", "nice", "make gui 2>&1 | grep -E 'Error|Warning|Fatal|Linking|compiled' | head -6", "GUI build: make gui (lazbuild --build-mode=Release wetherby.lpi); currently fails at mainform.pas:141.", [r"make gui|wetherby\.lpi", r"fail|Error|141|build"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
