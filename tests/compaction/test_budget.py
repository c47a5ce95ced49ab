"""Context tokens, threshold and the should-compact gate (pi's compaction.test.ts token cases)."""

from __future__ import annotations

import pytest

from sessions_app.compaction.budget import context_tokens, last_usage, resolve_threshold, should_compact
from sessions_app.compaction.messages import Usage
from sessions_app.compaction.settings import CompactionSettings, Compat
from sessions_app.compaction.tokens import estimate_entry_pi

from .builders import Chain

PI = CompactionSettings(compat="pi")


def test_usage_context_tokens_prefers_reported_total() -> None:
    assert Usage(input=1000, output=500, cache_read=200, cache_write=100, total=1800).context_tokens == 1800
    assert Usage().context_tokens == 0
    assert Usage(input=1000, output=500, cache_read=200, cache_write=100).context_tokens == 1800


def test_last_usage_is_the_last_assistant() -> None:
    c = Chain()
    c.user()
    c.assistant(usage=Usage(input=100))
    c.user()
    c.assistant(usage=Usage(input=200))
    u = last_usage(c.entries)
    assert u is not None and u.input == 200


def test_last_usage_skips_aborted_and_error() -> None:
    c = Chain()
    c.user()
    c.assistant(usage=Usage(input=100))
    c.user()
    c.assistant(usage=Usage(input=300), stop="aborted")
    c.assistant(usage=Usage(input=400), stop="error")
    u = last_usage(c.entries)
    assert u is not None and u.input == 100


def test_last_usage_none_without_assistant() -> None:
    c = Chain()
    c.user()
    c.user()
    assert last_usage(c.entries) is None


@pytest.mark.parametrize("compat", ["default", "pi"])
def test_should_compact_pi_case(compat: Compat) -> None:
    # pi: reserve 10000, window 100000 -> threshold 90000.
    s = CompactionSettings(reserve_tokens=10000, compat=compat)
    assert should_compact(95000, 100000, s) is True
    assert should_compact(95000, 100000, CompactionSettings(enabled=False, compat=compat)) is False


def test_should_compact_threshold_differs_by_mode() -> None:
    # default: window - max(15% window, reserve) = 100000 - 15000 = 85000; pi: 100000 - 10000.
    assert should_compact(89000, 100000, CompactionSettings(reserve_tokens=10000, compat="pi")) is False
    assert should_compact(89000, 100000, CompactionSettings(reserve_tokens=10000)) is True


def test_threshold_resolution_order() -> None:
    assert resolve_threshold(200000, CompactionSettings()) == 200000 - 30000
    assert resolve_threshold(50000, CompactionSettings()) == 50000 - 16384  # reserve > 15%
    assert resolve_threshold(200000, CompactionSettings(threshold_percent=50)) == 100000
    explicit = CompactionSettings(threshold_tokens=1234, threshold_percent=50)
    assert resolve_threshold(200000, explicit) == 1234


def test_disabled_is_a_hard_gate_even_with_explicit_threshold() -> None:
    s = CompactionSettings(enabled=False, threshold_tokens=10)
    assert should_compact(10**9, 200000, s) is False
    assert should_compact(11, 200000, CompactionSettings(threshold_tokens=10)) is True
    assert should_compact(10, 200000, CompactionSettings(threshold_tokens=10)) is False  # strictly above


def test_settings_reject_nonsense() -> None:
    with pytest.raises(ValueError):
        CompactionSettings(compat="claude")  # type: ignore[arg-type]  # deliberately not a Compat
    with pytest.raises(ValueError):
        CompactionSettings(threshold_percent=0)
    with pytest.raises(ValueError):
        CompactionSettings(keep_recent_tokens=-1)


def test_context_tokens_usage_plus_trailing_estimates() -> None:
    c = Chain()
    c.user(tokens=10)
    c.assistant(usage=Usage(input=500, output=20), tokens=30)
    c.user(tokens=7)
    c.tool_result("c", tokens=5)
    ct = context_tokens(c.entries)
    assert (ct.tokens, ct.usage_tokens, ct.trailing_tokens, ct.usage_key) == (532, 520, 12, "2")


def test_context_tokens_without_usage_sums_estimates() -> None:
    c = Chain()
    c.user(tokens=10)
    c.assistant(usage=Usage(input=500), stop="aborted", tokens=30)
    c.model_change(tokens=0)
    ct = context_tokens(c.entries)
    assert (ct.tokens, ct.usage_key) == (40, None)


def test_default_mode_ignores_usage_from_before_the_compaction() -> None:
    c = Chain()
    c.user(tokens=100)
    c.assistant(usage=Usage(input=150000), tokens=100)  # kept by the compaction, but measured before it
    c.compaction("1", summary="s", tokens=50)
    c.user(tokens=10)
    ct = context_tokens(c.entries)
    assert ct.usage_key is None
    assert ct.tokens == 50 + 100 + 100 + 10


def test_pi_mode_uses_kept_pre_compaction_usage() -> None:  # quirk P7 (docs/pi-compat.md)
    c = Chain()
    c.user(tokens=100)
    c.assistant(usage=Usage(input=150000, output=10), tokens=100)
    comp = c.compaction("1", summary="s" * 40)
    u = c.user("abcdefgh")
    ct = context_tokens(c.entries, PI)
    assert ct.usage_key == "2"
    assert ct.tokens == 150010 + estimate_entry_pi(u)
    assert comp.key == "3"


def test_default_mode_uses_usage_after_the_compaction() -> None:
    c = Chain()
    c.user(tokens=100)
    c.assistant(usage=Usage(input=150000), tokens=100)
    c.compaction("2", tokens=50)
    c.user(tokens=10)
    c.assistant(usage=Usage(input=900, output=100), tokens=40)
    c.user(tokens=3)
    assert context_tokens(c.entries).tokens == 1003


def test_sent_tokens_add_the_overhead_only_when_nothing_measured_it() -> None:
    # Rule T5: a provider's usage already counts the system prompt and the tools; an estimate
    # of the path does not.
    from sessions_app.compaction.budget import sent_tokens

    c = Chain()
    c.user(tokens=10)
    estimated = context_tokens(c.entries)
    assert sent_tokens(estimated, 2_000) == estimated.tokens + 2_000
    c.assistant(usage=Usage(input=2_500, output=20), tokens=30)
    c.user(tokens=7)
    measured = context_tokens(c.entries)
    assert sent_tokens(measured, 2_000) == measured.tokens == 2_527
