"""Django's PostgreSQL backend with a pool that recovers at once from a database restart (base.py)."""
