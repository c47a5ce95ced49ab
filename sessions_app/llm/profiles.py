"""Model profiles ("main", "compact", ...) and the provider factory.

A profile names a provider and a model with its window sizes. The compact fork uses the
"compact" profile and falls back to "main" when none is configured (docs/compaction.md, rule F5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW

if TYPE_CHECKING:
    from sessions_app.llm.base import Provider
    from sessions_app.llm.offline import Scenario

ProviderName = Literal["anthropic", "offline"]
PROVIDERS: tuple[str, ...] = ("anthropic", "offline")

MAIN = "main"
COMPACT = "compact"
# Profile names that fall back to another one when not configured.
FALLBACKS: Mapping[str, str] = {COMPACT: MAIN}


class UnknownProfileError(LookupError):
    """No profile with that name (and no fallback)."""


@dataclass(frozen=True, slots=True)
class ModelProfile:
    name: str
    provider: ProviderName
    model: str
    context_window: int = DEFAULT_CONTEXT_WINDOW
    max_output: int = 8192

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise ValueError(f"profile {self.name!r}: unknown provider {self.provider!r} (use {PROVIDERS})")
        if self.context_window <= 0 or self.max_output <= 0:
            raise ValueError(f"profile {self.name!r}: context_window and max_output must be positive")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "provider": self.provider,
            "model": self.model,
            "context_window": self.context_window,
            "max_output": self.max_output,
        }

    @classmethod
    def from_dict(cls, name: str, d: Mapping[str, Any]) -> ModelProfile:
        return cls(
            name=name,
            provider=d.get("provider", "offline"),
            model=str(d.get("model", "offline")),
            context_window=int(d.get("context_window", DEFAULT_CONTEXT_WINDOW)),
            max_output=int(d.get("max_output", 8192)),
        )


def resolve_profile(profiles: Mapping[str, ModelProfile], name: str) -> ModelProfile:
    """The profile called `name`; "compact" falls back to "main"; unknown names raise."""
    if name in profiles:
        return profiles[name]
    fallback = FALLBACKS.get(name)
    if fallback is not None and fallback in profiles:
        return profiles[fallback]
    known = ", ".join(sorted(profiles)) or "none"
    raise UnknownProfileError(f"unknown model profile {name!r} (configured: {known})")


def default_profiles(api_key: str) -> dict[str, ModelProfile]:
    """Profiles used when settings configure none: Anthropic with a key, offline without. The
    key is passed in (settings read the environment, in one place: dashboard/settings.py)."""
    if api_key:
        return {MAIN: ModelProfile(MAIN, "anthropic", "claude-sonnet-4-5", DEFAULT_CONTEXT_WINDOW, 16_384)}
    return {MAIN: ModelProfile(MAIN, "offline", "offline", DEFAULT_CONTEXT_WINDOW, 8192)}


def build_provider(
    profile: ModelProfile,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float | None = 600.0,
    max_retries: int = 2,
    scenario: Scenario | list[dict[str, Any]] | str | Path | None = None,
    chunk_delay: float = 0.0,
) -> Provider:
    """A provider for `profile`. `scenario` and `chunk_delay` are only used by the offline provider."""
    sizes: dict[str, Any] = {
        "model": profile.model,
        "context_window": profile.context_window,
        "max_output": profile.max_output,
    }
    if profile.provider == "anthropic":
        from sessions_app.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(
            **sizes, api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )
    from sessions_app.llm.offline import OfflineProvider

    return OfflineProvider(**sizes, scenario=scenario, chunk_delay=chunk_delay)
