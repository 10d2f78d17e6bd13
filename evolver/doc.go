// Package evolver searches a strategy's parameters for stronger variants.
//
// Every algorithm works in the schema's normalised space: each parameter a
// coordinate in [0,1], mapped back to a legal genome with clamping and
// rounding, so any algorithm fits any strategy of any game. The algorithms
// speak ask/tell and are listed once, in the table Algorithms returns: ga
// (eaopt's selection and crossover, islands, Gaussian mutation), cmaes
// (gonum's optimize.CmaEsChol one generation at a time, mirrored at the
// bounds, IPOP restarts), llm (a language model, package evolver/llm,
// falling back to mutation) and map-elites (an archive over the game's
// behaviour descriptors, package evolver/qd) and spsa (simultaneous
// perturbation with fishtest's and OpenBench's per-parameter gains,
// package evolver/spsa). Each owns its options (GAOptions, CMAOptions,
// LLMOptions, MapElitesOptions, SPSAOptions), which declare their own
// command-line flags.
//
// Fitness is measured as a statistician would: every candidate of a
// generation plays the same fresh seeds in both seat orders (or every
// rotation of free-for-all groups, Config.Seats) against the reference
// pool and the latest champion; the hall of fame is measured again every
// generation, and every fitness is paired with the base's defaults on the
// same seeds. A genome that plays a few fixed probe matches exactly as one
// already measured (its behaviour fingerprint) takes that one's
// measurements. A run's randomness derives from its seed and the
// generation number, and a checkpoint after each generation holds the
// whole state, so a resumed run ends exactly as an uninterrupted one (llm
// runs aside).
//
// After the search, the final stages choose and test the champion on fresh
// seeds: the selection against the field with an SPRT, the held-out
// comparison with the base (as a score rate and in Elo), the ranking among
// the reference strategies in the search's seats, and the finalists'
// head-to-head. With a budget every stage is sized from the measured match
// rate and cut at its deadline, so the run ends within the budget and
// BudgetMargin with the best it has.
//
// The package prints nothing: a run reports its progress as typed Events
// to a callback, and its configuration errors are FieldErrors naming the
// Config field (an option by its flag), for a command line to restate.
//
// The surface, by use:
//
//   - run: Evolve with a Config (its limits MinPopulation to
//     MaxTournamentSeeds, BudgetMargin), returning a Report (Selection,
//     FinalistScore, SPRTState, Comparison, FinalPlan, CacheStats);
//     MatchRunner plays the matches elsewhere (a work queue).
//   - algorithms: Algorithms, AlgorithmNames, LookupAlgorithm,
//     AlgorithmSpec, Options and the five options types.
//   - progress: Event and its types (RunStarted, GenerationDone with its
//     GenStats, MatchProgress, ModelNote, Warning, SelectionStarted,
//     SelectionDone, HoldoutStarted, HoldoutDone, TournamentStarted,
//     TournamentDone, HeadToHeadDone).
//   - errors: FieldError, ErrRunExists, ErrNotEmpty, ErrNoRunDir.
//   - run directories: OpenRun and Run, ReadMeta and Meta, and the file
//     names (CheckpointFile, GenerationsFile, HallDir, ChampionFile,
//     RankedDir, LeaderboardFile, ReportFile).
package evolver

// Its files are layered: each uses only the files before it in this list
// (no file-to-file cycle), the lowest first. errors.go, limits.go,
// event.go, files.go; space.go, archive.go, opponent.go; the evaluators:
// evaluator.go, behaviour.go, fingerprint.go, arena.go, groups.go,
// arena_play.go; the algorithms: algorithm.go, flags.go, ga.go,
// cmaes*.go, llm.go, mapelites.go, spsa*.go, and their table, table.go;
// the search: state.go, cache.go, generation.go, checkpoint.go, search.go;
// the final stages and the run: select.go, final.go, config.go, meta.go, report.go, events.go,
// finals.go, rundir.go, evolve.go, run.go.
