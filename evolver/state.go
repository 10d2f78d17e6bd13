package evolver

import (
	"encoding/json"
	"math"
	"time"
)

// search runs a generational search in a run directory: it asks the
// algorithm for points, measures them with the evaluator on each
// generation's fresh seeds together with the hall of fame (the elites,
// measured again every generation so that their running means rest on ever
// more games) and the base's defaults (the anchor every fitness is paired
// with, see entry.Fitness), tells the algorithm their fitness, and after
// every generation appends a line to generations.jsonl and writes a
// checkpoint.
type search struct {
	// Space is the normalised space of the base strategy.
	Space paramSpace
	// Algorithm proposes the points.
	Algorithm algorithm
	// Evaluator measures them; the search uses its optional capabilities
	// (progressEvaluator, behaviourMeter, matchPlanner, fingerprinter)
	// when it has them.
	Evaluator evaluator
	// Seed drives every random choice: the algorithm's and the seeds of
	// each generation's matches.
	Seed uint64
	// Seeds is the number of match seeds per generation (default 8).
	Seeds int
	// Generations stops the search after this many generations; 0 means no
	// limit (Budget must be set).
	Generations int
	// Budget stops the search by the wall clock of this session, from the
	// start of Run: no generation starts that would likely end after
	// Budget less the reserve, and a generation still running then is cut
	// at once and dropped (as if it had not started). 0 means no limit.
	Budget time.Duration
	// Estimate, with Budget, refuses a first generation that clearly
	// cannot end within it, at the rate of its first probe matches (set
	// when the matches are played where the probes are).
	Estimate bool
	// Reserve, when set, returns the time to keep back from Budget for the
	// work that follows the search, given the measured seconds per match
	// (0 before any match).
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
	// Progress receives a GenerationDone after every generation, the
	// matches of each generation as MatchProgress and the search's
	// warnings; nil for none.
	Progress func(Event)
	// Started, when set, is called once the state is loaded, with the
	// generations it covers and their wall time.
	Started func(done int, elapsed time.Duration)

	// files writes the run's files (a test's hook sees every write).
	files files
}

// searchDefaults are the defaults of a search's zero fields.
func (s search) withDefaults() search {
	if s.Seeds == 0 {
		s.Seeds = 8
	}
	if s.Hall == 0 {
		s.Hall = 4
	}
	if s.HallOpponents == 0 {
		s.HallOpponents = 1
	}
	if s.Reserve == nil {
		s.Reserve = func(float64) time.Duration { return 0 }
	}
	return s
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }

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

// CacheStats counts what the behaviour cache (the evaluator's fingerprints) saved:
// proposals that were not measured because a variant measured before or in
// the same generation behaves alike. Saved counts them (ByFingerprint of
// them differed in their genome, the others were a genome already
// measured), SavedMatches the matches they would have played, and
// ProbeMatches the matches the fingerprints themselves cost.
type CacheStats struct {
	Saved         int `json:"saved"`
	ByFingerprint int `json:"by_fingerprint"`
	SavedMatches  int `json:"saved_matches"`
	ProbeMatches  int `json:"probe_matches"`
}

// add adds o to c.
func (c *CacheStats) add(o CacheStats) {
	c.Saved += o.Saved
	c.ByFingerprint += o.ByFingerprint
	c.SavedMatches += o.SavedMatches
	c.ProbeMatches += o.ProbeMatches
}
