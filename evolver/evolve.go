package evolver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"crucible/arena/rating"
	"crucible/engine"
	"crucible/strategies"
)

// Limits of the run's knobs; errors name the field and its range.
const (
	MinPopulation, MaxPopulation = 4, 256
	MinSeeds, MaxSeeds           = 1, 256
	MinBudget, MaxBudget         = 5 * time.Second, 7 * 24 * time.Hour
	MaxGenerations               = 100000
	MaxTop                       = 16
	MaxHoldout                   = 10000
	MaxTournamentSeeds           = 1000
)

// Config describes a whole evolution run: the search, the final
// tournament and the held-out comparison.
type Config struct {
	// Game is the game's rules and GameConfig its configuration (nil for
	// the defaults); GameConfigJSON is the JSON it was parsed from, kept in
	// the checkpoint so that a resumed run plays the same configuration.
	Game           engine.Game
	GameConfig     any
	GameConfigJSON json.RawMessage
	// Registry holds the strategies.
	Registry *strategies.Registry
	// Base names the strategy whose parameters are searched.
	Base string
	// Algorithm names the search algorithm (see Algorithms).
	Algorithm string
	// Pool names the reference opponents (nil: every strategy of the
	// game) at their defaults.
	Pool []string
	// Population is the number of proposals per generation (per island
	// for the GA); 0 takes the algorithm's default
	// (AlgorithmSpec.DefaultPopulation).
	Population int
	// Seeds is the number of match seeds per generation (default 8).
	Seeds int
	// Seats is the number of seats of the fitness matches: 0 or 2 for
	// seat-swapped pairs, more for free-for-all groups (see
	// ArenaEvaluator); it must be one of the game's seat counts
	// (ValidSeats).
	Seats int
	// Seed drives every random choice of the run.
	Seed uint64
	// Generations and Budget stop the search (at least one must be set;
	// with both, whichever comes first). Budget counts the final stages
	// too: the search keeps back the time they are estimated to take.
	Generations int
	Budget      time.Duration
	// Workers is the number of matches played at once (0: every core).
	Workers int
	// Play, when set, plays the generations' matches and the holdout
	// comparison instead of arena.Run (the final tournament stays here).
	Play MatchRunner
	// Hall is the hall-of-fame size and HallOpponents how many recent
	// champions join the opponents (defaults 4 and 1; -1 for none).
	Hall, HallOpponents int
	// Top is the number of distinct finalists of the selection (default
	// 4) and TournamentSeeds the fresh seeds of the selection and of the
	// ranking tournament (default 16).
	Top, TournamentSeeds int
	// Holdout is the number of held-out seeds on which the champion is
	// compared with the base (0: no comparison).
	Holdout int
	// Out is the run directory. It must not exist or be empty, unless
	// Resume is set and it holds a checkpoint.
	Out    string
	Resume bool
	// GA, CMA and LLM tune the algorithms.
	GA  GAOptions
	CMA CMAOptions
	LLM LLMOptions
	// MapElites tunes MAP-Elites, which places its variants by the game's
	// Behaviour (see package behave).
	MapElites MapElitesOptions
	Behaviour *Behaviour
	// Progress receives the run's events as they happen (nil: none): the
	// generations, the final stages, warnings and the model's remarks.
	Progress func(Event)

	// files writes the run's files (a test's hook sees every write).
	files files
}

// Meta records a run's configuration in its checkpoint. Its identity
// fields (game to islands, and the game configuration) must be the same in
// a resumed run; its settings (stopping rules, final stages, model) are
// what a resumed run uses unless told otherwise.
type Meta struct {
	Game          string          `json:"game"`
	Base          string          `json:"base"`
	Algorithm     string          `json:"algorithm"`
	Pool          []string        `json:"pool"`
	Population    int             `json:"population"`
	Seeds         int             `json:"seeds"`
	Seed          uint64          `json:"seed"`
	Hall          int             `json:"hall"`
	HallOpponents int             `json:"hall_opponents"`
	Islands       int             `json:"islands,omitempty"`
	Seats         int             `json:"seats,omitempty"`
	QD            string          `json:"qd,omitempty"`
	GameConfig    json.RawMessage `json:"game_config,omitempty"`

	Generations     int     `json:"generations,omitempty"`
	BudgetS         float64 `json:"budget_s,omitempty"`
	Top             int     `json:"top"`
	TournamentSeeds int     `json:"tournament_seeds"`
	Holdout         int     `json:"holdout"`
	LLMBaseURL      string  `json:"llm_base_url,omitempty"`
	LLMModel        string  `json:"llm_model,omitempty"`
}

// Report is what a run leaves: the search, the tournament, the champion
// and the held-out comparison.
type Report struct {
	// Dir is the run directory.
	Dir string `json:"dir"`
	// Meta is the run's identity.
	Meta Meta `json:"meta"`
	// Generations, Matches, Elapsed and Stopped describe the search.
	Generations int     `json:"generations"`
	Matches     int     `json:"matches"`
	ElapsedS    float64 `json:"elapsed_s"`
	Stopped     string  `json:"stopped"`
	// Base is the base strategy at its defaults as a variant.
	Base strategies.Variant `json:"base"`
	// Cache is what the behaviour cache saved the search.
	Cache CacheStats `json:"cache"`
	// Champion is the finalist the selection chose: the strongest against
	// the field (the pool and the base) on fresh seeds (see Select).
	Champion strategies.Variant `json:"champion"`
	// Selection is the stage that chose it.
	Selection *Selection `json:"selection,omitempty"`
	// ChampionRank is its place on the ranking tournament's leaderboard
	// (the champion and the field on fresh seeds; 0 when the budget left
	// no time for it) and AboveReference whether it ranks above every
	// reference strategy.
	ChampionRank   int  `json:"champion_rank"`
	AboveReference bool `json:"above_reference"`
	// Ranked are the finalists, the champion first, then by score rate
	// against the field.
	Ranked []strategies.Variant `json:"ranked"`
	// Leaderboard is the ranking tournament's summary.
	Leaderboard rating.Summary `json:"-"`
	// HeadToHead is the finalists' round robin: how they fare against
	// each other, reported but not used to choose the champion.
	HeadToHead *rating.Summary `json:"head_to_head,omitempty"`
	// Plan is the seeds each final stage played, and FinalMatches their
	// matches.
	Plan         FinalPlan `json:"final_plan"`
	FinalMatches int       `json:"final_matches"`
	// Holdout compares the champion with the base on held-out seeds.
	Holdout *Comparison `json:"holdout,omitempty"`
	// ElapsedTotalS is the wall time including the final stages.
	ElapsedTotalS float64 `json:"elapsed_total_s"`
}

// Files written at the top of a run directory besides the search's.
const (
	ChampionFile    = "champion.json"
	LeaderboardFile = "leaderboard.json"
	ReportFile      = "report.json"
	RankedDir       = "ranked"
)

func (c *Config) defaults() {
	if a, err := LookupAlgorithm(c.Algorithm); err == nil && c.Population == 0 {
		c.Population = a.DefaultPopulation
	}
	if c.Seeds == 0 {
		c.Seeds = 8
	}
	if c.Hall == 0 {
		c.Hall = 4
	}
	if c.HallOpponents == 0 {
		c.HallOpponents = 1
	}
	if c.Top == 0 {
		c.Top = 4
	}
	if c.TournamentSeeds == 0 {
		c.TournamentSeeds = 16
	}
}

// Validate checks the configuration; errors are FieldErrors that name the
// field, its value and its range.
func (c *Config) Validate() error {
	switch {
	case c.Game == nil:
		return &FieldError{Field: "Game", Reason: "is not set"}
	case c.Registry == nil:
		return &FieldError{Field: "Registry", Reason: "is not set"}
	case c.Out == "":
		return &FieldError{Field: "Out", Reason: "is not set: the run directory"}
	}
	if _, err := LookupAlgorithm(c.Algorithm); err != nil {
		return err
	}
	if _, err := c.Registry.Lookup(c.Game.Name(), c.Base); err != nil {
		return &FieldError{Field: "Base", Err: err}
	}
	switch {
	case c.Population < MinPopulation || c.Population > MaxPopulation:
		return rangeError("Population", c.Population, MinPopulation, MaxPopulation)
	case c.Seeds < MinSeeds || c.Seeds > MaxSeeds:
		return rangeError("Seeds", c.Seeds, MinSeeds, MaxSeeds)
	case c.Generations < 0 || c.Generations > MaxGenerations:
		return rangeError("Generations", c.Generations, 1, MaxGenerations)
	case c.Budget != 0 && (c.Budget < MinBudget || c.Budget > MaxBudget):
		return rangeError("Budget", c.Budget, MinBudget, MaxBudget)
	case c.Generations == 0 && c.Budget == 0:
		return &FieldError{Field: "Generations", Value: 0, Reason: "and Budget 0 leave the search without an end: set one or both"}
	case c.Workers < 0:
		return rangeError("Workers", c.Workers, 0, "cores")
	case c.Hall < 1 || c.Hall > 64:
		return rangeError("Hall", c.Hall, 1, 64)
	case c.HallOpponents < -1 || c.HallOpponents > c.Hall*4:
		return rangeError("HallOpponents", c.HallOpponents, -1, c.Hall*4)
	case c.Top < 1 || c.Top > MaxTop:
		return rangeError("Top", c.Top, 1, MaxTop)
	case c.TournamentSeeds < 1 || c.TournamentSeeds > MaxTournamentSeeds:
		return rangeError("TournamentSeeds", c.TournamentSeeds, 1, MaxTournamentSeeds)
	case c.Holdout < 0 || c.Holdout > MaxHoldout:
		return rangeError("Holdout", c.Holdout, 0, MaxHoldout)
	case c.Holdout == 1:
		return &FieldError{Field: "Holdout", Value: 1, Reason: "cannot give an interval (a paired interval needs at least 2 seeds); use 0 for none or 2 and more"}
	}
	if err := checkSeats(c.Game, c.Seats); err != nil {
		return err
	}
	lo, hi := c.Game.SeatRange()
	if lo > 2 || hi < 2 {
		return &FieldError{Field: "Game", Value: c.Game.Name(), Reason: fmt.Sprintf("does not allow two-seat matches (seats %d to %d); the evolver plays pairs", lo, hi)}
	}
	return nil
}

// meta returns the identity of the run.
func (c *Config) meta(pool []Opponent) Meta {
	m := Meta{Game: c.Game.Name(), Base: c.Base, Algorithm: c.Algorithm, Population: c.Population, Seeds: c.Seeds,
		Seed: c.Seed, Hall: c.Hall, HallOpponents: c.HallOpponents, GameConfig: c.GameConfigJSON,
		Generations: c.Generations, BudgetS: c.Budget.Seconds(), Top: c.Top, TournamentSeeds: c.TournamentSeeds,
		Holdout: c.Holdout}
	if c.Algorithm == "llm" {
		m.LLMBaseURL, m.LLMModel = c.LLM.BaseURL, c.LLM.Model
	}
	for _, o := range pool {
		m.Pool = append(m.Pool, o.Name)
	}
	if c.Algorithm == "ga" {
		m.Islands = max(1, c.GA.Islands)
	}
	if c.Seats > 2 {
		m.Seats = c.Seats
	}
	m.QD = qdIdentity(c)
	return m
}

// Evolve runs the search and the final stages (the selection of the
// champion, the held-out comparison when asked, the ranking among the
// reference strategies and the finalists' head-to-head, see finals.go), writing everything to the run directory and
// reporting its progress to cfg.Progress. Configuration errors are
// FieldErrors.
func Evolve(ctx context.Context, cfg Config) (*Report, error) {
	started := time.Now()
	cfg.defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	algoSpec, _ := LookupAlgorithm(cfg.Algorithm)
	base, _ := cfg.Registry.Lookup(cfg.Game.Name(), cfg.Base)
	pool, err := ReferencePool(cfg.Registry, cfg.Game.Name(), cfg.Pool)
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
	meta := cfg.meta(pool)
	if has {
		old, _, err := ReadMeta(cfg.Out)
		if err != nil {
			return nil, err
		}
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
	space := Space{Base: base}
	algo, err := algoSpec.New(space, cfg.Population, cfg.Seed, cfg)
	if err != nil {
		return nil, err
	}
	defer algo.Close()
	ev := &ArenaEvaluator{Game: cfg.Game, Config: cfg.GameConfig, Base: base, Pool: pool, Workers: cfg.Workers, Seats: cfg.Seats, Play: cfg.Play}
	attachBehaviour(algo, ev)
	field := fieldOf(pool, base)
	full := cfg.fullPlan().matches(cfg.Top, len(field))
	s := &Search{
		Space: space, Algorithm: algo, Evaluator: ev, Seed: cfg.Seed, Seeds: cfg.Seeds,
		Generations: cfg.Generations, Budget: cfg.Budget, Hall: cfg.Hall, HallOpponents: cfg.HallOpponents,
		Dir: cfg.Out, Resume: has, Meta: metaJSON, Progress: cfg.Progress, files: cfg.files,
		Fingerprint: NewProbeFingerprinter(cfg.Game, cfg.GameConfig, base, pool, cfg.Workers),
		Reserve: func(spm float64) time.Duration {
			return time.Duration(1.25*spm*float64(full)*float64(time.Second)) + time.Second
		},
		started: func(done int) { emit(cfg.Progress, RunStarted{Meta: meta, Resumed: has, Done: done}) },
	}
	if cfg.Progress != nil {
		s.stageProgress = func(stage string) func(done, total int) { return throttled(cfg.Progress, stage) }
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

	// The finalists: the best of the hall and the latest champions, one
	// per behaviour, none behaving as the base.
	var finalists []strategies.Variant
	seen := map[string]bool{rep.Base.ID: true}
	if res.Base.Fingerprint != "" {
		seen[res.Base.Fingerprint] = true
	}
	addFinalist := func(e Entry, why string) {
		key := e.Fingerprint
		if key == "" {
			key = e.ID
		}
		if seen[e.ID] || seen[key] || len(finalists) >= cfg.Top {
			return
		}
		seen[e.ID], seen[key] = true, true
		v := space.Variant(e.X, e.Parents...)
		v.Fingerprint = e.Fingerprint
		v.Note = fmt.Sprintf("evolved by %s from %s (seed %d): %s; search fitness %.3f, score rate %.3f over %.0f games", meta.Algorithm, meta.Base, meta.Seed, why, e.Fitness, e.Mean(), e.Games)
		finalists = append(finalists, v)
	}
	for _, e := range res.Hall {
		addFinalist(e, "hall of fame")
	}
	for i := len(res.Champions) - 1; i >= 0; i-- {
		addFinalist(res.Champions[i], "generation champion")
	}
	if len(finalists) == 0 {
		return nil, fmt.Errorf("the search found no variant different from the base's defaults (%d generations)", res.Generations)
	}
	fev := *ev
	fev.Pool = field
	f := &finals{cfg: &cfg, space: space, ev: &fev, pool: pool, rep: rep, spm: res.SecondsPerMatch}
	if cfg.Budget > 0 {
		f.deadline = time.Now().Add(cfg.Budget - res.Elapsed)
	}
	if err := f.run(ctx, finalists); err != nil {
		return nil, err
	}
	if fev.Failures > 0 {
		emit(cfg.Progress, Warning{Message: fmt.Sprintf("%d matches failed during the final stages and counted as losses", fev.Failures)})
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

// ChampionPlace says where the champion finished in the ranking tournament:
// its rank and whether it ranks above every reference strategy.
func (r *Report) ChampionPlace() string {
	switch {
	case r.ChampionRank == 0:
		return "not ranked (no ranking tournament)"
	case r.AboveReference:
		return fmt.Sprintf("%d, above every reference strategy", r.ChampionRank)
	}
	return fmt.Sprintf("%d, not above every reference strategy", r.ChampionRank)
}

// sameRun reports the first identity field in which a resumed run differs
// from its checkpoint, as a FieldError.
func sameRun(old, now Meta) error {
	diff := func(field string, a, b any) error {
		return &FieldError{Field: field, Value: b, Reason: fmt.Sprintf("differs from the run's %v", a)}
	}
	switch {
	case old.Game != now.Game:
		return diff("Game", old.Game, now.Game)
	case old.Base != now.Base:
		return diff("Base", old.Base, now.Base)
	case old.Algorithm != now.Algorithm:
		return diff("Algorithm", old.Algorithm, now.Algorithm)
	case !reflect.DeepEqual(old.Pool, now.Pool):
		return diff("Pool", strings.Join(old.Pool, ","), strings.Join(now.Pool, ","))
	case old.Population != now.Population:
		return diff("Population", old.Population, now.Population)
	case old.Seeds != now.Seeds:
		return diff("Seeds", old.Seeds, now.Seeds)
	case old.Seed != now.Seed:
		return diff("Seed", old.Seed, now.Seed)
	case old.Hall != now.Hall:
		return diff("Hall", old.Hall, now.Hall)
	case old.HallOpponents != now.HallOpponents:
		return diff("HallOpponents", old.HallOpponents, now.HallOpponents)
	case old.Islands != now.Islands:
		return diff("GA.Islands", old.Islands, now.Islands)
	case max(2, old.Seats) != max(2, now.Seats):
		return diff("Seats", max(2, old.Seats), max(2, now.Seats))
	case old.QD != now.QD:
		return diff("MapElites", old.QD, now.QD)
	case !bytes.Equal(compactJSON(old.GameConfig), compactJSON(now.GameConfig)):
		return diff("GameConfigJSON", orDefaults(old.GameConfig), orDefaults(now.GameConfig))
	}
	return nil
}

// compactJSON removes insignificant space so configurations compare by
// content.
func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if len(raw) == 0 || json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

func orDefaults(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(the game's defaults)"
	}
	return string(compactJSON(raw))
}

// writeFinal writes the champion, the ranked variants and the leaderboard
// (as reports.WriteSummary writes a summary in JSON).
func writeFinal(f files, dir string, rep *Report) error {
	if err := f.variant(filepath.Join(dir, ChampionFile), rep.Champion); err != nil {
		return err
	}
	rd := filepath.Join(dir, RankedDir)
	if err := os.MkdirAll(rd, 0o755); err != nil {
		return err
	}
	for i, v := range rep.Ranked {
		if err := f.variant(filepath.Join(rd, fmt.Sprintf("%02d-%s.json", i+1, v.ID)), v); err != nil {
			return err
		}
	}
	if len(rep.Leaderboard.Standings) == 0 {
		return nil
	}
	data, err := json.MarshalIndent(rep.Leaderboard, "", "  ")
	if err != nil {
		return err
	}
	return f.atomic(filepath.Join(dir, LeaderboardFile), append(data, '\n'))
}
