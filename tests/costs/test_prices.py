"""Call prices from genai-prices against figures worked out by hand from the providers' published
rates (docs/costs.md): Claude Sonnet 4 is $3 input, $15 output, $0.30 cache read and $3.75 cache
write per million tokens; GPT-4o is $2.50 input, $1.25 cached input and $10 output."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from sessions_app.llm.prices import CallUsage, format_usd, price_call, to_nanos

AT = datetime(2025, 11, 3, 9, 0, tzinfo=UTC)


def nanos(usd: str) -> int:
    return int(Decimal(usd) * 1_000_000_000)


def test_anthropic_call_with_cache_write_and_read() -> None:
    # 1,000 uncached input, 2,000 written to the cache, 10,000 read from it, 500 output:
    # 1000*3 + 2000*3.75 + 10000*0.30 + 500*15 = 21,000 dollars per million tokens = $0.021
    price = price_call("anthropic", "claude-sonnet-4-20250514", CallUsage(1000, 500, 10_000, 2000), AT)
    assert price.nanos == nanos("0.021")
    assert price.source.startswith("genai-prices ")
    assert "anthropic/claude-sonnet-4" in price.source


def test_openai_call_with_cached_input() -> None:
    # OpenAI reports 1,000 input tokens of which 400 cached; we keep input = 600, cache_read = 400.
    # 600*2.50 + 400*1.25 + 100*10 = 3,000 dollars per million tokens = $0.003
    price = price_call("openai", "gpt-4o", CallUsage(600, 100, 400, 0), AT)
    assert price.nanos == nanos("0.003")
    assert "openai/gpt-4o" in price.source


def test_cache_reads_are_cheaper_than_the_same_tokens_uncached() -> None:
    cached = price_call("anthropic", "claude-sonnet-4-0", CallUsage(0, 0, 10_000, 0), AT)
    fresh = price_call("anthropic", "claude-sonnet-4-0", CallUsage(10_000, 0, 0, 0), AT)
    assert cached.nanos == nanos("0.003") and fresh.nanos == nanos("0.03")


def test_a_model_without_a_price_is_unknown_not_zero() -> None:
    for provider, model in (("acme", "acme-brain-9"), ("offline", "offline"), ("anthropic", "")):
        price = price_call(provider, model, CallUsage(1000, 100, 0, 0), AT)
        assert price.nanos is None and not price.known
        assert format_usd(price.nanos) == "unknown"


def test_a_call_without_usage_is_unknown() -> None:
    assert price_call("anthropic", "claude-sonnet-4-0", None, AT).nanos is None


def test_tiered_prices_follow_the_prompt_size() -> None:
    # Claude Sonnet 4.5 above 200k prompt tokens: $6 input, $22.50 output per million.
    price = price_call("anthropic", "claude-sonnet-4-5", CallUsage(300_000, 100, 0, 0), AT)
    assert price.nanos == nanos("1.80225")


@given(st.integers(0, 400_000), st.integers(0, 50_000), st.integers(0, 400_000), st.integers(0, 100_000))
def test_linear_rates_match_the_library_on_every_usage(i: int, o: int, cr: int, cw: int) -> None:
    """The rates worked out once per model give what the library gives for the whole call."""
    import genai_prices

    usage = CallUsage(i, o, cr, cw)
    ours = price_call("openai", "gpt-4o", usage, AT)
    theirs = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=i + cr + cw, cache_read_tokens=cr, cache_write_tokens=cw, output_tokens=o
        ),
        "gpt-4o",
        provider_id="openai",
        genai_request_timestamp=AT,
    )
    assert ours.nanos == to_nanos(theirs.total_price)


def test_format_usd() -> None:
    assert format_usd(nanos("0.021")) == "$0.021"
    assert format_usd(nanos("1234.567")) == "$1,234.57"
    assert format_usd(nanos("0.000003")) == "$0.000003"
    assert format_usd(-nanos("0.5")) == "-$0.500"
    assert format_usd(0) == "$0.00"
