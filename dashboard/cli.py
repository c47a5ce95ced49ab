"""The `cutpoint` command (pyproject `[project.scripts]`): Django's management commands as
subcommands, with short names for the ones a local user types (`cutpoint serve`, `cutpoint import
FILE`, `cutpoint watch`, `cutpoint audit ID`, …); any other management command works under its own
name.

Local mode needs no setup step: before a command that uses the database, the schema is brought up
to date (`migrate`), and before `serve` the static files are collected, both quietly and only when
something is missing. Data lives in `CUTPOINT_DATA_DIR`, by default the per-user data directory
(sessions_app/conf.py, `default_data_dir`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Final

# Short names for the management commands whose own names are long or generic.
ALIASES: Final = {
    "import": "import_session",
    "export": "export_session",
    "plan": "compaction_plan",
    "operator": "ensure_operator",
}
# Commands that need no database (or manage it themselves).
_NO_MIGRATE: Final = frozenset(
    {"help", "--help", "-h", "version", "--version", "migrate", "makemigrations", "check", "shell"}
)

USAGE: Final = """usage: cutpoint COMMAND [ARGS...]

  serve [--watch] [--port P]   the dashboard (http://127.0.0.1:8000/ by default)
  watch [FOLDER ...]           follow Claude Code, Codex CLI and pi session folders, live
  import FILE                  import one session file (pi, Claude Code, Codex, OTLP)
  export ID                    export a session as a pi file
  audit ID                     the retention audit of a session's compactions
  reprice [ID ...]             price every call again with the installed price list
  operator                     create the dashboard's first staff user
  demo                         load the demo sessions

Any other Django management command works too (`cutpoint help` lists them).
Data: $CUTPOINT_DATA_DIR, by default the per-user data directory.
"""


def _prepare(command: str) -> None:
    """Bring the database (and, to serve, the static files) up to date before the command."""
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        call_command("migrate", interactive=False, verbosity=0)
    if command == "serve" and not (settings.STATIC_ROOT / "staticfiles.json").is_file():
        call_command("collectstatic", interactive=False, verbosity=0)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    import django
    from django.core.management import execute_from_command_line

    django.setup()
    command = ALIASES.get(args[0], args[0])
    if command not in _NO_MIGRATE:
        _prepare(command)
    execute_from_command_line(["cutpoint", command, *args[1:]])
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m dashboard.cli`
    sys.exit(main())
