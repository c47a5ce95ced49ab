"""Shared fixtures. The fake Anthropic server (`fake_anthropic`) is a plugin so every test
package can use it."""

from __future__ import annotations

import pytest

from sessions_app.models import Session

pytest_plugins = ["tests.fake_anthropic"]


@pytest.fixture
def session(db: None) -> Session:
    return Session.objects.create(title="test session")
