"""Create the local operator account on first run and print how to log in.

The generated password is kept in $CUTPOINT_DATA_DIR/operator-login.txt (mode 600) so every
`make run` can print the login again; an operator who changed the password keeps their own.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the local staff operator account if no user exists, and print its login."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", default="operator")
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="where the dashboard is served")

    def handle(self, *args: Any, username: str, url: str, **options: Any) -> None:
        User = get_user_model()
        login_file = settings.DATA_DIR / "operator-login.txt"
        if not User.objects.exists():
            password = secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, email="", password=password)
            # Created with mode 600, never readable by others even for a moment.
            login_file.unlink(missing_ok=True)
            fd = os.open(login_file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(f"{username}\n{password}\n")
        if login_file.exists():
            user, password = login_file.read_text().split("\n")[:2]
            if User.objects.filter(username=user).exists():
                self.stdout.write(f"Log in at {url} as  {user} / {password}")
                return
        self.stdout.write("Log in with your existing account (manage.py changepassword to reset one).")
