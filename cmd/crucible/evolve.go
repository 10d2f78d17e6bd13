package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"crucible/evolver"
)

// evolveFlags are the evolve command's options.
type evolveFlags struct {
	game, base, algo, pool, out, config string
	generations, population, seeds      int
	workers, hall, hallOpponents        int
	top, tournamentSeeds, holdout       int
	seed                                uint64
	budget                              time.Duration
	resume                              bool
	configJSON                          []byte // the game configuration of a resumed run
	db, queue                           string // evolve_db.go
	extra                               evolveExtraFlags
	// budgetNote says, on --resume, what the budget of this session is.
	budgetNote string
}

func newEvolveCmd() *cobra.Command {
	var f evolveFlags
	cmd := &cobra.Command{
		Use:   "evolve",
		Short: "Search a strategy's parameters for stronger variants",
		Long: `Search the parameter space of a base strategy (from its defaults) with one of
these algorithms (--algo), and leave a ranked set of variants in --out:

` + algorithmHelp() + `
Every parameter is searched in [0,1] (its min to its max), mapped back with
clamping and rounding. Fitness is a score rate (win 1, draw 0.5, loss 0): each
generation, every candidate plays the same --seeds fresh seeds in both seat
orders against the reference --pool (default: every strategy of the game at its
defaults) and the latest champion. The hall of fame (--hall best variants) is
measured again on every generation's fresh seeds, so a champion rests on a
running mean over many games, not on one lucky score.

Every new genome first plays a few fixed probe matches (the base at its
defaults and two pool opponents, two fixed seeds); the hash of their replays is
its behaviour fingerprint. A genome that behaves as one already measured (same
fingerprint) is not played again: it takes that variant's measurements, so the
hall of fame and the finalists hold distinct behaviours only, and the run says
how many evaluations the cache saved. Variant files carry their fingerprint.

The search stops after --generations, or by wall clock with --budget, whichever
comes first. --budget covers the final stages too: the search keeps back the
time they take at the measured match rate, a generation still running at its
deadline is cut at once and dropped (the first one too), and each final stage
is sized to the time left and cut at the deadline: the run ends within the
budget plus a margin of 5s and 2% of it (the matches in flight stop and the
files are written), with the best it has. When the budget leaves the selection
no time, the champion is the search's hall-of-fame leader, marked not
validated (report.json: "validated": false, and why). A budget that cannot hold
one generation is refused at the start, with the estimate its first probe
matches give. With --resume, --budget is this session's time, counted from
now; left out, the run's budget goes on: what its earlier sessions left of it
(the run says how much). The final stages, on fresh seeds:
  selection   the best distinct finalists (--top) each play the field (the
              pool plus the base at its defaults) on --tournament-seeds seeds;
              an SPRT stops measuring a finalist clearly below the leader
              (--select-race: the finalists are raced against the field
              instead, and the first shown stronger than it wins). The
              champion is the finalist with the highest score rate against the
              field (95% interval over seeds); of finalists within noise of it,
              the one closest to the base's defaults.
  held-out    the champion against the base on --holdout seeds (the 95%
              interval of the score-rate difference, paired by seed, and the
              same in Elo against the field, as the SPRT speaks).
  ranking     the champion and the field in a round robin on --tournament-seeds
              other seeds, in the search's seats (--seats: pairs, or
              free-for-all groups), ranked by Bradley–Terry: its rank among
              the reference strategies.
  head-to-head the finalists against each other in pairs: reported, it does not
              choose.
Progress bars (matches done/total, ETA) show each generation and final stage
when stderr is a terminal; nothing of them otherwise.

--out holds: checkpoint.json (when the run starts and after every generation),
generations.jsonl (best, mean and spread of fitness, matches and wall time per
generation), hall/ (every generation champion as a variant file), ranked/ (the
finalists, the champion first, by score rate against the field), champion.json, leaderboard.json and
report.json. An existing non-empty --out is refused unless --resume is given; a
resumed run continues from the checkpoint, whatever point the run was stopped
or killed at, and, with --generations, ends exactly as an uninterrupted one
(llm runs aside: a model's replies are not reproducible).

With --seats N above 2, fitness matches are free-for-all groups: on each seed
the opponents are cut into groups of N-1, every candidate plays every group on
the group's map once per rotation of the seats, and each match counts as
pairwise results against the other seats; the selection, the held-out
comparison and the ranking play the same seats. map-elites keeps an archive of
cells over behaviour descriptors measured in the matches (--descriptors,
--bins) in archive.json, each cell's best variant in elites/ (exportable), and
prints coverage, QD-score and best per generation. The games' descriptors:
` + descriptorHelp() + `
` + spsaHelp() + `

--base may name an outside bot's manifest (FILE.json, kind crucible-bot/1):
its declared params are the search space, starting from its values; every
candidate is a process of the bot started with the candidate's values
(CRUCIBLE_PARAMS and CRUCIBLE_PARAM_<NAME>), reused across its matches, and
everything else (fingerprints, the hall, the final stages, the held-out
comparison, --budget, --resume with --base FILE again) works as for a built-in
strategy. The champion is also written as a manifest with every value filled
in, ` + ChampionBotFile + ` in --out, ready for crucible ladder add --bot; the
processes' logs go to OUT-bots/.

` + botPlanHelp + `
The llm algorithm reads OPENAI_API_KEY and OPENAI_BASE_URL; --llm-base-url and
--llm-model override them (e.g. http://localhost:11434/v1 for Ollama). When the
model cannot be reached or its reply does not parse, the generation is made of
mutations of the elite and the progress line says so.

  crucible evolve --game kindling --base easy --algo ga --budget 45s --out runs/demo
  crucible evolve --game kindling --base easy --algo cmaes --generations 40 --holdout 200 --out runs/cma
  crucible evolve --game kindling --base easy --algo spsa --population 8 --budget 3m --out runs/spsa
  crucible evolve --game kindling --base easy --algo llm --llm-base-url http://localhost:11434/v1 --llm-model qwen2.5 --generations 10 --out runs/llm
  crucible evolve --out runs/cma --resume --generations 60`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvolve(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", defaultGame, "game: "+strings.Join(gameNames, " or "))
	fl.StringVar(&f.base, "base", "", "base strategy whose parameters are searched (see crucible strategies --game G), or an outside bot's manifest (FILE.json, its params are searched; give it again with --resume)")
	fl.StringVar(&f.algo, "algo", "ga", "search algorithm: "+strings.Join(evolver.AlgorithmNames(), ", ")+" (see above)")
	fl.IntVar(&f.generations, "generations", 0, fmt.Sprintf("stop after this many generations, 1 to %d (default 30 when --budget is not set either)", evolver.MaxGenerations))
	fl.DurationVar(&f.budget, "budget", 0, fmt.Sprintf("stop by wall clock, final stages included, %v to %v (e.g. 15m); the run ends within it plus 5s and 2%%; on --resume, this session's time", evolver.MinBudget, evolver.MaxBudget))
	fl.IntVar(&f.population, "population", 0, fmt.Sprintf("candidates per generation (per island for ga), %d to %d (default %s)",
		evolver.MinPopulation, evolver.MaxPopulation, defaultPopulations()))
	fl.IntVar(&f.seeds, "seeds", 8, fmt.Sprintf("match seeds per generation, common to all candidates, %d to %d", evolver.MinSeeds, evolver.MaxSeeds))
	fl.Uint64Var(&f.seed, "seed", 1, "seed of every random choice of the run (algorithm and match seeds)")
	fl.StringVar(&f.pool, "pool", "", "reference opponents, comma-separated strategy names (left out: every strategy of the game; given, not empty)")
	fl.StringVar(&f.config, "config", "", configHelp())
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), fmt.Sprintf("matches played at once, 1 to %d", maxWorkers))
	fl.StringVar(&f.out, "out", "", "run directory (required; refused when not empty, unless --resume)")
	fl.BoolVar(&f.resume, "resume", false, "continue the run in --out from its checkpoint; flags left out are taken from it, and only the stopping rules, final stages and model may differ")
	fl.IntVar(&f.hall, "hall", 4, "hall of fame size: the elites measured again every generation, 1 to 64")
	fl.IntVar(&f.hallOpponents, "hall-opponents", 1, "recent champions that join the opponents, 0 (none) to 4 × --hall")
	fl.IntVar(&f.top, "top", 4, fmt.Sprintf("distinct finalists in the selection, 1 to %d", evolver.MaxTop))
	fl.IntVar(&f.tournamentSeeds, "tournament-seeds", 16, fmt.Sprintf("fresh seeds of the selection and of the ranking tournament, 1 to %d", evolver.MaxTournamentSeeds))
	fl.IntVar(&f.holdout, "holdout", 64, fmt.Sprintf("held-out seeds for the champion-versus-base comparison: 0 (none), or 2 to %d", evolver.MaxHoldout))
	addEvolveDBFlags(fl, &f)
	addEvolveExtraFlags(fl, &f)
	return cmd
}

// algorithmHelp lists the algorithms of the evolver's table, one a line.
func algorithmHelp() string {
	var b strings.Builder
	for _, a := range evolver.Algorithms() {
		// Wrapped at 80 columns, continued under the description.
		line := fmt.Sprintf("  %-6s", a.Name)
		for _, w := range strings.Fields(fmt.Sprintf("%s; population %d by default", a.Description, a.DefaultPopulation)) {
			if len(line)+1+len(w) > 80 {
				b.WriteString(line + "\n")
				line = strings.Repeat(" ", 8)
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// defaultPopulations says each algorithm's default population.
func defaultPopulations() string {
	var parts []string
	for _, a := range evolver.Algorithms() {
		parts = append(parts, fmt.Sprintf("%s %d", a.Name, a.DefaultPopulation))
	}
	return strings.Join(parts, ", ")
}

// evolveFieldFlags names the flag of each evolver.Config field the
// evolver's errors name (the algorithms' options are named by their flags
// already).
var evolveFieldFlags = map[string]string{
	"Game": "game", "Base": "base", "Algorithm": "algo", "Pool": "pool", "Population": "population",
	"Seeds": "seeds", "Seed": "seed", "Generations": "generations", "Budget": "budget", "Workers": "workers",
	"Hall": "hall", "HallOpponents": "hall-opponents", "Top": "top",
	"TournamentSeeds": "tournament-seeds", "Holdout": "holdout", "Out": "out", "GameConfigJSON": "config",
	"Seats": "seats", "SelectRace": "select-race",
}

// flagError is an error of the evolver restated in the command's terms.
type flagError struct {
	msg string
	err error
}

func (e *flagError) Error() string { return e.msg }
func (e *flagError) Unwrap() error { return e.err }

// evolveError restates an evolver.FieldError in the command's terms: the
// field becomes its flag (HallOpponents' -1 for none becomes the flag's 0),
// and the run directory's refusals say which flag to give.
func evolveError(err error, f *evolveFlags) error {
	var fe *evolver.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	switch {
	case errors.Is(err, evolver.ErrRunExists):
		return &flagError{fmt.Sprintf("--out %s is not empty: it holds a run; pass --resume to continue it, or choose another --out", f.out), err}
	case errors.Is(err, evolver.ErrNoRunDir):
		return &flagError{fmt.Sprintf("--out %s: the run directory does not exist, so there is nothing to --resume", f.out), err}
	}
	flag, ok := evolveFieldFlags[fe.Field]
	if !ok && f.extra.owner[fe.Field] != "" {
		flag, ok = fe.Field, true
	}
	if !ok {
		return err
	}
	m := *fe
	m.Field = "--" + flag
	if fe.Field == "HallOpponents" {
		if m.Value == -1 {
			m.Value = 0
		}
		m.Reason = strings.Replace(m.Reason, "the run's -1", "the run's 0", 1)
	}
	return &flagError{strings.Replace(err.Error(), fe.Error(), m.Error(), 1), err}
}

// resumeDefaults fills the identity flags the user left out from the
// checkpoint's record of the run, and reports whether there was one. The
// budget left out continues the run's: what its earlier sessions left.
func resumeDefaults(cmd *cobra.Command, f *evolveFlags) (bool, error) {
	m, ok, err := evolver.ReadMeta(f.out)
	if err != nil || !ok {
		return false, err
	}
	fl := cmd.Flags()
	set := func(name string, apply func()) {
		if !fl.Changed(name) {
			apply()
		}
	}
	set("game", func() { f.game = m.Game })
	set("base", func() { f.base = m.Base })
	set("algo", func() { f.algo = m.Algorithm })
	set("pool", func() { f.pool = strings.Join(m.Pool, ",") })
	set("population", func() { f.population = m.Population })
	set("seeds", func() { f.seeds = m.Seeds })
	set("seed", func() { f.seed = m.Seed })
	set("hall", func() { f.hall = m.Hall })
	set("hall-opponents", func() { f.hallOpponents = max(0, m.HallOpponents) }) // -1 in the checkpoint is 0 (none) here
	set("seats", func() { f.extra.seats = max(2, m.Seats) })
	// Settings: stopping rules, final stages, the algorithm's options.
	set("generations", func() { f.generations = m.Generations })
	set("top", func() { f.top = m.Top })
	set("tournament-seeds", func() { f.tournamentSeeds = m.TournamentSeeds })
	set("holdout", func() { f.holdout = m.Holdout })
	set("select-race", func() { f.extra.selectRace = m.SelectRace })
	for name, v := range m.Options {
		if p := fl.Lookup(name); p != nil && f.extra.owner[name] == m.Algorithm && !fl.Changed(name) {
			if err := p.Value.Set(v); err != nil {
				return true, fmt.Errorf("the checkpoint's --%s %q: %w", name, v, err)
			}
		}
	}
	if !fl.Changed("config") {
		f.configJSON = m.GameConfig
	}
	earlier := m.Elapsed.Round(time.Second)
	total := time.Duration(m.BudgetS * float64(time.Second))
	switch {
	case fl.Changed("budget"):
		f.budgetNote = fmt.Sprintf("its earlier sessions took %s; --budget %s is this session's, counted from now", earlier, f.budget)
	case total > 0:
		left := total - m.Elapsed
		if left < evolver.MinBudget {
			return true, fmt.Errorf("--budget: the run's budget of %s is used up: its earlier sessions took %s; give --budget for this session (counted from now), or --generations", total, earlier)
		}
		f.budget = left
		f.budgetNote = fmt.Sprintf("its earlier sessions took %s of its budget of %s, which leaves %s for this session", earlier, total, left.Round(time.Second))
	default:
		f.budgetNote = fmt.Sprintf("its earlier sessions took %s", earlier)
	}
	return true, nil
}

func runEvolve(cmd *cobra.Command, f *evolveFlags) error {
	if f.out == "" {
		return errors.New("--out is required: the run directory")
	}
	checkpointed := false
	if f.resume {
		if _, err := os.Stat(f.out); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--out %s: the run directory does not exist, so there is nothing to --resume", f.out)
		}
		var err error
		if checkpointed, err = resumeDefaults(cmd, f); err != nil {
			return err
		}
	}
	if err := f.extra.checkOwners(cmd.Flags().Changed, f.algo); err != nil {
		return err
	}
	switch {
	case f.base == "" && f.resume && !checkpointed:
		return fmt.Errorf("--base is required: %s holds no checkpoint to take the run's settings from (give the flags the run was started with)", f.out)
	case f.base == "":
		return errors.New("--base is required: the strategy whose parameters are searched")
	}
	if f.workers < 1 || f.workers > maxWorkers {
		return fmt.Errorf("--workers %d is outside its range [1, %d]", f.workers, maxWorkers)
	}
	// Zero means "default" inside the evolver; on the command line it is
	// out of range for these flags.
	for _, c := range []struct {
		name      string
		v, lo, hi int
	}{
		{"seeds", f.seeds, evolver.MinSeeds, evolver.MaxSeeds},
		{"hall", f.hall, 1, 64},
		{"top", f.top, 1, evolver.MaxTop},
		{"tournament-seeds", f.tournamentSeeds, 1, evolver.MaxTournamentSeeds},
	} {
		if c.v < c.lo || c.v > c.hi {
			return fmt.Errorf("--%s %d is outside its range [%d, %d]", c.name, c.v, c.lo, c.hi)
		}
	}
	if cmd.Flags().Changed("population") && (f.population < evolver.MinPopulation || f.population > evolver.MaxPopulation) {
		return fmt.Errorf("--population %d is outside its range [%d, %d]", f.population, evolver.MinPopulation, evolver.MaxPopulation)
	}
	if f.hallOpponents < 0 || f.hallOpponents > 4*f.hall {
		return fmt.Errorf("--hall-opponents %d is outside its range [0, %d]", f.hallOpponents, 4*f.hall)
	}
	if cmd.Flags().Changed("generations") && f.generations < 1 {
		return fmt.Errorf("--generations %d is outside its range [1, %d]", f.generations, evolver.MaxGenerations)
	}
	if cmd.Flags().Changed("budget") && f.budget <= 0 {
		return fmt.Errorf("--budget %v is outside its range [%v, %v]", f.budget, evolver.MinBudget, evolver.MaxBudget)
	}
	if f.generations == 0 && f.budget == 0 {
		f.generations = 30
	}
	game, err := labGames.Lookup(f.game)
	if err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	reg, baseName, bot, err := resolveEvolveBase(cmd.Context(), reg, f.game, f.base, f.out, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if bot != nil {
		defer bot.session.Close()
		if f.db != "" {
			return fmt.Errorf("--base %s is an outside bot: its candidates run as processes on this machine, so evolve it without --db", f.base)
		}
	} else if _, lerr := reg.Lookup(f.game, f.base); lerr != nil && f.resume && !strings.HasSuffix(f.base, ".json") {
		return fmt.Errorf("--resume: the run's base %s is not a built-in strategy; if it is an outside bot, give its manifest again (--base FILE.json)", f.base)
	}
	var gameCfg any
	cfgJSON := f.configJSON
	if f.config != "" {
		if cfgJSON, err = readGameConfig(f.game, f.config); err != nil {
			return err
		}
	}
	if len(cfgJSON) > 0 {
		if gameCfg, err = game.Rules.ParseConfig(cfgJSON); err != nil {
			if f.config == "" {
				return fmt.Errorf("the game configuration in %s's checkpoint: %w", f.out, err)
			}
			return fmt.Errorf("--config %s: %w", f.config, err)
		}
	}
	var pool []string
	for _, p := range strings.Split(f.pool, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pool = append(pool, p)
		}
	}
	if cmd.Flags().Changed("pool") && len(pool) == 0 {
		return fmt.Errorf("--pool %q is empty: name at least one reference strategy, or leave the flag out for every strategy of the game", f.pool)
	}
	hallOpp := f.hallOpponents
	if hallOpp == 0 {
		hallOpp = -1
	}
	p := &evolvePrinter{out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr(), dir: f.out, budgetNote: f.budgetNote}
	cfg := evolver.Config{
		Game: game.Rules, GameConfig: gameCfg, GameConfigJSON: cfgJSON, Registry: reg, Base: baseName, Algorithm: f.algo, Pool: pool,
		GameTitle: fmt.Sprintf("%s (%q)", game.Title, game.Name), GameRules: game.LLMRules, Behaviour: game.Behaviour,
		Options:    f.extra.options[f.algo],
		Population: f.population, Seeds: f.seeds, Seed: f.seed, Generations: f.generations, Budget: f.budget,
		Workers: f.workers, Hall: f.hall, HallOpponents: hallOpp, Top: f.top, TournamentSeeds: f.tournamentSeeds,
		Holdout: f.holdout, Out: f.out, Resume: f.resume, Seats: f.extra.seats, SelectRace: f.extra.selectRace,
		Progress: p.event,
	}
	if bot != nil && f.budget > 0 && !f.resume {
		if err := planBotRun(cmd.Context(), f, cmd.Flags().Changed, &cfg, func(format string, a ...any) { fmt.Fprintf(p.out, format, a...) }); err != nil {
			return err
		}
	}
	play, closeDB, err := evolveQueue(cmd, *f)
	if err != nil {
		return err
	}
	defer closeDB()
	cfg.Play = play
	rep, err := evolver.Evolve(cmd.Context(), cfg)
	p.clearBar()
	if err != nil {
		return evolveError(err, f)
	}
	if bot != nil {
		path, err := bot.writeChampion(f.out, rep.Champion)
		if err != nil {
			return err
		}
		fmt.Fprintf(p.out, "champion manifest written to %s (crucible ladder add NAME --bot %s)\n", path, path)
	}
	if !rep.Validated {
		fmt.Fprintf(p.out, "champion %s, not validated: %s; written to %s\n", rep.Champion.Label(), rep.ValidationNote, filepath.Join(f.out, evolver.ChampionFile))
	}
	if text, rules, ok := programOf(reg, nil, rep.Champion); ok {
		fmt.Fprintf(p.out, "champion %s as a program (%d rules):\n%s", rep.Champion.Label(), rules, text)
	}
	c := rep.Cache
	fmt.Fprintf(p.out, "matches: %d in the search, %d probing behaviours, %d in the final stages; the behaviour cache saved %d evaluations (%d of them by fingerprint: another genome, the same moves), about %d matches; %.0fs in all\n",
		rep.Matches, c.ProbeMatches, rep.FinalMatches, c.Saved, c.ByFingerprint, c.SavedMatches, rep.ElapsedTotalS)
	return p.err
}
