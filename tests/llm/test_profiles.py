"""Model profiles, resolution and the provider factory."""

from __future__ import annotations

import pytest

from sessions_app.llm import (
    ModelProfile,
    UnknownProfileError,
    build_provider,
    default_profiles,
    resolve_profile,
)
from sessions_app.llm.anthropic_provider import AnthropicProvider
from sessions_app.llm.offline import OfflineProvider

MAIN = ModelProfile("main", "anthropic", "claude-main", 200_000, 16_000)
COMPACT = ModelProfile("compact", "offline", "offline-compact", 100_000, 4_000)


def test_compact_falls_back_to_main() -> None:
    assert resolve_profile({"main": MAIN}, "compact") is MAIN
    assert resolve_profile({"main": MAIN, "compact": COMPACT}, "compact") is COMPACT
    assert resolve_profile({"main": MAIN, "compact": COMPACT}, "main") is MAIN


def test_unknown_profiles_raise_a_clear_error() -> None:
    with pytest.raises(UnknownProfileError, match=r"'fast'.*configured: compact, main"):
        resolve_profile({"main": MAIN, "compact": COMPACT}, "fast")
    with pytest.raises(UnknownProfileError, match="'compact'"):
        resolve_profile({"other": MAIN}, "compact")


def test_profiles_validate_their_fields() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        ModelProfile("main", "openai", "gpt")  # type: ignore[arg-type]  # deliberately not a known provider
    with pytest.raises(ValueError):
        ModelProfile("main", "offline", "offline", context_window=0)
    profile = ModelProfile.from_dict(
        "main", {"provider": "anthropic", "model": "claude-x", "context_window": 1000}
    )
    assert profile == ModelProfile("main", "anthropic", "claude-x", 1000, 8192)
    assert ModelProfile.from_dict("main", profile.to_dict()) == profile


def test_default_profiles_depend_on_the_api_key() -> None:
    assert default_profiles(api_key="")["main"].provider == "offline"
    assert default_profiles(api_key="sk-test")["main"].provider == "anthropic"


async def test_build_provider_makes_the_right_implementation() -> None:
    anthropic_provider = build_provider(
        MAIN, api_key="k", base_url="http://127.0.0.1:9", timeout=12.0, max_retries=5
    )
    assert isinstance(anthropic_provider, AnthropicProvider)
    assert anthropic_provider.model == "claude-main"
    assert anthropic_provider.context_window == 200_000
    assert anthropic_provider.client.max_retries == 5
    assert str(anthropic_provider.client.base_url).startswith("http://127.0.0.1:9")
    await anthropic_provider.aclose()

    offline = build_provider(COMPACT, scenario=[{"text": "hi"}])
    assert isinstance(offline, OfflineProvider)
    assert offline.model == "offline-compact"
    assert offline.max_output == 4_000
    assert offline.scenario is not None and len(offline.scenario.turns) == 1
