"""Shared fixtures."""

from __future__ import annotations

import pytest

from sessions_app.models import Session


@pytest.fixture
def session(db: None) -> Session:
    return Session.objects.create(title="test session")
