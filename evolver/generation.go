package evolver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"crucible/engine"
)

// GenStats is one line of generations.jsonl.
type GenStats struct {
	Generation int `json:"generation"`
	// Candidates is the number of distinct variants measured, elites
	// included; New of them were measured for the first time.
	Candidates int `json:"candidates"`
	New        int `json:"new"`
	// Matches is the number of matches played in the generation and
	// Evaluations the running total.
	Matches     int `json:"matches"`
	Evaluations int `json:"evaluations"`
	// Champion is the hall of fame's best variant after the generation,
	// with its fitness (seed-adjusted score rate, see entry.Fitness), raw
	// running score rate, games and conservative estimate.
	Champion  string  `json:"champion"`
	Best      float64 `json:"best"`
	BestRaw   float64 `json:"best_raw"`
	BestGames float64 `json:"best_games"`
	BestLower float64 `json:"best_lower"`
	// Mean, Std, Min and Max describe the score rates measured in this
	// generation over its candidates.
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	// Base is the base defaults' running score rate (the base plays every
	// generation as the anchor of the fitness).
	Base float64 `json:"base"`
	// Cache is what the behaviour cache saved in this generation.
	Cache CacheStats `json:"cache"`
	// WallMS is the generation's wall time and ElapsedMS the run's so far.
	WallMS    float64 `json:"wall_ms"`
	ElapsedMS float64 `json:"elapsed_ms"`
	Note      string  `json:"note,omitempty"`
}

// generationSeeds returns the match seeds of generation gen of a run with
// seed: n seeds, fresh for every generation.
func generationSeeds(seed uint64, gen, n int) []uint64 {
	base := engine.Mix(engine.Mix(seed, 0x65766f6c7665), uint64(gen))
	out := make([]uint64, n)
	for i := range out {
		out[i] = engine.Mix(base, uint64(i))
	}
	return out
}

// generation runs one generation: ask, measure, tell, update the hall.
// check, when set, is given the seconds a match took in the first probe
// matches and the matches the generation plans, and may refuse to go on
// (see search.fits).
func (s *search) generation(ctx context.Context, st *searchState, baseID string, check func(spm float64, planned int) error) (GenStats, error) {
	gen := st.done
	h := history{Entries: st.arch.sorted()}
	for _, id := range st.hall {
		h.Hall = append(h.Hall, st.arch.get(id))
	}
	props, err := s.Algorithm.Ask(ctx, gen, h)
	if err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	if len(props) == 0 {
		return GenStats{}, fmt.Errorf("generation %d: %s proposed nothing", gen, s.Algorithm.Name())
	}
	gs := GenStats{Generation: gen}

	// The distinct variants to play: the new behaviours among the
	// proposals, the hall, the base. A proposal whose behaviour was
	// measured before (the same genome, or another with its fingerprint)
	// takes that variant's measurements instead of being played again.
	var batch []*entry
	slot := map[string]int{}
	add := func(e *entry) int {
		if i, ok := slot[e.ID]; ok {
			return i
		}
		slot[e.ID] = len(batch)
		batch = append(batch, e)
		return len(batch) - 1
	}
	fpOf, err := s.fingerprint(ctx, st, props, &gs.Cache, check)
	var fe *FieldError
	if errors.As(err, &fe) {
		return GenStats{}, err
	}
	if err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	inHall := map[string]bool{}
	for _, id := range st.hall {
		inHall[id] = true
	}
	fresh := map[string]bool{}
	counted := map[string]bool{}
	propEntry := make([]*entry, len(props))
	for i, p := range props {
		x := s.Space.Canonical(p.X)
		id := s.Space.ID(x)
		canon := id
		if to, ok := st.alias[id]; ok {
			canon = to
		}
		e := st.arch.get(canon)
		if e == nil {
			if f := fpOf[id]; f != "" {
				if to, ok := st.fp[f]; ok && st.arch.get(to) != nil {
					st.alias[id] = to
					e = st.arch.get(to)
				}
			}
		}
		if e == nil {
			e = st.arch.ensure(id, x, p.Parents, gen)
			if f := fpOf[id]; f != "" {
				e.Fingerprint = f
				st.fp[f] = id
			}
			fresh[id] = true
			gs.New++
		}
		propEntry[i] = e
		if fresh[e.ID] || inHall[e.ID] {
			add(e)
		}
		// An evaluation saved: a distinct genome outside the hall that is
		// not measured as a variant of its own.
		if !counted[id] && !inHall[id] && !(fresh[id] && e.ID == id) {
			gs.Cache.Saved++
			if e.ID != id {
				gs.Cache.ByFingerprint++
			}
		}
		counted[id] = true
	}
	for _, id := range st.hall {
		add(st.arch.get(id))
	}
	// The anchor: the base's defaults (see entry.Fitness).
	anchor := add(st.arch.get(baseID))
	b := matchBatch{Generation: gen, Seeds: generationSeeds(s.Seed, gen, s.Seeds)}
	for _, e := range batch {
		b.Candidates = append(b.Candidates, s.Space.Genome(e.X))
		b.IDs = append(b.IDs, e.ID)
	}
	if s.HallOpponents > 0 {
		from := max(0, len(st.champions)-s.HallOpponents)
		for _, id := range st.champions[from:] {
			b.Champions = append(b.Champions, s.Space.Genome(st.arch.get(id).X))
			b.ChampionIDs = append(b.ChampionIDs, id)
		}
	}
	var progress func(done, total int)
	if s.Progress != nil {
		progress = throttled(s.Progress, fmt.Sprintf("generation %d", gen+1))
	}
	ms, err := evaluate(ctx, s.Evaluator, b, progress)
	if err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	if len(ms) != len(batch) {
		return GenStats{}, fmt.Errorf("generation %d: evaluator returned %d measures for %d candidates", gen, len(ms), len(batch))
	}
	// The generation's effect: how easy its seeds are, measured by the
	// anchor's rate less its strength (0 by definition: the origin).
	effect := ms[anchor].Rate() - batch[anchor].strength()
	st.refSum += effect
	rates := make([]float64, len(batch))
	for i, e := range batch {
		m := ms[i]
		e.Points += m.Points
		e.Games += m.Games
		e.Adv += m.Rate() - effect
		e.Evals++
		e.Last = gen
		for name, t := range m.Versus {
			if e.Versus == nil {
				e.Versus = map[string]tally{}
			}
			v := e.Versus[name]
			v.Points += t.Points
			v.Games += t.Games
			e.Versus[name] = v
		}
		rates[i] = m.Rate()
		gs.Matches += m.Matches
	}
	st.arch.refit(st.refSum / float64(gen+1))
	fit := make([]float64, len(props))
	for i, e := range propEntry {
		fit[i] = e.Fitness
	}
	if g, ok := s.Algorithm.(gamesTeller); ok {
		g.TellGames(gen, ms[anchor].Games)
	}
	if err := s.Algorithm.Tell(gen, fit); err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	// The note is read once the generation is told, so that it can speak
	// of the generation's outcome (MAP-Elites' archive).
	if n, ok := s.Algorithm.(noter); ok {
		gs.Note = n.Note()
	}

	// The hall: the best by conservative estimate of the old hall and this
	// generation's variants.
	pool := append([]*entry(nil), batch...)
	sortByLower(pool)
	st.hall = st.hall[:0]
	for _, e := range pool[:min(s.Hall, len(pool))] {
		st.hall = append(st.hall, e.ID)
	}
	// A new champion is recorded (hall/ file, opponent of later
	// generations) only when its fitness less two standard errors beats
	// the last recorded champion's fitness: near-equal variants trading
	// places on noise do not fill the hall of fame.
	champ := st.arch.get(st.hall[0])
	if n := len(st.champions); n == 0 {
		st.champions = append(st.champions, champ.ID)
	} else if last := st.arch.get(st.champions[n-1]); champ.ID != last.ID && champ.lower(2) > last.Fitness {
		st.champions = append(st.champions, champ.ID)
	}

	keep := map[string]bool{baseID: true}
	for _, e := range batch {
		keep[e.ID] = true
	}
	for _, id := range st.champions {
		keep[id] = true
	}
	st.arch.prune(keep, 32, 8)
	st.reindex()

	if len(batch) > 0 {
		gs.Cache.SavedMatches = gs.Cache.Saved * gs.Matches / len(batch)
	}
	st.cache.add(gs.Cache)
	st.done++
	st.matches += gs.Matches
	gs.Candidates = len(batch)
	gs.Evaluations = st.matches
	gs.Champion = champ.ID
	gs.Best, gs.BestRaw, gs.BestGames, gs.BestLower = champ.Fitness, champ.Mean(), champ.Games, champ.Lower()
	gs.Mean, gs.Std, gs.Min, gs.Max = describe(rates)
	gs.Base = batch[anchor].Mean()
	return gs, nil
}

// describe returns mean, standard deviation (0 for a single value), min
// and max of xs.
func describe(xs []float64) (mean, std, lo, hi float64) {
	if len(xs) == 0 {
		return
	}
	mean, std = stat.MeanStdDev(xs, nil)
	if len(xs) == 1 {
		std = 0
	}
	return mean, std, floats.Min(xs), floats.Max(xs)
}

// GenerationDone is sent after each generation, once its line, its hall
// file and its checkpoint are written.
type GenerationDone struct {
	// Stats is the generation's line of generations.jsonl.
	Stats GenStats
	// Generations and Budget are the search's stopping rules (0 when not
	// set; Budget over all sessions: the earlier sessions' time and this
	// session's budget); Elapsed is the run's wall time so far, over all
	// sessions.
	Generations int
	Budget      time.Duration
	Elapsed     time.Duration
}

func (GenerationDone) event() {}
