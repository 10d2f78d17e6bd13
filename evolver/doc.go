// Package evolver searches a strategy's parameters for stronger variants.
//
// Every algorithm works in the schema's normalised space (Space): each
// parameter is a coordinate in [0,1], mapped back to a legal genome by
// strategies.Schema.Denormalize with clamping and rounding, so any
// algorithm fits any strategy of either game. The algorithms speak ask/tell
// (Algorithm): GA drives eaopt (tournament selection, blend crossover,
// island populations with ring migration) with its own Gaussian mutation
// and elitism, CMAES drives gonum's optimize.CmaEsChol one generation at a
// time, and LLM asks an OpenAI-compatible model for genomes, falling back
// to mutation of the elite when the model fails.
//
// Fitness is measured as a statistician would (Search): every candidate of
// a generation plays the same fresh seeds (common random numbers), in both
// seat orders, against the same opponents (ArenaEvaluator: the reference
// pool and the latest champion), with the arena's worker pool. The hall of
// fame is measured again every generation, so elites rest on running means
// over many seeds, and every fitness is paired with the base's defaults on
// the same seeds (Entry.Fitness), so a generation of easy seeds flatters no
// one. A run's randomness derives from its seed and the generation number,
// and a checkpoint after each generation holds the whole algorithm state,
// so a resumed run ends exactly as an uninterrupted one (llm runs aside: a
// model's replies are not reproducible).
//
// With Config.Seats above 2 the fitness matches are free-for-all groups
// (ArenaEvaluator, SeatGroups): on each seed the opponents are cut into
// groups of Seats-1, every candidate plays every group on the group's map
// once per rotation of the seats, and each match is reduced to pairwise
// results against the other seats, the reduction package stats documents
// for N-seat games.
//
// CMAES mirrors its samples into the box with a penalty on the repair
// distance, so its mean can cross a bound, and restarts with twice the
// population when it stalls (IPOP). MapElites is quality-diversity search:
// an archive (QDArchive) of cells over behaviour descriptors measured in
// the matches (Behaviour; the games' descriptors are in package behave),
// each cell keeping its best variant, written to the run directory as
// archive.json and elites/.
//
// Every new genome is first given its behaviour fingerprint (Fingerprinter:
// the hash of the replays of a few fixed probe matches); a genome that
// behaves as a variant already measured is not played again but takes its
// measurements, so the archive, the hall of fame and the finalists hold one
// variant per behaviour, and the run counts the evaluations saved
// (CacheStats).
//
// Evolve wraps a search into a run directory with the final stages
// (finals.go): the champion is the finalist strongest against the field
// (the pool and the base) on fresh seeds, with intervals over seeds and an
// SPRT that stops measuring finalists clearly below the leader (Select);
// the champion is compared with the base on held-out seeds (Compare),
// ranked among the reference strategies (Tournament), and the finalists'
// head-to-head is reported without choosing. With a budget, every stage is
// sized from the measured match rate and cut at the deadline, so the run
// ends within it. A run killed at any point resumes from its checkpoint
// (written when the run starts and after every generation); OpenRun reads a
// run directory back.
//
// The package prints nothing: a run reports its progress as typed events
// (Event) to a callback, and its configuration errors are FieldErrors that
// name the Config field, for a command line to restate with its flags. The
// algorithms are listed once, in the table Algorithms returns.
package evolver
