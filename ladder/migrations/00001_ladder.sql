-- The ladder's schema, one text for SQLite and PostgreSQL: only types both
-- read the same way (TEXT, INTEGER, BIGINT, DOUBLE PRECISION), no
-- auto-increment (ids are given by the store inside its transactions),
-- times as RFC 3339 UTC text, and uint64 seeds stored as the BIGINT of the
-- same 64 bits. Rows are appended; only nights.closed_at, nights.spent_ms,
-- nights.note, entrants.removed_at, and a version imported from results
-- whose variant file is added later (versions.kind and content) are ever
-- updated.

-- +goose Up
CREATE TABLE ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    game        TEXT    NOT NULL,
    seed        BIGINT  NOT NULL,
    created_at  TEXT    NOT NULL
);

CREATE TABLE seasons (
    id          BIGINT  PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    started_at  TEXT    NOT NULL,
    ended_at    TEXT
);

CREATE TABLE entrants (
    name        TEXT    PRIMARY KEY,
    added_at    TEXT    NOT NULL,
    removed_at  TEXT
);

-- A version is what an entrant plays from some moment on: a strategy at its
-- defaults, a variant file's content, or a remote bot's URL. Adding an
-- entrant again with other content appends a version; old ones stay.
CREATE TABLE versions (
    id          BIGINT  PRIMARY KEY,
    entrant     TEXT    NOT NULL REFERENCES entrants (name),
    number      INTEGER NOT NULL,
    label       TEXT    NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN ('strategy', 'variant', 'url', 'imported')),
    strategy    TEXT    NOT NULL,
    variant_id  TEXT    NOT NULL DEFAULT '',
    content     TEXT    NOT NULL DEFAULT '',
    fingerprint TEXT    NOT NULL,
    added_at    TEXT    NOT NULL,
    UNIQUE (entrant, number)
);

-- A night is one ladder run and one Glicko-2 rating period; an import is
-- one too. It is open until closed_at is set, in the transaction that
-- writes its ratings. config (JSON) holds what the night's schedule is
-- planned from (the versions, their ratings and which are new, seeds per
-- pair), so the schedule is planned again, identical, when a night left
-- open is continued, and never stored row by row.
CREATE TABLE nights (
    id           BIGINT  PRIMARY KEY,
    season_id    BIGINT  NOT NULL REFERENCES seasons (id),
    label        TEXT    NOT NULL UNIQUE,
    kind         TEXT    NOT NULL CHECK (kind IN ('night', 'import')),
    started_at   TEXT    NOT NULL,
    closed_at    TEXT,
    seed         BIGINT  NOT NULL,
    budget_ms    BIGINT  NOT NULL,
    spent_ms     BIGINT  NOT NULL DEFAULT 0,
    config       TEXT    NOT NULL,
    game_config  TEXT    NOT NULL DEFAULT '',
    code_version TEXT    NOT NULL,
    planned      INTEGER NOT NULL,
    note         TEXT    NOT NULL DEFAULT ''
);

-- One row per result line of the arena (arena.Record): position is the
-- job's place in the night's schedule (the line's place in an imported
-- file), seats the players' version ids and ranks comma-separated, scores
-- and crashed the JSON arrays of the line, replay the path of the match's
-- replay when one was kept.
CREATE TABLE matches (
    night_id    BIGINT  NOT NULL,
    job         TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    round       INTEGER NOT NULL,
    seed        BIGINT  NOT NULL,
    config      TEXT    NOT NULL,
    seats       TEXT    NOT NULL,
    scores      TEXT    NOT NULL,
    ranks       TEXT    NOT NULL,
    turns       INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    crashed     TEXT,
    error       TEXT,
    duration_ms DOUBLE PRECISION NOT NULL,
    replay      TEXT,
    PRIMARY KEY (night_id, job)
);

-- Each version's Glicko-2 state after a night, with its pairwise games of
-- that night and the 95% interval of the rating (rating -/+ 1.96 RD).
CREATE TABLE ratings (
    night_id    BIGINT  NOT NULL REFERENCES nights (id),
    version_id  BIGINT  NOT NULL REFERENCES versions (id),
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    lo          DOUBLE PRECISION NOT NULL,
    hi          DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (night_id, version_id)
);
CREATE INDEX ratings_version ON ratings (version_id, night_id);

-- A regression test of a new version against its predecessor: a
-- pentanomial SPRT with bounds elo0, elo1 (fishtest's non-regression
-- [-1.75, 0.25] by default) and error rates alpha, beta.
CREATE TABLE sprt_tests (
    id            BIGINT  PRIMARY KEY,
    version_id    BIGINT  NOT NULL REFERENCES versions (id),
    baseline_id   BIGINT  NOT NULL REFERENCES versions (id),
    started_night BIGINT  NOT NULL REFERENCES nights (id),
    elo0          DOUBLE PRECISION NOT NULL,
    elo1          DOUBLE PRECISION NOT NULL,
    alpha         DOUBLE PRECISION NOT NULL,
    beta          DOUBLE PRECISION NOT NULL,
    UNIQUE (version_id, baseline_id)
);

-- The test's state after each night that played it (appended, never
-- updated): the cumulative pentanomial counts of game pairs (same seed,
-- both seat orders) scoring 0, 1/2, 1, 3/2 and 2 for the new version, the
-- log-likelihood ratio, its bounds, and the verdict so far.
CREATE TABLE sprt_states (
    test_id     BIGINT  NOT NULL REFERENCES sprt_tests (id),
    night_id    BIGINT  NOT NULL REFERENCES nights (id),
    p0          INTEGER NOT NULL,
    p1          INTEGER NOT NULL,
    p2          INTEGER NOT NULL,
    p3          INTEGER NOT NULL,
    p4          INTEGER NOT NULL,
    llr         DOUBLE PRECISION NOT NULL,
    lower_bound DOUBLE PRECISION NOT NULL,
    upper_bound DOUBLE PRECISION NOT NULL,
    verdict     TEXT    NOT NULL CHECK (verdict IN ('running', 'H0', 'H1')),
    PRIMARY KEY (test_id, night_id)
);

-- +goose Down
DROP TABLE sprt_states;
DROP TABLE sprt_tests;
DROP TABLE ratings;
DROP TABLE matches;
DROP TABLE nights;
DROP TABLE versions;
DROP TABLE entrants;
DROP TABLE seasons;
DROP TABLE ladder;
