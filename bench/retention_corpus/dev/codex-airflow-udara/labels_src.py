# ruff: noqa: E501
"""Labels for codex-airflow-udara, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "udara-etl (Airflow 2.9, Jakarta air quality): new aqi_daily_rollup DAG for daily ISPU per station; GROUP BY error, UTC vs Jakarta day boundaries, coverage check counting missing stations; Slack alert dropped, backfill deferred",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6b test split",
    "voice": "Indonesian-flavoured English (\"Mas\", \"ya\", \"already\", \"no need\"), \"never mind\" to its own Slack request",
    "toolchain": "Apache Airflow 2.9.3 in docker compose (TaskFlow, dags test / tasks test / list-import-errors / variables / pools), PostgresHook, psql on PostgreSQL (Etc/UTC), pendulum 3",
}
COMPACTIONS = [
    ("Confirmed, two things together:", 1200),
    ("Coverage check added as task `check_coverage`", 1200),
]
FACTS = [
    f("a01", "request", "must", "I need help to make a new DAG for daily ISPU per station", "New DAG for the daily ISPU (Indonesian air-quality index) per station, from readings_hourly into ispu_daily (one row per station per day), running after the day's hourly data is complete.", [r"ISPU", r"daily|DAG|ispu_daily"], "done"),
    f("a02", "constraint", "should", "our Airflow is 2.9.3 in docker compose", "Airflow 2.9.3 in docker compose; test with airflow dags test inside the scheduler container.", [r"2\.9\.3|dags test", r"scheduler|docker|container|airflow"]),
    f("a03", "constraint", "must", "Please no Variable.get in top level of the DAG file", "No Variable.get at the top level of a DAG file (the scheduler parses every 30 s, the metadata DB is small).", [r"Variable\.get|top[- ]level", r"top|pars|inside|task"]),
    f("a04", "constraint", "must", "Timezone is Asia/Jakarta for everything", "Everything in Asia/Jakarta: the ISPU day is the Jakarta day, not the UTC day.", [r"Jakarta", r"day|timezone|UTC"]),
    f("a05", "constraint", "should", "And no new providers or pip packages", "No new providers or pip packages (the image is built by the infra team).", [r"providers?|\bpip\b|packages?", r"\bno\b|infra|image|new"]),
    f("a06", "request", "should", "please send alert to Slack channel #udara-alerts", "First request: alert the Slack channel #udara-alerts when the DAG fails (withdrawn).", [r"Slack|#udara-alerts"], "reversed"),
    f("a07", "finding", "should", "I looked around, nothing changed yet.", "The image has no Slack provider (providers: postgres 5.11.2, http, smtp, common-sql...; pendulum 3.0.0).", [r"Slack", r"provider|not in|installed|\bno\b"]),
    f("a08", "finding", "must", "The udara-db server timezone is **Etc/UTC**", "udara-db runs in Etc/UTC, so date(ts) in SQL gives the UTC day; the Jakarta day needs ts AT TIME ZONE 'Asia/Jakarta'.", [r"Etc/UTC|UTC", r"date\(|AT TIME ZONE|day"]),
    f("a09", "value", "nice", "aqi_hourly_ingest runs at minute 5 every hour", "aqi_hourly_ingest runs at minute 5 every hour (Jakarta), publishes Dataset postgres://udara/readings_hourly, emails data-alerts@udara.example on failure; readings_hourly has 41 stations since 2026-01-01.", [r"minute 5|data-alerts@udara\.example|postgres://udara|\b41\b", r"ingest|email|stations|hour"]),
    f("a10", "value", "nice", "postgres_udara  | 4     | udara-db, max 4 sessions", "Pool postgres_udara has 4 slots (udara-db, max 4 sessions); Variable ISPU_BREAKPOINTS_JSON exists.", [r"postgres_udara", r"\b4\b|slots?"]),
    f("a11", "decision", "must", "Ah never mind the Slack, no need", "Never mind Slack: ops only read the email alerts, so the DAG uses email_on_failure like the ingest DAG.", [r"Slack|email", r"never mind|no need|email_on_failure|instead|only"]),
    f("a12", "constraint", "must", "they are in the Variable ISPU_BREAKPOINTS_JSON", "ISPU breakpoints come from the Variable ISPU_BREAKPOINTS_JSON, read inside the task.", [r"ISPU_BREAKPOINTS_JSON|breakpoints", r"inside|task|Variable"]),
    f("a13", "value", "must", "minimum 18 hourly readings", "A station-day counts only with at least 18 hourly readings; with fewer, ISPU is NULL but the row is still written with n_hours.", [r"\b18\b", r"hour|reading|NULL"]),
    f("a14", "request", "should", "the DAG should use the pool postgres_udara", "The database task runs in the pool postgres_udara.", [r"postgres_udara", r"pool"], "done"),
    f("a15", "decision", "should", "First version uses a cron at 00:30 Jakarta", "Schedule: cron 00:30 Asia/Jakarta daily instead of the Dataset (the ingest publishes it every hour, it would trigger 24 runs a day).", [r"00:30|30 0|cron", r"Dataset|hourly|24|schedul"]),
    f("a16", "error", "should", "LINE 2: SELECT r.station_id,", "First dags test: psycopg2 GroupingError, column r.station_id must appear in the GROUP BY clause; fixed by grouping by station_id too.", [r"GroupingError|GROUP BY", r"station_id"], "fixed"),
    f("a17", "finding", "should", "Also note `dags test` still says the run was 'successful'", "airflow dags test marks the run successful even when the task went UP_FOR_RETRY: read the log, not the last line.", [r"dags test|successful|UP_FOR_RETRY|up_for_retry", r"log|retry|success"]),
    f("a18", "error", "must", " 2026-11-18 |       41 |   6 |   6 |      41", "Time-zone bug: one run's hours were split over two UTC days (6 rows on 18 Nov, up to 18 on 19 Nov): the cron interval is 00:30 -> 00:30 Jakarta and date(ts) used the UTC day.", [r"2026-11-18|split|two (UTC )?days|UTC day", r"\b6\b|hours?|n_hours|day"], "fixed"),
    f("a19", "fix", "must", "Confirmed, two things together:", "Fix: day = Jakarta date of data_interval_start (interval D 00:30 -> D+1 00:30 covers day D); SQL takes ts from D 00:00 to D+1 00:00 Jakarta and groups by (ts AT TIME ZONE 'Asia/Jakarta')::date.", [r"data_interval_start|AT TIME ZONE|Jakarta date", r"day|group|interval"]),
    f("a20", "value", "should", "Note the run date convention: the run *named* 2026-11-21", "Run date convention: the run named 2026-11-21 fills the Jakarta day 2026-11-20; dashboards (Fajar) should query ispu_daily by day, not by run date.", [r"2026-11-21|run date|named", r"2026-11-20|day"]),
    f("a21", "value", "should", "Now it is right: the 2026-11-21 run writes", "2026-11-20 results: 41 stations, n_hours 12..24, only JKT-07 NULL (12 readings); highest ISPU 137 at JKT-22 (TIDAK SEHAT, from PM10; PM2.5 sub-index 94 at mean 49.8).", [r"JKT-07|JKT-22|137", r"NULL|ISPU|TIDAK SEHAT|readings"]),
    f("a22", "finding", "nice", "Parse is clean and the only `Variable.get` is on line 41", "The only Variable.get (line 41) is inside the rollup task; reading the SQL file at import is a local file read only.", [r"Variable\.get", r"line 41|inside|task|top"]),
    f("a23", "command", "should", "airflow dags test aqi_daily_rollup 2026-11-20 2>&1 | tail -30", "Test: docker compose exec -T airflow-scheduler airflow dags test aqi_daily_rollup <date> (grep the log for ERROR / Returned value); latest runs as expected.", [r"dags test", r"aqi_daily_rollup"]),
    f("a24", "command", "nice", "airflow connections get udara_db -o yaml", "Parse check: airflow dags list-import-errors ('No data found' = clean).", [r"list-import-errors", r"No data|clean|import"]),
    f("a25", "request", "must", "if more than 5 stations have NULL ispu for the day, the DAG must fail", "After the rollup, the DAG must fail (so the email goes out) when more than 5 stations have NULL ISPU for the day.", [r"\b5\b|five", r"NULL|stations?|fail"], "done"),
    f("a26", "request", "should", "And the backfill from January, we need it but later ya", "Backfill from January is needed but later, not now: the infra team must raise the postgres_udara pool first.", [r"backfill", r"later|not now|pool|infra|open"], "open"),
    f("a27", "decision", "should", "Coverage check added as task `check_coverage`", "check_coverage runs after rollup and raises AirflowFailException (no retry, immediate email) when no_ispu > MAX_NULL_STATIONS = 5.", [r"check_coverage|AirflowFailException|MAX_NULL_STATIONS", r"fail|\b5\b"]),
    f("a28", "value", "nice", "'day': '2026-11-02', 'rows': 41, 'no_ispu': 9", "Outage day 2026-11-02: 9 stations without ISPU, check_coverage fails ('9 stations without enough readings (limit 5)').", [r"2026-11-02", r"\b9\b"]),
    f("a29", "finding", "should", "But look at 2026-11-14: only **38 rows**", "2026-11-14 had only 38 rows: stations with no readings at all had no row, so the check could not see them.", [r"\b38\b|missing|no readings at all", r"stations?|rows?"]),
    f("a30", "request", "must", "missing station must count also", "Missing stations count too: active stations come from table stations (column active).", [r"missing|stations table|active", r"count|stations?"], "done"),
    f("a31", "fix", "should", "2026-11-14 now has 41 rows with 3 NULL", "rollup_daily.sql now starts from active stations LEFT JOIN readings_hourly, so a station without readings gets n_hours 0 and NULL ISPU; 2026-11-14: 41 rows, 3 NULL (BKS-05, JKT-11, TNG-02).", [r"LEFT JOIN|active|missing stations|n_hours 0", r"2026-11-14|\b41\b|NULL|\b3\b"]),
    f("a32", "value", "nice", "BKS-01|Bekasi Timur", "stations: 41 active of 44; inactive BKS-01, DPK-02, JKT-04.", [r"BKS-01|DPK-02|JKT-04"]),
    f("a33", "state", "must", "Switched to a new branch 'feature/ispu-daily'", "Committed 3f8b6d0 on new branch feature/ispu-daily (not pushed; the user opens the merge request).", [r"3f8b6d0|feature/ispu-daily"]),
    f("a34", "state", "should", "is_paused               True", "aqi_daily_rollup is paused (dags_are_paused_at_creation = True): it runs only after someone unpauses it.", [r"paused|is_paused", r"True|unpause|creation"]),
    f("a35", "path", "should", "What is in it: `dags/aqi_daily_rollup.py`", "Files: dags/aqi_daily_rollup.py (rollup + check_coverage), include/ispu.py (sub_index, category, station_day, MIN_HOURS 18), include/sql/rollup_daily.sql.", [r"aqi_daily_rollup\.py|ispu\.py|rollup_daily\.sql"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
