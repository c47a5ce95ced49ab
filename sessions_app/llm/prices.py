"""What a model call cost, from the maintained price list of `genai-prices` (docs/costs.md).

Amounts are whole nano-dollars (1e-9 USD) so sums in SQL are exact on SQLite and PostgreSQL
alike; a call whose model the list does not know, or that reported no usage, has no amount
(`None`), which the dashboard shows as "unknown", never as 0.

`genai-prices` counts `input_tokens` as every prompt token, cached ones included, while our usage
keeps `input` for the uncached part only (Anthropic's spelling, which the importers map every
format onto): the three parts are added back together here, in one place.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from importlib.metadata import version
from typing import TYPE_CHECKING, Final

# genai-prices (pydantic models of the whole price list) is imported when a call is first priced:
# importing it costs more than the rest of a management command's start (issue 35), and most
# commands price nothing.
if TYPE_CHECKING:
    from genai_prices import Usage, types

NANOS_PER_USD: Final = Decimal(1_000_000_000)
LIBRARY: Final = f"genai-prices {version('genai-prices')}"  # the package's own __version__
# Providers our formats name that the price list spells differently (or that no list prices).
_PROVIDER_IDS: Final = {"openai-codex": "openai", "azure-openai": "azure", "offline": None}
_UNPRICED_PROVIDERS: Final = frozenset({"offline"})


@dataclass(frozen=True, slots=True)
class CallUsage:
    """Token counts of one call, as `Call` stores them (`input` excludes cached tokens)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0

    def plus_read(self, tokens: int) -> CallUsage:
        return CallUsage(self.input, self.output, self.cache_read + tokens, self.cache_write)


@dataclass(frozen=True, slots=True)
class Price:
    """A call's cost (`nanos`, None: unknown) and where the figure came from."""

    nanos: int | None
    source: str  # "genai-prices 0.2.3: anthropic/claude-sonnet-4-0", or why it is unknown
    model_id: str = ""  # the price list's id of the model, "" when it was not found

    @property
    def known(self) -> bool:
        return self.nanos is not None


def to_nanos(usd: Decimal) -> int:
    return int((usd * NANOS_PER_USD).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def usd(nanos: int) -> Decimal:
    return Decimal(nanos) / NANOS_PER_USD


def load_price_list() -> None:
    """Import the price list now (a server does before it listens: dashboard/warmup.py)."""
    from genai_prices import data_snapshot

    data_snapshot.get_snapshot()


@lru_cache(maxsize=512)
def _lookup(provider: str, model: str) -> tuple[types.Provider, types.ModelInfo] | None:
    """The price list's (provider, model) entries for a call's names; None when it has no price.
    Cached: a session's thousands of calls name the same model."""
    from genai_prices import data_snapshot

    snapshot = data_snapshot.get_snapshot()
    provider_id = _PROVIDER_IDS.get(provider, provider) or None
    try:
        return snapshot.find_provider_model(model, None, provider_id, None)
    except LookupError:
        if provider_id is None:
            return None
    # A provider the list does not know (a proxy, a local gateway): match on the model alone.
    try:
        return snapshot.find_provider_model(model, None, None, None)
    except LookupError:
        return None


def price_call(provider: str, model: str, usage: CallUsage | None, at: datetime | None = None) -> Price:
    """The price of one call at the time it was made (`at`; prices change over time)."""
    if usage is None:
        return Price(None, "no usage reported")
    if not model or provider in _UNPRICED_PROVIDERS:
        return Price(None, f"no price for {provider or '?'}/{model or '?'}")
    found = _lookup(provider, model)
    if found is None:
        return Price(None, f"{LIBRARY}: no price for {provider or '?'}/{model}")
    found_provider, found_model = found
    model_id = str(found_model.id)
    source = f"{LIBRARY}: {found_provider.id}/{model_id}"
    try:
        model_price = found_model.get_prices(at or datetime.now(tz=UTC))
        rates = _linear_rates(model_price)
        if rates is not None:  # the common case: one rate per kind of token, computed once
            total = (
                rates[0] * usage.input
                + rates[1] * usage.cache_read
                + rates[2] * usage.cache_write
                + rates[3] * usage.output
            ) / _MTOK
        else:  # tiered prices depend on the prompt's size: the list prices each call
            total = model_price.calc_price(_usage(usage))["total_price"]
    except (LookupError, ValueError) as exc:  # no price in force at that date, a bad tier
        return Price(None, f"{LIBRARY}: {exc}")
    return Price(to_nanos(total), source, model_id)


_MTOK: Final = Decimal(1_000_000)


def _usage(usage: CallUsage) -> Usage:
    from genai_prices import Usage

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the list warns about usage keys a price does not use
        return Usage(
            input_tokens=usage.input + usage.cache_read + usage.cache_write,
            cache_read_tokens=usage.cache_read,
            cache_write_tokens=usage.cache_write,
            output_tokens=usage.output,
        )


Rates = tuple[Decimal, Decimal, Decimal, Decimal]
# Keyed by the price object's id (ModelPrice is not hashable); the object is kept with its rates,
# so the id cannot be reused while the entry lives.
_RATES: dict[int, tuple[types.ModelPrice, Rates | None]] = {}


def _linear_rates(model_price: types.ModelPrice) -> Rates | None:
    """Dollars per million input, cache-read, cache-write and output tokens, each asked of the
    list with a million tokens of that kind alone; None when a price is tiered (not linear)."""
    cached = _RATES.get(id(model_price))
    if cached is not None and cached[0] is model_price:
        return cached[1]
    from genai_prices import types

    rates: Rates | None = None
    if not any(isinstance(v, types.TieredPrices) for v in vars(model_price).values()):
        m = 1_000_000
        kinds = (CallUsage(input=m), CallUsage(cache_read=m), CallUsage(cache_write=m), CallUsage(output=m))
        r = [model_price.calc_price(_usage(k))["total_price"] for k in kinds]
        rates = (r[0], r[1], r[2], r[3])
    if len(_RATES) > 1024:
        _RATES.clear()
    _RATES[id(model_price)] = (model_price, rates)
    return rates


def format_usd(nanos: int | None, *, unknown: str = "unknown") -> str:
    """ "$1.23", "$0.0042" (small sums keep two significant digits), or `unknown`."""
    if nanos is None:
        return unknown
    amount = usd(nanos)
    if amount == 0:
        return "$0.00"
    if abs(amount) >= 1:
        text = f"{amount:,.2f}"
    elif abs(amount) >= Decimal("0.01"):
        text = f"{amount:.3f}"
    else:
        text = f"{amount:.2g}" if abs(amount) >= Decimal("0.000001") else f"{amount:.1e}"
        text = text if "e" in text else f"{Decimal(text):f}"
    return f"-${text.lstrip('-')}" if amount < 0 else f"${text}"
