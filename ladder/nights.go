package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"crucible/arena/rating"
)

// Kinds of night.
const (
	// KindNight is a night played by RunNight.
	KindNight = "night"
	// KindImport is a results file brought in by Import.
	KindImport = "import"
)

// NightConfig is what a night was started with, kept with it so that a
// night continued later, by another process or another version of the
// program, ends as it would have.
type NightConfig struct {
	// SeedsPerNight and NewVersionFactor shape the schedule (see
	// planNight); Pairing names the order of pairs.
	SeedsPerNight    int    `json:"seeds_per_night,omitempty"`
	NewVersionFactor int    `json:"new_version_factor,omitempty"`
	Pairing          string `json:"pairing,omitempty"`
	// Glicko2 holds the rating system's tunables the night is closed with.
	Glicko2 rating.Glicko2 `json:"glicko2"`
	// Versions are the versions rated when the night closes (those active
	// when it started; an import's players), by id.
	Versions []int64 `json:"versions"`
	// Prior (by version id) and New are the ratings and the versions
	// without a rating of their own the schedule was planned from.
	Prior map[string]rating.Rating `json:"prior,omitempty"`
	New   []int64                  `json:"new,omitempty"`
	// Source is an imported file's name and SHA-256.
	Source string `json:"source,omitempty"`
	// ChunkSize is the number of jobs of a recorded chunk (see chunks.go).
	ChunkSize int `json:"chunk_size,omitempty"`
	// Regression are the regression tests the night plays.
	Regression []RegressionRun `json:"regression,omitempty"`
	// Races are the races of candidate versions the night plays, in
	// stages after its schedule (see race.go).
	Races []RaceNight `json:"races,omitempty"`
	// Schedule is "" (or ScheduleFixed) when the rated matches are
	// planned at the start (planRated), ScheduleAdaptive when they are
	// chosen in batches as results come in, with Adaptive's settings.
	Schedule string         `json:"schedule,omitempty"`
	Adaptive *AdaptiveNight `json:"adaptive,omitempty"`
}

// Night is one ladder run: one rating period.
type Night struct {
	ID        int64  `json:"id"`
	Label     string `json:"label"`
	Kind      string `json:"kind"`
	StartedAt string `json:"started_at"`
	// ClosedAt is "" while the night is open.
	ClosedAt string        `json:"closed_at,omitempty"`
	Seed     uint64        `json:"seed"`
	Budget   time.Duration `json:"budget"`
	// Spent is the playing time recorded so far.
	Spent       time.Duration `json:"spent"`
	Config      NightConfig   `json:"config"`
	GameConfig  string        `json:"game_config"`
	CodeVersion string        `json:"code_version"`
	// Planned is the number of matches in the night's schedule.
	Planned int    `json:"planned"`
	Note    string `json:"note,omitempty"`
}

const nightCols = "id, label, kind, started_at, closed_at, seed, budget_ms, spent_ms, config, game_config, code_version, planned, note"

func scanNight(row interface{ Scan(...any) error }) (Night, error) {
	var n Night
	var closed sql.NullString
	var seed, budget, spent int64
	var cfg string
	if err := row.Scan(&n.ID, &n.Label, &n.Kind, &n.StartedAt, &closed, &seed, &budget, &spent, &cfg, &n.GameConfig, &n.CodeVersion, &n.Planned, &n.Note); err != nil {
		return n, err
	}
	n.ClosedAt, n.Seed = closed.String, uint64(seed)
	n.Budget, n.Spent = time.Duration(budget)*time.Millisecond, time.Duration(spent)*time.Millisecond
	if err := json.Unmarshal([]byte(cfg), &n.Config); err != nil {
		return n, fmt.Errorf("night %s: config: %w", n.Label, err)
	}
	return n, nil
}

// Nights lists the nights in the order they started.
func (s *Store) Nights(ctx context.Context) ([]Night, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+nightCols+" FROM nights ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Night
	for rows.Next() {
		n, err := scanNight(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// openNight returns the night left open, if any.
func (s *Store) openNight(ctx context.Context, q querier) (Night, bool, error) {
	n, err := scanNight(q.QueryRowContext(ctx, "SELECT "+nightCols+" FROM nights WHERE closed_at IS NULL ORDER BY id LIMIT 1"))
	if errors.Is(err, sql.ErrNoRows) {
		return Night{}, false, nil
	}
	return n, err == nil, err
}

// insertNight writes a night's row.
func (s *Store) insertNight(ctx context.Context, tx *sql.Tx, n Night) error {
	cfg, err := json.Marshal(n.Config)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, s.rebind(`INSERT INTO nights (id, season_id, label, kind, started_at, seed, budget_ms, config, game_config, code_version, planned)
		VALUES (?, (SELECT MAX(id) FROM seasons), ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		n.ID, n.Label, n.Kind, n.StartedAt, int64(n.Seed), n.Budget.Milliseconds(), string(cfg), n.GameConfig, n.CodeVersion, n.Planned)
	if err != nil {
		return fmt.Errorf("night %s: %w", n.Label, err)
	}
	return nil
}
