# ruff: noqa: E501
"""Starting contents for pi-flutter-ferryline-offline (written for the heldout3b split)."""

PUBSPEC = """name: ferryline
description: Timetables and live departures for the island ferries.
publish_to: none
version: 2.7.1+71

environment:
  sdk: '>=3.3.0 <4.0.0'
  flutter: '>=3.19.0'

dependencies:
  flutter:
    sdk: flutter
  flutter_localizations:
    sdk: flutter
  http: ^1.2.1
  intl: ^0.19.0
  shared_preferences: ^2.2.3
  provider: ^6.1.2

dev_dependencies:
  flutter_test:
    sdk: flutter
  flutter_lints: ^3.0.2
  mocktail: ^1.0.3

flutter:
  generate: true
  uses-material-design: true
"""

REPO = """import 'dart:convert';

import 'package:http/http.dart' as http;

import 'timetable.dart';

class TimetableRepository {
  TimetableRepository(this._client, {this.baseUrl = 'https://api.ferryline.no/v2'});

  final http.Client _client;
  final String baseUrl;

  Future<Timetable> fetch(String routeId) async {
    final response = await _client
        .get(Uri.parse('$baseUrl/routes/$routeId/timetable'))
        .timeout(const Duration(seconds: 8));
    if (response.statusCode != 200) {
      throw http.ClientException('timetable $routeId: HTTP ${response.statusCode}');
    }
    return Timetable.fromJson(jsonDecode(response.body) as Map<String, dynamic>);
  }
}
"""

SCREEN = """import 'package:flutter/material.dart';
import 'package:provider/provider.dart';

import '../../generated/l10n/app_localizations.dart';
import 'timetable.dart';
import 'timetable_repository.dart';
import 'departure_list.dart';

class TimetableScreen extends StatefulWidget {
  const TimetableScreen({super.key, required this.routeId});

  final String routeId;

  @override
  State<TimetableScreen> createState() => _TimetableScreenState();
}

class _TimetableScreenState extends State<TimetableScreen> {
  late Future<Timetable> _future;

  @override
  void initState() {
    super.initState();
    _future = context.read<TimetableRepository>().fetch(widget.routeId);
  }

  @override
  Widget build(BuildContext context) {
    final l10n = AppLocalizations.of(context);
    return FutureBuilder<Timetable>(
      future: _future,
      builder: (context, snapshot) {
        if (snapshot.connectionState != ConnectionState.done) {
          return const Center(child: CircularProgressIndicator());
        }
        if (snapshot.hasError) {
          return const SizedBox.shrink();
        }
        return DepartureList(timetable: snapshot.data!, title: l10n.timetableTitle);
      },
    );
  }
}
"""

ARB_EN = """{
  "@@locale": "en",
  "timetableTitle": "Departures",
  "noDepartures": "No more departures today"
}
"""

ARB_NB = """{
  "@@locale": "nb",
  "timetableTitle": "Avganger",
  "noDepartures": "Ingen flere avganger i dag"
}
"""

SCREEN_TEST = """import 'package:ferryline/src/timetable/timetable_repository.dart';
import 'package:ferryline/src/timetable/timetable_screen.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:http/http.dart' as http;
import 'package:http/testing.dart';

import '../helpers/pump_app.dart';
import '../helpers/fixtures.dart';

void main() {
  testWidgets('shows departures for route 7', (tester) async {
    final client = MockClient((_) async => http.Response(route7Json, 200));
    await tester.pumpApp(const TimetableScreen(routeId: '7'), repository: TimetableRepository(client));
    await tester.pumpAndSettle();
    expect(find.text('07:40  Hareid'), findsOneWidget);
  });
}
"""

TIMETABLE = """class Timetable {
  Timetable({required this.routeId, required this.departures, required this.validUntil});

  final String routeId;
  final List<Departure> departures;
  final DateTime validUntil;

  // Hand-written on purpose: no code generation in this repo.
  factory Timetable.fromJson(Map<String, dynamic> json) => Timetable(
        routeId: json['route'] as String,
        departures: [for (final d in json['departures'] as List) Departure.fromJson(d as Map<String, dynamic>)],
        validUntil: DateTime.parse(json['valid_until'] as String),
      );
}
"""

DEPARTURE_LIST = """import 'package:flutter/material.dart';

import 'timetable.dart';

class DepartureList extends StatelessWidget {
  const DepartureList({super.key, required this.timetable, required this.title});

  final Timetable timetable;
  final String title;

  @override
  Widget build(BuildContext context) {
    return ListView.builder(
      physics: const ClampingScrollPhysics(),
      itemCount: timetable.departures.length,
      itemBuilder: (context, i) => DepartureTile(departure: timetable.departures[i]),
    );
  }
}
"""
