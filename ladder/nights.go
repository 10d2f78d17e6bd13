package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"time"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
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

// NightOptions tune RunNight. The zero value plays a night labelled with
// today's date (UTC) with the defaults.
type NightOptions struct {
	// Label names the night; "" means today's date in UTC (2006-01-02).
	Label string
	// SeedsPerNight is the seeds each pair plays; 0 means
	// DefaultSeedsPerNight.
	SeedsPerNight int
	// NewVersionFactor multiplies the seeds of pairs with a new version; 0
	// means DefaultNewVersionFactor.
	NewVersionFactor int
	// Budget bounds the night's playing time, summed over the runs that
	// play it; 0 means no bound. When it is spent the night is closed with
	// the matches played.
	Budget time.Duration
	// Workers, GameConfig and ReplayDir are the arena's Options (Workers
	// 0 means one per CPU; GameConfig nil the game's defaults). Replays go
	// to ReplayDir/<night label>/<job>.json.
	Workers    int
	GameConfig any
	ReplayDir  string
	// Play plays the night's matches with arena.Run's contract (nil:
	// arena.Run in this process); a work queue's runner plays them on
	// other machines (crucible ladder run --queue).
	Play func(ctx context.Context, g engine.Game, entrants []arena.Entrant, jobs []arena.Job, opt arena.Options, emit func(arena.Record) error) error
	// Glicko2 rates the night when it starts; nil means rating.Default().
	// A night continued later keeps the tunables it started with.
	Glicko2 *rating.Glicko2
	// Started, when set, is called once the night to play is known, with
	// the matches of its schedule still to play.
	Started func(n Night, resumed bool, todo int)
	// Progress, when set, is called as matches finish (see
	// arena.Options.Progress).
	Progress func(done, total int)
	// ChunkSize is the number of jobs of a recorded chunk (made even); 0
	// sizes chunks to about 150 ms of play on Workers, from the match time
	// of the ladder's last night, or for its first night from a few
	// matches played (and thrown away) before the night starts. A night
	// continued later keeps the size it started with.
	ChunkSize int
	// Regression sets up the regression tests of new versions; nil means
	// DefaultRegression(). A test keeps the bounds it started with.
	Regression *RegressionOptions
}

// Builder makes the arena entrant that plays a version; the ladder names
// it by the version's label.
type Builder func(v Version) (arena.Entrant, error)

// NightResult says what RunNight did.
type NightResult struct {
	Night Night
	// AlreadyClosed is set when the night asked for was closed before:
	// nothing was played.
	AlreadyClosed bool
	// Resumed is set when a night left open was continued.
	Resumed bool
	// Played is the number of matches this call played and recorded;
	// Recorded the night's matches in all.
	Played, Recorded int
	// BudgetSpent is set when the budget ran out before the schedule did.
	BudgetSpent bool
	// Ratings are the night's ratings (when it was closed).
	Ratings []RatingRow
	// Regression are the regression tests the night played, with their
	// state after it (when it was closed).
	Regression []RegressionTest
}

// RunNight plays one night of the ladder with game g, whose entrants build
// makes. A night left open (by a killed or interrupted run) is continued,
// whatever opt says: its schedule and settings were fixed when it started,
// so it ends as an uninterrupted night would. Otherwise a new night is
// planned (see planNight) from the ratings after the last night; a label
// already closed plays nothing (AlreadyClosed). Finished matches are
// recorded in batched transactions; when the schedule is done or the
// budget spent, the night is closed as one Glicko-2 rating period in one
// transaction. When ctx is cancelled the matches recorded stay, the night
// stays open, and ctx's error is returned.
func (s *Store) RunNight(ctx context.Context, g engine.Game, build Builder, opt NightOptions) (NightResult, error) {
	var res NightResult
	info, err := s.Info(ctx)
	if err != nil {
		return res, err
	}
	if err := checkGame(info, g); err != nil {
		return res, err
	}
	if opt.SeedsPerNight == 0 {
		opt.SeedsPerNight = DefaultSeedsPerNight
	}
	if opt.NewVersionFactor == 0 {
		opt.NewVersionFactor = DefaultNewVersionFactor
	}
	if opt.SeedsPerNight < 1 || opt.NewVersionFactor < 1 || opt.Budget < 0 || opt.ChunkSize < 0 {
		return res, fmt.Errorf("seeds per night %d, new-version factor %d, budget %s and chunk size %d must be positive", opt.SeedsPerNight, opt.NewVersionFactor, opt.Budget, opt.ChunkSize)
	}
	if opt.Regression == nil {
		d := DefaultRegression()
		opt.Regression = &d
	}
	if err := opt.Regression.Validate(); err != nil {
		return res, err
	}
	glicko := opt.Glicko2
	if glicko == nil {
		glicko = rating.Default()
	}
	cfgID, err := arena.ConfigID(g, opt.GameConfig)
	if err != nil {
		return res, err
	}

	// Find the night to play, or plan and record a new one, in one
	// transaction: a night is there with its whole schedule or not at all.
	var night Night
	var planned []plannedJob // the schedule, when planned now
	err = s.tx(ctx, func(tx *sql.Tx) error {
		open, ok, err := s.openNight(ctx, tx)
		if err != nil {
			return err
		}
		if ok {
			if open.Kind != KindNight {
				return fmt.Errorf("night %s is an unfinished import", open.Label)
			}
			if opt.Label != "" && opt.Label != open.Label {
				return fmt.Errorf("night %q: night %q is still open; run the ladder without a label (or with --night %s) to finish it first", opt.Label, open.Label, open.Label)
			}
			night, res.Resumed = open, true
			return nil
		}
		label := opt.Label
		if label == "" {
			label = time.Now().UTC().Format("2006-01-02")
		}
		closed, err := scanNight(tx.QueryRowContext(ctx, s.rebind("SELECT "+nightCols+" FROM nights WHERE label = ?"), label))
		if err == nil {
			night, res.AlreadyClosed = closed, true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		night, planned, err = s.startNight(ctx, tx, info, label, cfgID, glicko, opt, g, build)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Night = night
	if res.AlreadyClosed {
		return res, nil
	}
	if night.GameConfig != cfgID {
		return res, fmt.Errorf("game configuration %s: night %s was started with configuration %s (was --config different?)", cfgID, night.Label, night.GameConfig)
	}

	if planned == nil {
		if planned, err = night.plan(); err != nil {
			return res, err
		}
	}
	jobs, entrants, sched, err := s.nightScheduleOf(ctx, s.db, night, planned, build)
	if err != nil {
		return res, err
	}
	size := night.Config.ChunkSize
	if size < minChunk {
		return res, fmt.Errorf("night %s: chunk size %d in its config (was the database edited?)", night.Label, size)
	}
	done, err := s.recordedChunks(ctx, s.db, night.ID)
	if err != nil {
		return res, err
	}
	for k := range done {
		if k < 0 || k*size >= len(jobs) {
			return res, fmt.Errorf("night %s: chunk %d is recorded but its schedule has %d chunks (was the database edited?)", night.Label, k, (len(jobs)+size-1)/size)
		}
	}
	var todo []arena.Job
	for i, j := range jobs {
		if !done[i/size] {
			todo = append(todo, j)
		}
	}
	if opt.Started != nil {
		opt.Started(night, res.Resumed, len(todo))
	}
	remaining := night.Budget - night.Spent
	if night.Budget > 0 && remaining <= 0 {
		res.BudgetSpent = len(todo) > 0
		todo = nil
	}
	if len(todo) > 0 {
		playCtx := ctx
		if night.Budget > 0 {
			var cancel context.CancelFunc
			playCtx, cancel = context.WithTimeout(ctx, remaining)
			defer cancel()
		}
		replayDir := ""
		if opt.ReplayDir != "" {
			replayDir = opt.ReplayDir + "/" + night.Label
		}
		budgetCut := func() bool { return ctx.Err() == nil && playCtx.Err() != nil }
		res.Played, err = s.play(playCtx, g, night, entrants, todo, sched, replayDir, opt, budgetCut)
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) && night.Budget > 0 {
			res.BudgetSpent, err = true, nil
		}
		if err != nil {
			return res, err
		}
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		note := ""
		if res.BudgetSpent {
			note = "budget spent"
		}
		var err error
		if res.BudgetSpent {
			// However little of it the matches recorded took.
			if _, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET spent_ms = budget_ms WHERE id = ? AND spent_ms < budget_ms"), night.ID); err != nil {
				return err
			}
		}
		if res.Ratings, err = s.closeNight(ctx, tx, info, night, note); err != nil {
			return err
		}
		res.Regression, err = s.closeRegression(ctx, tx, night)
		return err
	})
	if err != nil {
		return res, err
	}
	if res.Recorded, err = s.MatchCount(ctx, night.ID); err != nil {
		return res, err
	}
	res.Night, err = scanNight(s.db.QueryRowContext(ctx, s.rebind("SELECT "+nightCols+" FROM nights WHERE id = ?"), night.ID))
	return res, err
}

// startNight plans and records a new night inside tx, with the regression
// tests it plays (those it starts are recorded too).
func (s *Store) startNight(ctx context.Context, tx *sql.Tx, info Info, label, cfgID string, glicko *rating.Glicko2, opt NightOptions,
	g engine.Game, build Builder) (Night, []plannedJob, error) {
	active, err := s.activeVersions(ctx, tx)
	if err != nil {
		return Night{}, nil, err
	}
	if len(active) < 2 {
		return Night{}, nil, fmt.Errorf("the ladder has %d entrant(s); a night needs at least 2 (add them with crucible ladder add)", len(active))
	}
	for _, v := range active {
		if v.Kind == KindImported {
			return Night{}, nil, fmt.Errorf("entrant %s (version %d) is known only from imported results (variant %s) and cannot play: add it again with --variant FILE, or remove it", v.Entrant, v.Number, v.VariantID)
		}
	}
	prior, own, err := s.priorRatings(ctx, tx, active, glicko)
	if err != nil {
		return Night{}, nil, err
	}
	ids := make([]int64, len(active))
	priorByID := make(map[string]rating.Rating, len(active))
	var fresh []int64
	for i, v := range active {
		ids[i] = v.ID
		priorByID[strconv.FormatInt(v.ID, 10)] = prior[v.ID]
		if !own[v.ID] {
			fresh = append(fresh, v.ID)
		}
	}
	id, err := s.nextID(ctx, tx, "nights")
	if err != nil {
		return Night{}, nil, err
	}
	seed := engine.Mix(info.Seed, uint64(id))
	runs, fresh2, err := s.regressionRuns(ctx, tx, active, *opt.Regression)
	if err != nil {
		return Night{}, nil, err
	}
	n := Night{ID: id, Label: label, Kind: KindNight, StartedAt: now(), Seed: seed, Budget: opt.Budget,
		Config: NightConfig{SeedsPerNight: opt.SeedsPerNight, NewVersionFactor: opt.NewVersionFactor, Pairing: "uncertainty",
			Glicko2: *glicko, Versions: ids, Prior: priorByID, New: fresh, Regression: runs},
		GameConfig: cfgID, CodeVersion: CodeVersion()}
	jobs, err := n.plan()
	if err != nil {
		return Night{}, nil, err
	}
	n.Planned = len(jobs)
	if n.Config.ChunkSize, err = s.chunkSize(ctx, tx, n, jobs, opt, g, build); err != nil {
		return Night{}, nil, err
	}
	if err := s.insertNight(ctx, tx, n); err != nil {
		return Night{}, nil, err
	}
	if err := s.insertRegressionTests(ctx, tx, n, fresh2, *opt.Regression); err != nil {
		return Night{}, nil, err
	}
	return n, jobs, nil
}

// chunkSize is the chunk size of a night about to start: opt.ChunkSize
// when given, else sized to chunkTarget on opt.Workers from the mean match
// time of the ladder's last night that recorded matches, else from a few
// of the night's own matches played (and thrown away) now.
func (s *Store) chunkSize(ctx context.Context, tx *sql.Tx, n Night, jobs []plannedJob, opt NightOptions, g engine.Game, build Builder) (int, error) {
	if opt.ChunkSize > 0 {
		return opt.ChunkSize + opt.ChunkSize%2, nil
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(c.night_id) FROM match_chunks c JOIN nights n ON n.id = c.night_id WHERE n.kind = 'night'`).Scan(&last); err != nil {
		return 0, err
	}
	if last.Valid {
		t, err := s.nightTally(ctx, tx, last.Int64)
		if err != nil {
			return 0, err
		}
		var matches int
		if err := tx.QueryRowContext(ctx, s.rebind("SELECT SUM(matches) FROM match_chunks WHERE night_id = ?"), last.Int64).Scan(&matches); err != nil {
			return 0, err
		}
		if matches > 0 && t.PlayMS > 0 {
			return chunkSizeFor(time.Duration(t.PlayMS/float64(matches)*float64(time.Millisecond)), workers), nil
		}
	}
	all, entrants, _, err := s.nightScheduleOf(ctx, tx, n, jobs, build)
	if err != nil {
		return 0, err
	}
	cctx, cancel := context.WithTimeout(ctx, calibrationTime)
	defer cancel()
	played, sum := 0, 0.0
	err = arena.Run(cctx, g, entrants, all[:min(len(all), calibrationJobs)], arena.Options{Workers: 1, Config: opt.GameConfig},
		func(r arena.Record) error {
			played++
			sum += r.DurationMS
			return nil
		})
	if err != nil && cctx.Err() == nil {
		return 0, fmt.Errorf("night %s: measuring the match time: %w", n.Label, err)
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if played == 0 {
		return minChunk, nil // a match takes longer than the calibration
	}
	return chunkSizeFor(time.Duration(sum/float64(played)*float64(time.Millisecond)), workers), nil
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

// activeVersions are the current versions of the entrants not removed,
// by id.
func (s *Store) activeVersions(ctx context.Context, q querier) ([]Version, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+prefixed("v.", versionCols)+` FROM versions v JOIN entrants e ON e.name = v.entrant
		WHERE e.removed_at IS NULL AND v.number = (SELECT MAX(w.number) FROM versions w WHERE w.entrant = v.entrant) ORDER BY v.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// prefixed puts p before every column of a comma-separated list.
func prefixed(p, cols string) string {
	out := ""
	for i, c := range splitComma(cols) {
		if i > 0 {
			out += ", "
		}
		out += p + c
	}
	return out
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			part := s[start:i]
			for len(part) > 0 && part[0] == ' ' {
				part = part[1:]
			}
			out = append(out, part)
			start = i + 1
		}
	}
	return out
}

// priorRatings returns each version's rating before the next period: its
// latest snapshot; for a version without one, the latest rating of an
// earlier version of its entrant with the deviation and volatility of a
// new player (the centre is kept, the certainty is not); else glicko's
// initial rating. own reports which versions have a snapshot of their own.
func (s *Store) priorRatings(ctx context.Context, q querier, vs []Version, glicko *rating.Glicko2) (map[int64]rating.Rating, map[int64]bool, error) {
	latest, err := s.latestRatings(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	all, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	prior := make(map[int64]rating.Rating, len(vs))
	own := make(map[int64]bool, len(vs))
	for _, v := range vs {
		if r, ok := latest[v.ID]; ok {
			prior[v.ID], own[v.ID] = r, true
			continue
		}
		prior[v.ID] = glicko.Initial
		best := 0
		for _, w := range all {
			if w.Entrant != v.Entrant || w.Number >= v.Number || w.Number <= best {
				continue
			}
			if r, ok := latest[w.ID]; ok {
				best = w.Number
				prior[v.ID] = rating.Rating{Rating: r.Rating, RD: glicko.Initial.RD, Volatility: glicko.Initial.Volatility}
			}
		}
	}
	return prior, own, nil
}

// latestRatings maps each rated version to its latest snapshot.
func (s *Store) latestRatings(ctx context.Context, q querier) (map[int64]rating.Rating, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.version_id, r.rating, r.rd, r.volatility FROM ratings r
		JOIN (SELECT version_id, MAX(night_id) AS night_id FROM ratings GROUP BY version_id) m
		ON m.version_id = r.version_id AND m.night_id = r.night_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]rating.Rating{}
	for rows.Next() {
		var id int64
		var r rating.Rating
		if err := rows.Scan(&id, &r.Rating, &r.RD, &r.Volatility); err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, rows.Err()
}

// plan plans the night's schedule again from its config (see planNight):
// the same config gives the same jobs.
func (n Night) plan() ([]plannedJob, error) {
	prior := make(map[int64]rating.Rating, len(n.Config.Prior))
	for k, r := range n.Config.Prior {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("night %s: config: prior of version %q: %w", n.Label, k, err)
		}
		prior[id] = r
	}
	isNew := map[int64]bool{}
	for _, id := range n.Config.New {
		isNew[id] = true
	}
	for _, id := range n.Config.Versions {
		if _, ok := prior[id]; !ok {
			return nil, fmt.Errorf("night %s: config: no prior rating of version %d", n.Label, id)
		}
	}
	return planNight(n.ID, n.Config.Versions, prior, isNew, n.Seed, n.Config.SeedsPerNight, n.Config.NewVersionFactor, n.Config.Regression), nil
}

// slot is a job of a night's schedule as its chunk records it: its
// players' version ids in seat order and, for a regression game, its test,
// pair and the new version's seat.
type slot struct {
	versions []int64
	test     int64
	pair     int
	newSeat  int
}

// schedule is a night's jobs as slots, by position, and the position of
// each job id.
type schedule struct {
	slots    []slot
	position map[string]int
}

// nightSchedule plans a night's jobs again, with its entrants (built by
// build, in version id order: the rated versions and the baselines of its
// regression tests) and its schedule of slots.
func (s *Store) nightSchedule(ctx context.Context, q querier, night Night, build Builder) ([]arena.Job, []arena.Entrant, schedule, error) {
	planned, err := night.plan()
	if err != nil {
		return nil, nil, schedule{}, err
	}
	return s.nightScheduleOf(ctx, q, night, planned, build)
}

// nightScheduleOf is nightSchedule of the planned jobs.
func (s *Store) nightScheduleOf(ctx context.Context, q querier, night Night, planned []plannedJob, build Builder) ([]arena.Job, []arena.Entrant, schedule, error) {
	versions, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, nil, schedule{}, err
	}
	ids := append([]int64(nil), night.Config.Versions...)
	for _, t := range night.Config.Regression {
		if !slices.Contains(ids, t.Baseline) {
			ids = append(ids, t.Baseline)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	index := make(map[int64]int, len(ids))
	entrants := make([]arena.Entrant, len(ids))
	for i, id := range ids {
		v, ok := versions[id]
		if !ok {
			return nil, nil, schedule{}, fmt.Errorf("night %s: version %d of its schedule is missing", night.Label, id)
		}
		e, err := build(v)
		if err != nil {
			return nil, nil, schedule{}, fmt.Errorf("entrant %s (version %d, %s): %w", v.Entrant, v.Number, v.Fingerprint, err)
		}
		e.Name = v.Label
		entrants[i] = e
		index[id] = i
	}
	jobs := make([]arena.Job, len(planned))
	sched := schedule{slots: make([]slot, len(planned)), position: make(map[string]int, len(planned))}
	seats := 0
	for _, p := range planned {
		seats += len(p.Versions)
	}
	backing := make([]int, seats) // one allocation for every job's seats
	for i, p := range planned {
		j := p.Job
		j.Seats, backing = backing[:len(p.Versions):len(p.Versions)], backing[len(p.Versions):]
		for k, id := range p.Versions {
			j.Seats[k] = index[id]
		}
		jobs[i] = j
		sl := slot{versions: p.Versions, test: p.Test, pair: p.Pair}
		if p.Test != 0 && len(p.Versions) == 2 && p.Versions[1] != p.Versions[0] {
			for _, t := range night.Config.Regression {
				if t.Test == p.Test && p.Versions[1] == t.Version {
					sl.newSeat = 1
				}
			}
		}
		sched.slots[i] = sl
		sched.position[j.ID] = i
		if len(sched.position) != i+1 {
			return nil, nil, schedule{}, fmt.Errorf("night %s: job %s is twice in its schedule", night.Label, j.ID)
		}
	}
	return jobs, entrants, sched, nil
}

// RatingRow is one version's rating after one night.
type RatingRow struct {
	Night      int64  `json:"night"`
	NightLabel string `json:"night_label"`
	Version    int64  `json:"version_id"`
	Label      string `json:"label"`
	rating.Rating
	// Games, Wins, Draws and Losses count the night's pairwise games.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Lo and Hi bound the rating's 95% interval (rating -/+ 1.96 RD).
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// closeNight rates the night's matches as one period inside tx, writes
// every rated version's snapshot and marks the night closed. A night
// closed meanwhile (by another process) is an error, so no night is ever
// rated twice.
func (s *Store) closeNight(ctx context.Context, tx *sql.Tx, info Info, night Night, note string) ([]RatingRow, error) {
	versions, err := s.allVersions(ctx, tx)
	if err != nil {
		return nil, err
	}
	outcomes, played, err := s.nightOutcomes(ctx, tx, night.ID, versions)
	if err != nil {
		return nil, err
	}
	glicko := night.Config.Glicko2
	if glicko.Tau == 0 {
		glicko = *rating.Default()
	}
	rated := map[int64]Version{}
	for _, id := range night.Config.Versions {
		rated[id] = versions[id]
	}
	for id := range played {
		rated[id] = versions[id]
	}
	list := make([]Version, 0, len(rated))
	for _, v := range rated {
		list = append(list, v)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	prior, _, err := s.priorRatings(ctx, tx, list, &glicko)
	if err != nil {
		return nil, err
	}
	start := make(map[string]rating.Rating, len(list))
	for _, v := range list {
		start[v.Label] = prior[v.ID]
	}
	after := glicko.RatePeriod(start, outcomes)
	tally := map[string]*rating.Tally{}
	for _, v := range list {
		tally[v.Label] = &rating.Tally{}
	}
	count := func(name string, score float64) {
		t := tally[name]
		switch {
		case score > 0.5:
			t.Wins++
		case score < 0.5:
			t.Losses++
		default:
			t.Draws++
		}
	}
	for _, o := range outcomes {
		if o.A == o.B {
			continue
		}
		count(o.A, o.Score)
		count(o.B, 1-o.Score)
	}
	out := make([]RatingRow, 0, len(list))
	for _, v := range list {
		r, ok := after[v.Label]
		if !ok {
			return nil, fmt.Errorf("night %s: no rating for %s", night.Label, v.Label)
		}
		t := tally[v.Label]
		row := RatingRow{Night: night.ID, NightLabel: night.Label, Version: v.ID, Label: v.Label, Rating: r,
			Games: t.Games(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, Lo: r.Rating - z95*r.RD, Hi: r.Rating + z95*r.RD}
		if math.IsNaN(r.Rating) || math.IsNaN(r.RD) {
			return nil, fmt.Errorf("night %s: the rating of %s is not a number", night.Label, v.Label)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO ratings (night_id, version_id, rating, rd, volatility, games, wins, draws, losses, lo, hi)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			night.ID, v.ID, r.Rating, r.RD, r.Volatility, row.Games, row.Wins, row.Draws, row.Losses, row.Lo, row.Hi); err != nil {
			return nil, fmt.Errorf("night %s: rating of %s: %w", night.Label, v.Label, err)
		}
		out = append(out, row)
	}
	res, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET closed_at = ?, note = ? WHERE id = ? AND closed_at IS NULL"), now(), note, night.ID)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, fmt.Errorf("night %s was closed by another run meanwhile (%v)", night.Label, err)
	}
	return out, nil
}
