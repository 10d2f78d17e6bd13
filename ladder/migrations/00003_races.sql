-- Races of candidate versions (ladder add NAME with several sources): the
-- candidates of one entrant raced against its current version, the
-- baseline, over as many nights as it takes. A race's hypotheses are those
-- of stats.Race: Alpha is the family's error rate, each candidate tested
-- at Alpha over the number of candidates; Delta bounds the chance of a
-- wrong elimination. Pair n of every candidate is played on seed
-- Mix(seed, n), the same for all.

-- +goose Up
CREATE TABLE races (
    id          BIGINT  PRIMARY KEY,
    entrant     TEXT    NOT NULL REFERENCES entrants (name),
    baseline_id BIGINT  NOT NULL REFERENCES versions (id),
    created_at  TEXT    NOT NULL,
    seed        BIGINT  NOT NULL,
    elo0        DOUBLE PRECISION NOT NULL,
    elo1        DOUBLE PRECISION NOT NULL,
    alpha       DOUBLE PRECISION NOT NULL,
    beta        DOUBLE PRECISION NOT NULL,
    delta       DOUBLE PRECISION NOT NULL,
    model       TEXT    NOT NULL,
    batch       INTEGER NOT NULL,
    max_pairs   INTEGER NOT NULL
);

-- The candidates of a race, in the order given (idx from 0), each a version
-- of the race's entrant. outcome is updated once, when the night that ends
-- the race closes: the winner becomes the entrant's current version, the
-- others are retired. A candidate racing or retired is never the current
-- version.
CREATE TABLE race_candidates (
    race_id     BIGINT  NOT NULL REFERENCES races (id),
    idx         INTEGER NOT NULL,
    version_id  BIGINT  NOT NULL UNIQUE REFERENCES versions (id),
    outcome     TEXT    NOT NULL DEFAULT 'racing' CHECK (outcome IN ('racing', 'winner', 'retired')),
    PRIMARY KEY (race_id, idx)
);

-- A race's state after each night that played it (appended): every pair
-- counted so far in the order counted, as "candidate:class" items
-- comma-separated (class 0 to 4, the candidate's pentanomial class; the
-- race is replayed from them), the pairs and matches played, the
-- candidates' statuses (JSON, stats.Racer) and the winner's idx (-1: none).
CREATE TABLE race_states (
    race_id     BIGINT  NOT NULL REFERENCES races (id),
    night_id    BIGINT  NOT NULL REFERENCES nights (id),
    adds        TEXT    NOT NULL,
    pairs       INTEGER NOT NULL,
    matches     INTEGER NOT NULL,
    racers      TEXT    NOT NULL,
    done        INTEGER NOT NULL,
    winner      INTEGER NOT NULL,
    PRIMARY KEY (race_id, night_id)
);

-- +goose Down
DROP TABLE race_states;
DROP TABLE race_candidates;
DROP TABLE races;
