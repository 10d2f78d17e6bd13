package evolver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"crucible/strategies"
)

// The final stages, in order: the selection of the champion against the
// field on fresh seeds (Select), the held-out comparison of the champion
// with the base (Compare), the ranking of the champion among the reference
// strategies on other fresh seeds (Tournament of the champion and the
// field), and the finalists' head-to-head round robin (reported, not used
// to choose). With a budget, each stage is sized from the measured time a
// match takes so that the run ends within it: the ranking gives way first,
// then the head-to-head, then held-out seeds, then selection seeds.

// FinalPlan is how many seeds each final stage plays.
type FinalPlan struct {
	Select     int `json:"select"`
	Holdout    int `json:"holdout"`
	Rank       int `json:"rank"`
	HeadToHead int `json:"head_to_head"`
}

// headToHeadSeeds caps the seeds of the finalists' round robin: it is
// reported, not used to choose.
const headToHeadSeeds = 8

// fullPlan is the plan the configuration asks for.
func (c *Config) fullPlan() FinalPlan {
	return FinalPlan{Select: c.TournamentSeeds, Holdout: c.Holdout, Rank: c.TournamentSeeds, HeadToHead: min(c.TournamentSeeds, headToHeadSeeds)}
}

// matches is the most matches the plan plays with top finalists and a
// field of that many opponents.
func (p FinalPlan) matches(top, field int) int {
	return top*field*2*p.Select + 2*field*2*p.Holdout + (field+1)*field*p.Rank + top*(top-1)*p.HeadToHead
}

// fit shrinks the plan until its matches at spm seconds each fit in
// avail: the ranking first, then the head-to-head, the held-out seeds
// (to 2, then none) and the selection seeds (to 1).
func (p FinalPlan) fit(avail time.Duration, spm float64, top, field int) FinalPlan {
	fits := func(q FinalPlan) bool {
		return time.Duration(spm*float64(q.matches(top, field))*float64(time.Second)) <= avail
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
		default:
			return p
		}
	}
	return p
}

// finals runs the final stages of a run whose search left res.
type finals struct {
	cfg      *Config
	space    Space
	ev       *ArenaEvaluator // against the field: the pool and the base
	pool     []Opponent
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
	p = p.fit(time.Until(f.deadline), f.spm, len(f.rep.Selection.Finalists), len(f.ev.Pool))
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

// run plays the final stages with the finalists.
func (f *finals) run(ctx context.Context, finalists []strategies.Variant) error {
	cfg, rep := f.cfg, f.rep
	plan := cfg.fullPlan()
	if !f.deadline.IsZero() && f.spm > 0 {
		plan = plan.fit(time.Until(f.deadline), f.spm, len(finalists), len(f.ev.Pool))
	}
	if plan != cfg.fullPlan() {
		f.announced = &plan
		emit(cfg.Progress, Warning{Message: fmt.Sprintf("the budget leaves time for %d selection, %d held-out, %d ranking and %d head-to-head seeds (asked: %d, %d, %d, %d)",
			plan.Select, plan.Holdout, plan.Rank, plan.HeadToHead, cfg.TournamentSeeds, cfg.Holdout, cfg.TournamentSeeds, min(cfg.TournamentSeeds, headToHeadSeeds))})
	}

	// 1. The champion: the finalist strongest against the field.
	emit(cfg.Progress, SelectionStarted{Finalists: len(finalists), Field: len(f.ev.Pool), Seeds: plan.Select})
	sctx, cancel := f.stageCtx(ctx)
	t0 := time.Now()
	sel, err := Select(sctx, f.ev, f.space, finalists, TournamentSeeds(cfg.Seed, plan.Select), f.progress("selection"))
	cancel()
	if err != nil {
		return fmt.Errorf("selection: %w", err)
	}
	f.measure(sel.Matches, time.Since(t0))
	rep.Selection = &sel
	rep.FinalMatches += sel.Matches
	byID := map[string]strategies.Variant{}
	for _, v := range finalists {
		byID[v.ID] = v
	}
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
		c, err := Compare(hctx, f.ev, rep.Champion, rep.Base, HoldoutSeeds(cfg.Seed, plan.Holdout), f.progress("held-out"))
		cancel()
		if err != nil {
			return fmt.Errorf("held-out comparison: %w", err)
		}
		f.measure(c.Matches, time.Since(t0))
		rep.FinalMatches += c.Matches
		rep.Holdout = &c
		rep.Plan.Holdout = c.Seeds
		emit(cfg.Progress, HoldoutDone{Comparison: c})
	}

	// 3. The champion's rank among the reference strategies.
	plan = cfg.fullPlan()
	plan.Select, plan.Holdout = 0, 0
	plan = f.replan(plan)
	if plan.Rank > 0 {
		emit(cfg.Progress, TournamentStarted{Finalists: 1, Reference: len(f.ev.Pool), Seeds: plan.Rank})
		tctx, cancel := f.stageCtx(ctx)
		t0 := time.Now()
		seeds := RankSeeds(cfg.Seed, plan.Rank)
		sum, err := Tournament(tctx, cfg.Game, cfg.GameConfig, cfg.Registry, []strategies.Variant{rep.Champion}, f.ev.Pool, seeds, cfg.Workers, f.progress("ranking"))
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			emit(cfg.Progress, Warning{Message: "the budget stopped the ranking among the reference strategies before its end: the champion is not ranked"})
		case err != nil:
			return fmt.Errorf("ranking: %w", err)
		default:
			n := len(f.ev.Pool) + 1
			f.measure(n*(n-1)*len(seeds), time.Since(t0))
			rep.FinalMatches += n * (n - 1) * len(seeds)
			rep.Leaderboard = sum
			rep.Plan.Rank = len(seeds)
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

	// 4. The finalists' head-to-head: reported, not used to choose.
	plan = cfg.fullPlan()
	plan.Select, plan.Holdout, plan.Rank = 0, 0, 0
	plan = f.replan(plan)
	if len(finalists) > 1 && plan.HeadToHead > 0 {
		hctx, cancel := f.stageCtx(ctx)
		sum, err := Tournament(hctx, cfg.Game, cfg.GameConfig, cfg.Registry, rep.Ranked, nil, TournamentSeeds(cfg.Seed, plan.HeadToHead), cfg.Workers, f.progress("head-to-head"))
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			emit(cfg.Progress, Warning{Message: "the budget stopped the finalists' head-to-head before its end"})
		case err != nil:
			return fmt.Errorf("head-to-head: %w", err)
		default:
			n := len(rep.Ranked)
			rep.FinalMatches += n * (n - 1) * plan.HeadToHead
			rep.HeadToHead = &sum
			rep.Plan.HeadToHead = plan.HeadToHead
			emit(cfg.Progress, HeadToHeadDone{Summary: sum})
		}
	}
	return nil
}

// fieldOf is the pool plus the base at its defaults, unless the pool names
// it already.
func fieldOf(pool []Opponent, base strategies.Strategy) []Opponent {
	for _, o := range pool {
		if o.Name == base.Name && o.VariantID == "" {
			return pool
		}
	}
	return append(append([]Opponent(nil), pool...), Opponent{Name: base.Name, Strategy: base, Genome: base.Schema.Defaults()})
}
