"""Per-user API tokens for machine clients (the OTLP receiver, docs/telemetry.md "Receiving
spans"): created, checked and revoked here, nowhere else.

A token is `cpt_` and 43 URL-safe characters (256 random bits, `secrets`). It is shown once, when
created; the database keeps its SHA-256 (`ApiToken.digest`) and its first characters (`prefix`,
to tell tokens apart in a list). A fast hash is enough: the secret is random, not a password, so
there is nothing to guess from the digest. Checking looks the digest up (a unique index) and
compares it in constant time; a revoked token stays listed with `revoked_at` set.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

from django.contrib.auth.models import User
from django.db.models import F, Q
from django.utils import timezone

from sessions_app.models import ApiToken

PREFIX: Final = "cpt_"
SHOWN_CHARS: Final = len(PREFIX) + 8  # ApiToken.prefix: enough to tell tokens apart
NAME_MAX: Final = ApiToken._meta.get_field("name").max_length or 100
# last_used_at is written at most this often per token: a busy exporter sends many requests.
TOUCH_EVERY: Final = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class NewToken:
    token: ApiToken
    secret: str  # the whole token: shown to its owner once, never stored


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def create_token(user: User, name: str) -> NewToken:
    """A new token for `user`; the secret is in the result and nowhere else."""
    name = name.strip()
    if not name:
        raise ValueError("a token needs a name")
    if len(name) > NAME_MAX:
        raise ValueError(f"a token name has at most {NAME_MAX} characters")
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, prefix=secret[:SHOWN_CHARS], digest=digest(secret))
    return NewToken(token, secret)


def verify_token(secret: str) -> ApiToken | None:
    """The live token `secret` is, with its user, or None (unknown, malformed or revoked). Notes
    the use in `last_used_at`."""
    if not secret.startswith(PREFIX) or len(secret) > 200:
        return None
    wanted = digest(secret)
    token = ApiToken.objects.select_related("user").filter(digest=wanted, revoked_at__isnull=True).first()
    if token is None or not hmac.compare_digest(token.digest, wanted):
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - TOUCH_EVERY)
        ).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke_token(token_id: int, *, user: User | None = None) -> ApiToken | None:
    """Revoke a token (of `user`, when given). Returns it, or None when there is no such token;
    revoking a revoked token changes nothing."""
    tokens = ApiToken.objects.filter(pk=token_id)
    if user is not None:
        tokens = tokens.filter(user=user)
    tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    return tokens.first()


def tokens_of(user: User) -> list[ApiToken]:
    """A user's tokens, live ones first, newest first."""
    return list(
        ApiToken.objects.filter(user=user).order_by(F("revoked_at").asc(nulls_first=True), "-created_at")
    )
