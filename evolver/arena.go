package evolver

import (
	"context"

	"crucible/arena"
	"crucible/engine"
	"crucible/evolver/behave"
	"crucible/strategies"
)

// arenaEvaluator measures candidates by playing them through the arena,
// all matches of the generation in parallel on Workers cores, against the
// opponents: the reference pool and the batch's earlier champions.
//
// With two seats (Seats 0 or 2) every candidate meets every opponent on
// every seed of the batch in both seat orders; a candidate scores 1 for a
// win, 0.5 for a draw and 0 for a loss in each match. With more seats the
// candidates play free-for-all groups (see evaluateGroups) and each match
// is reduced to pairwise results against the other seats. A match that
// fails (a player's error or panic) counts as a loss for the candidate.
type arenaEvaluator struct {
	// Game is the game's rules.
	Game engine.Game
	// Config is the game configuration (nil for the game's defaults).
	Config any
	// Base is the strategy the candidates are variants of.
	Base strategies.Strategy
	// Pool is the reference opponents.
	Pool []opponent
	// Seats is the number of seats of a match (0 or 2: seat-swapped pairs).
	Seats int
	// Workers is the number of matches played at once (0: every core).
	Workers int
	// Failures counts failed matches over all batches.
	Failures int
	// Play plays the matches (nil: arena.Run, in this process); a work
	// queue's runner plays them on other machines (crucible evolve --db).
	Play MatchRunner
	// Probe, when set, gives the candidates' behaviour fingerprints.
	Probe *probeFingerprinter

	// behaviour, with log, measures the candidates' behaviour
	// descriptors in every batch; log holds the latest batch's counts.
	behaviour *behave.Behaviour
	log       *behaviourLog
}

var (
	_ progressEvaluator = (*arenaEvaluator)(nil)
	_ behaviourMeter    = (*arenaEvaluator)(nil)
	_ matchPlanner      = (*arenaEvaluator)(nil)
	_ fingerprinter     = (*arenaEvaluator)(nil)
)

// MeasureBehaviour measures b in every later batch, into log.
func (a *arenaEvaluator) MeasureBehaviour(b *behave.Behaviour, log *behaviourLog) {
	a.behaviour, a.log = b, log
}

// Fingerprint gives the genomes' fingerprints by the probe matches.
func (a *arenaEvaluator) Fingerprint(ctx context.Context, genomes []strategies.Genome) ([]string, error) {
	return a.Probe.Fingerprint(ctx, genomes)
}

// ProbeMatches is the number of probe matches of a fingerprint, 0
// without a probe.
func (a *arenaEvaluator) ProbeMatches() int {
	if a.Probe == nil {
		return 0
	}
	return a.Probe.ProbeMatches()
}

// PlannedMatches is the number of matches a batch plays: with two seats,
// every candidate against every opponent on every seed in both seat
// orders; with more, every group of a seed once per rotation of the
// seats.
func (a *arenaEvaluator) PlannedMatches(candidates, seeds, champions int) int {
	opponents := len(a.Pool) + champions
	if a.Seats > 2 {
		groups := (opponents + a.Seats - 2) / (a.Seats - 1)
		return candidates * seeds * groups * a.Seats
	}
	return candidates * seeds * opponents * 2
}

// evalSetup is what both ways of playing a batch share: the entrants (the
// candidates first, then the pool and the champions), the opponents'
// indices, and the candidates' behaviour counters (nil when not measured).
type evalSetup struct {
	entrants []arena.Entrant
	players  []int
	pool     []int
	counters []*behave.Counter
}

func (a *arenaEvaluator) setup(b matchBatch) evalSetup {
	var s evalSetup
	watch := a.behaviour != nil && a.log != nil
	for i, g := range b.Candidates {
		s.players = append(s.players, len(s.entrants))
		e := arena.StrategyEntrant(a.Base, a.Base.Name+"#"+b.IDs[i], b.IDs[i], g)
		if watch {
			c := &behave.Counter{}
			s.counters = append(s.counters, c)
			e = watchEntrant(e, a.behaviour, c)
		}
		s.entrants = append(s.entrants, e)
	}
	for _, o := range a.Pool {
		s.pool = append(s.pool, len(s.entrants))
		s.entrants = append(s.entrants, arena.StrategyEntrant(o.Strategy, o.Name, o.VariantID, o.Genome))
	}
	for i, g := range b.Champions {
		s.pool = append(s.pool, len(s.entrants))
		s.entrants = append(s.entrants, arena.StrategyEntrant(a.Base, hallPrefix+a.Base.Name+"#"+b.ChampionIDs[i], b.ChampionIDs[i], g))
	}
	return s
}

// observe adds a finished match of candidate c at seat to its behaviour
// counts.
func (a *arenaEvaluator) observe(s evalSetup, c int, r arena.Record, seat int) {
	if s.counters == nil || r.Error != "" {
		return
	}
	recordMatch(a.behaviour, s.counters[c], r.Detail, seat, r.Scores[seat], r.Turns)
}

// keepBehaviour stores the batch's behaviour counts in the log.
func (a *arenaEvaluator) keepBehaviour(s evalSetup, b matchBatch) {
	if s.counters == nil {
		return
	}
	a.log.latest = make(map[string]behave.Counts, len(s.counters))
	for i, c := range s.counters {
		a.log.latest[b.IDs[i]] = c.Counts()
	}
}

func newMeasures(n, seeds int) []measure {
	out := make([]measure, n)
	for i := range out {
		out[i].SeedPoints = make([]float64, seeds)
		out[i].SeedGames = make([]float64, seeds)
		out[i].Versus = map[string]tally{}
	}
	return out
}

// MatchRunner plays jobs with arena.Run's contract: every job's record is
// emitted once, in any order.
type MatchRunner func(ctx context.Context, g engine.Game, entrants []arena.Entrant, jobs []arena.Job, opt arena.Options, emit func(arena.Record) error) error

// play is the batch's match runner: Play, or arena.Run in this process.
func (a *arenaEvaluator) play() MatchRunner {
	if a.Play != nil {
		return a.Play
	}
	return arena.Run
}

// hallPrefix starts the evaluator's name of an earlier champion of the
// search playing as an opponent (see arenaEvaluator).
const hallPrefix = "hall:"
