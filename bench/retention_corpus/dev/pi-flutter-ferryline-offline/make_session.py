# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout3b retention split.

A user who writes very long single paragraphs, constraints tucked in parentheses, has pi add an
offline cache to the timetable screen of a Flutter ferry app, with a "last updated" banner from the
ARB files. The storage decision changes twice (shared_preferences -> JSON files via path_provider ->
back to shared_preferences). flutter test / dart analyze; the salient line of each failure sits in
the middle of the output.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

ROOT = "/home/maren/src/ferryline"
s = PiSession(ROOT, "2025-11-24T09:12:07", model="claude-sonnet-4-5", seed="ferryline-offline")
T = "lib/src/timetable/"
CACHE = T + "timetable_cache.dart"
REPO = T + "timetable_repository.dart"
SCREEN = T + "timetable_screen.dart"
CTEST = "test/timetable/timetable_cache_test.dart"
STEST = "test/timetable/timetable_screen_test.dart"
EN = "lib/l10n/app_en.arb"
NB = "lib/l10n/app_nb.arb"
s.files.update({"pubspec.yaml": F.PUBSPEC, REPO: F.REPO, SCREEN: F.SCREEN, EN: F.ARB_EN, NB: F.ARB_NB, STEST: F.SCREEN_TEST,
                T + "timetable.dart": F.TIMETABLE, T + "departure_list.dart": F.DEPARTURE_LIST})

# ============================================================================================ turn 1
s.user(
    "hi! so the timetable screen in ferryline (our Flutter app for the island ferries, you're in the repo) goes completely blank when the phone has no signal, which is "
    "of course exactly when people standing on the pier at Hareid or Sulesund need it most, so what I'd like is an offline cache of the last timetable we fetched "
    "successfully for each route, shown with a small banner that says when it was last updated (the banner text must go through the ARB files in lib/l10n/ because we ship "
    "English and Norwegian Bokmål, and please never hand-edit anything under lib/generated/, flutter gen-l10n writes that folder), and for the storage I think "
    "shared_preferences is the simplest option since it is already in pubspec.yaml, just one JSON string per route key; everything has to keep building on Flutter 3.19 "
    "with Dart 3.3 (the kiosk build box in the terminal building is pinned to that and nobody can upgrade it before spring) and no code generation please (no build_runner, "
    "no freezed, no json_serializable, we ripped all of that out last year and I really don't want it back), and before you change anything could you run flutter test "
    "and dart analyze once so we both know where we stand?",
    pause=0,
)
s.bash("ls lib/src lib/src/timetable test test/timetable lib/l10n",
       "lib/src:\ndepartures\nmap\nsettings\ntimetable\n\nlib/src/timetable:\ndeparture_list.dart\ntimetable.dart\ntimetable_repository.dart\ntimetable_screen.dart\n\n"
       "test:\ndepartures\ngoldens\nhelpers\ntimetable\n\ntest/timetable:\ntimetable_screen_test.dart\n\nlib/l10n:\napp_en.arb\napp_nb.arb\n")
s.reads(["pubspec.yaml", REPO, SCREEN])
s.bash("flutter --version | head -2",
       "Flutter 3.19.6 • channel stable • https://github.com/flutter/flutter.git\nFramework • revision 54e66469a9 (7 months ago) • 2024-04-17 13:08:03 -0700\n")
s.bash("flutter test",
       "00:01 +0: loading /home/maren/src/ferryline/test/departures/departure_tile_test.dart\n"
       "00:04 +12: /home/maren/src/ferryline/test/departures/next_departure_test.dart: picks the first departure after now\n"
       "00:06 +29: /home/maren/src/ferryline/test/goldens/timetable_golden_test.dart: timetable route 7 golden\n"
       "00:07 +37: /home/maren/src/ferryline/test/timetable/timetable_screen_test.dart: shows departures for route 7\n"
       "00:08 +38: All tests passed!\n")
s.bash("dart analyze",
       "Analyzing ferryline...\n\n"
       "   info - lib/src/departures/departure_tile.dart:18:12 - Use 'const' with the constructor to improve performance. Try adding the 'const' keyword to the constructor invocation. - prefer_const_constructors\n"
       "   info - lib/src/map/pier_map.dart:44:7 - The private field _zoom could be 'final'. Try making the field 'final'. - prefer_final_fields\n\n"
       "2 issues found.\n")
s.assistant(
    "Where we stand: `flutter test` passes 38 tests on Flutter 3.19.6, and `dart analyze` reports 2 infos (prefer_const_constructors in departure_tile.dart, prefer_final_fields in "
    "pier_map.dart), both older than this change; I'll leave them alone.\n\n"
    "Why the screen goes blank: `TimetableRepository.fetch` throws when offline and `TimetableScreen` renders `SizedBox.shrink()` for any error, so there is nothing to show and no message either.\n\n"
    "Plan: a `TimetableCache` (shared_preferences, one JSON string per route under `timetable.<routeId>` plus a fetched-at timestamp), the repository writes to it after every "
    "successful fetch and falls back to it on network errors, and the screen shows a banner with the time of the cached copy. The banner strings go into app_en.arb and app_nb.arb; "
    "`flutter test` regenerates lib/generated/ through `generate: true`, so nothing there is touched by hand. No codegen: Timetable already has a hand-written `fromJson`, I'll add a `toJson` next to it."
)

# ============================================================================================ turn 2: mind change 1
s.user(
    "wait, before you start, I've been thinking about this over lunch and I'd actually rather not use shared_preferences for the timetables after all (on Android it's an XML file "
    "that gets parsed whole into memory at startup and I have a feeling the timetable JSON for all six routes isn't small), so could you instead write one JSON file per route into "
    "the application support directory with path_provider (adding path_provider is fine, it's a first-party plugin, but it's the only new package I'll accept for this, nothing else "
    "in pubspec please), and keep the rest of your plan exactly as it is, the banner and the fallback sound right to me."
)
s.bash("grep -rn 'toJson\\|fromJson' lib/src/timetable/timetable.dart",
       "14:  factory Timetable.fromJson(Map<String, dynamic> json) => Timetable(\n22:  factory Departure.fromJson(Map<String, dynamic> json) => Departure(\n")
s.bash("sed -n '1,40p' lib/src/timetable/timetable.dart",
       "class Timetable {\n  Timetable({required this.routeId, required this.departures, required this.validUntil});\n\n  final String routeId;\n  final List<Departure> departures;\n  final DateTime validUntil;\n\n"
       "  // Hand-written on purpose: no code generation in this repo.\n  factory Timetable.fromJson(Map<String, dynamic> json) => Timetable(\n        routeId: json['route'] as String,\n"
       "        departures: [for (final d in json['departures'] as List) Departure.fromJson(d as Map<String, dynamic>)],\n        validUntil: DateTime.parse(json['valid_until'] as String),\n      );\n}\n")
s.edit("pubspec.yaml", "  shared_preferences: ^2.2.3\n", "  shared_preferences: ^2.2.3\n  path_provider: ^2.1.3\n",
       text="Switching to one JSON file per route in the application support directory. path_provider first:")
s.bash("flutter pub get",
       "Resolving dependencies... \n+ path_provider 2.1.3\n+ path_provider_android 2.2.4\n+ path_provider_foundation 2.4.0\n  path_provider_linux 2.2.1\n  path_provider_platform_interface 2.1.2\n"
       "  path_provider_windows 2.2.1\nChanged 3 dependencies!\n12 packages have newer versions incompatible with dependency constraints.\nTry `flutter pub outdated` for more information.\n")
s.write(CACHE, """import 'dart:convert';
import 'dart:io';

import 'package:path_provider/path_provider.dart';

import 'timetable.dart';

/// The last timetable fetched per route, one JSON file each, so the screen works offline.
class TimetableCache {
  Future<File> _fileFor(String routeId) async {
    final dir = await getApplicationSupportDirectory();
    return File('${dir.path}/timetables/route_$routeId.json');
  }

  Future<void> save(Timetable timetable, DateTime fetchedAt) async {
    final file = await _fileFor(timetable.routeId);
    await file.create(recursive: true);
    await file.writeAsString(jsonEncode({'fetched_at': fetchedAt.toUtc().toIso8601String(), 'timetable': timetable.toJson()}));
  }

  Future<CachedTimetable?> load(String routeId) async {
    final file = await _fileFor(routeId);
    if (!await file.exists()) return null;
    final json = jsonDecode(await file.readAsString()) as Map<String, dynamic>;
    return CachedTimetable(Timetable.fromJson(json['timetable'] as Map<String, dynamic>), DateTime.parse(json['fetched_at'] as String));
  }
}

class CachedTimetable {
  CachedTimetable(this.timetable, this.fetchedAt);

  final Timetable timetable;
  final DateTime fetchedAt;
}
""")
s.write(CTEST, """import 'package:ferryline/src/timetable/timetable_cache.dart';
import 'package:flutter_test/flutter_test.dart';

import '../helpers/fixtures.dart';

void main() {
  TestWidgetsFlutterBinding.ensureInitialized();

  group('TimetableCache', () {
    test('round-trips a timetable', () async {
      final cache = TimetableCache();
      await cache.save(route7, DateTime.utc(2025, 11, 24, 8, 40));
      final loaded = await cache.load('7');
      expect(loaded!.timetable.departures, hasLength(route7.departures.length));
      expect(loaded.fetchedAt, DateTime.utc(2025, 11, 24, 8, 40));
    });

    test('returns null for a route never cached', () async {
      expect(await TimetableCache().load('99'), isNull);
    });
  });
}
""")
s.bash("flutter test test/timetable",
       "00:01 +0: loading /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart\n"
       "00:02 +0: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache round-trips a timetable\n"
       "00:02 +0 -1: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache round-trips a timetable [E]\n"
       "  MissingPluginException(No implementation found for method getApplicationSupportDirectory on channel plugins.flutter.io/path_provider)\n"
       "  package:flutter/src/services/platform_channel.dart 332:7                 MethodChannel._invokeMethod\n"
       "  ===== asynchronous gap ===========================\n"
       "  package:path_provider/path_provider.dart 78:24                          getApplicationSupportDirectory\n"
       "  ===== asynchronous gap ===========================\n"
       "  package:ferryline/src/timetable/timetable_cache.dart 11:17               TimetableCache._fileFor\n"
       "  ===== asynchronous gap ===========================\n"
       "  test/timetable/timetable_cache_test.dart 12:7                           main.<fn>.<fn>\n"
       "  \n"
       "00:02 +0 -2: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache returns null for a route never cached [E]\n"
       "  MissingPluginException(No implementation found for method getApplicationSupportDirectory on channel plugins.flutter.io/path_provider)\n"
       "  package:flutter/src/services/platform_channel.dart 332:7                 MethodChannel._invokeMethod\n"
       "  \n"
       "00:03 +1 -2: /home/maren/src/ferryline/test/timetable/timetable_screen_test.dart: shows departures for route 7\n"
       "00:03 +1 -2: Some tests failed.\n",
       code=1)
s.bash("ls -l test/helpers/fixtures/ && curl -s https://api.ferryline.no/v2/routes | grep -o '\"id\":\"[0-9]*\"' | wc -l",
       "total 188\n-rw-r--r-- 1 maren maren 21406 Oct 30 14:02 route_12.json\n-rw-r--r-- 1 maren maren 38911 Oct 30 14:02 route_7.json\n-rw-r--r-- 1 maren maren  9874 Oct 30 14:02 route_81.json\n6\n")
s.assistant(
    "The two new tests fail with `MissingPluginException` for `getApplicationSupportDirectory`: in `flutter test` there is no platform side, so path_provider has nothing to answer. "
    "To test the file version I would have to either inject the directory (`TimetableCache(Future<Directory> Function() dir)` and a temp dir in tests) or register a fake "
    "`PathProviderPlatform`, which needs `plugin_platform_interface` as a dev dependency, i.e. another package.\n\n"
    "On the size worry: the biggest fixture, route 7 (the longest crossing, summer timetable), is 38,911 bytes; the API lists 6 routes, so all of them together should be roughly 150 KB "
    "in the prefs file at worst. That is read once at startup and is small next to the fonts. Which way do you want to go?"
)

# ============================================================================================ turn 3: mind change 2
s.user(
    "ok if the file version needs this much ceremony just to be testable then let's go back to shared_preferences after all, you're right that 150 KB is nothing and I was worrying "
    "about the wrong thing, so please take path_provider out of pubspec.yaml again (I don't want it sitting in pubspec.lock if we're not using it, our licence report lists every "
    "transitive plugin and legal reads it), and carry on with the original plan; oh and the banner should only show when we're actually showing cached data, not on every load."
)
s.edit("pubspec.yaml", "  shared_preferences: ^2.2.3\n  path_provider: ^2.1.3\n", "  shared_preferences: ^2.2.3\n")
s.bash("flutter pub get && grep -c path_provider pubspec.lock",
       "Resolving dependencies... \nThese packages are no longer being depended on:\n- path_provider 2.1.3\n- path_provider_android 2.2.4\n- path_provider_foundation 2.4.0\n"
       "Changed 3 dependencies!\n12 packages have newer versions incompatible with dependency constraints.\nTry `flutter pub outdated` for more information.\n4\n")
s.bash("grep -n 'path_provider' pubspec.lock | head",
       "212:  path_provider_linux:\n220:  path_provider_platform_interface:\n228:  path_provider_windows:\n236:      name: path_provider_platform_interface\n")
s.assistant(
    "The direct path_provider entries are gone from pubspec.lock. The 4 remaining lines are `path_provider_linux`, `path_provider_platform_interface` and `path_provider_windows`, "
    "which were there before this session: `shared_preferences_linux`/`_windows` depend on them. So the lock file is back to what it was this morning."
)
s.write(CACHE, """import 'dart:convert';

import 'package:shared_preferences/shared_preferences.dart';

import 'timetable.dart';

/// The last timetable fetched per route (key `timetable.<routeId>`), so the screen works offline.
class TimetableCache {
  TimetableCache(this._prefs);

  final SharedPreferences _prefs;

  static String _key(String routeId) => 'timetable.$routeId';

  Future<void> save(Timetable timetable, DateTime fetchedAt) async {
    await _prefs.setString(
      _key(timetable.routeId),
      jsonEncode({'fetched_at': fetchedAt.toUtc().toIso8601String(), 'timetable': timetable.toJson()}),
    );
  }

  CachedTimetable? load(String routeId) {
    final raw = _prefs.getString(_key(routeId));
    final json = jsonDecode(raw) as Map<String, dynamic>;
    return CachedTimetable(Timetable.fromJson(json['timetable'] as Map<String, dynamic>), DateTime.parse(json['fetched_at'] as String));
  }
}

class CachedTimetable {
  CachedTimetable(this.timetable, this.fetchedAt);

  final Timetable timetable;
  final DateTime fetchedAt;
}
""", text="Back to shared_preferences, one JSON string per route:")
s.write(CTEST, """import 'package:ferryline/src/timetable/timetable_cache.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:shared_preferences/shared_preferences.dart';

import '../helpers/fixtures.dart';

void main() {
  late TimetableCache cache;

  setUp(() async {
    SharedPreferences.setMockInitialValues({});
    cache = TimetableCache(await SharedPreferences.getInstance());
  });

  group('TimetableCache', () {
    test('round-trips a timetable', () async {
      await cache.save(route7, DateTime.utc(2025, 11, 24, 8, 40));
      final loaded = cache.load('7');
      expect(loaded!.timetable.departures, hasLength(route7.departures.length));
      expect(loaded.fetchedAt, DateTime.utc(2025, 11, 24, 8, 40));
    });

    test('returns null for a route never cached', () {
      expect(cache.load('99'), isNull);
    });
  });
}
""")
s.bash("dart analyze",
       "Analyzing ferryline...\n\n"
       "   info - lib/src/departures/departure_tile.dart:18:12 - Use 'const' with the constructor to improve performance. Try adding the 'const' keyword to the constructor invocation. - prefer_const_constructors\n"
       "   info - lib/src/map/pier_map.dart:44:7 - The private field _zoom could be 'final'. Try making the field 'final'. - prefer_final_fields\n"
       "  error - lib/src/timetable/timetable_cache.dart:23:29 - The argument type 'String?' can't be assigned to the parameter type 'String'.  - argument_type_not_assignable\n"
       "  error - lib/src/timetable/timetable_cache.dart:24:82 - The method 'toJson' isn't defined for the type 'Timetable'. Try correcting the name to the name of an existing method, or defining a method named 'toJson'. - undefined_method\n"
       "   info - test/timetable/timetable_cache_test.dart:2:8 - The imported package 'flutter_test' isn't a dependency of the importing package. - depend_on_referenced_packages\n"
       "   info - lib/src/timetable/timetable_cache.dart:17:5 - Missing type annotation. - always_specify_types\n\n"
       "6 issues found.\n",
       code=3)
s.edit(CACHE, "    final raw = _prefs.getString(_key(routeId));\n    final json",
       "    final raw = _prefs.getString(_key(routeId));\n    if (raw == null) return null;\n    final json",
       text="`getString` returns `String?`; a route never cached has to give null instead of feeding null to jsonDecode. And `toJson` does not exist yet, I only planned it:")
s.edit("lib/src/timetable/timetable.dart",
       "        validUntil: DateTime.parse(json['valid_until'] as String),\n      );\n}\n",
       "        validUntil: DateTime.parse(json['valid_until'] as String),\n      );\n\n"
       "  Map<String, dynamic> toJson() => {\n        'route': routeId,\n        'departures': [for (final d in departures) d.toJson()],\n        'valid_until': validUntil.toIso8601String(),\n      };\n}\n")
s.bash("dart analyze lib/src/timetable test/timetable",
       "Analyzing timetable, timetable...\n\n"
       "   info - test/timetable/timetable_cache_test.dart:2:8 - The imported package 'flutter_test' isn't a dependency of the importing package. - depend_on_referenced_packages\n"
       "   info - lib/src/timetable/timetable_cache.dart:17:5 - Missing type annotation. - always_specify_types\n\n"
       "2 issues found.\n")
s.bash("cat analysis_options.yaml",
       "include: package:flutter_lints/flutter.yaml\n\nanalyzer:\n  exclude:\n    - lib/generated/**\n\nlinter:\n  rules:\n    always_specify_types: true\n    prefer_single_quotes: true\n")
s.edit(CACHE, "    await _prefs.setString(", "    final bool ok = await _prefs.setString(",
       text="The `depend_on_referenced_packages` info is a stale analysis-server cache (flutter_test is in dev_dependencies); `always_specify_types` is on in analysis_options.yaml, so the setString result gets a type:")
s.edit(CACHE, "      jsonEncode({'fetched_at': fetchedAt.toUtc().toIso8601String(), 'timetable': timetable.toJson()}),\n    );\n",
       "      jsonEncode({'fetched_at': fetchedAt.toUtc().toIso8601String(), 'timetable': timetable.toJson()}),\n    );\n    if (!ok) throw StateError('could not cache timetable ${timetable.routeId}');\n")
s.bash("dart analyze", "Analyzing ferryline...\n\n"
       "   info - lib/src/departures/departure_tile.dart:18:12 - Use 'const' with the constructor to improve performance. Try adding the 'const' keyword to the constructor invocation. - prefer_const_constructors\n"
       "   info - lib/src/map/pier_map.dart:44:7 - The private field _zoom could be 'final'. Try making the field 'final'. - prefer_final_fields\n\n2 issues found.\n")

# repository fallback + banner
s.write(REPO, """import 'dart:convert';

import 'package:http/http.dart' as http;

import 'timetable.dart';
import 'timetable_cache.dart';

/// A timetable and, when it came from the cache, when it was fetched.
class TimetableResult {
  TimetableResult(this.timetable, {this.cachedAt});

  final Timetable timetable;
  final DateTime? cachedAt;

  bool get fromCache => cachedAt != null;
}

class TimetableRepository {
  TimetableRepository(this._client, this._cache, {this.baseUrl = 'https://api.ferryline.no/v2'});

  final http.Client _client;
  final TimetableCache _cache;
  final String baseUrl;

  Future<TimetableResult> fetch(String routeId) async {
    try {
      final http.Response response = await _client
          .get(Uri.parse('$baseUrl/routes/$routeId/timetable'))
          .timeout(const Duration(seconds: 8));
      if (response.statusCode != 200) {
        throw http.ClientException('timetable $routeId: HTTP ${response.statusCode}');
      }
      final Timetable timetable = Timetable.fromJson(jsonDecode(response.body) as Map<String, dynamic>);
      await _cache.save(timetable, DateTime.now());
      return TimetableResult(timetable);
    } on http.ClientException {
      final CachedTimetable? cached = _cache.load(routeId);
      if (cached == null) rethrow;
      return TimetableResult(cached.timetable, cachedAt: cached.fetchedAt);
    }
  }
}
""", text="Repository: save after each successful fetch, fall back to the cache on a network error.")
s.edit(EN, '  "noDepartures": "No more departures today"\n',
       '  "noDepartures": "No more departures today",\n  "offlineBanner": "Offline: timetable from {time}",\n  "@offlineBanner": {\n    "placeholders": {\n      "time": {"type": "DateTime", "format": "Hm"}\n    }\n  }\n')
s.edit(NB, '  "noDepartures": "Ingen flere avganger i dag"\n',
       '  "noDepartures": "Ingen flere avganger i dag",\n  "offlineBanner": "Frakoblet: rutetabell fra {time}",\n  "@offlineBanner": {\n    "placeholders": {\n      "time": {"type": "DateTime", "format": "Hm"}\n    }\n  }\n')
s.edit(SCREEN, """        if (snapshot.hasError) {
          return const SizedBox.shrink();
        }
        return DepartureList(timetable: snapshot.data!, title: l10n.timetableTitle);""",
       """        if (snapshot.hasError) {
          return Center(child: Text(l10n.noDepartures));
        }
        final TimetableResult result = snapshot.data!;
        return Column(
          children: <Widget>[
            if (result.fromCache)
              MaterialBanner(
                content: Text(l10n.offlineBanner(result.cachedAt!.toLocal())),
                actions: const <Widget>[SizedBox.shrink()],
              ),
            Expanded(child: DepartureList(timetable: result.timetable, title: l10n.timetableTitle)),
          ],
        );""")
s.edit(SCREEN, "  late Future<Timetable> _future;", "  late Future<TimetableResult> _future;")
s.edit(SCREEN, "    return FutureBuilder<Timetable>(", "    return FutureBuilder<TimetableResult>(")
s.edit(STEST, "import '../helpers/pump_app.dart';\n",
       "import 'package:ferryline/src/timetable/timetable_cache.dart';\nimport 'package:shared_preferences/shared_preferences.dart';\nimport 'dart:io';\n\nimport '../helpers/pump_app.dart';\n",
       text="The screen test builds the repository itself, so it needs the cache now; then a test for the offline path.")
s.edit(STEST, "    final client = MockClient((_) async => http.Response(route7Json, 200));\n    await tester.pumpApp(const TimetableScreen(routeId: '7'), repository: TimetableRepository(client));",
       "    SharedPreferences.setMockInitialValues({});\n    final client = MockClient((_) async => http.Response(route7Json, 200));\n"
       "    await tester.pumpApp(const TimetableScreen(routeId: '7'), repository: TimetableRepository(client, TimetableCache(await SharedPreferences.getInstance())));")
s.edit(STEST, "  });\n}\n", """  });

  testWidgets('shows cached departures and a banner when offline', (tester) async {
    SharedPreferences.setMockInitialValues({});
    final TimetableCache cache = TimetableCache(await SharedPreferences.getInstance());
    await cache.save(route7, DateTime(2025, 11, 24, 6, 15));
    final MockClient offline = MockClient((_) async => throw const SocketException('Failed host lookup: api.ferryline.no'));
    await tester.pumpApp(const TimetableScreen(routeId: '7'), repository: TimetableRepository(offline, cache));
    await tester.pumpAndSettle();
    expect(find.textContaining('timetable from 06:15'), findsOneWidget);
    expect(find.text('07:40  Hareid'), findsOneWidget);
  });
}
""")
s.bash("flutter test",
       "00:01 +0: loading /home/maren/src/ferryline/test/departures/departure_tile_test.dart\n"
       "00:05 +29: /home/maren/src/ferryline/test/goldens/timetable_golden_test.dart: timetable route 7 golden\n"
       "00:06 +40: /home/maren/src/ferryline/test/timetable/timetable_screen_test.dart: shows cached departures and a banner when offline\n"
       "══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞════════════════════════════════════════════════════\n"
       "The following TestFailure was thrown running a test:\n"
       "Expected: exactly one matching candidate\n"
       "  Actual: _TextContainingWidgetFinder:<Found 0 widgets with text containing timetable from 06:15: []>\n"
       "   Which: means none were found but one was expected\n\n"
       "When the exception was thrown, this was the stack:\n"
       "#4      main.<anonymous closure> (file:///home/maren/src/ferryline/test/timetable/timetable_screen_test.dart:26:5)\n"
       "<asynchronous suspension>\n"
       "#5      testWidgets.<anonymous closure>.<anonymous closure> (package:flutter_test/src/widget_tester.dart:168:15)\n"
       "<asynchronous suspension>\n"
       "#6      TestWidgetsFlutterBinding._runTestBody (package:flutter_test/src/binding.dart:1017:5)\n"
       "<asynchronous suspension>\n"
       "(elided one frame from package:stack_trace)\n\n"
       "This was caught by the test expectation on the following line:\n"
       "  file:///home/maren/src/ferryline/test/timetable/timetable_screen_test.dart line 26\n"
       "The test description was:\n"
       "  shows cached departures and a banner when offline\n"
       "════════════════════════════════════════════════════════════════════════════════════════════════════\n"
       "00:06 +40 -1: /home/maren/src/ferryline/test/timetable/timetable_screen_test.dart: shows cached departures and a banner when offline [E]\n"
       "  Test failed. See exception logs above.\n"
       "  The test description was: shows cached departures and a banner when offline\n"
       "  \n"
       "00:07 +41 -1: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache returns null for a route never cached\n"
       "00:07 +41 -1: Some tests failed.\n",
       code=1)
s.edit(REPO, "    } on http.ClientException {\n",
       "    } on Exception catch (e) {\n      // Offline shows up as SocketException or TimeoutException, not only ClientException.\n      if (e is! http.ClientException && e is! SocketException && e is! TimeoutException) rethrow;\n",
       text="No banner because the fallback never ran: offline, `http` throws a `SocketException` (and the 8 s timeout a `TimeoutException`), and the repository only caught `ClientException`, so the error went to the screen's error branch. Catching all three:")
s.edit(REPO, "import 'dart:convert';\n", "import 'dart:async';\nimport 'dart:convert';\nimport 'dart:io';\n")
s.bash("flutter test",
       "00:01 +0: loading /home/maren/src/ferryline/test/departures/departure_tile_test.dart\n"
       "00:05 +29: /home/maren/src/ferryline/test/goldens/timetable_golden_test.dart: timetable route 7 golden\n"
       "00:07 +41: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache returns null for a route never cached\n"
       "00:09 +42: All tests passed!\n")
s.bash("git status --short",
       " M lib/l10n/app_en.arb\n M lib/l10n/app_nb.arb\n M lib/src/timetable/timetable.dart\n M lib/src/timetable/timetable_repository.dart\n M lib/src/timetable/timetable_screen.dart\n"
       " M test/timetable/timetable_screen_test.dart\n?? lib/src/timetable/timetable_cache.dart\n?? test/timetable/timetable_cache_test.dart\n")
s.assistant(
    "Offline cache works: 42 tests pass and `dart analyze` shows only the 2 old infos.\n\n"
    "- `lib/src/timetable/timetable_cache.dart`: shared_preferences, key `timetable.<routeId>`, JSON with `fetched_at` (UTC) and the timetable; `load` returns null for a route never cached.\n"
    "- `TimetableRepository.fetch` now returns a `TimetableResult`; it saves after each successful fetch and falls back to the cache on `ClientException`, `SocketException` or `TimeoutException`.\n"
    "- The screen shows a `MaterialBanner` (\"Offline: timetable from 06:15\" / \"Frakoblet: rutetabell fra 06:15\") only when the data came from the cache; the string `offlineBanner` is in both ARB files, lib/generated/ came from gen-l10n.\n"
    "- path_provider is out of pubspec.yaml and pubspec.lock again. Nothing committed yet."
)

# ============================================================================================ turn 4: expiry + pull to refresh
s.user(
    "lovely, that's exactly what I had in mind, two more things while you're in there: a cached timetable should stop being used once it's older than 7 days, because the "
    "winter timetable starts on 1 December and I'd rather show the error text than a summer timetable that sends people to a pier where no boat comes (so in that case treat it as "
    "if there was no cache at all), and I'd like pull-to-refresh on the departure list so people on the pier can retry when the signal comes back (and please don't run flutter test "
    "with --update-goldens at any point, the goldens are rendered on the CI Mac and differ in anti-aliasing from Linux, if one fails tell me and I'll regenerate them there)."
)
s.read(CACHE)
s.edit(CACHE, "  TimetableCache(this._prefs);\n\n  final SharedPreferences _prefs;\n",
       "  TimetableCache(this._prefs, {DateTime Function()? clock}) : _clock = clock ?? DateTime.now;\n\n"
       "  /// Older copies are dropped: a season change must not show last season's boats.\n  static const Duration maxAge = Duration(days: 7);\n\n"
       "  final SharedPreferences _prefs;\n  final DateTime Function() _clock;\n")
s.edit(CACHE, "    return CachedTimetable(Timetable.fromJson(json['timetable'] as Map<String, dynamic>), DateTime.parse(json['fetched_at'] as String));\n",
       "    final DateTime fetchedAt = DateTime.parse(json['fetched_at'] as String);\n    if (_clock().difference(fetchedAt) > maxAge) return null;\n"
       "    return CachedTimetable(Timetable.fromJson(json['timetable'] as Map<String, dynamic>), fetchedAt);\n")
s.edit(CTEST, "    test('returns null for a route never cached', () {\n",
       "    test('ignores a copy older than 7 days', () async {\n      final TimetableCache late = TimetableCache(await SharedPreferences.getInstance(), clock: () => DateTime.utc(2025, 12, 2, 9));\n"
       "      await late.save(route7, DateTime.utc(2025, 11, 24, 8, 40));\n      expect(late.load('7'), isNull);\n    });\n\n"
       "    test('returns null for a route never cached', () {\n")
s.edit(SCREEN, "            Expanded(child: DepartureList(timetable: result.timetable, title: l10n.timetableTitle)),",
       "            Expanded(\n              child: RefreshIndicator(\n                onRefresh: _refresh,\n                child: DepartureList(timetable: result.timetable, title: l10n.timetableTitle),\n              ),\n            ),")
s.edit(SCREEN, "  @override\n  Widget build(", "  Future<void> _refresh() async {\n    final Future<TimetableResult> next = context.read<TimetableRepository>().fetch(widget.routeId);\n"
       "    setState(() => _future = next);\n    await next.then((_) {}, onError: (_) {});\n  }\n\n  @override\n  Widget build(")
s.bash("grep -n 'ListView\\|physics' lib/src/timetable/departure_list.dart",
       "31:    return ListView.builder(\n32:      physics: const ClampingScrollPhysics(),\n")
s.edit(T + "departure_list.dart",
       "      physics: const ClampingScrollPhysics(),\n", "      physics: const AlwaysScrollableScrollPhysics(parent: ClampingScrollPhysics()),\n",
       text="RefreshIndicator needs the list to be scrollable even when it is short (a route with 3 departures left):")
s.bash("flutter test",
       "00:01 +0: loading /home/maren/src/ferryline/test/departures/departure_tile_test.dart\n"
       "00:05 +29: /home/maren/src/ferryline/test/goldens/timetable_golden_test.dart: timetable route 7 golden\n"
       "00:07 +42: /home/maren/src/ferryline/test/timetable/timetable_cache_test.dart: TimetableCache ignores a copy older than 7 days\n"
       "00:09 +43: All tests passed!\n")
s.bash("dart analyze && flutter build apk --debug 2>&1 | tail -2",
       "Analyzing ferryline...\n\n"
       "   info - lib/src/departures/departure_tile.dart:18:12 - Use 'const' with the constructor to improve performance. Try adding the 'const' keyword to the constructor invocation. - prefer_const_constructors\n"
       "   info - lib/src/map/pier_map.dart:44:7 - The private field _zoom could be 'final'. Try making the field 'final'. - prefer_final_fields\n\n2 issues found.\n"
       "Running Gradle task 'assembleDebug'...                            71.4s\n✓ Built build/app/outputs/flutter-apk/app-debug.apk (88.2MB)\n")
s.assistant(
    "Both done, 43 tests pass (the golden test passed as is, nothing regenerated) and the debug APK builds on 3.19.6 in 71.4 s.\n\n"
    "- `TimetableCache.maxAge` is 7 days; `load` returns null for an older copy, so the screen shows \"No more departures today\"-style error text instead of a stale timetable. The clock is injectable for the test.\n"
    "- Pull-to-refresh: `RefreshIndicator` around the departure list, the list uses `AlwaysScrollableScrollPhysics` so it works on short lists.\n\n"
    "One thing to know: the error branch reuses `noDepartures` (\"No more departures today\"), which is misleading offline. A dedicated `offlineNoCache` string would be better; say if you want it."
)

# ============================================================================================ turn 5: wrap-up
s.user(
    "yes please add offlineNoCache, something like \"No connection and no saved timetable\" and the Norwegian \"Ingen forbindelse og ingen lagret rutetabell\", then commit it all "
    "on a branch called feature/offline-timetable (don't push, Eirik reviews on Thursday), and just so it's written down somewhere: the next thing after this will be a home-screen "
    "widget that shows the next departure, Android first, but not in this session, I need to talk to the designer about it first."
)
s.edit(EN, '  "offlineBanner": "Offline: timetable from {time}",\n', '  "offlineBanner": "Offline: timetable from {time}",\n  "offlineNoCache": "No connection and no saved timetable",\n')
s.edit(NB, '  "offlineBanner": "Frakoblet: rutetabell fra {time}",\n', '  "offlineBanner": "Frakoblet: rutetabell fra {time}",\n  "offlineNoCache": "Ingen forbindelse og ingen lagret rutetabell",\n')
s.edit(SCREEN, "          return Center(child: Text(l10n.noDepartures));", "          return Center(child: Text(l10n.offlineNoCache));")
s.bash("flutter test 2>&1 | tail -1 && git switch -c feature/offline-timetable && git add -A && git commit -qm 'Offline timetable cache (shared_preferences, 7 days), offline banner, pull-to-refresh' && git log --oneline -1",
       "00:09 +43: All tests passed!\nSwitched to a new branch 'feature/offline-timetable'\n4c19e7a Offline timetable cache (shared_preferences, 7 days), offline banner, pull-to-refresh\n")
s.assistant(
    "Committed as 4c19e7a on `feature/offline-timetable`, not pushed, for Eirik on Thursday. `offlineNoCache` is in both ARB files and the screen uses it when there is neither network nor a usable cached copy.\n\n"
    "Noted for later, not started: the home-screen widget with the next departure (Android first), after you've talked to the designer."
)

s.save(HERE / "session.jsonl")
