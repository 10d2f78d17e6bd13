package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"crucible/strategies"
)

// Evolve runs the search and the final stages (the selection of the
// champion, the held-out comparison when asked, the ranking among the
// reference strategies and the finalists' head-to-head, see finals.go),
// writing everything to the run directory and reporting its progress to
// cfg.Progress. Configuration errors are FieldErrors.
func Evolve(ctx context.Context, cfg Config) (*Report, error) {
	started := time.Now()
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	spec, _ := LookupAlgorithm(cfg.Algorithm)
	opt, _ := spec.options(cfg.Options)
	base, _ := cfg.Registry.Lookup(cfg.Game.Name(), cfg.Base)
	pool, err := referencePool(cfg.Registry, cfg.Game.Name(), cfg.Pool)
	if err != nil {
		return nil, &FieldError{Field: "Pool", Err: err}
	}
	if err := checkSeatsPool(cfg.Seats, len(pool)); err != nil {
		return nil, err
	}
	has, err := checkOut(cfg.Out, cfg.Resume)
	if err != nil {
		return nil, err
	}
	space := paramSpace{Base: base}
	run := setup{space: space, population: cfg.Population, seed: cfg.Seed, dir: cfg.Out, behaviour: cfg.Behaviour,
		opponents: pool, gameConfig: cfg.GameConfigJSON, title: cfg.GameTitle, rules: cfg.GameRules, progress: cfg.Progress}
	var prior time.Duration
	var old Meta
	if has {
		if old, _, err = ReadMeta(cfg.Out); err != nil {
			return nil, err
		}
		prior = old.Elapsed
	}
	meta := cfg.meta(pool, opt.resolved(run), prior)
	if has {
		if err := sameRun(old, meta); err != nil {
			return nil, fmt.Errorf("cannot resume the run in %s: %w", cfg.Out, err)
		}
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	if cfg.Resume {
		if err := removeFinal(cfg.Out); err != nil {
			return nil, err
		}
	}
	metaJSON, _ := json.Marshal(meta)
	algo, err := opt.build(run)
	if err != nil {
		return nil, err
	}
	defer algo.Close()
	ev := &arenaEvaluator{Game: cfg.Game, Config: cfg.GameConfig, Base: base, Pool: pool, Workers: cfg.Workers, Seats: cfg.Seats, Play: cfg.Play,
		Probe: newProbeFingerprinter(cfg.Game, cfg.GameConfig, base, pool, cfg.Workers)}
	field := fieldOf(pool, base)
	full := cfg.fullPlan().Matches(cfg.Top, len(field), cfg.seats())
	s := &search{
		Space: space, Algorithm: algo, Evaluator: ev, Seed: cfg.Seed, Seeds: cfg.Seeds,
		Generations: cfg.Generations, Budget: cfg.Budget, Hall: cfg.Hall, HallOpponents: cfg.HallOpponents,
		Dir: cfg.Out, Resume: has, Meta: metaJSON, Progress: cfg.Progress, files: cfg.files,
		// Matches played elsewhere (a work queue's workers) go at a rate
		// the probes here do not measure.
		Estimate: cfg.Play == nil,
		Reserve: func(spm float64) time.Duration {
			return time.Duration(1.25*spm*float64(full)*float64(time.Second)) + time.Second
		},
		Started: func(done int, elapsed time.Duration) {
			emit(cfg.Progress, RunStarted{Meta: meta, Resumed: has, Done: done, Elapsed: elapsed, Budget: cfg.Budget})
		},
	}
	res, err := s.Run(ctx)
	if err != nil {
		return nil, err
	}
	if ev.Failures > 0 {
		emit(cfg.Progress, Warning{Message: fmt.Sprintf("%d matches failed during the search and counted as losses for the candidate", ev.Failures)})
	}

	rep := &Report{Dir: cfg.Out, Meta: meta, Generations: res.Generations, Matches: res.Matches, Cache: res.Cache,
		ElapsedS: res.Elapsed.Seconds(), Stopped: res.Stopped, Base: strategies.NewVariant(base, base.Schema.Defaults())}
	rep.Base.Note = "the base strategy at its defaults"
	finalists := finalistsOf(res, rep, space, cfg.Top)
	switch {
	case len(finalists) == 0 && res.Cut && res.Generations == 0:
		// The budget cut the first generation: the best the run has is
		// the base itself.
		rep.Champion = rep.Base
		rep.ValidationNote = "the budget ended the search in its first generation, before any variant was measured: the champion is the base at its defaults"
		emit(cfg.Progress, Warning{Message: rep.ValidationNote})
		if err := writeFinal(cfg.files, cfg.Out, rep); err != nil {
			return nil, err
		}
	case len(finalists) == 0:
		return nil, fmt.Errorf("the search found no variant different from the base's defaults (%d generations)", res.Generations)
	default:
		fev := *ev
		fev.Pool = field
		f := &finals{cfg: &cfg, space: space, ev: &fev, pool: pool, rep: rep, spm: res.SecondsPerMatch}
		if cfg.Budget > 0 {
			f.deadline = started.Add(cfg.Budget)
		}
		if err := f.run(ctx, finalists); err != nil {
			return nil, err
		}
		if fev.Failures > 0 {
			emit(cfg.Progress, Warning{Message: fmt.Sprintf("%d matches failed during the final stages and counted as losses", fev.Failures)})
		}
	}
	rep.ElapsedTotalS = time.Since(started).Seconds()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", ReportFile, err)
	}
	if err := cfg.files.atomic(filepath.Join(cfg.Out, ReportFile), append(data, '\n')); err != nil {
		return nil, err
	}
	return rep, nil
}

// finalistsOf returns the finalists of a search: the best of the hall and
// the latest champions, at most top, one per behaviour, none behaving as
// the base.
func finalistsOf(res *searchResult, rep *Report, space paramSpace, top int) []strategies.Variant {
	var finalists []strategies.Variant
	seen := map[string]bool{rep.Base.ID: true}
	if res.Base.Fingerprint != "" {
		seen[res.Base.Fingerprint] = true
	}
	add := func(e entry, why string) {
		key := e.Fingerprint
		if key == "" {
			key = e.ID
		}
		if seen[e.ID] || seen[key] || len(finalists) >= top {
			return
		}
		seen[e.ID], seen[key] = true, true
		v := space.Variant(e.X, e.Parents...)
		v.Fingerprint = e.Fingerprint
		v.Note = fmt.Sprintf("evolved by %s from %s (seed %d): %s; search fitness %.3f, score rate %.3f over %.0f games", rep.Meta.Algorithm, rep.Meta.Base, rep.Meta.Seed, why, e.Fitness, e.Mean(), e.Games)
		finalists = append(finalists, v)
	}
	for _, e := range res.Hall {
		add(e, "hall of fame")
	}
	for i := len(res.Champions) - 1; i >= 0; i-- {
		add(res.Champions[i], "generation champion")
	}
	return finalists
}
