"""The tables in PostgreSQL, made or migrated at start, and their version.

Everything lives in the schema ``restwalk`` (the database may hold other
things). ``restwalk.schema_version`` holds one number: how many of
:data:`MIGRATIONS` have run. An instance runs the ones missing, each once,
under an advisory lock, so instances starting together do not race; one that
finds a number above its own was made by a newer restwalk-mock, and says so
in one line rather than reading tables it does not know.

Tables (version 1)::

    meta(key, value)                         -- the signing secret, the computed seed's rounds
    head(epoch, seq)                         -- one row: where the data is; writers lock it
    collections(name, unique_field, next_id)
    records(collection, id, data, created, updated)   -- data is JSON, key order kept
    deleted(collection, id)
    changes(seq, collection, id)             -- which record each write touched
    tokens(digest, subject, expires, made)   -- ``made``: the order of issue
    sessions(digest, user, role, expires, made)
    rate_windows(client, hits)               -- unlogged: the rate limit's recent requests
    journal(id, time, method, ...)           -- unlogged: the request journal

Version 2 adds the events and webhooks (:mod:`~mock_server.store.postgresql.events`)::

    head(..., events, webhooks)              -- the newest event and subscription numbers
    events(seq, type, time, topic, path, record_id, payload)
    webhooks(id, url, types, secret, version, base, created, description)
    attempts(id, webhook, event, type, number, time, status, outcome, ...)

Version 3 adds what the OAuth server remembers (:mod:`~mock_server.store.postgresql.oauth`)::

    oauth_codes, oauth_grants, oauth_refresh, oauth_access, oauth_revoked,
    oauth_devices, oauth_clients

``records.data`` is ``json``, not ``jsonb``: jsonb reorders keys, and a
record's fields must come out in the order they were written, on every
instance, or two instances would give the same record two ETags. The rate
windows and the journal are unlogged: fast, and lost in a crash of the
database, which is all they deserve.
"""

from __future__ import annotations

from typing import Any

from mock_server.store.errors import PersistenceError

#: The advisory lock key that serialises migrations ("restwalk" in ASCII, as a number).
MIGRATION_LOCK = 0x72657374_77616C6B

_VERSION_1 = """
CREATE TABLE restwalk.meta (key text PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE restwalk.head (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    epoch bigint NOT NULL,
    seq bigint NOT NULL
);
INSERT INTO restwalk.head (epoch, seq) VALUES (0, 0);
CREATE TABLE restwalk.collections (
    name text PRIMARY KEY, unique_field text, next_id bigint NOT NULL
);
CREATE TABLE restwalk.records (
    collection text NOT NULL, id bigint NOT NULL, data json NOT NULL,
    created double precision NOT NULL, updated double precision NOT NULL,
    PRIMARY KEY (collection, id)
);
CREATE TABLE restwalk.deleted (
    collection text NOT NULL, id bigint NOT NULL, PRIMARY KEY (collection, id)
);
CREATE TABLE restwalk.changes (
    seq bigint PRIMARY KEY, collection text NOT NULL, id bigint NOT NULL
);
CREATE TABLE restwalk.tokens (
    digest text PRIMARY KEY, subject text NOT NULL, expires double precision NOT NULL,
    made bigserial NOT NULL
);
CREATE TABLE restwalk.sessions (
    digest text PRIMARY KEY, "user" text NOT NULL, role text NOT NULL,
    expires double precision NOT NULL, made bigserial NOT NULL
);
CREATE UNLOGGED TABLE restwalk.rate_windows (
    client text PRIMARY KEY, hits double precision[] NOT NULL
);
CREATE UNLOGGED TABLE restwalk.journal (
    id bigserial PRIMARY KEY, time double precision NOT NULL, method text NOT NULL,
    url text NOT NULL, path text NOT NULL, query text NOT NULL, headers bytea NOT NULL,
    client text, body bytea NOT NULL, body_size bigint NOT NULL, status integer
);
-- One request of ``who`` at ``now``, counted if fewer than ``most`` were made in the
-- last ``span`` seconds: the sliding window of mock_server.layers.rate_limit, for
-- every instance at once (the row lock orders two instances counting one client).
CREATE FUNCTION restwalk.rate_take(
    who text, now double precision, span double precision, most integer,
    OUT allowed boolean, OUT used integer, OUT oldest double precision
) LANGUAGE plpgsql AS $$
DECLARE
    kept double precision[];
BEGIN
    INSERT INTO restwalk.rate_windows (client, hits) VALUES (who, '{}')
        ON CONFLICT (client) DO NOTHING;
    SELECT coalesce(array(SELECT h FROM unnest(w.hits) AS h WHERE h > now - span ORDER BY h),
                    '{}')
        INTO kept FROM restwalk.rate_windows AS w WHERE w.client = who FOR UPDATE;
    allowed := cardinality(kept) < most;
    IF allowed THEN
        kept := kept || now;
    END IF;
    UPDATE restwalk.rate_windows SET hits = kept WHERE client = who;
    used := cardinality(kept);
    oldest := kept[1];
END
$$;
"""

# The counters live in ``head``: a write holds its row lock already, so an event is
# numbered, and a subscription given its id, in the order the writes commit, with
# no gap left by a write undone (a sequence would leave one).
_VERSION_2 = """
ALTER TABLE restwalk.head
    ADD COLUMN events bigint NOT NULL DEFAULT 0,
    ADD COLUMN webhooks bigint NOT NULL DEFAULT 0;
CREATE TABLE restwalk.events (
    seq bigint PRIMARY KEY, type text NOT NULL, time double precision NOT NULL,
    topic text, path text NOT NULL, record_id bigint, payload json NOT NULL
);
CREATE TABLE restwalk.webhooks (
    id bigint PRIMARY KEY, url text NOT NULL, types text[] NOT NULL, secret text NOT NULL,
    version integer NOT NULL, base text NOT NULL, created double precision NOT NULL,
    description text NOT NULL
);
CREATE TABLE restwalk.attempts (
    id bigserial PRIMARY KEY,
    webhook bigint NOT NULL REFERENCES restwalk.webhooks ON DELETE CASCADE,
    event text NOT NULL, type text NOT NULL, number integer NOT NULL,
    time double precision NOT NULL, status integer, outcome text NOT NULL,
    detail text NOT NULL, duration_ms integer NOT NULL, retry_at double precision
);
CREATE INDEX attempts_by_webhook ON restwalk.attempts (webhook, id);
"""

# ``made`` orders each kind by age: the oldest go past the most kept.
_VERSION_3 = """
CREATE TABLE restwalk.oauth_codes (
    digest text PRIMARY KEY, client_id text NOT NULL, "user" text NOT NULL,
    scope text NOT NULL, redirect_uri text, code_challenge text,
    code_challenge_method text, expires double precision NOT NULL,
    used boolean NOT NULL DEFAULT false, grant_id text, made bigserial NOT NULL
);
CREATE INDEX oauth_codes_by_age ON restwalk.oauth_codes (made);
CREATE TABLE restwalk.oauth_grants (
    grant_id text PRIMARY KEY, client_id text NOT NULL, "user" text, scope text NOT NULL,
    refresh_digest text, expires double precision NOT NULL,
    revoked boolean NOT NULL DEFAULT false, made bigserial NOT NULL
);
CREATE INDEX oauth_grants_by_age ON restwalk.oauth_grants (made);
CREATE TABLE restwalk.oauth_refresh (
    digest text PRIMARY KEY,
    grant_id text NOT NULL REFERENCES restwalk.oauth_grants ON DELETE CASCADE
);
CREATE INDEX oauth_refresh_by_grant ON restwalk.oauth_refresh (grant_id);
CREATE TABLE restwalk.oauth_access (
    jti text PRIMARY KEY,
    grant_id text NOT NULL REFERENCES restwalk.oauth_grants ON DELETE CASCADE,
    expires double precision NOT NULL
);
CREATE INDEX oauth_access_by_grant ON restwalk.oauth_access (grant_id);
CREATE TABLE restwalk.oauth_revoked (
    jti text PRIMARY KEY, expires double precision NOT NULL, made bigserial NOT NULL
);
CREATE INDEX oauth_revoked_by_age ON restwalk.oauth_revoked (made);
CREATE TABLE restwalk.oauth_devices (
    digest text PRIMARY KEY, user_code text NOT NULL, client_id text NOT NULL,
    scope text NOT NULL, expires double precision NOT NULL, "interval" integer NOT NULL,
    last_poll double precision, "user" text, approved boolean,
    slowed boolean NOT NULL DEFAULT false, made bigserial NOT NULL
);
CREATE INDEX oauth_devices_by_user_code ON restwalk.oauth_devices (user_code, made);
CREATE INDEX oauth_devices_by_age ON restwalk.oauth_devices (made);
CREATE TABLE restwalk.oauth_clients (
    client_id text PRIMARY KEY, name text NOT NULL, secret_digest text,
    redirect_uris text[] NOT NULL, grant_types text[] NOT NULL, scopes text[] NOT NULL,
    made bigserial NOT NULL
);
CREATE INDEX oauth_clients_by_age ON restwalk.oauth_clients (made);
"""

#: Each migration, in order: running the first N makes schema version N.
MIGRATIONS: tuple[str, ...] = (_VERSION_1, _VERSION_2, _VERSION_3)
#: The schema this restwalk-mock reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)


def newer_schema(where: str, found: int) -> PersistenceError:
    """The one line for a database whose schema a newer restwalk-mock made."""
    return PersistenceError(
        f"the database {where} holds schema {found} of a newer restwalk-mock; this one "
        f"reads schema {SCHEMA_VERSION}: upgrade restwalk to share it"
    )


def migrate(connection: Any, where: str) -> int:
    """Make or bring up to date the tables on ``connection`` (autocommit); the version found.

    Raises :class:`PersistenceError` (one line) for a schema newer than this one.
    """
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        connection.execute("CREATE SCHEMA IF NOT EXISTS restwalk")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS restwalk.schema_version (version integer NOT NULL)"
        )
        row = connection.execute("SELECT version FROM restwalk.schema_version").fetchone()
        found = 0 if row is None else int(row[0])
        if found > SCHEMA_VERSION:
            raise newer_schema(where, found)
        for migration in MIGRATIONS[found:]:
            connection.execute(migration)
        if row is None:
            connection.execute(
                "INSERT INTO restwalk.schema_version (version) VALUES (%s)", (SCHEMA_VERSION,)
            )
        else:
            connection.execute("UPDATE restwalk.schema_version SET version = %s", (SCHEMA_VERSION,))
    return found
