"""A password hasher for the test process only (tests/conftest.py installs it).

Django's PBKDF2 hasher runs 1,000,000 SHA-256 rounds per hash: a third of a second or more for
every `create_user`, and the dashboard tests create one or two users each. This one is the same
algorithm ("pbkdf2_sha256") with one round, so its hashes still verify in server subprocesses
that use the default hasher (the iteration count is stored in the hash; such a server re-hashes
with its own count at the first login, as it would after a Django upgrade).
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FastPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
