package evolver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"crucible/arena/rating"
	"crucible/strategies"
)

// The final stages, in order: the selection of the champion against the
// field on fresh seeds (selectChampion), the held-out comparison of the champion
// with the base (compare), the ranking of the champion among the reference
// strategies on other fresh seeds (Tournament of the champion and the
// field), and the finalists' head-to-head round robin (reported, not used
// to choose). With a budget, each stage is sized from the measured time a
// match takes so that the run ends within it: the ranking gives way first,
// then the head-to-head, then held-out seeds, then selection seeds.

// headToHeadSeeds caps the seeds of the finalists' round robin: it is
// reported, not used to choose.
const headToHeadSeeds = 8

// fullPlan is the plan the configuration asks for.
func (c *Config) fullPlan() FinalPlan {
	return FinalPlan{Select: c.TournamentSeeds, Holdout: c.Holdout, Rank: c.TournamentSeeds, HeadToHead: min(c.TournamentSeeds, headToHeadSeeds)}
}

// perSeed is the number of matches one player plays against a field of
// that many opponents on one seed in matches of seats: both seat orders
// of every pair, or every rotation of every group.
func perSeed(field, seats int) int {
	if seats > 2 {
		return (field + seats - 2) / (seats - 1) * seats
	}
	return 2 * field
}

// Matches is the most matches the plan plays with top finalists and a
// field of that many opponents, in matches of seats.
func (p FinalPlan) Matches(top, field, seats int) int {
	rank := (field + 1) * field * p.Rank
	if seats > 2 {
		rank = (field + seats) / seats * seats * p.Rank
	}
	return top*perSeed(field, seats)*p.Select + 2*perSeed(field, seats)*p.Holdout + rank + top*(top-1)*p.HeadToHead
}

// fit shrinks the plan until its matches at spm seconds each fit in
// avail: the ranking first, then the head-to-head, the held-out seeds
// (to 2, then none) and the selection seeds (to 1, then none: the
// champion is then not validated).
func (p FinalPlan) fit(avail time.Duration, spm float64, top, field, seats int) FinalPlan {
	fits := func(q FinalPlan) bool {
		return time.Duration(spm*float64(q.Matches(top, field, seats))*float64(time.Second)) <= avail
	}
	for !fits(p) {
		switch {
		case p.Rank > 0:
			p.Rank = max(0, p.Rank/2-1)
		case p.HeadToHead > 0:
			p.HeadToHead = 0
		case p.Holdout > 2:
			p.Holdout = max(2, p.Holdout/2)
		case p.Holdout > 0:
			p.Holdout = 0
		case p.Select > 1:
			p.Select = max(1, p.Select/2)
		case p.Select > 0:
			p.Select = 0
		default:
			return p
		}
	}
	return p
}

// finals runs the final stages of a run whose search left res.
type finals struct {
	cfg      *Config
	space    paramSpace
	ev       *arenaEvaluator // against the field: the pool and the base
	pool     []opponent
	rep      *Report
	deadline time.Time // zero without a budget
	spm      float64   // measured seconds per match
	// announced is the plan the run's warning stated: a later stage may
	// get fewer seeds than it, never more, so a stage announced with none
	// does not run.
	announced *FinalPlan
}

// stageCtx is ctx with the run's deadline, if any.
func (f *finals) stageCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if f.deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, f.deadline)
}

// progress returns a callback that reports the matches of stage.
func (f *finals) progress(stage string) func(done, total int) {
	if f.cfg.Progress == nil {
		return nil
	}
	return throttled(f.cfg.Progress, stage)
}

// replan sizes the stages left from the time left (the stages done are
// 0 in p, the others as the configuration asks).
func (f *finals) replan(p FinalPlan) FinalPlan {
	if f.deadline.IsZero() || f.spm <= 0 {
		return p
	}
	p = p.fit(time.Until(f.deadline), f.spm, len(f.rep.Ranked), len(f.ev.Pool), f.cfg.seats())
	if a := f.announced; a != nil {
		p.Holdout, p.Rank, p.HeadToHead = min(p.Holdout, a.Holdout), min(p.Rank, a.Rank), min(p.HeadToHead, a.HeadToHead)
	}
	return p
}

// measure updates the seconds per match from a stage's matches and time.
func (f *finals) measure(matches int, took time.Duration) {
	if matches >= 20 {
		f.spm = took.Seconds() / float64(matches)
	}
}

// run plays the final stages with the finalists (the hall's leader
// first).
func (f *finals) run(ctx context.Context, finalists []strategies.Variant) error {
	cfg, rep := f.cfg, f.rep
	seats := cfg.seats()
	plan := cfg.fullPlan()
	if !f.deadline.IsZero() && f.spm > 0 {
		plan = plan.fit(time.Until(f.deadline), f.spm, len(finalists), len(f.ev.Pool), seats)
	}
	if plan != cfg.fullPlan() {
		f.announced = &plan
		emit(cfg.Progress, Warning{Message: fmt.Sprintf("the budget leaves time for %d selection, %d held-out, %d ranking and %d head-to-head seeds (asked: %d, %d, %d, %d)",
			plan.Select, plan.Holdout, plan.Rank, plan.HeadToHead, cfg.TournamentSeeds, cfg.Holdout, cfg.TournamentSeeds, min(cfg.TournamentSeeds, headToHeadSeeds))})
	}

	// 1. The champion: the finalist strongest against the field.
	byID := map[string]strategies.Variant{}
	for _, v := range finalists {
		byID[v.ID] = v
	}
	var sel Selection
	err := errNoTime
	if plan.Select > 0 {
		emit(cfg.Progress, SelectionStarted{Finalists: len(finalists), Field: len(f.ev.Pool), Seeds: plan.Select})
		sctx, cancel := f.stageCtx(ctx)
		t0 := time.Now()
		choose := selectChampion
		if cfg.SelectRace {
			choose = raceChampion
		}
		sel, err = choose(sctx, f.ev, f.space, finalists, tournamentSeeds(cfg.Seed, plan.Select), f.progress("selection"))
		cancel()
		if err == nil {
			f.measure(sel.Matches, time.Since(t0))
		}
	}
	switch {
	case errors.Is(err, errNoTime) && ctx.Err() == nil:
		// No time for a single seed: the champion is the search's best
		// by its conservative estimate, not validated on fresh seeds.
		rep.Champion, rep.Ranked = finalists[0], finalists
		rep.ValidationNote = "the budget left no time for the selection: the champion is the search's hall-of-fame leader, not validated on fresh seeds"
		emit(cfg.Progress, Warning{Message: rep.ValidationNote})
		return writeFinal(cfg.files, cfg.Out, rep)
	case err != nil:
		return err
	}
	rep.Selection = &sel
	rep.Validated = true
	rep.FinalMatches += sel.Matches
	rep.Champion = byID[sel.Champion]
	rep.Ranked = nil
	for _, fs := range sel.Finalists {
		rep.Ranked = append(rep.Ranked, byID[fs.ID])
	}
	if err := writeFinal(cfg.files, cfg.Out, rep); err != nil {
		return err
	}
	emit(cfg.Progress, SelectionDone{Selection: sel, Champion: rep.Champion, ChampionPath: filepath.Join(cfg.Out, ChampionFile)})
	rep.Plan.Select = sel.SeedsPlayed

	// 2. The champion against the base on held-out seeds.
	plan = cfg.fullPlan()
	plan.Select = 0
	plan = f.replan(plan)
	if cfg.Holdout > 0 && plan.Holdout < 2 {
		emit(cfg.Progress, Warning{Message: "the budget leaves no time for the held-out comparison"})
	}
	if plan.Holdout >= 2 {
		emit(cfg.Progress, HoldoutStarted{Seeds: plan.Holdout})
		hctx, cancel := f.stageCtx(ctx)
		t0 := time.Now()
		c, err := compare(hctx, f.ev, rep.Champion, rep.Base, holdoutSeeds(cfg.Seed, plan.Holdout), f.progress("held-out"))
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			// Slower matches than the plan assumed: the budget ended the
			// stage before two seeds were done (compare keeps what it has
			// from two on). The champion stands, not compared.
			emit(cfg.Progress, Warning{Message: "the budget stopped the held-out comparison before two seeds were done: the champion is not compared with the base on held-out seeds"})
		case err != nil:
			return fmt.Errorf("held-out comparison: %w", err)
		default:
			f.measure(c.Matches, time.Since(t0))
			rep.FinalMatches += c.Matches
			rep.Holdout = &c
			rep.Plan.Holdout = c.Seeds
			emit(cfg.Progress, HoldoutDone{Comparison: c})
		}
	}

	// 3. The champion's rank among the reference strategies, in the
	// run's seats.
	plan = cfg.fullPlan()
	plan.Select, plan.Holdout = 0, 0
	plan = f.replan(plan)
	if plan.Rank > 0 {
		emit(cfg.Progress, TournamentStarted{Finalists: 1, Reference: len(f.ev.Pool), Seeds: plan.Rank, Seats: seats})
		tctx, cancel := f.stageCtx(ctx)
		t0 := time.Now()
		seeds := rankSeeds(cfg.Seed, plan.Rank)
		sum, played, err := tournament(tctx, cfg.Game, cfg.GameConfig, cfg.Registry, []strategies.Variant{rep.Champion}, f.ev.Pool, seeds, seats, cfg.Workers, &rating.RankOptions{}, f.progress("ranking"))
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			emit(cfg.Progress, Warning{Message: "the budget stopped the ranking among the reference strategies before its end: the champion is not ranked"})
		case err != nil:
			return fmt.Errorf("ranking: %w", err)
		default:
			f.measure(played, time.Since(t0))
			rep.FinalMatches += played
			rep.Leaderboard = sum
			rep.Plan.Rank = len(seeds)
			rep.RankSeats = seats
			bestRef := 0
			for _, st := range sum.Standings {
				if st.Name == rep.Champion.Label() {
					rep.ChampionRank = st.Rank
				} else if bestRef == 0 {
					bestRef = st.Rank
				}
			}
			rep.AboveReference = rep.ChampionRank > 0 && rep.ChampionRank < bestRef
			if err := writeFinal(cfg.files, cfg.Out, rep); err != nil {
				return err
			}
			emit(cfg.Progress, TournamentDone{Report: rep, ChampionPath: filepath.Join(cfg.Out, ChampionFile)})
		}
	} else {
		emit(cfg.Progress, Warning{Message: "the budget leaves no time to rank the champion among the reference strategies"})
	}

	// 4. The finalists' head-to-head: reported, not used to choose (in
	// pairs: the finalists are too few to fill the run's groups).
	plan = cfg.fullPlan()
	plan.Select, plan.Holdout, plan.Rank = 0, 0, 0
	plan = f.replan(plan)
	if len(finalists) > 1 && plan.HeadToHead > 0 {
		hctx, cancel := f.stageCtx(ctx)
		sum, played, err := tournament(hctx, cfg.Game, cfg.GameConfig, cfg.Registry, rep.Ranked, nil, tournamentSeeds(cfg.Seed, plan.HeadToHead), 2, cfg.Workers, nil, f.progress("head-to-head"))
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			emit(cfg.Progress, Warning{Message: "the budget stopped the finalists' head-to-head before its end"})
		case err != nil:
			return fmt.Errorf("head-to-head: %w", err)
		default:
			rep.FinalMatches += played
			rep.HeadToHead = &sum
			rep.Plan.HeadToHead = plan.HeadToHead
			emit(cfg.Progress, HeadToHeadDone{Summary: sum})
		}
	}
	return nil
}

// fieldOf is the pool plus the base at its defaults, unless the pool names
// it already.
func fieldOf(pool []opponent, base strategies.Strategy) []opponent {
	for _, o := range pool {
		if o.Name == base.Name && o.VariantID == "" {
			return pool
		}
	}
	return append(append([]opponent(nil), pool...), opponent{Name: base.Name, Strategy: base, Genome: base.Schema.Defaults()})
}
