"""Persistence: SQLAlchemy models, migrations, sessions, and repositories returning records.

db: engines, sessions, transactions, the schema check. migrate: Alembic (migrations/).
models: the schema. records, settings, statuses: the values repositories take and return.
Repositories by concern: games, powers, phases, orders, inbound, outbound, press, audit.
claims: row locks for several workers. passwords: scrypt hashes.
Only this package speaks SQL; the engine never imports it.
"""
