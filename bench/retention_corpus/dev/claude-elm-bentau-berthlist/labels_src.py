# ruff: noqa: E501
"""Labels for claude-elm-bentau-berthlist, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "bentau-web (Elm 0.19 port front end): Berths page over the existing berth-bookings JSON API, Vietnam-time ETA, status filter decided three ways",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7a test split",
    "voice": "Vietnamese-flavoured English, rules given as \"NB: ...\", apologises and changes the filter decision twice",
    "toolchain": "Elm 0.19.1 via npx: elm make, elm-test 0.19.1-revision12, elm-review 2.12, elm-format 0.8.7, elm repl; Task sub-agent reading a FastAPI backend",
}
COMPACTIONS = [
    ("TimeFmt passes (3/3).", 1200),
    ("Down to the `bookingDecoder` one.", 1200),
    ("All green: elm-test 6/6, elm-review no errors", 1200),
]
FACTS = [
    f("b01", "request", "must", "We must add a page \"Berths\"", "Add a Berths page listing berth bookings from the existing API: vessel name, berth, ETA, status, with a status filter.", [r"Berths?", r"page|list", r"status|filter"], "done"),
    f("b02", "constraint", "must", "NB: the API belongs to backend team", "The API belongs to the backend team: no endpoint changes, no new fields requested; ../bentau-api may be read, not changed.", [r"API|endpoint|backend|bentau-api", r"change|new field|not|read"]),
    f("b03", "constraint", "must", "NB: no new package in elm.json", "No new packages in elm.json (package review takes 2-3 weeks).", [r"package|elm\.json", r"\bno\b|new|without"]),
    f("b04", "constraint", "must", "NB: time from API is UTC, we display in Vietnam time", "API times are UTC; display them in Vietnam time (UTC+7).", [r"UTC\+7|\+07|Vietnam|\+ ?7", r"time|display|UTC"]),
    f("b05", "finding", "must", "Envelope (app/routes/bookings.py:18-27", "GET /api/v2/berth-bookings returns {items, page, total}; query params status (comma-separated), page (default 1), per_page (default 50, max 200, 422 above); fixed order by eta, no sort param.", [r"per_page|envelope|items", r"200|total|page"]),
    f("b06", "finding", "should", "BerthBooking (openapi.yaml:231-240", "Booking JSON: id, vessel {imo, name, flag?} (flag key omitted when unknown), berth_no nullable, eta 'YYYY-MM-DDTHH:MM:SSZ' always UTC, etd nullable, status, loa_m number (int or float).", [r"berth_no|etd|flag", r"null|omit|absent"]),
    f("b07", "value", "should", "one of requested | confirmed | berthed | departed | cancelled", "Status values: requested, confirmed, berthed, departed, cancelled.", [r"requested", r"confirmed|berthed|departed|cancelled"]),
    f("b08", "finding", "should", "imo is a STRING", "vessel.imo is a string (\"9387421\"), not a number.", [r"imo", r"string"]),
    f("b09", "value", "nice", "has 2 items, total 137", "Fixture berth_bookings_page1.json: 2 items, total 137.", [r"\b137\b"]),
    f("b10", "decision", "must", "Vietnam has no DST, so a fixed `Time.customZone (7 * 60) []` is exact", "Timezone: a fixed Time.customZone (7 * 60) [] (Vietnam has no DST) and a hand-written ISO parser in src/TimeFmt.elm, since timezone/iso8601 packages would be new dependencies.", [r"customZone|fixed|DST|7 \* 60", r"zone|Vietnam|UTC\+7|parse"]),
    f("b11", "decision", "should", "unknown value → decode failure", "Status decodes into a custom type; an unknown status fails decoding so a new backend value is noticed.", [r"unknown|custom type|Status", r"fail|notice"]),
    f("b12", "decision", "should", "OK plan is good. For filter: yes filter in browser", "First filter decision: one request (per_page=200) and filter in the browser; superseded.", [r"filter", r"browser|client"], "reversed"),
    f("b13", "decision", "should", "Sorry, I think again about filter", "Second filter decision: server-side ?status= filter with paging (per_page=100), because peak season has ~1500 bookings; reversed again.", [r"status=|API filter|server|paging", r"filter|1500"], "reversed"),
    f("b14", "decision", "must", "he says ?status= with many values is slow", "Final filter decision: load all pages (per_page=200, sequentially in the background) and filter in the browser, because backend (Quang) says multi-value ?status= is slow (no index on status); peak 1500 = 8 requests.", [r"index|slow|Quang|all pages|background|per_page=200", r"filter|browser|client|load"]),
    f("b15", "constraint", "must", "NB: date show like 23/09 04:30", "Dates shown as dd/mm HH:MM (e.g. 23/09 04:30), not ISO; port staff read this format.", [r"dd/mm|23/09|HH:MM", r"format|show|date|ISO"]),
    f("b16", "request", "should", "they want ETA with the day name", "ETA gets a Vietnamese weekday prefix: 'T4 23/09 04:30' (T2..T7, CN for Sunday).", [r"T2|T7|\bCN\b|T4|T5|weekday|day name", r"ETA|format|day"], "done"),
    f("b17", "error", "should", "↓ TimeFmt\n✗ leap day", "TimeFmt test 'leap day' failed: 2028-02-29 gave 1835481600000 instead of 1835395200000 (one day late) with the Hinnant days_from_civil port.", [r"leap|1835395200000|1835481600000|29"], "fixed"),
    f("b18", "fix", "should", "\"new_string\": \"{-| Days since 1970-01-01, for years", "daysFromCivil rewritten as summed year lengths + a days-before-month table + leap adjustment (valid for years >= 1970); TimeFmt tests 3/3.", [r"daysFromCivil|days|table|cumulative|1970"]),
    f("b19", "error", "should", "The 3rd argument to `map7` is not what I expect", "elm make TYPE MISMATCH: D.at [\"vessel\",\"imo\"] D.int is Decoder Int where map7 needs Decoder String; imo decoded with D.string.", [r"map7|imo|TYPE MISMATCH", r"Int|String"], "fixed"),
    f("b20", "error", "should", "I found 3 errors in 2 files.", "elm-review: NoUnused.Exposing 'bookingDecoder is never used outside this module' (tests don't count), tests/Example.elm never used, 'disabled' unused import.", [r"NoUnused|bookingDecoder|elm-review", r"never used|unused|expos"], "fixed"),
    f("b21", "decision", "should", "Cleanest without a rule exception: move the decoders", "No elm-review rule exceptions: decoders and types move to src/Api/Booking.elm (user agreed).", [r"Api/Booking|Api\.Booking|move", r"decoder|exception"]),
    f("b22", "fix", "should", "Same complaint in the new module", "Api.Booking no longer exposes bookingDecoder; tests go through envelopeDecoder, the real entry point.", [r"envelopeDecoder|bookingDecoder", r"test|expos"]),
    f("b23", "path", "nice", "git rm -q tests/Example.elm", "tests/Example.elm (unused elm-test template) removed.", [r"Example\.elm"]),
    f("b24", "constraint", "must", "NB: run elm-review and elm-format --validate before every commit", "Run elm-review and elm-format --validate before every commit (CI checks both).", [r"elm-review|elm-format|review|format", r"commit|before|CI"]),
    f("b25", "path", "must", "src/Api/Booking.elm\", \"content\"", "New src/Api/Booking.elm: Status, Booking, Envelope types, statusToString, status/time/booking/envelope decoders.", [r"Api/Booking|Api\.Booking", r"decoder|Status|Booking|Envelope"]),
    f("b26", "path", "should", "Page now loads page 1, then keeps fetching", "src/Page/Berths.elm: loads page 1 then page+1 while page * 200 < total; filter is a List.filter in the view; shows 'Loading… n'.", [r"Berths|page", r"fetch|page|filter"]),
    f("b27", "path", "should", "src/TimeFmt.elm\", \"content\"", "New src/TimeFmt.elm: parseUtc (YYYY-MM-DDTHH:MM:SSZ only), vietnam zone, format.", [r"TimeFmt", r"parseUtc|vietnam|format"]),
    f("b28", "path", "should", "P.map Berths (P.s", "Route Berths at /berths (src/Route.elm), nav link and Berths page wired into src/Main.elm via BerthsMsg.", [r"berths", r"route|Route"]),
    f("b29", "value", "nice", "selected = [ Requested, Confirmed, Berthed ], bookings = [], loading = True", "Default filter selection: requested, confirmed, berthed.", [r"requested", r"berthed"]),
    f("b30", "error", "should", "File is not formatted with elm-format-0.8.7", "elm-format --validate flagged src/TimeFmt.elm as unformatted; fixed with elm-format --yes.", [r"TimeFmt|elm-format", r"format"], "fixed"),
    f("b31", "command", "should", "npx elm-test 2>&1 | tail -3 && npx elm-review 2>&1 | tail -1", "Checks before commit: npx elm-test (6/6), npx elm-review (no errors), npx elm-format --validate src tests (ok).", [r"elm-test|elm-review|elm-format"]),
    f("b32", "command", "should", "npm run build 2>&1 | tail -3", "npm run build (elm make src/Main.elm --optimize --output=public/app.js) succeeds.", [r"npm run build|optimize|build"]),
    f("b34", "state", "must", "5b0e7d4 berths: list page", "Committed 5b0e7d4 'berths: list page with status filter, Vietnam time' on feat/berth-list.", [r"5b0e7d4"]),
    f("b35", "state", "should", "Push it and I make the MR myself tomorrow", "feat/berth-list pushed to origin; the user opens the merge request herself tomorrow.", [r"MR|merge request", r"push|tomorrow|myself|user"]),
    f("b36", "value", "nice", "\"elm-review\": \"2.12.0\"", "Tools: elm 0.19.1, elm-format 0.8.7, elm-review 2.12.0, elm-test 0.19.1-revision12 (npm devDependencies).", [r"0\.8\.7|2\.12\.0|revision12|0\.19\.1"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
