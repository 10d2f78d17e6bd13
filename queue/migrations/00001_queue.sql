-- The work queue's own tables, beside River's (river_job and the others,
-- created by River's own migrations). A run is a list of arena jobs cut
-- into batches; each batch is one River job, and its results are one
-- row of queue_results written in the transaction that completes the River
-- job. The primary key (run, batch) is what makes a batch count once: a
-- second completion of the same batch fails on it and rolls back.

-- +goose Up
CREATE TABLE queue_runs (
    id          BIGSERIAL   PRIMARY KEY,
    label       TEXT        NOT NULL,
    game        TEXT        NOT NULL,
    -- config is the game configuration's JSON, NULL for the defaults;
    -- config_id is arena.ConfigID of it, as in the result lines.
    config      TEXT,
    config_id   TEXT        NOT NULL,
    -- entrants is the JSON list of entrant specs (see spec.go), in the
    -- order the jobs' seats index.
    entrants    TEXT        NOT NULL,
    matches     INTEGER     NOT NULL,
    batches     INTEGER     NOT NULL,
    batch_size  INTEGER     NOT NULL,
    queue       TEXT        NOT NULL,
    -- state is 'open' or 'cancelled'; a run is complete when it has a
    -- result row for every batch.
    state       TEXT        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'cancelled')),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- queue_batches holds each batch's jobs (the River job's arguments only
-- name the run and the batch, so that River's own rows stay small).
CREATE TABLE queue_batches (
    run         BIGINT      NOT NULL REFERENCES queue_runs (id) ON DELETE CASCADE,
    batch       INTEGER     NOT NULL,
    jobs        TEXT        NOT NULL,
    PRIMARY KEY (run, batch)
);

CREATE TABLE queue_results (
    run         BIGINT      NOT NULL REFERENCES queue_runs (id) ON DELETE CASCADE,
    batch       INTEGER     NOT NULL,
    -- river_job, attempt and worker say which attempt of which River job
    -- on which worker (River client id) wrote the row.
    river_job   BIGINT      NOT NULL,
    attempt     INTEGER     NOT NULL,
    worker      TEXT        NOT NULL,
    matches     INTEGER     NOT NULL,
    failed      INTEGER     NOT NULL,
    seconds     DOUBLE PRECISION NOT NULL,
    -- records are the batch's results: what each match decided, in a
    -- compact binary form (see compact.go) from which the follower
    -- rebuilds the local arena's result lines to the byte, gzipped by the
    -- worker (stored as it is, see below).
    records     BYTEA       NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (run, batch)
);

-- Compressed records are not compressed again. PostgreSQL compresses a
-- batch's jobs (TOAST); lz4, where the server has it, does so at a
-- fraction of the CPU of its default pglz.
ALTER TABLE queue_results ALTER COLUMN records SET STORAGE EXTERNAL;
-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE queue_batches ALTER COLUMN jobs SET COMPRESSION lz4;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP TABLE queue_results;
DROP TABLE queue_batches;
DROP TABLE queue_runs;
