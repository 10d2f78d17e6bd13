package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/evolver"
	"crucible/strategies"
)

// botPlanHelp is the evolve command's paragraph on how a budgeted run of
// an outside bot is sized.
const botPlanHelp = `With --budget, a run of an outside bot is sized to the budget by the bot's own
speed: before the search, it plays 2 × --workers calibration matches (the bot
at its values against the first pool strategy, process start included) and,
from the seconds t a match takes on one worker, counts the matches M the
budget holds (budget × workers / t). Of M, about 55% go to the search, planned
for 8 generations, 10% to the selection and 15% to the held-out comparison
(its matches are the bot against itself, so count twice). Every flag left out
is then set from that plan: --population 4 (spsa, cmaes: the smallest), --hall
2, --hall-opponents 0 (no champion process among the opponents), --pool (the
game's strategies, cut to an evenly spread few when they do not fit), --seeds
(up to 8), --top 2, --tournament-seeds (up to 16), --holdout (up to 64) and,
for spsa, --spsa-r-end (0.8 divided by the paired games an iteration plays,
so that θ moves as far per iteration as with more games at fishtest's rate).
The plan is printed; flags given are kept as they are. A built-in strategy's
run, or one with --generations and no --budget, is not planned.
`

// botPlan is the sizing of a budgeted run of an outside bot.
type botPlan struct {
	// perMatch is the seconds a calibration match took on one worker.
	perMatch float64
	// capacity is the matches the budget holds at that rate.
	capacity                       int
	population, hall, seeds, top   int
	tournamentSeeds, holdout, pool int
	// units is the seeds × pool strategies a generation holds.
	units int
}

// Shares of the budget's matches, and the generations the search is
// planned for.
const (
	planSearchShare, planSelectShare, planHoldoutShare = 0.55, 0.10, 0.15
	planGenerations                                    = 8
	// planPairedGames is SPSA's r_end times the paired games of an
	// iteration that the plan keeps: the rate that moved the one-parameter
	// test bot (examples/acb-share) from 0.95 to its best in 8 generations
	// of 16 paired games at r_end 0.05.
	planPairedGames = 0.8
)

// newBotPlan sizes a run for an algorithm, a pool of poolSize strategies at
// most, with the population and seeds given (0: the plan's).
func newBotPlan(perMatch float64, budget time.Duration, workers int, algo string, population, seeds, poolSize int) botPlan {
	p := botPlan{perMatch: perMatch, capacity: int(budget.Seconds() * float64(workers) / math.Max(perMatch, 1e-6))}
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
	// on seeds × pool × 2 seat orders.
	points := float64(p.population + 1 + p.hall)
	units := max(1, int(m*planSearchShare/planGenerations/(2*points)))
	p.units = units
	p.seeds = seeds
	if seeds == 0 {
		p.pool = min(poolSize, max(1, units/4))
		p.seeds = min(8, max(1, units/p.pool))
	} else {
		p.pool = min(poolSize, max(1, units/seeds))
	}
	p.top = 2
	p.tournamentSeeds = min(16, max(1, int(m*planSelectShare/float64(2*p.top*(p.pool+1)))))
	p.holdout = min(64, max(2, int(m*planHoldoutShare/4)))
	return p
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

// calibrateBot plays 2 × workers matches of the bot's strategy at its
// values against opponent (the lab's configuration cfg) and returns the
// seconds a match took on one worker.
func calibrateBot(ctx context.Context, g engine.Game, cfg any, bot, opponent strategies.Strategy, workers int) (float64, error) {
	es := []arena.Entrant{
		arena.StrategyEntrant(bot, bot.Name, "", bot.Schema.Defaults()),
		arena.StrategyEntrant(opponent, opponent.Name, "", opponent.Schema.Defaults()),
	}
	jobs := arena.Gauntlet([]int{0}, []int{1}, arena.Seeds(0xca11b, workers))
	t0 := time.Now()
	err := arena.Run(ctx, g, es, jobs, arena.Options{Workers: workers, Config: cfg}, func(r arena.Record) error {
		if r.Error != "" {
			return fmt.Errorf("calibration match %s: %s", r.Job, r.Error)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("the bot's calibration matches: %w", err)
	}
	return time.Since(t0).Seconds() * float64(workers) / float64(len(jobs)), nil
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
	opp, err := cfg.Registry.Lookup(f.game, pool[0])
	if err != nil {
		return fmt.Errorf("--pool: %w", err)
	}
	perMatch, err := calibrateBot(ctx, cfg.Game, cfg.GameConfig, bot, opp, f.workers)
	if err != nil {
		return err
	}
	given := func(flag string, v int) int {
		if changed(flag) {
			return v
		}
		return 0
	}
	p := newBotPlan(perMatch, f.budget, f.workers, f.algo, given("population", f.population), given("seeds", f.seeds), len(pool))
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
	if changed("pool") {
		p.pool = len(cfg.Pool)
		if !changed("seeds") {
			cfg.Seeds = min(8, max(1, p.units/p.pool))
		}
	} else {
		cfg.Pool = evenly(pool, p.pool)
	}
	note := ""
	if o, ok := cfg.Options.(*evolver.SPSAOptions); ok && f.algo == "spsa" && !changed("spsa-r-end") {
		c := *o
		c.REnd = planPairedGames / float64(2*cfg.Seeds*len(cfg.Pool))
		cfg.Options = &c
		note = fmt.Sprintf(", spsa-r-end %.3g", c.REnd)
	}
	printf("plan for %s: a match takes %.2fs on one worker (%d calibration matches), so the budget holds about %d matches: population %d, hall %d, hall-opponents %d, pool %d (%s), seeds %d, top %d, tournament-seeds %d, holdout %d%s (flags given are kept)\n",
		f.budget, perMatch, 2*f.workers, p.capacity, cfg.Population, cfg.Hall, max(cfg.HallOpponents, 0), len(cfg.Pool), joinShort(cfg.Pool), cfg.Seeds, cfg.Top, cfg.TournamentSeeds, cfg.Holdout, note)
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
