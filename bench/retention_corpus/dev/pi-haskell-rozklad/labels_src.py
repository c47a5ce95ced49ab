# ruff: noqa: E501
"""Labels for pi-haskell-rozklad, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "rozklad (Haskell GTFS departure board): night departures past 24:00 were dropped, ServiceTime, +1 board format, --json without orphan instances, ByteString time parsing",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5a test split",
    "voice": "Polish-flavoured non-native English, polite, rules asked as questions (\"can we avoid orphan instances?\"), corrects its own decision mid-sentence",
    "toolchain": "Haskell, GHC 9.4.8, cabal-install 3.10.2.1 (cabal build / test / run / repl), hspec 2.11 + hspec-discover, hlint, cassava, aeson 2.1, +RTS -s",
}
COMPACTIONS = [
    ("The night buses are on the board now:", 900),
    ("Done, and no orphans any more:", 1200),
    ("Faster than before the change now:", 1500),
]
FACTS = [
    f("h01", "request", "must", "the night buses N-lines after midnight are not on the board at all", "Fix the departure board of stop 7013 (Rondo ONZ): night N-line departures after midnight (GTFS times like 25:10:00) were missing.", [r"night|after midnight|N-?lines?|25:10|24:00", r"board|depart|missing|7013"], "done"),
    f("h02", "constraint", "must", "so can we stay on 9.4 and not use things from newer ghc", "Stay on GHC 9.4.8 (same as CI): nothing from newer GHC versions (library keeps base < 4.18).", [r"9\.4", r"ghc|CI|stay|newer"]),
    f("h03", "finding", "must", "I found it. Two things together", "Cause: parseGtfsTime parsed into TimeOfDay, which cannot hold 24:00 or later, and parseStopTimes used mapMaybe, so those rows were silently dropped (312 of 18,412 rows in the sample feed).", [r"TimeOfDay|mapMaybe", r"drop|Nothing|silent|24:00|past 24"]),
    f("h04", "value", "nice", "312\nN32_3_0014,24:11:00", "The sample feed data/ztm-sample has 312 stop_times rows with times of 24:00 or later (18,412 rows in total).", [r"\b312\b", r"rows?|24|night"]),
    f("h05", "decision", "must", "Starting with the new `Rozklad.Time` module; Types stays only data.", "New module src/Rozklad/Time.hs: newtype ServiceTime = seconds since the start of the service day (may exceed 24h), own parser; StopTime uses ServiceTime instead of TimeOfDay.", [r"ServiceTime", r"seconds|Rozklad\.Time|Time\.hs|newtype"]),
    f("h06", "constraint", "should", "can we keep the parsing out of Types.hs", "Types.hs holds only the data types: no parsing code in it.", [r"Types(\.hs)?", r"only (the )?data|no pars|parsing out|data only|out of"]),
    f("h07", "decision", "must", "Can we show it like 01:10 with +1 after", "The text board shows times past midnight as HH:MM with a +1 suffix, like printed timetables: 25:10:00 is shown as 01:10+1.", [r"\+1", r"01:10|25:10|midnight|next day|board"]),
    f("h08", "decision", "should", "instead of silently dropping rows", "A stop_times row whose time does not parse is now an error (Left with the row number), not silently skipped.", [r"row( number|s| N)|Left|error", r"silent|drop|skip"]),
    f("h09", "error", "nice", "src/Rozklad/Board.hs:16:58: error:", "After the type change the build failed in Board.hs (Couldn't match expected type ServiceTime with actual type TimeOfDay); Board now uses ServiceTime and formatBoardTime.", [r"Board(\.hs)?|formatHM", r"TimeOfDay|ServiceTime|couldn.?t match"], "fixed"),
    f("h10", "error", "should", "but got: \"01:00+1\"", "formatBoardTime computed minutes as rest mod 60 (the seconds): 4 hspec failures such as 01:00+1 instead of 01:10+1; fixed with quotRem.", [r"formatBoardTime|minutes?|01:00", r"quotRem|seconds|mod 60|fail"], "fixed"),
    f("h11", "constraint", "must", "The CI runs also hlint, can we keep it with zero hints?", "hlint must stay at zero hints (CI runs it: hlint src app test).", [r"hlint", r"zero|no hints|0 hints|clean"]),
    f("h12", "error", "nice", "Found:\n  traverse (uncurry toStopTime)", "hlint found 2 hints in the new code (Use zipWithM in Parse.hs, Redundant bracket in BoardSpec); both fixed.", [r"zipWithM|Redundant bracket", r"hint|hlint|Warning|Perhaps"], "fixed"),
    f("h13", "request", "must", "Can you add --json flag?", "Add a --json flag for the screens team (LED boards at stops): per departure the time, headsign and trip id.", [r"--json|\bjson\b", r"screens?|trip_?id|headsign|LED"], "done"),
    f("h14", "constraint", "must", "can we avoid orphan instances completely?", "No orphan instances: ToJSON instances live in the type's own module (ServiceTime in Rozklad.Time, StopTime in Rozklad.Types); Rozklad.Json only has boardJson = encode.", [r"orphan", r"avoid|\bno\b|instance|type"]),
    f("h15", "decision", "should", "can the JSON have the time like in GTFS", "JSON carries the time in GTFS form (\"25:10:00\", formatGtfsTime); the +1 form is only for the text board.", [r"25:10:00|GTFS (form|format)|HH:MM:SS|formatGtfsTime", r"json"]),
    f("h16", "value", "nice", "any.aeson ==2.1.2.1", "aeson ^>=2.1 was added to the library; cabal.project.freeze pins aeson 2.1.2.1.", [r"aeson", r"2\.1"]),
    f("h17", "error", "nice", "Orphan instance: instance ToJSON ServiceTime", "First JSON version had the instances in Rozklad.Json: -Worphans warnings; fixed by moving them to the types' modules.", [r"orphan", r"ToJSON|Worphans|Json"], "fixed"),
    f("h18", "error", "nice", "Couldn't match type ‘[Char]’ with ‘Key’", "Misplaced LANGUAGE OverloadedStrings pragma in Types.hs (after the module header) made the JSON keys Strings (Couldn't match type [Char] with Key); pragma moved to the top.", [r"pragma|OverloadedStrings|\bKey\b", r"misplaced|\[Char\]|String|top"], "fixed"),
    f("h19", "value", "should", "2406118 data/ztm-full/stop_times.txt", "The full feed data/ztm-full (not in git) has 2,406,118 stop_times lines (148 MB).", [r"ztm-full", r"2,?406,?118|2\.4 ?M|148 ?MB|not in git|lines"]),
    f("h20", "error", "should", "rozklad: stop_times.txt row 1884207: bad time 7:5:00", "On the full feed the strict parser stopped at row 1,884,207: bad time 7:5:00 (one-digit minutes).", [r"7:5:00|1,?884,?207|one-digit|single-digit", r"bad time|row|minutes|KM"], "fixed"),
    f("h21", "finding", "should", "Interesting: the full feed has 38 rows", "38 rows of the full feed, all KM regional-rail trips (stop ids R-...), write one-digit minutes like 7:5:00; the old code silently dropped them too.", [r"\b38\b", r"KM|rows|one-digit|single-digit"]),
    f("h22", "decision", "should", "Actually no, simpler, accept 1 or 2 digits everywhere.", "Accept one- or two-digit minutes and seconds everywhere (the KM feed will not be fixed).", [r"1 or 2 digits|one or two digits|one-digit|single-digit|1-digit|1- or 2-digit", r"accept|allow"]),
    f("h23", "decision", "nice", "But only for minutes and hours, seconds we keep strict?", "Briefly considered: accept one digit only for hours and minutes and keep seconds strict; dropped in the same message for 1 or 2 digits everywhere.", [r"seconds", r"strict"], "reversed"),
    f("h24", "value", "must", "Faster than before the change now:", "Full feed load + board: ~9.8 s (9.71-9.90 s) with ByteString time parsing, vs 14.21 s on the old code and 21.67 s with the Text version; max residency 2.69 GB (was 3.12 GB).", [r"9\.[789]\d? ?s|9\.8", r"14\.2|21\.6|full feed|faster|seconds"]),
    f("h25", "decision", "should", "Speed: it is slower, as you feared", "Time fields are parsed straight from ByteString (parseServiceTimeBS with B.readInt), no Text round trip.", [r"ByteString", r"pars|readInt|Text"]),
    f("h26", "command", "nice", "for i in 1 2 3; do $(cabal list-bin rozklad)", "Benchmark: $(cabal list-bin rozklad) --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s.", [r"list-bin|\+RTS -s", r"ztm-full|feed"]),
    f("h27", "request", "should", "2.7 GB is still a lot for the server with 4 GB", "Memory (2.7 GB max residency) is still too much for the 4 GB server: for later, not today.", [r"2\.7 ?GB|2\.69|4 ?GB|memory|residency", r"server|later|not today|open"], "open"),
    f("h28", "state", "must", "Committed as b82e5f3", "Committed as b82e5f3 on main (not pushed); version 0.5.0 in rozklad.cabal, CHANGELOG has the 0.5.0 entry.", [r"b82e5f3"], "done"),
    f("h29", "finding", "must", "Right, nothing reads `calendar.txt`", "Nothing reads trips.txt, calendar.txt or calendar_dates.txt: the board takes every trip regardless of service day, so holidays show weekday buses (DP/SW/NS mixed).", [r"calendar(_dates)?(\.txt)?", r"nothing reads|not read|ignor|mix|holiday|every trip"]),
    f("h30", "request", "must", "Don't implement it now, only tell me how big it is.", "Service-day filtering (trips.txt, calendar.txt, calendar_dates.txt exceptions, a --date option): not now, next week, the user makes a ticket; estimated ~1 day.", [r"calendar", r"next week|not (now|yet)|later|ticket|open|don.?t implement"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
