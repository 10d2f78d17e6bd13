package evolver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"crucible/engine"
	"crucible/strategies"
)

// Batch is one generation's measurement: every candidate plays the same
// seeds (common random numbers), seat-swapped, against the same opponents.
type Batch struct {
	// Generation is the generation number, from 0.
	Generation int
	// Seeds are the generation's match seeds, fresh each generation.
	Seeds []uint64
	// Candidates are the genomes to measure (distinct variants of the base).
	Candidates []strategies.Genome
	// IDs are the candidates' variant ids, in the same order.
	IDs []string
	// Champions are earlier champions of the search (variants of the base)
	// that join the evaluator's reference opponents, most recent last.
	Champions []strategies.Genome
	// ChampionIDs are their variant ids.
	ChampionIDs []string
}

// Measure is one candidate's result in a batch.
type Measure struct {
	// Points is the sum of pairwise results: win 1, draw 0.5, loss 0.
	Points float64
	// Games is the number of pairwise results.
	Games float64
	// Matches is the number of matches the candidate played.
	Matches int
	// SeedPoints and SeedGames split Points and Games by seed, in the
	// order of Batch.Seeds.
	SeedPoints []float64
	SeedGames  []float64
	// Versus splits Points and Games by opponent, keyed by the opponent's
	// name (nil when the evaluator does not split them).
	Versus map[string]Tally
}

// Tally is a sum of pairwise results: Points (win 1, draw 0.5, loss 0)
// over Games.
type Tally struct {
	Points float64 `json:"points"`
	Games  float64 `json:"games"`
}

// Rate is Points/Games, or 0 with no game.
func (m Measure) Rate() float64 {
	if m.Games == 0 {
		return 0
	}
	return m.Points / m.Games
}

// Evaluator plays a batch and returns one Measure per candidate, in order.
// Its results must depend only on the batch (not on timing or worker
// count), and it returns ctx.Err() when cancelled.
type Evaluator interface {
	Evaluate(ctx context.Context, b Batch) ([]Measure, error)
}

// Noter is implemented by algorithms that have something to say about the
// generation just asked (for example that the model was unreachable and the
// generation was proposed by mutation). The note goes into the progress
// line and generations.jsonl.
type Noter interface {
	Note() string
}

// Search runs a generational search in a run directory: it asks the
// algorithm for points, measures them with the evaluator on each
// generation's fresh seeds together with the hall of fame (the elites,
// measured again every generation so that their running means rest on ever
// more games) and the base's defaults (the anchor every fitness is paired
// with, see Entry.Fitness), tells the algorithm their fitness, and after
// every generation appends a line to generations.jsonl and writes a
// checkpoint.
type Search struct {
	// Space is the normalised space of the base strategy.
	Space Space
	// Algorithm proposes the points.
	Algorithm Algorithm
	// Evaluator measures them.
	Evaluator Evaluator
	// Seed drives every random choice: the algorithm's and the seeds of
	// each generation's matches.
	Seed uint64
	// Seeds is the number of match seeds per generation (default 8).
	Seeds int
	// Generations stops the search after this many generations; 0 means no
	// limit (Budget must be set).
	Generations int
	// Budget stops the search by wall clock, counted over every session of
	// a resumed run: no generation starts that would likely end after
	// Budget less Reserve, and from the second on a generation still
	// running then is cut and dropped (as if it had not started). 0 means
	// no limit.
	Budget time.Duration
	// Reserve, when set, returns the time to keep back from Budget for the
	// work that follows the search, given the measured seconds per match.
	Reserve func(secondsPerMatch float64) time.Duration
	// Hall is the size of the hall of fame (default 4).
	Hall int
	// HallOpponents is how many of the most recent earlier champions join
	// the opponents (default 1; negative for none).
	HallOpponents int
	// Dir is the run directory; it must exist.
	Dir string
	// Resume continues from Dir's checkpoint when there is one.
	Resume bool
	// Meta is stored in the checkpoint as is (the caller's configuration,
	// to check a resumed run against).
	Meta json.RawMessage
	// Progress receives a GenerationDone after every generation and the
	// search's warnings; nil for none.
	Progress func(Event)
	// Fingerprint, when set, gives every new genome its behaviour
	// fingerprint before it is played: a genome that behaves as a variant
	// already measured is not played again but takes that variant's
	// measurements (and fitness), so the archive, the hall of fame and the
	// champions hold one variant per behaviour.
	Fingerprint Fingerprinter

	// files writes the run's files (a test's hook sees every write).
	files files
	// started, when set, is called once the state is loaded, with the
	// generations it covers.
	started func(done int)
	// stageProgress, when set, gives the progress callback of a
	// generation's matches.
	stageProgress func(stage string) func(done, total int)
}

// Result is what a search leaves behind.
type Result struct {
	// Generations is the number of generations completed.
	Generations int
	// Matches is the number of matches played over all sessions.
	Matches int
	// Elapsed is the wall time over all sessions.
	Elapsed time.Duration
	// Hall is the hall of fame, best conservative estimate first.
	Hall []Entry
	// Champions are the recorded champions in the order they arose: each
	// led the hall with its fitness less two standard errors above the
	// previous one's fitness.
	Champions []Entry
	// Base is the entry of the base strategy's defaults.
	Base Entry
	// Stopped says why the search ended: "generations" or "budget".
	Stopped string
	// Cache is what the behaviour cache saved over all sessions.
	Cache CacheStats
	// SecondsPerMatch is the wall time of a match over this session's
	// generations (0 before the first).
	SecondsPerMatch float64
}

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
	// with its fitness (seed-adjusted score rate, see Entry.Fitness), raw
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

// File names inside a run directory.
const (
	CheckpointFile  = "checkpoint.json"
	GenerationsFile = "generations.jsonl"
	HallDir         = "hall"
	checkpointKind  = "crucible-evolve-checkpoint/1"
)

type checkpoint struct {
	Format      string            `json:"format"`
	Meta        json.RawMessage   `json:"meta,omitempty"`
	Algorithm   string            `json:"algorithm"`
	Seed        uint64            `json:"seed"`
	Generations int               `json:"generations"`
	ElapsedMS   float64           `json:"elapsed_ms"`
	Matches     int               `json:"matches"`
	RefSum      float64           `json:"ref_sum"`
	Hall        []string          `json:"hall"`
	Champions   []string          `json:"champions"`
	Archive     []Entry           `json:"archive"`
	Aliases     map[string]string `json:"aliases,omitempty"`
	Cache       CacheStats        `json:"cache"`
	State       json.RawMessage   `json:"state"`
}

// readCheckpoint reads the checkpoint of dir; an error names the file.
func readCheckpoint(dir string) (*checkpoint, error) {
	path := filepath.Join(dir, CheckpointFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cp.Format != checkpointKind {
		return nil, fmt.Errorf("%s: format %q, expected %q", path, cp.Format, checkpointKind)
	}
	return &cp, nil
}

// GenerationSeeds returns the match seeds of generation gen of a run with
// seed: n seeds, fresh for every generation.
func GenerationSeeds(seed uint64, gen, n int) []uint64 {
	base := engine.Mix(engine.Mix(seed, 0x65766f6c7665), uint64(gen))
	out := make([]uint64, n)
	for i := range out {
		out[i] = engine.Mix(base, uint64(i))
	}
	return out
}

type searchState struct {
	arch *archive
	// fp maps a fingerprint to the entry that holds its behaviour, and
	// alias a genome's id to the entry of its behaviour when that is
	// another genome's.
	fp        map[string]string
	alias     map[string]string
	cache     CacheStats
	refSum    float64 // sum over generations of their effects
	hall      []string
	champions []string
	done      int
	matches   int
	elapsed   time.Duration
}

// Run searches until the generation limit or the budget, or until ctx is
// cancelled (then it returns ctx.Err() and the checkpoint of the last
// completed generation stays in Dir).
func (s *Search) Run(ctx context.Context) (*Result, error) {
	if s.Seeds == 0 {
		s.Seeds = 8
	}
	if s.Hall == 0 {
		s.Hall = 4
	}
	if s.HallOpponents == 0 {
		s.HallOpponents = 1
	}
	if s.Generations <= 0 && s.Budget <= 0 {
		return nil, errors.New("search: set a generation limit or a budget")
	}
	st, err := s.load()
	if err != nil {
		return nil, err
	}
	if s.started != nil {
		s.started(st.done)
	}
	baseX := s.Space.Origin()
	baseID := s.Space.ID(baseX)
	start := time.Now()
	prior := st.elapsed
	stopped := "generations"
	var lastWall time.Duration
	// The time a match takes is measured over the session's generations:
	// one generation's figure is noisy (few new candidates, idle workers
	// at its end).
	var wall time.Duration
	var matches int
	spm := func() float64 { return wall.Seconds() / float64(matches) }
	warned := false
	for {
		if s.Generations > 0 && st.done >= s.Generations {
			break
		}
		if s.Budget > 0 && st.done > 0 {
			reserve := time.Duration(0)
			if s.Reserve != nil && matches > 0 {
				reserve = s.Reserve(spm())
			}
			if !warned && reserve > s.Budget/2 {
				warned = true
				emit(s.Progress, Warning{Message: fmt.Sprintf("the final stages are estimated at %s, more than half the budget %s; fewer tournament or held-out seeds, or a smaller pool, leave more time to the search",
					reserve.Round(time.Second), s.Budget)})
			}
			if prior+time.Since(start)+lastWall+reserve > s.Budget {
				stopped = "budget"
				break
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// From the second generation on, a generation that would run
		// into the final stages' reserve is cut and dropped.
		gctx, cancel := ctx, context.CancelFunc(func() {})
		if s.Budget > 0 && st.done > 0 {
			reserve := time.Duration(0)
			if s.Reserve != nil && matches > 0 {
				reserve = s.Reserve(spm())
			}
			gctx, cancel = context.WithDeadline(ctx, start.Add(s.Budget-prior-reserve))
		}
		t0 := time.Now()
		gs, err := s.generation(gctx, st, baseID)
		cut := err != nil && gctx.Err() != nil && ctx.Err() == nil
		cancel()
		if cut {
			stopped = "budget"
			break
		}
		if err != nil {
			return nil, err
		}
		lastWall = time.Since(t0)
		wall += lastWall
		matches += gs.Matches + gs.Cache.ProbeMatches
		st.elapsed = prior + time.Since(start)
		gs.WallMS = ms(lastWall)
		gs.ElapsedMS = ms(st.elapsed)
		if err := s.record(st, gs); err != nil {
			return nil, err
		}
	}
	res := &Result{Generations: st.done, Matches: st.matches, Elapsed: prior + time.Since(start), Stopped: stopped, Cache: st.cache}
	if matches > 0 {
		res.SecondsPerMatch = spm()
	}
	for _, id := range st.hall {
		res.Hall = append(res.Hall, *st.arch.get(id))
	}
	for _, id := range st.champions {
		res.Champions = append(res.Champions, *st.arch.get(id))
	}
	if e := st.arch.get(baseID); e != nil {
		res.Base = *e
	} else {
		res.Base = Entry{ID: baseID, X: baseX}
	}
	return res, nil
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }

// load starts a fresh state or restores the checkpoint. Whatever a run
// killed at any point left beyond its checkpoint goes: temporary files of
// interrupted writes, the lines and hall files of a generation the
// checkpoint does not cover. A fresh state is checkpointed at once, so that
// a run killed in its first generation resumes with its identity.
func (s *Search) load() (*searchState, error) {
	if err := removeTemps(s.Dir); err != nil {
		return nil, err
	}
	st := &searchState{arch: newArchive(), fp: map[string]string{}, alias: map[string]string{}}
	baseX := s.Space.Origin()
	if s.Resume {
		cp, err := readCheckpoint(s.Dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if cp.Algorithm != s.Algorithm.Name() || cp.Seed != s.Seed {
				return nil, fmt.Errorf("checkpoint in %s is of algorithm %s with seed %d, not %s with seed %d", s.Dir, cp.Algorithm, cp.Seed, s.Algorithm.Name(), s.Seed)
			}
			for _, e := range cp.Archive {
				st.arch.byID[e.ID] = &e
			}
			for _, id := range append(append([]string(nil), cp.Hall...), cp.Champions...) {
				if st.arch.get(id) == nil {
					return nil, fmt.Errorf("checkpoint in %s names variant %s that its archive lacks", s.Dir, id)
				}
			}
			st.hall, st.champions = cp.Hall, cp.Champions
			for id, to := range cp.Aliases {
				st.alias[id] = to
			}
			st.cache = cp.Cache
			st.reindex()
			st.done, st.matches, st.refSum = cp.Generations, cp.Matches, cp.RefSum
			st.elapsed = time.Duration(cp.ElapsedMS * float64(time.Millisecond))
			if err := s.Algorithm.Restore(cp.Generations, cp.State); err != nil {
				return nil, err
			}
			if err := s.truncateLines(filepath.Join(s.Dir, GenerationsFile), cp.Generations); err != nil {
				return nil, err
			}
			if err := s.pruneHall(st); err != nil {
				return nil, err
			}
			return st, nil
		}
	}
	base := st.arch.ensure(s.Space.ID(baseX), baseX, nil, 0)
	st.hall = []string{base.ID}
	if err := os.Remove(filepath.Join(s.Dir, GenerationsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := s.pruneHall(st); err != nil {
		return nil, err
	}
	if err := s.checkpoint(st); err != nil {
		return nil, err
	}
	return st, nil
}

// hallFile is the name in the hall directory of the i-th champion (from
// 0), id.
func hallFile(i int, id string) string { return fmt.Sprintf("%03d-%s.json", i+1, id) }

// pruneHall removes from the hall directory every file that is not one of
// the state's champions: those of a generation the checkpoint does not
// cover.
func (s *Search) pruneHall(st *searchState) error {
	dir := filepath.Join(s.Dir, HallDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for i, id := range st.champions {
		keep[hallFile(i, id)] = true
	}
	for _, e := range entries {
		if e.IsDir() || keep[e.Name()] || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// truncateLines keeps the first n lines of a file (the generations a
// checkpoint covers; a killed run may have written one more, or half of
// one).
func (s *Search) truncateLines(path string, n int) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if n == 0 {
			return nil
		}
		return fmt.Errorf("%s is missing but the checkpoint covers %d generations", path, n)
	}
	if err != nil {
		return err
	}
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(data[off:], '\n')
		if j < 0 {
			return fmt.Errorf("%s has %d complete lines but the checkpoint covers %d generations", path, i, n)
		}
		off += j + 1
	}
	if off == len(data) {
		return nil
	}
	return s.files.atomic(path, data[:off])
}

// generation runs one generation: ask, measure, tell, update the hall.
func (s *Search) generation(ctx context.Context, st *searchState, baseID string) (GenStats, error) {
	gen := st.done
	h := History{Entries: st.arch.sorted()}
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
	var batch []*Entry
	slot := map[string]int{}
	add := func(e *Entry) int {
		if i, ok := slot[e.ID]; ok {
			return i
		}
		slot[e.ID] = len(batch)
		batch = append(batch, e)
		return len(batch) - 1
	}
	fpOf, err := s.fingerprint(ctx, st, props, &gs)
	if err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	inHall := map[string]bool{}
	for _, id := range st.hall {
		inHall[id] = true
	}
	fresh := map[string]bool{}
	counted := map[string]bool{}
	propEntry := make([]*Entry, len(props))
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
	// The anchor: the base's defaults (see Entry.Fitness).
	anchor := add(st.arch.get(baseID))
	b := Batch{Generation: gen, Seeds: GenerationSeeds(s.Seed, gen, s.Seeds)}
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
	if a, ok := s.Evaluator.(*ArenaEvaluator); ok && s.stageProgress != nil {
		a.Progress = s.stageProgress(fmt.Sprintf("generation %d", gen+1))
		defer func() { a.Progress = nil }()
	}
	ms, err := s.Evaluator.Evaluate(ctx, b)
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
				e.Versus = map[string]Tally{}
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
	if err := s.Algorithm.Tell(gen, fit); err != nil {
		return GenStats{}, fmt.Errorf("generation %d: %w", gen, err)
	}
	// The note is read once the generation is told, so that it can speak
	// of the generation's outcome (MAP-Elites' archive).
	if n, ok := s.Algorithm.(Noter); ok {
		gs.Note = n.Note()
	}

	// The hall: the best by conservative estimate of the old hall and this
	// generation's variants.
	pool := append([]*Entry(nil), batch...)
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

// record appends the generation's line, writes new champions to the hall
// directory and the checkpoint, in that order (a checkpoint never covers a
// generation whose line or hall file is missing), and reports the
// generation.
func (s *Search) record(st *searchState, gs GenStats) error {
	line, err := json.Marshal(gs)
	if err != nil {
		return err
	}
	if err := s.files.appendLine(filepath.Join(s.Dir, GenerationsFile), line); err != nil {
		return fmt.Errorf("writing %s: %w", GenerationsFile, err)
	}
	if err := s.writeHall(st); err != nil {
		return err
	}
	if err := s.checkpoint(st); err != nil {
		return err
	}
	emit(s.Progress, GenerationDone{Stats: gs, Generations: max(0, s.Generations), Budget: max(0, s.Budget), Elapsed: st.elapsed})
	return nil
}

// checkpoint writes the state after st.done generations.
func (s *Search) checkpoint(st *searchState) error {
	state, err := s.Algorithm.State()
	if err != nil {
		return err
	}
	cp := checkpoint{
		Format: checkpointKind, Meta: s.Meta, Algorithm: s.Algorithm.Name(), Seed: s.Seed,
		Generations: st.done, ElapsedMS: ms(st.elapsed), Matches: st.matches, RefSum: st.refSum,
		Hall: st.hall, Champions: st.champions, Archive: st.arch.list(), State: state, Aliases: st.alias, Cache: st.cache,
	}
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	if err := s.files.atomic(filepath.Join(s.Dir, CheckpointFile), append(data, '\n')); err != nil {
		return fmt.Errorf("writing checkpoint: %w", err)
	}
	return nil
}

// writeHall writes every recorded champion so far as a variant file in
// the hall directory (the files of earlier champions stay: they are the
// hall of fame of the run).
func (s *Search) writeHall(st *searchState) error {
	dir := filepath.Join(s.Dir, HallDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, id := range st.champions {
		path := filepath.Join(dir, hallFile(i, id))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		e := st.arch.get(id)
		v := s.Space.Variant(e.X, e.Parents...)
		v.Fingerprint = e.Fingerprint
		v.Note = fmt.Sprintf("champion %d of the search, from generation %d: fitness %.3f (score rate %.3f over %.0f pairwise games)", i+1, st.done-1, e.Fitness, e.Mean(), e.Games)
		if err := s.files.variant(path, v); err != nil {
			return err
		}
	}
	return nil
}
