# ruff: noqa: E501
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout6b split.

An Indonesian-flavoured English user ("ya", "already", "no need") has Codex add a daily ISPU
(Indonesian air-quality index) rollup DAG to an Airflow 2.9 project that ingests hourly PM2.5/PM10
readings from Jakarta stations: dataset scheduling, a Postgres GROUP BY error, a time-zone bug in
day boundaries, a coverage check task. airflow dags test / tasks test / list-import-errors in
docker compose, psql. The user drops her own Slack-alert request. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/ratna/work/udara-etl"
r = Rollout(CWD, "2026-11-24T02:31:07", seed="udara-ispu-rollup", repo_url="git@gitlab.udara.example:data/udara-etl.git")

ING = "dags/aqi_hourly_ingest.py"
ROLL = "dags/aqi_daily_rollup.py"
SQL = "include/sql/rollup_daily.sql"
ISPU = "include/ispu.py"
REQ = "requirements.txt"
DC = "docker-compose.yaml"
EXEC = "docker compose exec -T airflow-scheduler"

r.files.update({
    ING: """from datetime import timedelta

import pendulum
from airflow.datasets import Dataset
from airflow.decorators import dag, task
from airflow.providers.postgres.hooks.postgres import PostgresHook

READINGS = Dataset("postgres://udara/readings_hourly")

default_args = {
    "owner": "data-udara",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
    "email": ["data-alerts@udara.example"],
    "email_on_failure": True,
}


@dag(
    schedule="5 * * * *",
    start_date=pendulum.datetime(2026, 1, 1, tz="Asia/Jakarta"),
    catchup=False,
    max_active_runs=1,
    default_args=default_args,
    tags=["udara", "ingest"],
)
def aqi_hourly_ingest():
    @task
    def fetch(data_interval_start=None, data_interval_end=None):
        from include.stations_api import fetch_hour

        return fetch_hour(data_interval_start, data_interval_end)

    @task(outlets=[READINGS])
    def load(rows):
        hook = PostgresHook(postgres_conn_id="udara_db")
        hook.insert_rows(
            "readings_hourly",
            rows,
            target_fields=["station_id", "ts", "pm25", "pm10", "o3", "co"],
            replace=True,
            replace_index=["station_id", "ts"],
        )

    load(fetch())


aqi_hourly_ingest()
""",
    REQ: """# installed in the image built by infra (udara/airflow:2.9.3-py3.11-r4); changes need an infra ticket
apache-airflow-providers-postgres==5.11.2
requests==2.32.3
""",
})

# ===================================================================== turn 1
r.user(
    "Hi Mas, good morning. I need help to make a new DAG for daily ISPU per station (ISPU is the Indonesian air quality index, from PM2.5 and PM10 etc). The hourly ingest DAG aqi_hourly_ingest is already running in our Airflow, readings go to table readings_hourly. "
    "The new DAG must run after the hourly data for the day is complete, and write into table ispu_daily (already created by Fajar, one row per station per day). "
    "Some rules ya: our Airflow is 2.9.3 in docker compose, please test with airflow dags test inside the scheduler container. Please no Variable.get in top level of the DAG file, because the scheduler parses every 30 seconds and our metadata DB is small. "
    "Timezone is Asia/Jakarta for everything, the day is Jakarta day, not UTC day. And no new providers or pip packages, the image is built by infra team. "
    "Also when the DAG fails please send alert to Slack channel #udara-alerts."
)
r.run("ls dags include include/sql; git log --oneline -4", """dags:
aqi_hourly_ingest.py
__init__.py

include:
__init__.py
sql
stations_api.py

include/sql:
readings_hourly.sql
5a21c0e ingest: replace=True on (station_id, ts)
e80d4b3 ingest: email on failure
71c9f2a stations api client
0d3e6b1 init airflow 2.9.3 compose""", reasoning="**Exploring the DAG repo**")
r.cat(ING)
r.run("sed -n 1,30p include/stations_api.py", """import requests

API = "https://api.udara.example/v2"


def fetch_hour(start, end):
    \"\"\"All stations' readings for one hour: list of (station_id, ts, pm25, pm10, o3, co).\"\"\"
    resp = requests.get(f"{API}/readings", params={"from": start.isoformat(), "to": end.isoformat()}, timeout=30)
    resp.raise_for_status()
    return [
        (r["station"], r["ts"], r.get("pm25"), r.get("pm10"), r.get("o3"), r.get("co"))
        for r in resp.json()["readings"]
    ]
""")
r.cat(REQ)
r.run(f"docker compose ps --format 'table {{{{.Service}}}}\\t{{{{.Status}}}}'; {EXEC} airflow version", """SERVICE             STATUS
airflow-scheduler   Up 6 days (healthy)
airflow-triggerer   Up 6 days (healthy)
airflow-webserver   Up 6 days (healthy)
postgres-meta       Up 6 days (healthy)
udara-db            Up 6 days (healthy)
2.9.3""")
r.run(f"{EXEC} pip list 2>/dev/null | grep -i 'provider\\|pendulum\\|slack'", """apache-airflow-providers-common-io       1.3.2
apache-airflow-providers-common-sql      1.14.2
apache-airflow-providers-fab             1.2.2
apache-airflow-providers-ftp             3.10.0
apache-airflow-providers-http            4.12.0
apache-airflow-providers-imap            3.6.1
apache-airflow-providers-postgres        5.11.2
apache-airflow-providers-smtp            1.7.1
apache-airflow-providers-sqlite          3.8.1
pendulum                                 3.0.0""")
r.run(f"{EXEC} airflow dags list-import-errors; {EXEC} airflow connections get udara_db -o yaml | grep -v password", """No data found
conn_id: udara_db
conn_type: postgres
description: ''
extra: ''
host: udara-db
id: 3
is_encrypted: true
is_extra_encrypted: false
login: udara_etl
port: 5432
schema: udara""")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c '\\d readings_hourly' -c '\\d ispu_daily' -c 'show timezone'", """                    Table "public.readings_hourly"
   Column   |           Type           | Collation | Nullable | Default
------------+--------------------------+-----------+----------+---------
 station_id | text                     |           | not null |
 ts         | timestamp with time zone |           | not null |
 pm25       | numeric(6,1)             |           |          |
 pm10       | numeric(6,1)             |           |          |
 o3         | numeric(6,1)             |           |          |
 co         | numeric(7,1)             |           |          |
Indexes:
    "readings_hourly_pkey" PRIMARY KEY, btree (station_id, ts)

                 Table "public.ispu_daily"
   Column   |  Type   | Collation | Nullable | Default
------------+---------+-----------+----------+---------
 station_id | text    |           | not null |
 day        | date    |           | not null |
 n_hours    | integer |           | not null |
 ispu_pm25  | integer |           |          |
 ispu_pm10  | integer |           |          |
 ispu       | integer |           |          |
 category   | text    |           |          |
Indexes:
    "ispu_daily_pkey" PRIMARY KEY, btree (station_id, day)

 TimeZone
----------
 Etc/UTC
(1 row)""")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -Atc \"select count(distinct station_id), min(ts), max(ts) from readings_hourly\"", "41|2026-01-01 00:00:00+00|2026-11-24 02:00:00+00")
r.run(f"{EXEC} airflow variables list | grep -i ispu; {EXEC} airflow pools list", """ISPU_BREAKPOINTS_JSON
Pool            | Slots | Description                | Include Deferred
================+=======+============================+=================
default_pool    | 128   | Default pool               | False
postgres_udara  | 4     | udara-db, max 4 sessions   | False""")
r.say(
    "I looked around, nothing changed yet.\n\n"
    "- Airflow 2.9.3, pendulum 3.0.0, providers: postgres 5.11.2, http, smtp, common-sql... but **no Slack provider** (`apache-airflow-providers-slack` is not in the image). So a Slack alert would need either a new provider (not allowed) or a hand-written `requests.post` to a webhook in an `on_failure_callback`.\n"
    "- aqi_hourly_ingest runs at minute 5 every hour (Asia/Jakarta), publishes the Dataset `postgres://udara/readings_hourly` from its `load` task, and already sends email on failure to data-alerts@udara.example.\n"
    "- readings_hourly: 41 stations, `ts timestamptz`, from 2026-01-01. The udara-db server timezone is **Etc/UTC**, so `date(ts)` in SQL gives the UTC day, not the Jakarta day; I will need `ts AT TIME ZONE 'Asia/Jakarta'`.\n"
    "- ispu_daily(station_id, day, n_hours, ispu_pm25, ispu_pm10, ispu, category), PK (station_id, day).\n"
    "- Variable `ISPU_BREAKPOINTS_JSON` exists; pool `postgres_udara` has 4 slots.\n\n"
    "Question about Slack: do you want the webhook callback with requests (already installed), or something else?"
)

# ===================================================================== turn 2
r.user(
    "Ah never mind the Slack, no need. I asked ops, they only read the email alerts anyway, so just use email_on_failure like the ingest DAG. "
    "For ISPU breakpoints ya, they are in the Variable ISPU_BREAKPOINTS_JSON, but read it inside the task, not at top level. A day only counts if a station has minimum 18 hourly readings, if less then ispu is NULL but still write the row with n_hours. "
    "And the DAG should use the pool postgres_udara for the database task."
)
r.run(f"{EXEC} airflow variables get ISPU_BREAKPOINTS_JSON", """{"pm25": [[0, 15.5, 0, 50], [15.5, 55.4, 51, 100], [55.4, 150.4, 101, 200], [150.4, 250.4, 201, 300], [250.4, 500.0, 301, 500]], "pm10": [[0, 50, 0, 50], [50, 150, 51, 100], [150, 350, 101, 200], [350, 420, 201, 300], [420, 600, 301, 500]], "categories": [[50, "BAIK"], [100, "SEDANG"], [200, "TIDAK SEHAT"], [300, "SANGAT TIDAK SEHAT"], [500, "BERBAHAYA"]]}""")
r.patch([("add", ISPU, '''"""ISPU (Indeks Standar Pencemar Udara) from daily mean concentrations, breakpoints from the
Variable ISPU_BREAKPOINTS_JSON (read by the caller inside a task, never at import time)."""

from __future__ import annotations

import math

MIN_HOURS = 18  # a station-day counts only with at least 18 hourly readings


def sub_index(conc: float | None, table: list[list[float]]) -> int | None:
    if conc is None:
        return None
    for c_lo, c_hi, i_lo, i_hi in table:
        if c_lo <= conc <= c_hi:
            return math.ceil((i_hi - i_lo) / (c_hi - c_lo) * (conc - c_lo) + i_lo)
    return int(table[-1][3])


def category(ispu: int | None, cats: list[list]) -> str | None:
    if ispu is None:
        return None
    for upper, name in cats:
        if ispu <= upper:
            return name
    return cats[-1][1]


def station_day(row: dict, bp: dict) -> dict:
    """row: station_id, day, n_hours, pm25_mean, pm10_mean -> ispu_daily row."""
    ok = row["n_hours"] >= MIN_HOURS
    i25 = sub_index(row["pm25_mean"], bp["pm25"]) if ok else None
    i10 = sub_index(row["pm10_mean"], bp["pm10"]) if ok else None
    ispu = max((i for i in (i25, i10) if i is not None), default=None)
    return {
        "station_id": row["station_id"],
        "day": row["day"],
        "n_hours": row["n_hours"],
        "ispu_pm25": i25,
        "ispu_pm10": i10,
        "ispu": ispu,
        "category": category(ispu, bp["categories"]),
    }
'''), ("add", SQL, """-- daily means per station for one Jakarta day; {{ ds }} is the Jakarta date of the run's data interval
SELECT r.station_id,
       date(r.ts)            AS day,
       count(*)              AS n_hours,
       avg(r.pm25)::float    AS pm25_mean,
       avg(r.pm10)::float    AS pm10_mean
  FROM readings_hourly r
 WHERE r.ts >= %(start)s AND r.ts < %(end)s
 GROUP BY date(r.ts)
 ORDER BY r.station_id;
"""), ("add", ROLL, '''import json
from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.datasets import Dataset
from airflow.decorators import dag, task
from airflow.models import Variable
from airflow.providers.postgres.hooks.postgres import PostgresHook

READINGS = Dataset("postgres://udara/readings_hourly")
SQL = (Path(__file__).parent.parent / "include" / "sql" / "rollup_daily.sql").read_text()

default_args = {
    "owner": "data-udara",
    "retries": 1,
    "retry_delay": timedelta(minutes=10),
    "email": ["data-alerts@udara.example"],
    "email_on_failure": True,
}


@dag(
    schedule="30 0 * * *",
    start_date=pendulum.datetime(2026, 11, 1, tz="Asia/Jakarta"),
    catchup=False,
    max_active_runs=1,
    default_args=default_args,
    tags=["udara", "ispu"],
)
def aqi_daily_rollup():
    @task(pool="postgres_udara")
    def rollup(data_interval_start=None, data_interval_end=None):
        from include.ispu import station_day

        bp = json.loads(Variable.get("ISPU_BREAKPOINTS_JSON"))
        hook = PostgresHook(postgres_conn_id="udara_db")
        rows = hook.get_records(SQL, parameters={"start": data_interval_start, "end": data_interval_end})
        cols = ["station_id", "day", "n_hours", "pm25_mean", "pm10_mean"]
        out = [station_day(dict(zip(cols, row)), bp) for row in rows]
        hook.insert_rows(
            "ispu_daily",
            [tuple(o.values()) for o in out],
            target_fields=list(out[0].keys()) if out else None,
            replace=True,
            replace_index=["station_id", "day"],
        )
        return len(out)

    rollup()


aqi_daily_rollup()
''')], reasoning="**Writing the ISPU helper, SQL and DAG**")
r.say("First version uses a cron at 00:30 Jakarta. Thinking about \"run after the hourly data is complete\": a Dataset schedule is cleaner than a clock, but the ingest publishes the dataset every hour, so the rollup would run 24 times a day. I'll keep the time schedule but wait for the 23:00 hour with the timetable in mind: the 00:30 run covers the previous Jakarta day and the 23:05 ingest has finished by then. Checking the parse first.")
r.run(f"{EXEC} airflow dags list-import-errors && {EXEC} airflow dags list -o plain | grep aqi", """No data found
aqi_daily_rollup  | /opt/airflow/dags/aqi_daily_rollup.py  | data-udara | None
aqi_hourly_ingest | /opt/airflow/dags/aqi_hourly_ingest.py | data-udara | False""")
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-20 2>&1 | tail -30", """[2026-11-24T02:58:41.114+0000] {dag.py:4228} INFO - dagrun id: aqi_daily_rollup
[2026-11-24T02:58:41.127+0000] {dag.py:4244} INFO - created dagrun <DagRun aqi_daily_rollup @ 2026-11-20 00:00:00+00:00: manual__2026-11-20T00:00:00+00:00, state:running, queued_at: None. externally triggered: False>
[2026-11-24T02:58:41.152+0000] {dag.py:4189} INFO - [DAG TEST] starting task_id=rollup map_index=-1
[2026-11-24T02:58:41.153+0000] {dag.py:4192} INFO - [DAG TEST] running task <TaskInstance: aqi_daily_rollup.rollup manual__2026-11-20T00:00:00+00:00 [scheduled]>
[2026-11-24T02:58:41.402+0000] {base.py:84} INFO - Using connection ID 'udara_db' for task execution.
[2026-11-24T02:58:41.433+0000] {taskinstance.py:3310} ERROR - Task failed with exception
Traceback (most recent call last):
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/models/taskinstance.py", line 767, in _execute_task
    result = _execute_callable(context=context, **execute_callable_kwargs)
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/decorators/base.py", line 266, in execute
    return_value = super().execute(context)
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/operators/python.py", line 235, in execute_callable
    return self.python_callable(*self.op_args, **self.op_kwargs)
  File "/opt/airflow/dags/aqi_daily_rollup.py", line 38, in rollup
    rows = hook.get_records(SQL, parameters={"start": data_interval_start, "end": data_interval_end})
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/providers/common/sql/hooks/sql.py", line 456, in run
    self._run_command(cur, sql_statement, parameters)
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/providers/common/sql/hooks/sql.py", line 511, in _run_command
    cur.execute(sql_statement, parameters)
psycopg2.errors.GroupingError: column "r.station_id" must appear in the GROUP BY clause or be used in an aggregate function
LINE 2: SELECT r.station_id,
               ^

[2026-11-24T02:58:41.447+0000] {taskinstance.py:1206} INFO - Marking task as UP_FOR_RETRY. dag_id=aqi_daily_rollup, task_id=rollup, run_id=manual__2026-11-20T00:00:00+00:00, execution_date=20261120T000000, start_date=, end_date=20261124T025841
[2026-11-24T02:58:41.459+0000] {dag.py:4203} INFO - [DAG TEST] end task task_id=rollup map_index=-1
[2026-11-24T02:58:41.462+0000] {dagrun.py:823} INFO - Marking run <DagRun aqi_daily_rollup @ 2026-11-20 00:00:00+00:00: manual__2026-11-20T00:00:00+00:00, state:running, queued_at: None. externally triggered: False> successful""", code=0, secs=6.2)
r.say("The salient line is in the middle: `psycopg2.errors.GroupingError: column \"r.station_id\" must appear in the GROUP BY clause`. My GROUP BY has only the day. Also note `dags test` still says the run was 'successful' (the task went UP_FOR_RETRY), so I have to read the log, not the last line.")
r.run(f"{EXEC} airflow tasks states-for-dag-run aqi_daily_rollup manual__2026-11-20T00:00:00+00:00", """dag_id           | execution_date            | task_id | state          | start_date | end_date
=================+===========================+=========+================+============+=================================
aqi_daily_rollup | 2026-11-20T00:00:00+00:00 | rollup  | up_for_retry   |            | 2026-11-24T02:58:41.447316+00:00""")
r.patch([("update", SQL, [(" GROUP BY date(r.ts)\n", " GROUP BY r.station_id, date(r.ts)\n")])])
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-20 2>&1 | grep -E 'ERROR|Returned value|Marking task|state:' | tail -6", """[2026-11-24T03:01:12.806+0000] {python.py:237} INFO - Done. Returned value was: 82
[2026-11-24T03:01:12.931+0000] {taskinstance.py:1206} INFO - Marking task as SUCCESS. dag_id=aqi_daily_rollup, task_id=rollup, run_id=manual__2026-11-20T00:00:00+00:00, execution_date=20261120T000000, start_date=20261124T030112, end_date=20261124T030112""", secs=6.0)
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c \"select day, count(*) stations, min(n_hours), max(n_hours), count(*) filter (where ispu is null) no_ispu from ispu_daily group by day order by day\"", """    day     | stations | min | max | no_ispu
------------+----------+-----+-----+---------
 2026-11-18 |       41 |   6 |   6 |      41
 2026-11-19 |       41 |  11 |  18 |       5
(2 rows)""")
r.say("82 rows from one run: two days per station, 6 hours on 18 Nov and up to 18 on 19 Nov. So one run's hours are split over two UTC days. Checking which data interval `dags test 2026-11-20` really gets.")
r.run(f"{EXEC} python -c \"import pendulum; from airflow.models import DagBag; d = DagBag('/opt/airflow/dags', include_examples=False).get_dag('aqi_daily_rollup'); print(d.timetable.infer_manual_data_interval(run_after=pendulum.datetime(2026, 11, 20, tz='UTC')))\" 2>/dev/null", "DataInterval(start=DateTime(2026, 11, 18, 17, 30, 0, tzinfo=Timezone('UTC')), end=DateTime(2026, 11, 19, 17, 30, 0, tzinfo=Timezone('UTC')))")
r.say(
    "Confirmed, two things together:\n"
    "1. With the cron `30 0 * * *` in Asia/Jakarta a run covers **00:30 → 00:30 Jakarta** (here 19 Nov 00:30 .. 20 Nov 00:30 Jakarta = 18 Nov 17:30 .. 19 Nov 17:30 UTC): half an hour of the next day is in, the first half hour of the day is out.\n"
    "2. `date(r.ts)` groups by the **UTC** day because udara-db runs in Etc/UTC, so the Jakarta day is cut at 07:00 local: 6 rows land on 18 Nov, 18 on 19 Nov, and 19 Nov even gets an ISPU from hours that are half another day.\n\n"
    "Fix: the task computes the Jakarta day itself: **day = Jakarta date of `data_interval_start`** (interval D 00:30 → D+1 00:30 covers day D), the SQL takes `ts` from D 00:00 to D+1 00:00 Jakarta and groups by `(r.ts AT TIME ZONE 'Asia/Jakarta')::date`. The 00:30 schedule then only decides *when* it runs, not which hours are in."
)
r.patch([("update", SQL, [
    ("""-- daily means per station for one Jakarta day; {{ ds }} is the Jakarta date of the run's data interval
SELECT r.station_id,
       date(r.ts)            AS day,""", """-- daily means per station for one Jakarta day (%(day)s); udara-db runs in Etc/UTC, so never date(ts)
SELECT r.station_id,
       (r.ts AT TIME ZONE 'Asia/Jakarta')::date AS day,"""),
    (""" WHERE r.ts >= %(start)s AND r.ts < %(end)s
 GROUP BY r.station_id, date(r.ts)""", """ WHERE r.ts >= (%(day)s::date)::timestamp AT TIME ZONE 'Asia/Jakarta'
   AND r.ts <  (%(day)s::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'
 GROUP BY r.station_id, (r.ts AT TIME ZONE 'Asia/Jakarta')::date"""),
]), ("update", ROLL, [
    ("""    def rollup(data_interval_start=None, data_interval_end=None):
        from include.ispu import station_day
""", """    def rollup(data_interval_start=None):
        from include.ispu import station_day

        # the Jakarta date of the interval start: the 00:30 run on D+1 covers D 00:30 .. D+1 00:30 -> day D
        day = data_interval_start.in_timezone("Asia/Jakarta").date()
"""),
    ("""        rows = hook.get_records(SQL, parameters={"start": data_interval_start, "end": data_interval_end})""", """        rows = hook.get_records(SQL, parameters={"day": day.isoformat()})"""),
])])
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c \"delete from ispu_daily where day in ('2026-11-18','2026-11-19')\"", "DELETE 82")
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-21 2>&1 | grep -E 'ERROR|Returned value|Marking task' | tail -4", """[2026-11-24T03:12:37.240+0000] {python.py:237} INFO - Done. Returned value was: 41
[2026-11-24T03:12:37.368+0000] {taskinstance.py:1206} INFO - Marking task as SUCCESS. dag_id=aqi_daily_rollup, task_id=rollup, run_id=manual__2026-11-21T00:00:00+00:00, execution_date=20261121T000000, start_date=20261124T031237, end_date=20261124T031237""", secs=6.1)
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c \"select day, count(*) stations, min(n_hours), max(n_hours), count(*) filter (where ispu is null) no_ispu, max(ispu) from ispu_daily group by day order by day\" -c \"select station_id, n_hours, ispu, category from ispu_daily where day='2026-11-20' and (ispu is null or ispu > 100) order by ispu desc nulls first\"", """    day     | stations | min | max | no_ispu | max
------------+----------+-----+-----+---------+-----
 2026-11-20 |       41 |  12 |  24 |       1 | 137
(1 row)

 station_id | n_hours | ispu |  category
------------+---------+------+-------------
 JKT-07     |      12 |      |
 JKT-22     |      24 |  137 | TIDAK SEHAT
 JKT-31     |      24 |  118 | TIDAK SEHAT
 BKS-03     |      23 |  104 | TIDAK SEHAT
(4 rows)""")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -Atc \"select count(*) from readings_hourly where station_id='JKT-22' and (ts at time zone 'Asia/Jakarta')::date='2026-11-20'; select round(avg(pm25),1) from readings_hourly where station_id='JKT-22' and (ts at time zone 'Asia/Jakarta')::date='2026-11-20'\"", "24\n49.8")
r.run(f"{EXEC} python -c \"import json; from airflow.models import Variable; from include.ispu import sub_index, station_day; bp=json.loads(Variable.get('ISPU_BREAKPOINTS_JSON')); print(sub_index(49.8, bp['pm25']), sub_index(12.0, bp['pm25']), sub_index(None, bp['pm10'])); print(station_day({{'station_id':'X','day':'2026-11-20','n_hours':17,'pm25_mean':80.0,'pm10_mean':90.0}}, bp))\" 2>/dev/null", "94 39 None\n{'station_id': 'X', 'day': '2026-11-20', 'n_hours': 17, 'ispu_pm25': None, 'ispu_pm10': None, 'ispu': None, 'category': None}")
r.say(
    "Now it is right: the 2026-11-21 run writes the Jakarta day **2026-11-20**: 41 stations, n_hours 12..24, only JKT-07 has ISPU NULL (12 readings < 18). Highest ISPU 137 (JKT-22, TIDAK SEHAT). "
    "Hand check JKT-22: 24 readings, PM2.5 mean 49.8 µg/m³ → sub-index ceil((100-51)/(55.4-15.5)·(49.8-15.5)+51) = 94 for PM2.5, so the 137 comes from PM10, fine.\n\n"
    "Note the run date convention: the run *named* 2026-11-21 fills the day 2026-11-20. Fajar's dashboards should query ispu_daily by `day`, not by run date."
)
r.run(f"{EXEC} airflow dags list-import-errors; {EXEC} python -c \"import ast,sys; src=open('/opt/airflow/dags/aqi_daily_rollup.py').read(); t=ast.parse(src); print([n.lineno for n in ast.walk(t) if isinstance(n, ast.Call) and getattr(n.func,'attr','')=='get' and getattr(n.func.value,'id','')=='Variable'])\"", "No data found\n[41]")
r.say("Parse is clean and the only `Variable.get` is on line 41, inside the `rollup` task, so nothing at top level. The SQL file is read at import time, but that is a local file read, no DB access.")

# ===================================================================== turn 3
r.user(
    "Wah bagus, thank you. The day convention is ok, I tell Fajar. Can you add one more check: after the rollup, if more than 5 stations have NULL ispu for the day, the DAG must fail so we get the email, because that means the ingest had a problem. "
    "And the backfill from January, we need it but later ya, not now, infra team must increase the postgres_udara pool first."
)
r.patch([("update", ROLL, [
    ("""from airflow.decorators import dag, task
""", """from airflow.decorators import dag, task
from airflow.exceptions import AirflowFailException
"""),
    ("""        return len(out)

    rollup()
""", """        return {"day": day.isoformat(), "rows": len(out), "no_ispu": sum(o["ispu"] is None for o in out)}

    @task
    def check_coverage(result: dict):
        # more than MAX_NULL_STATIONS stations without ISPU means the ingest had a problem: fail -> email
        if result["no_ispu"] > MAX_NULL_STATIONS:
            raise AirflowFailException(
                f"{result['day']}: {result['no_ispu']} stations without enough readings (limit {MAX_NULL_STATIONS})"
            )
        return result

    check_coverage(rollup())
"""),
    ("""SQL = (Path""", """MAX_NULL_STATIONS = 5
SQL = (Path"""),
])])
r.run(f"{EXEC} airflow dags list-import-errors && {EXEC} airflow tasks list aqi_daily_rollup --tree", """No data found
<Task(_PythonDecoratedOperator): rollup>
    <Task(_PythonDecoratedOperator): check_coverage>""")
r.run(f"{EXEC} airflow dags show aqi_daily_rollup", """digraph aqi_daily_rollup {
\tgraph [label=aqi_daily_rollup labelloc=t rankdir=LR]
\tcheck_coverage [color="#000000" fillcolor="#ffefeb" label=check_coverage shape=rectangle style="filled,rounded"]
\trollup [color="#000000" fillcolor="#ffefeb" label=rollup shape=rectangle style="filled,rounded"]
\trollup -> check_coverage
}""")
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-21 2>&1 | grep -E 'ERROR|Returned value|Marking task' | tail -4", """[2026-11-24T03:25:02.118+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-20', 'rows': 41, 'no_ispu': 1}
[2026-11-24T03:25:02.240+0000] {taskinstance.py:1206} INFO - Marking task as SUCCESS. dag_id=aqi_daily_rollup, task_id=rollup, run_id=manual__2026-11-21T00:00:00+00:00, execution_date=20261121T000000, start_date=20261124T032502, end_date=20261124T032502
[2026-11-24T03:25:02.511+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-20', 'rows': 41, 'no_ispu': 1}
[2026-11-24T03:25:02.602+0000] {taskinstance.py:1206} INFO - Marking task as SUCCESS. dag_id=aqi_daily_rollup, task_id=check_coverage, run_id=manual__2026-11-21T00:00:00+00:00, execution_date=20261121T000000, start_date=20261124T032502, end_date=20261124T032502""", secs=7.0)
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -Atc \"select (ts at time zone 'Asia/Jakarta')::date d, count(distinct station_id) from readings_hourly where ts >= '2026-11-01' group by d having count(distinct station_id) < 41 or count(*) < 41*20 order by d\"", "2026-11-02|41\n2026-11-14|38")
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-03 2>&1 | grep -E 'ERROR|AirflowFailException|Returned value|Marking task' | tail -5", """[2026-11-24T03:28:44.903+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-02', 'rows': 41, 'no_ispu': 9}
[2026-11-24T03:28:44.997+0000] {taskinstance.py:1206} INFO - Marking task as SUCCESS. dag_id=aqi_daily_rollup, task_id=rollup, run_id=manual__2026-11-03T00:00:00+00:00, execution_date=20261103T000000, start_date=20261124T032844, end_date=20261124T032844
[2026-11-24T03:28:45.210+0000] {taskinstance.py:3310} ERROR - Task failed with exception
airflow.exceptions.AirflowFailException: 2026-11-02: 9 stations without enough readings (limit 5)
[2026-11-24T03:28:45.236+0000] {taskinstance.py:1206} INFO - Marking task as FAILED. dag_id=aqi_daily_rollup, task_id=check_coverage, run_id=manual__2026-11-03T00:00:00+00:00, execution_date=20261103T000000, start_date=20261124T032844, end_date=20261124T032844""", secs=7.2)
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-15 2>&1 | grep -E 'AirflowFailException|Returned value' | tail -2", """[2026-11-24T03:30:10.377+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-14', 'rows': 38, 'no_ispu': 0}
[2026-11-24T03:30:10.512+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-14', 'rows': 38, 'no_ispu': 0}""", secs=7.0)
r.say(
    "Coverage check added as task `check_coverage` after `rollup`: it raises `AirflowFailException` (no retry, so the email goes out at once) when more than `MAX_NULL_STATIONS = 5` stations have NULL ISPU.\n"
    "- 2026-11-20: 1 station without ISPU → success.\n"
    "- 2026-11-02 (the outage day): 9 stations → fails with `2026-11-02: 9 stations without enough readings (limit 5)`.\n\n"
    "But look at 2026-11-14: only **38 rows**, 0 NULL. Three stations had no readings at all that day, so they have no row and the check does not see them. A station that is completely missing is worse than one with 12 readings. Should missing stations count as NULL too?"
)

# ===================================================================== turn 4
r.user("Oh yes good catch, missing station must count also. The list of active stations is in table stations, column active. Then commit please to branch feature/ispu-daily, I will make the merge request.")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c '\\d stations' -Atc 'select count(*) filter (where active), count(*) from stations'", """                 Table "public.stations"
   Column   |  Type   | Collation | Nullable | Default
------------+---------+-----------+----------+---------
 station_id | text    |           | not null |
 name       | text    |           | not null |
 active     | boolean |           | not null | true
Indexes:
    "stations_pkey" PRIMARY KEY, btree (station_id)

41|44""")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -Atc 'select station_id, name from stations where not active'", "BKS-01|Bekasi Timur (relocated 2026-03)\nDPK-02|Depok Margonda (sensor removed)\nJKT-04|Kemayoran (closed)")
r.patch([("update", SQL, [
    ("""SELECT r.station_id,
       (r.ts AT TIME ZONE 'Asia/Jakarta')::date AS day,
       count(*)              AS n_hours,
       avg(r.pm25)::float    AS pm25_mean,
       avg(r.pm10)::float    AS pm10_mean
  FROM readings_hourly r
 WHERE r.ts >= (%(day)s::date)::timestamp AT TIME ZONE 'Asia/Jakarta'
   AND r.ts <  (%(day)s::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'
 GROUP BY r.station_id, (r.ts AT TIME ZONE 'Asia/Jakarta')::date
 ORDER BY r.station_id;""", """-- every active station gets a row, also with no readings at all (n_hours 0 -> ISPU NULL)
SELECT s.station_id,
       %(day)s::date                    AS day,
       count(r.ts)                      AS n_hours,
       avg(r.pm25)::float               AS pm25_mean,
       avg(r.pm10)::float               AS pm10_mean
  FROM stations s
  LEFT JOIN readings_hourly r
         ON r.station_id = s.station_id
        AND r.ts >= (%(day)s::date)::timestamp AT TIME ZONE 'Asia/Jakarta'
        AND r.ts <  (%(day)s::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta'
 WHERE s.active
 GROUP BY s.station_id
 ORDER BY s.station_id;"""),
])])
r.run(f"{EXEC} airflow dags test aqi_daily_rollup 2026-11-15 2>&1 | grep -E 'AirflowFailException|Returned value' | tail -2", """[2026-11-24T03:41:26.101+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-14', 'rows': 41, 'no_ispu': 3}
[2026-11-24T03:41:26.233+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-14', 'rows': 41, 'no_ispu': 3}""", secs=7.0)
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -c \"select station_id, n_hours, ispu from ispu_daily where day='2026-11-14' and ispu is null\"", """ station_id | n_hours | ispu
------------+---------+------
 BKS-05     |       0 |
 JKT-11     |       0 |
 TNG-02     |       0 |
(3 rows)""")
r.say("2026-11-14 now has 41 rows with 3 NULL (the missing stations, n_hours 0), still under the limit of 5. Re-running the other two test days and the parse check.")
r.run(f"for d in 2026-11-21 2026-11-03; do {EXEC} airflow dags test aqi_daily_rollup $d 2>&1 | grep -E 'AirflowFailException|Returned value' | tail -1; done", """[2026-11-24T03:49:15.402+0000] {python.py:237} INFO - Done. Returned value was: {'day': '2026-11-20', 'rows': 41, 'no_ispu': 1}
airflow.exceptions.AirflowFailException: 2026-11-02: 9 stations without enough readings (limit 5)""", secs=15.0)
r.run(f"{EXEC} airflow config get-value core dags_are_paused_at_creation; {EXEC} airflow dags details aqi_daily_rollup -o plain | grep -E '^(is_paused|timetable_description|max_active_runs|owners) '", """True
is_paused               True
max_active_runs         1
owners                  ['data-udara']
timetable_description   At 00:30""")
r.run("docker compose exec -T udara-db psql -U udara_etl -d udara -Atc \"select day, count(*), count(*) filter (where ispu is null) from ispu_daily group by day order by day\"", "2026-11-02|41|9\n2026-11-14|41|3\n2026-11-20|41|1")
r.run("git status --short && git diff --stat", """?? dags/aqi_daily_rollup.py
?? include/ispu.py
?? include/sql/rollup_daily.sql""")
r.run(f"{EXEC} airflow dags list-import-errors && git switch -c feature/ispu-daily && git add dags/aqi_daily_rollup.py include/ispu.py include/sql/rollup_daily.sql && git commit -qm 'aqi_daily_rollup: daily ISPU per active station (Jakarta day, >=18 hours), fail when >5 stations without ISPU' && git log --oneline -1", """No data found
Switched to a new branch 'feature/ispu-daily'
3f8b6d0 aqi_daily_rollup: daily ISPU per active station (Jakarta day, >=18 hours), fail when >5 stations without ISPU""")
r.say(
    "Committed **3f8b6d0** on the new branch `feature/ispu-daily` (not pushed, the merge request is yours).\n\n"
    "What is in it: `dags/aqi_daily_rollup.py` (00:30 Asia/Jakarta daily, pool postgres_udara for `rollup`, `check_coverage` fails on >5 stations without ISPU, email on failure, no top-level Variable.get), `include/ispu.py` (sub-index and category from ISPU_BREAKPOINTS_JSON, MIN_HOURS 18), `include/sql/rollup_daily.sql` (every active station, Jakarta day boundaries).\n\n"
    "In the dev DB ispu_daily now holds 2026-11-02, 2026-11-14 and 2026-11-20 from the tests (41 rows each). aqi_daily_rollup is paused (dags_are_paused_at_creation = True), so it only runs after you unpause it.\n\n"
    "Open: the backfill from January (later, after infra raises the postgres_udara pool)."
)
r.save(HERE / "session.jsonl")
