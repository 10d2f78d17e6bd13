package main

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/evolver"
	"crucible/strategies"
)

// botPlanHelp is the evolve command's paragraph on how a budgeted run of
// an outside bot is sized.
const botPlanHelp = `With --budget, a run of an outside bot is sized to the budget by the bot's own
speed: before the search, it plays calibration matches (the bot at its values
against up to 4 × --workers pool strategies spread over the pool, each on a
seed in both seat orders, process start included) and, from the seconds t a
match takes on one worker, counts
the matches M the budget holds (budget × workers / t). About half of M goes to
the search, planned for 8 generations (each new genome's probe matches
included), 15% to the selection and ranking and 15% to the held-out
comparison (counted as the final stages count them, with their 25% margin).
Every flag left out is then set from that plan: --population 4 (spsa, cmaes;
8 for the others), --hall 2, --hall-opponents 0 (no champion process among the
opponents), --pool (when the game's strategies do not fit: the calibration
opponents the bot came closest to even against first, then the others spread
over the list), --seeds (up to 8), --top 2, --tournament-seeds (up to 16),
--holdout (up to 64) and, for spsa, --spsa-r-end (0.8 divided by the paired
games of an iteration, so that θ moves per iteration about as far as the
one-parameter example examples/acb-share needs at 16 paired games and 0.05).
The plan is printed; flags given are kept as they are. A built-in strategy's
run, or one with --generations and no --budget, is not planned.
`

// botPlan is the sizing of a budgeted run of an outside bot.
type botPlan struct {
	// capacity is the matches the budget holds at the calibration's rate.
	capacity                       int
	population, hall, seeds, top   int
	tournamentSeeds, holdout, pool int
	// units is the seeds × pool strategies a generation holds.
	units int
}

// Shares of the budget's matches, and the generations the search is
// planned for.
const (
	planSearchShare, planSelectShare, planHoldoutShare = 0.5, 0.15, 0.15
	planGenerations                                    = 8
	// planProbes is the probe matches of a new genome the plan counts
	// (its fingerprint: the base and two pool opponents on two seeds).
	planProbes = 4
	// planFinalMargin is the margin the evolver keeps on the final
	// stages' estimate (evolver.Evolve's Reserve).
	planFinalMargin = 1.25
	// planPairedGames is SPSA's r_end times the paired games of an
	// iteration that the plan keeps: the rate that tunes the one-parameter
	// examples/acb-share (16 paired games at r_end 0.05).
	planPairedGames = 0.8
	// calibrationOpponents is the pool strategies calibrated per worker,
	// each in two matches.
	calibrationOpponents = 4
)

// newBotPlan sizes a run for an algorithm, a pool of poolSize strategies at
// most, with the population and seeds given (0: the plan's).
func newBotPlan(perMatch float64, budget time.Duration, workers int, algo string, population, seeds, poolSize int) botPlan {
	p := botPlan{capacity: int(budget.Seconds() * float64(workers) / math.Max(perMatch, 1e-6))}
	m := float64(p.capacity)
	p.population = population
	if p.population == 0 {
		p.population = 4
		if algo == "ga" || algo == "map-elites" || algo == "llm" {
			p.population = 8
		}
	}
	p.hall = 2
	// A generation plays its points (the population, SPSA's θ, the hall)
	// on seeds × pool × 2 seat orders, after the new ones' probes.
	points := float64(p.population + 1 + p.hall)
	perGen := m*planSearchShare/planGenerations - float64(planProbes*(p.population+1))
	p.units = max(1, int(perGen/(2*points)))
	p.seeds = seeds
	if seeds == 0 {
		p.pool = min(poolSize, max(1, p.units/4))
		p.seeds = min(8, max(1, p.units/p.pool))
	} else {
		p.pool = min(poolSize, max(1, p.units/seeds))
	}
	p.top = 2
	p.fitFinals(m)
	return p
}

// fitFinals sets the tournament and held-out seeds so that the final
// stages take their shares of m matches, as evolver's final plan counts
// them (evolver.FinalPlan.Matches, the field being the pool and the base):
// a tournament seed is one selection seed, one ranking seed and one
// head-to-head seed.
func (p *botPlan) fitFinals(m float64) {
	field := p.pool + 1
	perSelect := float64(evolver.FinalPlan{Select: 1, Rank: 1, HeadToHead: 1}.Matches(p.top, field, 2))
	perHoldout := float64(evolver.FinalPlan{Holdout: 1}.Matches(p.top, field, 2))
	p.tournamentSeeds = min(16, max(1, int(m*planSelectShare/planFinalMargin/perSelect)))
	p.holdout = min(64, max(2, int(m*planHoldoutShare/planFinalMargin/perHoldout)))
}

// evenly returns n names of all, evenly spread over its order (all of them
// when n covers them).
func evenly(all []string, n int) []string {
	if n >= len(all) {
		return all
	}
	out := make([]string, n)
	for i := range out {
		out[i] = all[i*len(all)/n]
	}
	return out
}

// calibration is what the calibration matches measured: the seconds a
// match took on one worker, and the bot's score (win 1, draw 0.5) against
// each opponent.
type calibration struct {
	perMatch float64
	score    map[string]float64
}

// calibrateBot plays the bot's strategy at its values against each of
// opponents on a seed of its own in both seat orders (the lab's
// configuration cfg): matches end sooner against some opponents than
// against others, and the scores say which opponents are even for it.
func calibrateBot(ctx context.Context, g engine.Game, cfg any, bot strategies.Strategy, opponents []strategies.Strategy, workers int) (calibration, error) {
	es := []arena.Entrant{arena.StrategyEntrant(bot, bot.Name, "", bot.Schema.Defaults())}
	var jobs []arena.Job
	for i, o := range opponents {
		es = append(es, arena.StrategyEntrant(o, o.Name, "", o.Schema.Defaults()))
		seed := arena.Seeds(0xca11b, len(opponents))[i]
		for k, seats := range [][]int{{0, i + 1}, {i + 1, 0}} {
			jobs = append(jobs, arena.Job{ID: fmt.Sprintf("calibrate-%d-%d", i, k), Round: i, Seats: seats, Seed: seed})
		}
	}
	c := calibration{score: map[string]float64{}}
	games := map[string]float64{}
	t0 := time.Now()
	err := arena.Run(ctx, g, es, jobs, arena.Options{Workers: workers, Config: cfg}, func(r arena.Record) error {
		if r.Error != "" {
			return fmt.Errorf("calibration match %s: %s", r.Job, r.Error)
		}
		me := 0
		if r.Players[1].Name == bot.Name {
			me = 1
		}
		opp := r.Players[1-me].Name
		games[opp]++
		switch {
		case r.Ranks[me] < r.Ranks[1-me]:
			c.score[opp]++
		case r.Ranks[me] == r.Ranks[1-me]:
			c.score[opp] += 0.5
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("the bot's calibration matches: %w", err)
	}
	for name, n := range games {
		c.score[name] /= n
	}
	c.perMatch = time.Since(t0).Seconds() * float64(workers) / float64(len(jobs))
	return c, nil
}

// choosePool returns n strategies of pool: the calibrated ones closest to
// an even score first (a pool the bot always loses to, or always beats,
// tells a tuner nothing), then the others spread over the pool.
func choosePool(pool []string, c calibration, n int) []string {
	if n >= len(pool) {
		return pool
	}
	var tried, rest []string
	for _, name := range pool {
		if _, ok := c.score[name]; ok {
			tried = append(tried, name)
		} else {
			rest = append(rest, name)
		}
	}
	sort.SliceStable(tried, func(i, j int) bool {
		return math.Abs(c.score[tried[i]]-0.5) < math.Abs(c.score[tried[j]]-0.5)
	})
	out := append(tried, evenly(rest, max(0, n-len(tried)))...)
	return out[:n]
}

// planBotRun sizes the budgeted run of an outside bot (see botPlanHelp):
// it fills the flags left out in f and the evolver's cfg and prints the
// plan. The pool is cfg.Pool, or every strategy of the game.
func planBotRun(ctx context.Context, f *evolveFlags, changed func(string) bool, cfg *evolver.Config, printf func(string, ...any)) error {
	pool := cfg.Pool
	if len(pool) == 0 {
		for _, s := range cfg.Registry.List(f.game) {
			if s.Name != cfg.Base {
				pool = append(pool, s.Name)
			}
		}
	}
	bot, err := cfg.Registry.Lookup(f.game, cfg.Base)
	if err != nil {
		return err
	}
	var opps []strategies.Strategy
	for _, name := range evenly(pool, calibrationOpponents*f.workers) {
		o, err := cfg.Registry.Lookup(f.game, name)
		if err != nil {
			return fmt.Errorf("--pool: %w", err)
		}
		opps = append(opps, o)
	}
	cal, err := calibrateBot(ctx, cfg.Game, cfg.GameConfig, bot, opps, f.workers)
	if err != nil {
		return err
	}
	given := func(flag string, v int) int {
		if changed(flag) {
			return v
		}
		return 0
	}
	p := newBotPlan(cal.perMatch, f.budget, f.workers, f.algo, given("population", f.population), given("seeds", f.seeds), len(pool))
	if changed("pool") {
		p.pool = len(cfg.Pool)
		if !changed("seeds") {
			p.seeds = min(8, max(1, p.units/p.pool))
		}
		p.fitFinals(float64(p.capacity))
	} else {
		cfg.Pool = choosePool(pool, cal, p.pool)
	}
	set := func(flag string, dst *int, v int) {
		if !changed(flag) {
			*dst = v
		}
	}
	set("population", &cfg.Population, p.population)
	set("hall", &cfg.Hall, p.hall)
	if !changed("hall-opponents") {
		cfg.HallOpponents = -1
	}
	set("seeds", &cfg.Seeds, p.seeds)
	set("top", &cfg.Top, p.top)
	set("tournament-seeds", &cfg.TournamentSeeds, p.tournamentSeeds)
	set("holdout", &cfg.Holdout, p.holdout)
	note := ""
	if o, ok := cfg.Options.(*evolver.SPSAOptions); ok && f.algo == "spsa" && !changed("spsa-r-end") {
		c := *o
		c.REnd = planPairedGames / float64(2*cfg.Seeds*len(cfg.Pool))
		cfg.Options = &c
		note = fmt.Sprintf(", spsa-r-end %.3g", c.REnd)
	}
	printf("plan for %s: a match takes %.2fs on one worker (%d calibration matches), so the budget holds about %d matches: population %d, hall %d, hall-opponents %d, pool %d (%s), seeds %d, top %d, tournament-seeds %d, holdout %d%s (flags given are kept)\n",
		f.budget, cal.perMatch, 2*len(opps), p.capacity, cfg.Population, cfg.Hall, max(cfg.HallOpponents, 0), len(cfg.Pool), joinShort(cfg.Pool), cfg.Seeds, cfg.Top, cfg.TournamentSeeds, cfg.Holdout, note)
	return nil
}

// joinShort joins names with commas, the first few only.
func joinShort(names []string) string {
	const most = 6
	if len(names) <= most {
		return fmt.Sprint(names)
	}
	return fmt.Sprintf("%v and %d more", names[:most], len(names)-most)
}
