"""Cutpoint's own settings: every `CUTPOINT_*` default, written once (django-debug-toolbar's
`get_config()` idea).

`dashboard/settings.py` is the only code that reads the environment: it sets each setting from its
variable and falls back to the default here. The code reads a setting through `get(name)`, which
answers with the same default when the project's settings leave the name out (another settings
module, a test that deletes one). It reads `django.conf.settings` at every call and caches nothing,
so `override_settings` and pytest-django's `settings` fixture take effect at once.

Some names are environment variables only (`CUTPOINT_MAIN_MODEL`, `CUTPOINT_DB_POOL_MAX`, ...):
settings.py turns them into Django's or Cutpoint's own settings, and their defaults are here too.
`CUTPOINT_DATA_DIR` is not a setting: settings.py reads it and falls back to `default_data_dir()`.
The README's table of variables documents them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from django.conf import settings

from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW

_MIB: Final = 1024 * 1024
APP_NAME: Final = "cutpoint"  # the per-user data directory's name (platformdirs)


def default_data_dir(project_dir: Path) -> Path:
    """Where data lives when CUTPOINT_DATA_DIR is unset: `./data` in a source checkout (what
    `make run` and `make test` use), the user's data directory (platformdirs: ~/.local/share/cutpoint
    on Linux) when Cutpoint was installed with pip and runs as the `cutpoint` command."""
    if (project_dir / "manage.py").is_file():
        return project_dir / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


DEFAULTS: Final[Mapping[str, Any]] = MappingProxyType(
    {
        # --- the dashboard -------------------------------------------------------------------
        "CUTPOINT_UPLOAD_MAX_BYTES": 1 << 30,  # largest session file an upload may bring
        "CUTPOINT_LOGIN_FAILURE_LIMIT": 10,  # django-axes: failed logins before a lockout
        "CUTPOINT_LOGIN_LOCKOUT_MINUTES": 15,
        "CUTPOINT_LOG_LEVEL": "INFO",
        "CUTPOINT_LOG_FORMAT": "plain",  # "json": one JSON object per line (dashboard/logformat.py)
        "CUTPOINT_CHANNEL_PREFIX": "cutpoint",  # the Redis channel layer's key prefix
        "CUTPOINT_WORKERS": 2,  # `manage.py serve`: daphne processes
        # `cutpoint watch` (sessions_app/watch/): a trailing assistant node is stored once its file
        # has been quiet this long (Claude Code writes one message as several lines).
        "CUTPOINT_WATCH_SETTLE_SECONDS": 0.5,
        "CUTPOINT_WATCH_POLL": False,  # poll the folders instead of the OS's file events
        # Folders a server process watches itself ("defaults": the agents' own; os.pathsep between
        # several): `cutpoint serve --watch` sets it for one of its workers.
        "CUTPOINT_WATCH_FOLDERS": "",
        # --- the database ----------------------------------------------------------------------
        "CUTPOINT_DB_POOL": True,  # PostgreSQL: psycopg's connection pool
        "CUTPOINT_DB_POOL_MIN": 2,
        "CUTPOINT_DB_POOL_MAX": 20,
        # SQLite: an import commits this often, so other sessions' writers wait at most this long.
        "CUTPOINT_IMPORT_COMMIT_SECONDS": 0.5,
        # --- compaction --------------------------------------------------------------------------
        # Project-wide overrides of the engine's CompactionSettings; {} keeps the engine's own
        # defaults (compaction/settings.py). settings.py fills it from CUTPOINT_RESERVE_TOKENS, ...
        "CUTPOINT_COMPACTION": MappingProxyType({}),
        # After each compaction's audit, ask the compact model about each fact (docs/compaction.md, R7).
        "CUTPOINT_PROBE_AUDIT": True,
        # The pruning tier (docs/compaction.md, E1): before a full compaction, tool results older
        # than the newest `protect_tokens` of the context become stubs, when that frees at least
        # `min_saving_tokens` (opencode's figures). Per session in metadata["pruning"].
        "CUTPOINT_PRUNING": MappingProxyType(
            {"enabled": True, "protect_tokens": 40_000, "min_saving_tokens": 20_000}
        ),
        # The thrash guard (docs/compaction.md, G6): automatic compaction stops when one leaves the
        # request above the threshold less `margin_percent` of it, or when the previous compaction
        # is fewer than `min_calls` model calls back.
        "CUTPOINT_COMPACTION_GUARD": MappingProxyType({"margin_percent": 10, "min_calls": 3}),
        "CUTPOINT_SWEEP_SECONDS": 30,  # how often a process looks for orphaned work; 0 = never
        "CUTPOINT_RUN_HEARTBEAT_SECONDS": 30.0,  # a running agent run refreshes Run.heartbeat_at
        # --- models ------------------------------------------------------------------------------
        # settings.py always builds them ("main", and "compact" with CUTPOINT_COMPACT_MODEL).
        "CUTPOINT_MODEL_PROFILES": MappingProxyType({}),
        "CUTPOINT_MAIN_MODEL": "claude-sonnet-4-5",
        "CUTPOINT_MAIN_CONTEXT_WINDOW": DEFAULT_CONTEXT_WINDOW,
        "CUTPOINT_MAIN_MAX_OUTPUT": 16_384,
        "CUTPOINT_COMPACT_CONTEXT_WINDOW": DEFAULT_CONTEXT_WINDOW,
        "CUTPOINT_COMPACT_MAX_OUTPUT": 16_384,
        "CUTPOINT_PROVIDER_TIMEOUT": 600.0,
        "CUTPOINT_PROVIDER_MAX_RETRIES": 2,
        # Without a model, text streams at full speed unless this many seconds separate its chunks.
        "CUTPOINT_OFFLINE_CHUNK_DELAY": 0.0,
        # --- the agents' tools (docs/sandbox.md) -----------------------------------------------
        "CUTPOINT_USER_AGENTS_DIR": "~/.cutpoint/agents",
        "CUTPOINT_PERMISSION_RULES": (),  # operator rules, ahead of every definition's own
        "CUTPOINT_ARTIFACT_LIMIT": 8000,  # characters of a tool result kept inline; the rest is a file
        "CUTPOINT_READ_MAX_BYTES": 256 * 1024,  # `read` returns at most this much of a file per call
        "CUTPOINT_BASH_SANDBOX": True,
        "CUTPOINT_BASH_BWRAP": "bwrap",
        "CUTPOINT_BASH_NETWORK": False,
        "CUTPOINT_BASH_CPU_SECONDS": 60,  # per call; 0 lifts a limit
        "CUTPOINT_BASH_MEMORY_MB": 1024,
        "CUTPOINT_BASH_FILE_SIZE_MB": 512,
        "CUTPOINT_BASH_MAX_PROCESSES": 256,
        "CUTPOINT_BASH_HIDE_PATHS": (),
        # --- OpenTelemetry (docs/telemetry.md) ---------------------------------------------------
        "CUTPOINT_OTLP_ENDPOINT": "",  # off without one
        "CUTPOINT_OTLP_CAPTURE_CONTENT": False,
        "CUTPOINT_OTLP_TIMEOUT": 10.0,
        "CUTPOINT_OTLP_SERVICE_NAME": "cutpoint",
        "CUTPOINT_OTLP_MAX_BODY_BYTES": 16 * _MIB,  # largest /v1/traces body, before and after gzip
    }
)


def get(name: str) -> Any:
    """The setting `name` as the project configured it, else its default. A name that is not
    Cutpoint's is a KeyError: a misspelt name must fail, not quietly read a default."""
    return getattr(settings, name, DEFAULTS[name])
