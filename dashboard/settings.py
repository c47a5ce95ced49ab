"""Cutpoint settings. Everything that differs between machines comes from the environment.

Environment:
    CUTPOINT_DATA_DIR      where the SQLite file, artifacts and workspaces live (default ./data in
                           a checkout, the per-user data directory once installed: conf.py)
    DATABASE_URL           any dj-database-url URL; default sqlite:///$CUTPOINT_DATA_DIR/cutpoint.sqlite3
    REDIS_URL              switches the channel layer from in-memory to channels_redis
    DJANGO_SECRET_KEY      default: a random key generated once into $CUTPOINT_DATA_DIR/.secret_key
    DJANGO_DEBUG           "1" turns Django's debug pages on (default off: they print settings)
    DJANGO_ALLOWED_HOSTS   comma separated (default localhost,127.0.0.1,[::1])
    CUTPOINT_UPLOAD_MAX_BYTES  largest session file the dashboard accepts
    CUTPOINT_LOGIN_FAILURE_LIMIT / CUTPOINT_LOGIN_LOCKOUT_MINUTES  login throttling
    ANTHROPIC_API_KEY      use Claude; without it the offline provider is used
    ANTHROPIC_BASE_URL     point the SDK elsewhere (the tests' fake server)
    CUTPOINT_MAIN_MODEL / CUTPOINT_COMPACT_MODEL, *_CONTEXT_WINDOW, *_MAX_OUTPUT  model profiles
and the rest in the README. Every CUTPOINT_* default is in sessions_app/conf.py, and this is the
only module that reads the environment.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# The engine is plain Python (no Django): its vocabulary can be read while settings load.
from sessions_app.compaction.settings import STRATEGIES, CompactionSettings

# Every CUTPOINT_* default, written once (conf.py imports nothing that needs settings loaded).
from sessions_app.conf import DEFAULTS, default_data_dir

BASE_DIR = Path(__file__).resolve().parent.parent
# Templates and static files: beside the project in a checkout; inside the package once installed
# with pip (setup.py copies them into dashboard/assets/ when it builds the wheel).
ASSETS_DIR = BASE_DIR if (BASE_DIR / "templates").is_dir() else Path(__file__).resolve().parent / "assets"


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc


def env_list(name: str, default: str) -> list[str]:
    return [part.strip() for part in (os.environ.get(name) or default).split(",") if part.strip()]


def cutpoint(name: str) -> Any:
    """The variable `name`, read as its default in sessions_app/conf.py is typed; that default
    when it is unset or empty."""
    default = DEFAULTS[name]
    if isinstance(default, bool):
        return env_bool(name, default)
    if isinstance(default, int):
        return env_int(name, default)
    if isinstance(default, float):
        return env_float(name, default)
    if isinstance(default, tuple):
        return env_list(name, ",".join(default))
    return os.environ.get(name) or default


DATA_DIR = Path(os.environ.get("CUTPOINT_DATA_DIR") or default_data_dir(BASE_DIR)).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)
ARTIFACT_ROOT = DATA_DIR / "artifacts"
WORKSPACE_ROOT = DATA_DIR / "workspaces"
# tiktoken reads its cache location from the environment; keep it inside the data dir.
os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(DATA_DIR / "tiktoken"))

# Off unless asked for: Django's debug pages print settings, paths and local variables to anyone
# who can make a request fail.
DEBUG = env_bool("DJANGO_DEBUG", False)


def load_or_create_secret_key(path: Path) -> str:
    """The key kept in `path`, created on first use. The file is born with mode 0600 (O_EXCL, so an
    existing file is never truncated) and gets its content under a temporary name that is then
    linked into place, so no reader ever sees it world-readable or half written."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)  # fails if another process got there first: its key wins
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: rename instead (last writer wins)
            if not path.exists():
                os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or load_or_create_secret_key(DATA_DIR / ".secret_key")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
# Cookies stay on plain HTTP only while every allowed host is this machine (`make run`); any other
# host name gets secure cookies unless DJANGO_SECURE_COOKIES says otherwise.
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "testserver"}
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not set(ALLOWED_HOSTS) <= _LOCAL_HOSTS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Django's database sessions, read with one fixed statement instead of an ORM query per request.
SESSION_ENGINE = "dashboard.session_store"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "dashboard.apps.DaphneConfig",  # daphne, its server imported only to serve (dashboard/apps.py)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "axes",
    "sessions_app",
]

MIDDLEWARE = [
    # First, so its template wrapper runs last: no page can fail on an unpaired surrogate in stored text.
    "sessions_app.middleware.SurrogateSafeTemplatesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before anything reads the request: a NUL or an unpaired surrogate in it answers 400.
    "sessions_app.middleware.RejectBadInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a locked-out login into the login page with the lockout message.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): this many failed logins for one username from one address lock
# that pair out for CUTPOINT_LOGIN_LOCKOUT_MINUTES; a successful login clears its failures.
# AxesBackend refuses locked-out pairs and is otherwise a ModelBackend (so a session naming it, the
# first backend, still loads its user, websockets included); ModelBackend checks the password.
# Both are axes' and Django's, reading the user each request loads with a compiled statement
# (dashboard/auth_backend.py).
AUTHENTICATION_BACKENDS = [
    "dashboard.auth_backend.AxesBackend",
    "dashboard.auth_backend.ModelBackend",
]
AXES_FAILURE_LIMIT = cutpoint("CUTPOINT_LOGIN_FAILURE_LIMIT")
AXES_COOLOFF_TIME = timedelta(minutes=cutpoint("CUTPOINT_LOGIN_LOCKOUT_MINUTES"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "sessions_app.views.auth.locked_out"
AXES_CLIENT_IP_CALLABLE = "sessions_app.views.auth.client_address"
AXES_VERBOSE = False  # no banner at every start; failures (INFO) and lockouts (WARNING) are still logged

ROOT_URLCONF = "dashboard.urls"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "sessions_app:session_list"
LOGOUT_REDIRECT_URL = "login"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [ASSETS_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "dashboard.asgi.application"

DATABASES: dict[str, Any] = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{DATA_DIR / 'cutpoint.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        # A connection is checked before it is reused (a database restart kills every idle one).
        # The pool below does its own check instead (dashboard/pooled_postgresql/base.py).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the dashboard read while an agent writes; IMMEDIATE makes write transactions take
    # the lock up front so concurrent writers queue instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file, not :memory:, so concurrent-writer tests exercise real SQLite locking.
    # Per process, so concurrent test runs on one machine never share a file.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
        DATA_DIR / f"test-cutpoint-{os.getpid()}.sqlite3"
    )
else:
    # Under ASGI, Django closes connections after each request unless pooled; a pool saves the
    # connect on every page (Django 5.1+ with psycopg_pool). CUTPOINT_DB_POOL=0 turns it off.
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and cutpoint("CUTPOINT_DB_POOL"):
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # required with a pool
        # Django's backend, with a pool that checks each connection before a request gets it and
        # drops all the dead ones at once after a database restart. CONN_HEALTH_CHECKS would hand
        # the check to psycopg_pool, which sleeps 1, 2, 4… s after each dead connection it meets.
        DATABASES["default"]["ENGINE"] = "dashboard.pooled_postgresql"
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": cutpoint("CUTPOINT_DB_POOL_MIN"),
            "max_size": cutpoint("CUTPOINT_DB_POOL_MAX"),
            "timeout": 20,
        }
    # Likewise on a shared server: two test runs must not fight over one test database.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS: dict[str, Any] = (
    {
        "default": {
            # channels_redis's layer, kept alive under load and across Redis outages (docs/architecture.md)
            "BACKEND": "sessions_app.runtime.redis_layer.LiveRedisLayer",
            # A prefix per deployment (or test run) keeps several of them apart on one Redis.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": cutpoint("CUTPOINT_CHANNEL_PREFIX")},
        }
    }
    if REDIS_URL
    else {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [ASSETS_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
# daphne does not serve static files: whitenoise does, with or without DEBUG. `collectstatic` (run by
# `make run` and the deployment steps) writes each file under a content-hashed name, with a gzip copy
# (and a Brotli one when the `brotli` package is installed), into STATIC_ROOT; pages link the hashed
# names, which whitenoise serves compressed with a ten-year max-age. Without collectstatic (or with
# DEBUG on) pages link the plain names, served from the app and project static dirs with a short
# max-age (dashboard/storage.py). Only DEBUG re-scans them on every request.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "dashboard.storage.CompressedManifestWithFallbackStorage"},
}
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Uploads: written to a temporary file as they arrive, never held in memory, and refused once a
# file passes CUTPOINT_UPLOAD_MAX_BYTES (sessions_app/views/uploads.py).
CUTPOINT_UPLOAD_MAX_BYTES = cutpoint("CUTPOINT_UPLOAD_MAX_BYTES")
FILE_UPLOAD_HANDLERS = ["sessions_app.views.uploads.LimitedTemporaryFileUploadHandler"]
# daphne processes that `manage.py serve` starts (its --workers).
CUTPOINT_WORKERS = cutpoint("CUTPOINT_WORKERS")
CUTPOINT_WATCH_SETTLE_SECONDS = cutpoint("CUTPOINT_WATCH_SETTLE_SECONDS")
CUTPOINT_WATCH_POLL = cutpoint("CUTPOINT_WATCH_POLL")
CUTPOINT_WATCH_FOLDERS = cutpoint("CUTPOINT_WATCH_FOLDERS")

LOG_FORMAT = cutpoint("CUTPOINT_LOG_FORMAT")  # "json" for structured logs
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "dashboard.logformat.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
        }
    },
    "root": {"handlers": ["console"], "level": cutpoint("CUTPOINT_LOG_LEVEL")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

# Compaction defaults (per session overrides live in Session.metadata["compaction"]); unset, the
# engine's own (compaction/settings.py).
_ENGINE = CompactionSettings()
CUTPOINT_COMPACTION: dict[str, Any] = {
    "enabled": env_bool("CUTPOINT_COMPACTION_ENABLED", _ENGINE.enabled),
    "reserve_tokens": env_int("CUTPOINT_RESERVE_TOKENS", _ENGINE.reserve_tokens),
    "keep_recent_tokens": env_int("CUTPOINT_KEEP_RECENT_TOKENS", _ENGINE.keep_recent_tokens),
    # docs/compaction.md, rules U1 and R6
    "strategy": os.environ.get("CUTPOINT_SUMMARY_STRATEGY") or _ENGINE.strategy,
    "carry_over": env_bool("CUTPOINT_CARRY_OVER", _ENGINE.carry_over),
}
if CUTPOINT_COMPACTION["strategy"] not in STRATEGIES:
    _strategy = CUTPOINT_COMPACTION["strategy"]
    _choices = ", ".join(STRATEGIES)
    raise ImproperlyConfigured(f"CUTPOINT_SUMMARY_STRATEGY: one of {_choices}, not {_strategy!r}")
# After each compaction's audit, ask the compact model one question per fact from the context
# after the compaction and store the graded answers beside it: one more model call per compaction
# (docs/compaction.md, rule R7). On by default (issue 30: a configured model checks each
# compaction); never with the offline provider, so it costs nothing without an API key.
CUTPOINT_PROBE_AUDIT = cutpoint("CUTPOINT_PROBE_AUDIT")
# Without a model (offline turns, extractive summaries) text streams at full speed unless this many
# seconds separate its chunks (demos and browser tests use it to make streaming visible).
CUTPOINT_OFFLINE_CHUNK_DELAY = cutpoint("CUTPOINT_OFFLINE_CHUNK_DELAY")
# SQLite: how often an import commits into its hidden session (README; store/bulk_import.py).
CUTPOINT_IMPORT_COMMIT_SECONDS = cutpoint("CUTPOINT_IMPORT_COMMIT_SECONDS")
# How often each server process looks for compaction tasks a dead process left running (0 = never).
CUTPOINT_SWEEP_SECONDS = cutpoint("CUTPOINT_SWEEP_SECONDS")

# The bash tool runs in a bubblewrap sandbox (docs/sandbox.md); without bwrap it is refused unless
# CUTPOINT_BASH_SANDBOX=off. Limits apply per call; 0 lifts one. `read` returns at most
# CUTPOINT_READ_MAX_BYTES of a file per call.
CUTPOINT_BASH_SANDBOX = cutpoint("CUTPOINT_BASH_SANDBOX")
CUTPOINT_BASH_BWRAP = cutpoint("CUTPOINT_BASH_BWRAP")
CUTPOINT_BASH_NETWORK = cutpoint("CUTPOINT_BASH_NETWORK")
CUTPOINT_BASH_CPU_SECONDS = cutpoint("CUTPOINT_BASH_CPU_SECONDS")
CUTPOINT_BASH_MEMORY_MB = cutpoint("CUTPOINT_BASH_MEMORY_MB")
CUTPOINT_BASH_FILE_SIZE_MB = cutpoint("CUTPOINT_BASH_FILE_SIZE_MB")
CUTPOINT_BASH_MAX_PROCESSES = cutpoint("CUTPOINT_BASH_MAX_PROCESSES")
CUTPOINT_BASH_HIDE_PATHS = cutpoint("CUTPOINT_BASH_HIDE_PATHS")
CUTPOINT_READ_MAX_BYTES = cutpoint("CUTPOINT_READ_MAX_BYTES")

# Model profiles ("compact" falls back to "main" when not configured: docs/compaction.md, rule F5).
ANTHROPIC_API_KEY = os.environ.get("ANTHROPIC_API_KEY", "")
ANTHROPIC_BASE_URL = os.environ.get("ANTHROPIC_BASE_URL", "")
CUTPOINT_PROVIDER = "anthropic" if ANTHROPIC_API_KEY else "offline"
CUTPOINT_MODEL_PROFILES: dict[str, dict[str, Any]] = {
    "main": {
        "provider": CUTPOINT_PROVIDER,
        "model": cutpoint("CUTPOINT_MAIN_MODEL"),
        "context_window": cutpoint("CUTPOINT_MAIN_CONTEXT_WINDOW"),
        "max_output": cutpoint("CUTPOINT_MAIN_MAX_OUTPUT"),
    },
}
if os.environ.get("CUTPOINT_COMPACT_MODEL"):
    CUTPOINT_MODEL_PROFILES["compact"] = {
        "provider": CUTPOINT_PROVIDER,
        "model": os.environ["CUTPOINT_COMPACT_MODEL"],
        "context_window": cutpoint("CUTPOINT_COMPACT_CONTEXT_WINDOW"),
        "max_output": cutpoint("CUTPOINT_COMPACT_MAX_OUTPUT"),
    }

# OpenTelemetry GenAI spans to a collector over OTLP/HTTP (docs/telemetry.md, "Live export"). Off
# unless an endpoint is set: CUTPOINT_OTLP_ENDPOINT (the full traces URL), else the SDK's standard
# OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. Headers (auth)
# come from OTEL_EXPORTER_OTLP_HEADERS through the SDK. Message content only when asked for:
# CUTPOINT_OTLP_CAPTURE_CONTENT, else OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT.
_otlp_base = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip().rstrip("/")
CUTPOINT_OTLP_ENDPOINT = (
    cutpoint("CUTPOINT_OTLP_ENDPOINT").strip()
    or os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
    or (f"{_otlp_base}/v1/traces" if _otlp_base else "")
)
CUTPOINT_OTLP_CAPTURE_CONTENT = env_bool(
    "CUTPOINT_OTLP_CAPTURE_CONTENT",
    os.environ.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "").strip().lower()
    in {"1", "true", "yes", "on", "span_only", "span_and_event"},
)
CUTPOINT_OTLP_TIMEOUT = cutpoint("CUTPOINT_OTLP_TIMEOUT")
CUTPOINT_OTLP_SERVICE_NAME = os.environ.get("OTEL_SERVICE_NAME", "") or DEFAULTS["CUTPOINT_OTLP_SERVICE_NAME"]

# Largest OTLP/HTTP request body /v1/traces accepts, before and after gzip (docs/telemetry.md).
CUTPOINT_OTLP_MAX_BODY_BYTES = cutpoint("CUTPOINT_OTLP_MAX_BODY_BYTES")
