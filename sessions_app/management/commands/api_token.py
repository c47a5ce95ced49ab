"""Manage per-user API tokens (docs/telemetry.md, "Receiving spans"):

manage.py api_token create USER NAME   # prints the token: the only time it is shown
manage.py api_token list [USER]
manage.py api_token revoke ID
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.models import ApiToken
from sessions_app.store.api_tokens import create_token, revoke_token


class Command(BaseCommand):
    help = "Create, list or revoke the API tokens programs use (the OTLP receiver at /v1/traces)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="create a token for a user and print it once")
        create.add_argument("user", help="username (must be an active staff user to send spans)")
        create.add_argument("name", help="what the token is for, e.g. 'laptop exporter'")
        listing = sub.add_parser("list", help="list tokens (of one user)")
        listing.add_argument("user", nargs="?")
        revoke = sub.add_parser("revoke", help="revoke a token by id")
        revoke.add_argument("id", type=int)

    def handle(self, *args: Any, **opts: Any) -> None:
        action = opts["action"]
        if action == "create":
            user = self._user(opts["user"])
            try:
                new = create_token(user, opts["name"])
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
            if not (user.is_active and user.is_staff):
                self.stderr.write(
                    f"note: {user.username} is not an active staff user: the receiver refuses the token"
                )
            self.stderr.write(
                f"token {new.token.pk} ({new.token.name}) for {user.username}; shown only this once:"
            )
            self.stdout.write(new.secret)
        elif action == "list":
            tokens = ApiToken.objects.select_related("user").order_by("user__username", "-created_at")
            if opts["user"]:
                tokens = tokens.filter(user=self._user(opts["user"]))
            for t in tokens:
                state = f"revoked {t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "active"
                used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
                self.stdout.write(
                    f"{t.pk}\t{t.user.username}\t{t.prefix}…\t{t.name}\tcreated {t.created_at:%Y-%m-%d %H:%M}"
                    f"\tlast used {used}\t{state}"
                )
        else:
            token = revoke_token(opts["id"])
            if token is None:
                raise CommandError(f"no token with id {opts['id']}")
            self.stdout.write(f"revoked token {token.pk} ({token.name}) of {token.user.username}")

    def _user(self, username: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        return user
