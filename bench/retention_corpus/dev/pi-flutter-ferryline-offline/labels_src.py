# ruff: noqa: E501
"""Labels for pi-flutter-ferryline-offline, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "ferryline (Flutter): offline timetable cache with an offline banner, 7-day expiry, pull-to-refresh; storage decision changed twice",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3b test split",
    "voice": "very long single paragraphs with constraints tucked in parentheses; changes the storage decision twice (shared_preferences -> path_provider files -> shared_preferences)",
    "toolchain": "Flutter 3.19 / Dart 3.3, flutter test, dart analyze (flutter_lints, always_specify_types), gen-l10n ARB files, shared_preferences",
}
COMPACTIONS = [
    ("The direct path_provider entries are gone from pubspec.lock", 800),
    ("Both done, 43 tests pass (the golden test passed as is", 600),
]
FACTS = [
    f("d01", "request", "must", "offline cache of the last timetable we fetched", "Add an offline cache of the last successfully fetched timetable per route, shown with a banner saying when it was last updated (the timetable screen goes blank without signal).", [r"offline|no signal|without (signal|network)", r"cache|saved|stored"], "done"),
    f("d02", "constraint", "must", "the banner text must go through the ARB files in lib/l10n/", "Banner text goes through the ARB files in lib/l10n/ (English and Norwegian Bokmål are shipped).", [r"\bARB\b|lib/l10n|l10n", r"banner|string|text|english|norwegian|bokm"]),
    f("d03", "constraint", "must", "please never hand-edit anything under lib/generated/", "Never hand-edit lib/generated/: flutter gen-l10n writes it.", [r"lib/generated", r"never|not|don.?t|gen-l10n|generat"]),
    f("d04", "constraint", "must", "keep building on Flutter 3.19", "Everything must keep building on Flutter 3.19 / Dart 3.3: the kiosk build box is pinned to it until spring.", [r"3\.19|Dart 3\.3", r"flutter|dart|kiosk|pin|build"]),
    f("d05", "constraint", "must", "no code generation please (no build_runner", "No code generation: no build_runner, freezed or json_serializable (removed last year); JSON is hand-written (fromJson/toJson).", [r"code ?gen|build_runner|freezed|json_serializable"]),
    f("d06", "decision", "should", "write one JSON file per route into", "Reversed: the user first switched storage to one JSON file per route in the app support directory via path_provider, then went back to shared_preferences.", [r"path_provider|JSON files?|file per route|support dir", r"instead|switch|revers|back|dropp|abandon|file"], "reversed"),
    f("d07", "constraint", "should", "it's the only new package I'll accept for this", "No other new package in pubspec.yaml (path_provider was the only one acceptable, and it was removed again).", [r"pubspec", r"only new package|no (other|new|further) (new )?(package|dependenc)|nothing else"]),
    f("d08", "decision", "must", "let's go back to shared_preferences after all", "Final storage decision: shared_preferences, one JSON string per route (key timetable.<routeId>); the file/path_provider version is dropped.", [r"shared_?preferences", r"back|after all|instead|rather|decid|final|stor|key|timetable\."]),
    f("d09", "error", "should", "getApplicationSupportDirectory on channel", "flutter test with the file cache: MissingPluginException (getApplicationSupportDirectory on plugins.flutter.io/path_provider), no platform side in tests.", [r"MissingPluginException|getApplicationSupportDirectory|no platform"], "fixed"),
    f("d10", "fix", "nice", "setUp(() async {", "Cache tests call SharedPreferences.setMockInitialValues({}) in setUp.", [r"setMockInitialValues"]),
    f("d11", "value", "should", "38911 Oct 30 14:02 route_7.json", "The biggest timetable fixture, route 7, is 38,911 bytes; the API lists 6 routes.", [r"38[,. ]?9\d\d|3[89](\.\d)? ?KB"]),
    f("d12", "value", "nice", "roughly 150 KB", "All six routes together: roughly 150 KB in the prefs file at worst (the startup worry did not hold).", [r"150 ?KB"]),
    f("d13", "constraint", "should", "please take path_provider out of pubspec.yaml again", "path_provider had to be taken out of pubspec.yaml and pubspec.lock again: legal reads the licence report of every transitive plugin.", [r"path_provider", r"remov|out of|take out|taken out|not in|no longer|drop|lock|licen[cs]e"]),
    f("d14", "request", "should", "the banner should only show when we're actually showing cached data", "The banner shows only when the data comes from the cache, not on every load.", [r"banner", r"only (when|if)|from (the )?cache|cached"], "done"),
    f("d15", "finding", "nice", "The 4 remaining lines are", "The 4 path_provider lines left in pubspec.lock (linux, windows, platform_interface) predate the session: shared_preferences_linux/windows depend on them.", [r"path_provider_(linux|windows|platform_interface)|transitive|shared_preferences_(linux|windows)", r"lock|before|already|remain|predat"]),
    f("d16", "finding", "should", "renders `SizedBox.shrink()` for any error", "Why the screen went blank: fetch throws offline and TimetableScreen rendered SizedBox.shrink() for any error.", [r"SizedBox\.shrink|blank", r"error|offline|throw"]),
    f("d17", "value", "nice", "`flutter test` passes 38 tests on Flutter 3.19.6", "Baseline: 38 tests pass on Flutter 3.19.6.", [r"\b38 tests|\+38\b", r"flutter|3\.19"]),
    f("d18", "finding", "nice", "`dart analyze` reports 2 infos", "dart analyze had 2 older infos (prefer_const_constructors in departure_tile.dart, prefer_final_fields in pier_map.dart), left alone.", [r"prefer_const_constructors|prefer_final_fields|departure_tile|pier_map"]),
    f("d19", "error", "should", "timetable_cache.dart:23:29 - The argument type 'String?'", "dart analyze error: argument_type_not_assignable, String? from getString passed to jsonDecode (plus undefined toJson on Timetable).", [r"String\?|argument_type_not_assignable", r"getString|jsonDecode|argument_type|can.?t be assigned"], "fixed"),
    f("d20", "fix", "should", "`getString` returns `String?`; a route never cached", "Fix: load returns null when getString gives null; Timetable.toJson written by hand.", [r"getString|raw == null|String\?", r"null"]),
    f("d21", "finding", "nice", "`always_specify_types` is on in analysis_options.yaml", "always_specify_types is enabled in analysis_options.yaml, so new code spells out types.", [r"always_specify_types"]),
    f("d22", "error", "should", "Found 0 widgets with text containing timetable from 06:15", "Widget test 'shows cached departures and a banner when offline' failed: 0 widgets with text 'timetable from 06:15' (no banner).", [r"banner|timetable from|0 widgets", r"offline|found 0|none were found|fail"], "fixed"),
    f("d23", "fix", "must", "and the repository only caught `ClientException`", "Fix: offline, http throws SocketException (or TimeoutException after 8 s), but the repository only caught ClientException; it now falls back on all three.", [r"SocketException", r"ClientException|TimeoutException|catch"]),
    f("d24", "state", "must", "Offline cache works: 42 tests pass", "State: TimetableCache (lib/src/timetable/timetable_cache.dart, shared_preferences, fetched_at in UTC); fetch returns a TimetableResult, saves after success, falls back to the cache on network errors; MaterialBanner with offlineBanner from both ARB files.", [r"TimetableResult|timetable_cache\.dart|TimetableCache", r"fall(s)? back|fallback|cache"]),
    f("d25", "value", "nice", "app-debug.apk (88.2MB)", "The debug APK builds on 3.19.6 in 71.4 s (88.2 MB).", [r"71\.4|88\.2 ?MB"]),
    f("d26", "request", "must", "older than 7 days, because the", "Do not use a cached timetable older than 7 days (winter timetable starts 1 December): treat it as no cache (TimetableCache.maxAge).", [r"7 days|seven days|maxAge|7-day", r"older|stale|expir|max ?age|drop|ignor", r"cache|timetable"], "done"),
    f("d27", "request", "should", "pull-to-refresh on the departure list", "Pull-to-refresh on the departure list (RefreshIndicator).", [r"pull[- ]to[- ]refresh|RefreshIndicator"], "done"),
    f("d28", "constraint", "must", "please don't run flutter test with --update-goldens", "Never run flutter test --update-goldens: goldens are rendered on the CI Mac; if one fails, tell the user.", [r"update-goldens|goldens?", r"never|don.?t|not|CI|mac"]),
    f("d29", "fix", "nice", "RefreshIndicator needs the list to be scrollable", "The departure list uses AlwaysScrollableScrollPhysics so pull-to-refresh works on short lists.", [r"AlwaysScrollableScrollPhysics|always.?scrollable"]),
    f("d30", "request", "should", "yes please add offlineNoCache", "Add offlineNoCache ('No connection and no saved timetable' / 'Ingen forbindelse og ingen lagret rutetabell') for the error branch.", [r"offlineNoCache|no saved timetable|no connection"], "done"),
    f("d31", "value", "should", "Committed as 4c19e7a", "Committed as 4c19e7a on feature/offline-timetable, not pushed; Eirik reviews on Thursday.", [r"4c19e7a|feature/offline-timetable"]),
    f("d32", "request", "must", "widget that shows the next departure, Android first", "Open, later: a home-screen widget showing the next departure, Android first; not this session (the user talks to the designer first).", [r"home[- ]?screen", r"widget", r"later|not (yet|now|started|in this session)|designer|next|open"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
