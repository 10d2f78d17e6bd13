// RunNight: a night played, from its start (plan, chunk size) to its close.

package ladder

import (
	"context"
	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"
)

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
	// RacePairs is the most pairs each race of candidate versions counts
	// a night (see AddCandidates); 0 means DefaultRacePairs, -1 plays no
	// race tonight.
	RacePairs int
	// Schedule is ScheduleFixed ("" too) or ScheduleAdaptive, with
	// Adaptive's settings. A night continued later keeps its own.
	Schedule string
	Adaptive AdaptiveNight
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
	// Races are the races of candidates the night played, with their
	// state after it (when it was closed).
	Races []CandidateRace
	// Adaptive is how an adaptive night's rated matches ended.
	Adaptive *AdaptiveResult
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
	switch {
	case opt.RacePairs == 0:
		opt.RacePairs = DefaultRacePairs
	case opt.RacePairs < -1:
		return res, fmt.Errorf("race pairs per night %d: want -1 (none), 0 (default) or more", opt.RacePairs)
	case opt.RacePairs == -1:
		opt.RacePairs = 0
	}
	switch opt.Schedule {
	case "", ScheduleFixed:
		opt.Schedule = ""
	case ScheduleAdaptive:
	default:
		return res, fmt.Errorf("schedule %q: want %s or %s", opt.Schedule, ScheduleFixed, ScheduleAdaptive)
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
	index := make(map[int64]int, len(entrants))
	versions, err := s.allVersions(ctx, s.db)
	if err != nil {
		return res, err
	}
	for i, e := range entrants {
		for id, v := range versions {
			if v.Label == e.Name {
				index[id] = i
			}
		}
	}
	races, err := s.newRaceStager(ctx, s.db, night)
	if err != nil {
		return res, err
	}
	adaptive, err := newAdaptiveStager(night, versions)
	if err != nil {
		return res, err
	}
	var stagers []stager
	if len(races.races) > 0 {
		stagers = append(stagers, races)
	}
	if adaptive != nil {
		stagers = append(stagers, adaptive)
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
		if k < 0 || (k*size >= len(jobs) && len(stagers) == 0) {
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
	playCtx := ctx
	if night.Budget > 0 {
		var cancel context.CancelFunc
		playCtx, cancel = context.WithTimeout(ctx, max(remaining, 0))
		defer cancel()
	}
	replayDir := ""
	if opt.ReplayDir != "" {
		replayDir = opt.ReplayDir + "/" + night.Label
	}
	budgetCut := func() bool { return ctx.Err() == nil && playCtx.Err() != nil }
	if len(todo) > 0 {
		res.Played, err = s.play(playCtx, g, night, entrants, todo, sched, 0, replayDir, opt, budgetCut)
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
	if !res.BudgetSpent && len(stagers) > 0 {
		// The stages play without the progress bar of the planned part.
		sopt := opt
		sopt.Progress = nil
		budgetGone := func() bool { return night.Budget > 0 && (remaining <= 0 || playCtx.Err() != nil) }
		played, spent, err := s.playStages(ctx, playCtx, night, len(jobs), done, index, stagers, budgetGone,
			func(todo []arena.Job, sched schedule, base int) (int, error) {
				return s.play(playCtx, g, night, entrants, todo, sched, base, replayDir, sopt, budgetCut)
			})
		res.Played += played
		if err != nil {
			return res, err
		}
		res.BudgetSpent = spent
	}
	if adaptive != nil {
		res.Adaptive = adaptive.result()
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		note := ""
		if res.BudgetSpent {
			note = "budget spent"
		}
		if res.Adaptive != nil {
			note = strings.TrimPrefix(note+"; "+res.Adaptive.Describe(*night.Config.Adaptive), "; ")
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
		if res.Regression, err = s.closeRegression(ctx, tx, night); err != nil {
			return err
		}
		res.Races, err = s.closeRaces(ctx, tx, races)
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
	raceRuns, err := s.raceRuns(ctx, tx, active, opt.RacePairs)
	if err != nil {
		return Night{}, nil, err
	}
	n := Night{ID: id, Label: label, Kind: KindNight, StartedAt: now(), Seed: seed, Budget: opt.Budget,
		Config: NightConfig{SeedsPerNight: opt.SeedsPerNight, NewVersionFactor: opt.NewVersionFactor, Pairing: "uncertainty",
			Glicko2: *glicko, Versions: ids, Prior: priorByID, New: fresh, Regression: runs, Races: raceRuns},
		GameConfig: cfgID, CodeVersion: CodeVersion()}
	if opt.Schedule == ScheduleAdaptive {
		a := opt.Adaptive
		n.Config.Schedule, n.Config.Adaptive, n.Config.Pairing = ScheduleAdaptive, &a, "adaptive"
		versions, err := s.allVersions(ctx, tx)
		if err != nil {
			return Night{}, nil, err
		}
		if _, err := newAdaptiveStager(n, versions); err != nil {
			return Night{}, nil, err
		}
	}
	jobs, err := n.plan()
	if err != nil {
		return Night{}, nil, err
	}
	n.Planned = len(jobs)
	calibrate := jobs
	if len(calibrate) == 0 {
		// An adaptive night plans no rated match: its match time is
		// measured on one round of every pair.
		calibrate = planRated(n.ID, ids, prior, nil, seed, 1, 1)
	}
	if n.Config.ChunkSize, err = s.chunkSize(ctx, tx, n, calibrate, opt, g, build); err != nil {
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
