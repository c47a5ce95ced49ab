# ruff: noqa: E501
"""Labels for claude-gleam-buoyline, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "buoyline (Gleam ingest of Iridium SBD buoy packets): v3 packets crashed the poller; v3 decoding, no panics, dead-letter folder, CSV padding regression from a perf commit, buoy 422's firmware uses CRC-16/XMODEM",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6a test split",
    "voice": "pastes logs and git output and asks \"why?\"; short orders (ok, go, b.), one rule in parentheses, changes her mind on dropping bad packets",
    "toolchain": "Gleam on Erlang: gleam build, gleam test (gleeunit), gleam format --check, gleam run -m, erl -eval on compiled modules, simplifile; python3 for CRC variants",
}
COMPACTIONS = [
    ("Formatted (`gleam format` fixed poller.gleam and csv.gleam)", 1000),
    ("**11 tests, 0 failures**, format clean. Undecodable packets now go", 1300),
]
FACTS = [
    f("g01", "finding", "must", "1. Some buoys got **firmware 3.x** and now send **v3 packets**", "Why the poller died: firmware 3.x buoys send v3 packets (version byte 03, 25 bytes); decode.packet returned Error(UnknownVersion(3)), `let assert Ok` in ingest.gleam:9 panicked, the poller re-read the same file after each restart, 5 restarts in 60 s and the supervisor gave up, so no buoy's data was ingested for 3 days.", [r"v3|version 3|UnknownVersion|firmware 3", r"let assert|panic|crash|supervisor|restart"]),
    f("g02", "value", "should", "In data/inbox there are **1873** files waiting", "1873 .sbd files were waiting in data/inbox; of the first 400, 288 v3 and 112 v2.", [r"1873", r"inbox|files|waiting"]),
    f("g03", "value", "should", "25 bytes: v2 fields, then salinity 2 (0.001 PSU, unsigned) and battery 2 (mV), then crc 2.", "v3 packet (docs/packet-format.md): 25 bytes = v2 fields, salinity 2 bytes (0.001 PSU, unsigned), battery 2 bytes (mV), CRC 2; CRC-16/CCITT-FALSE like v2. v2 is 21 bytes.", [r"salinity|battery", r"25 bytes|0\.001 PSU|mV|PSU"]),
    f("g04", "request", "must", "ok. v3 yes. bad packets: just log them and drop the file", "Decode v3 packets (salinity_milli and battery_mv as Option fields of Reading).", [r"v3", r"decod|salinity|battery"], "done"),
    f("g05", "constraint", "should", "bad packets: just log them and drop the file, nothing else", "Originally: undecodable packets are just logged and the file dropped; later changed to a dead-letter folder.", [r"drop|log", r"bad|undecodable|packet|file"], "reversed"),
    f("g06", "constraint", "must", "the CSV archive must stay exactly as it is for v2 buoys", "The CSV archive (data/readings.csv, read by the fragile THREDDS importer) stays byte-identical for v2 buoys: same columns and order; v3 salinity and battery go into new columns at the end (v2 lines get no extra columns).", [r"CSV|archive|readings\.csv", r"byte.identical|same columns|unchanged|v2|end"]),
    f("g07", "constraint", "must", "(can we avoid let assert in the whole ingest path?", "No `let assert` anywhere in the ingest path (ingest, decode, poller): it must never panic again.", [r"let assert|panic", r"avoid|no |never|without"]),
    f("g08", "decision", "should", "ReadFailed(simplifile.FileError)\\n  Undecodable(decode.DecodeError)", "ingest.handle returns Result(Nil, IngestError) (ReadFailed, Undecodable, WriteFailed) built with result.try; the poller deletes the file on Ok, keeps it on read/write errors for the next round.", [r"Result|IngestError|Undecodable|ReadFailed", r"handle|poller|keep|never panic"]),
    f("g09", "error", "nice", "The custom type variant `Some` is not in scope here.", "gleam build: Unknown variable Some and unknown module list in csv.gleam; fixed by importing gleam/list and gleam/option.{Some}.", [r"Unknown (variable|module)|Some|gleam/list|gleam/option", r"import|csv"], "fixed"),
    f("g10", "error", "nice", "Expected 8 arguments, got 6", "Build error: decode_test built Reading with 6 arguments (now 8: add None, None); warning that poller.gleam:33 ignored handle's Result, now matched.", [r"8 arguments|arity|None, None|Unused value", r"Reading|test|poller|Result"], "fixed"),
    f("g11", "path", "should", "// line copied from data/readings.csv (2026-09-02), must stay byte-identical", "New test/buoyline/csv_test.gleam (v2 line byte-identical, v3 line appends salinity_psu,battery_v, fixed(-5, 2) = -0.05) and decode tests for v3, unknown version and too-short packets.", [r"csv_test|decode_test|test", r"v2|v3|byte.identical|-0\.05|unknown"]),
    f("g12", "error", "must", "`fixed` builds the fraction with a plain `int.to_string(a % div)`", "csv.fixed dropped leading zeros of the fraction (fixed(-5, 2) = \"-0.5\"; 18.05 became 18.5): the user's commit 5e0c9a2 (\"fixed() without string padding (perf)\", 2 Sep 17:50) removed string.pad_start; padding restored.", [r"pad|leading zero|fixed|5e0c9a2", r"zero|-0\.5|18\.5|fraction|perf"], "fixed"),
    f("g13", "finding", "must", "Since 5e0c9a2 (unix 1788364211) **2214** lines were appended", "Since 5e0c9a2 (unix 1788364211) 2214 archive lines were written, 1987 with a shortened field; they cannot be repaired from the CSV text and must be regenerated from the raw .sbd files.", [r"2214|1987|1788364211", r"regenerat|raw|\.sbd|repair|lines|archive"]),
    f("g14", "fix", "should", "Restoring the padding now (your stash `csv fixed rework (ines, WIP)` stays untouched)", "Padding restored in csv.fixed (string.pad_start), guarded by negative_small_test; the user's stash 'csv fixed rework (ines, WIP)' left untouched.", [r"pad|padding", r"restor|stash|negative_small"]),
    f("g15", "request", "should", "the raw sbd files are in the mailbox archive on ops01", "Regenerating the broken archive lines from the raw .sbd files (mailbox archive on ops01) is for later, not now; first get ingest running.", [r"ops01|mailbox archive|regenerat", r"later|not now|open|raw"], "open"),
    f("g16", "command", "should", "Error: 2 files are not formatted.", "gleam format --check src test failed on poller.gleam and csv.gleam; fixed with gleam format src test; clean since.", [r"format", r"check|not formatted|gleam format"], "fixed"),
    f("g17", "command", "must", "Done so far: v3 decode (salinity 0.001 PSU, battery mV)", "Test command: gleam test (gleeunit) — 10 tests passing at that point, 11 later; also gleam build.", [r"gleam test|\d+ tests", r"0 failures|pass"]),
    f("g18", "constraint", "must", "yes, on a copy, don't touch data/readings.csv, write to /tmp", "Replays run on a copy under /tmp; do not touch data/readings.csv.", [r"/tmp|copy", r"readings\.csv|don.?t touch|not touch|untouched"]),
    f("g19", "decision", "should", "I'll make the output path a parameter (`handle(path, out)`)", "handle takes the output CSV path (handle(path, out)); the poller passes data/readings.csv; new entry module src/buoyline/replay.gleam does one pass over an inbox: gleam run -m buoyline/replay -- <inbox> <out.csv>.", [r"replay", r"handle\(path, out\)|out|gleam run -m|inbox"]),
    f("g20", "constraint", "must", "no new dependencies please, we build on the ship's server", "No new dependencies: the build runs on the ship's server where hex is not reachable; use only what's in the manifest (argv dropped, gleam/erlang start_arguments used).", [r"dependenc|argv|hex", r"no new|ship|manifest|not reachable|start_arguments"]),
    f("g21", "value", "should", "Replay on the copy: **1873** files, **1729** ok, **144 dropped**", "Replay of the inbox copy: 1873 files, 1729 ok, 144 BadChecksum, all from one modem, IMEI 300534063219870.", [r"1729|144", r"ok|BadChecksum|drop|checksum"]),
    f("g22", "value", "should", "300534063219870 is buoy 422, it got firmware 3.0.1 on monday", "IMEI 300534063219870 is buoy 422, on firmware 3.0.1 since Monday; the other buoys run 3.0.0.", [r"422|300534063219870", r"3\.0\.1"]),
    f("g23", "finding", "must", "Found it: **firmware 3.0.1 computes CRC-16/XMODEM**", "Firmware 3.0.1 computes CRC-16/XMODEM (poly 0x1021, init 0x0000) instead of CRC-16/CCITT-FALSE (init 0xFFFF); vendor packet CRC 0x5684, ours 0xE7C3.", [r"XMODEM", r"3\.0\.1|init|0x0000|CCITT|0x5684|422"]),
    f("g24", "decision", "must", "b. reject, the vendor has to fix their firmware", "Do not accept XMODEM as a fallback: keep rejecting buoy 422's packets; the vendor must fix firmware 3.0.1 (it contradicts their spec).", [r"reject|no fallback|not accept|vendor", r"XMODEM|firmware|fix|3\.0\.1"]),
    f("g25", "request", "must", "put every undecodable packet into data/deadletter/", "Every undecodable packet goes into data/deadletter/ with its original filename (one folder) for the vendor and a later replay, instead of being dropped.", [r"deadletter|dead.letter", r"undecodable|original|filename|packet"], "done"),
    f("g26", "error", "should", "is a POSIX rename, which can't cross filesystems", "Test failure: simplifile.rename failed with Unknown(\"exdev\") (rename across filesystems, /tmp is tmpfs); deadletter.move now falls back to copy + delete.", [r"exdev|EXDEV|rename", r"copy|filesystem|delete|cross"], "fixed"),
    f("g27", "path", "should", "**11 tests, 0 failures**, format clean. Undecodable packets now go", "New src/buoyline/deadletter.gleam (dir data/deadletter, move), test/buoyline/ingest_test.gleam; ingest logs 'deadletter <path>: <error>'; poller leaves undecodable files alone; 11 tests pass.", [r"deadletter", r"11 tests|ingest_test|poller|log"]),
    f("g28", "finding", "nice", "A fallback weakens the check a bit", "An XMODEM fallback would double the chance a corrupted packet passes (2/65536 instead of 1/65536).", [r"65536|weaken", r"fallback|corrupt|chance"]),
    f("g29", "value", "should", "Replay: 1873 files, 1729 ok, the 144 buoy-422 packets are in `data/deadletter/`", "Second replay: 1729 ok, the 144 buoy-422 packets are now in the real data/deadletter/ folder ready for the vendor; v2 lines unchanged (18.05 keeps its zero), v3 lines end with 35.125,3.612.", [r"144", r"deadletter|vendor"]),
    f("g30", "request", "should", "ok commit, I restart it myself", "Commit as 'ingest: v3 packets, no panics, dead-letter folder', with the CSV padding fix in a separate commit; the user restarts the poller herself.", [r"commit", r"separate|padding|restart|message|dead-letter"], "done"),
    f("g31", "value", "should", "Committed on main (not pushed):", "Commits on main, not pushed: 9b03f58 (csv padding restored, but it also contains the v3 CSV columns because the whole file was staged) and c71d2e4 (ingest: v3 packets, no panics, dead-letter folder); the user accepted it like that.", [r"9b03f58|c71d2e4"]),
    f("g32", "state", "must", "- restart the poller (you);", "Open: the user restarts the poller; regenerate the ~2214 archive lines later; report firmware 3.0.1's XMODEM CRC to the vendor with the 144 dead-letter packets.", [r"poller|restart|vendor|regenerat", r"open|restart|later|vendor|deadletter"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
