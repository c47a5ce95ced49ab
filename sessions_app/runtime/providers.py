"""Providers for the runtime, configured from Django settings (model profiles, key, base URL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings

from sessions_app import conf
from sessions_app.llm.base import Provider
from sessions_app.llm.profiles import ModelProfile, build_provider, resolve_profile


def configured_profiles() -> dict[str, ModelProfile]:
    return {
        name: ModelProfile.from_dict(name, spec) for name, spec in conf.get("CUTPOINT_MODEL_PROFILES").items()
    }


def profile(name: str) -> ModelProfile:
    """The named profile; "compact" falls back to "main" (docs/compaction.md, rule F5)."""
    return resolve_profile(configured_profiles(), name)


def import_providers() -> None:
    """Import the model SDK of every configured profile now. Its first import otherwise happens
    inside a compaction, on a server worker's event loop (the provider is built there): seconds of
    a loaded machine during which none of that worker's pages or websockets moved (issue 35,
    bench/load.py). A profile that names an unknown provider fails later, where it is used."""
    if any(p.provider == "anthropic" for p in configured_profiles().values()):
        import sessions_app.llm.anthropic_provider  # noqa: F401


def provider_for(
    profile_name: str = "main", *, scenario: list[dict[str, Any]] | str | Path | None = None
) -> Provider:
    return build_provider(
        profile(profile_name),
        api_key=settings.ANTHROPIC_API_KEY or None,
        base_url=settings.ANTHROPIC_BASE_URL or None,
        timeout=float(conf.get("CUTPOINT_PROVIDER_TIMEOUT")),
        max_retries=int(conf.get("CUTPOINT_PROVIDER_MAX_RETRIES")),
        scenario=scenario,
        chunk_delay=float(conf.get("CUTPOINT_OFFLINE_CHUNK_DELAY")),
    )
