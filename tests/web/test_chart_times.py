"""The charts' hover and axis times (figures.hover_time / axis_time, written from isoformat for
speed, issue 35) are what strftime wrote, in any time zone and any year."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from sessions_app.presenters.charts.figures import axis_time, hover_time

offsets = st.integers(-23 * 60, 23 * 60).map(lambda m: timezone(timedelta(minutes=m)))
moments = st.datetimes(min_value=datetime(2, 1, 2), max_value=datetime(9998, 12, 30), timezones=offsets)


@given(ts=moments, tz=offsets)
def test_the_times_are_strftimes(ts: datetime, tz: timezone) -> None:
    local = ts.astimezone(tz)
    assert hover_time(ts, tz) == local.strftime("%Y-%m-%d %H:%M:%S")
    assert axis_time(ts, tz) == local.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def test_a_time_with_microseconds_is_cut_not_rounded() -> None:
    ts = datetime(2026, 3, 1, 12, 0, 59, 999_999, tzinfo=UTC)
    assert axis_time(ts, UTC) == "2026-03-01 12:00:59.999"
    assert hover_time(ts, UTC) == "2026-03-01 12:00:59"
