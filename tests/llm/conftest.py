"""Fixtures for the provider tests. `fake_anthropic` lives in tests/fake_anthropic.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from sessions_app.llm.anthropic_provider import AnthropicProvider
from tests.fake_anthropic import FakeAnthropic, fake_anthropic  # noqa: F401  (fixture re-export)

MakeProvider = Callable[..., AnthropicProvider]


@pytest.fixture
async def make_provider(fake_anthropic: FakeAnthropic) -> AsyncIterator[MakeProvider]:  # noqa: F811
    """Build AnthropicProviders pointed at the fake server; closed after the test."""
    made: list[AnthropicProvider] = []

    def make(**kwargs: Any) -> AnthropicProvider:
        options: dict[str, Any] = {
            "model": "claude-test",
            "api_key": "test-key",
            "base_url": fake_anthropic.base_url,
            "max_retries": 0,
            "timeout": 10.0,
        }
        options.update(kwargs)
        provider = AnthropicProvider(**options)
        made.append(provider)
        return provider

    yield make
    for provider in made:
        await provider.aclose()
