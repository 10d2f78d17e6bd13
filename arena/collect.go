package arena

import (
	"encoding/binary"
	"hash/fnv"
	"maps"
	"math"
	"slices"

	"crucible/arena/rating"
)

// Outcomes returns the pairwise outcomes of the match's ranking (see
// rating.Pairwise); a failed match has none.
func (r Record) Outcomes() []rating.Outcome {
	if r.Error != "" {
		return nil
	}
	names := make([]string, len(r.Players))
	for i, p := range r.Players {
		names[i] = p.Name
	}
	return rating.Pairwise(names, r.Ranks)
}

// Match returns the match as a leaderboard sees it (see rating.Match):
// its players, ranks, round and seed, and a fingerprint of its result
// (configuration, scores, ranks, turns, end reason and crashes, not the
// seed or the job), so that exact repeats of one outcome on several seeds
// count once.
func (r Record) Match() rating.Match {
	names := make([]string, len(r.Players))
	for i, p := range r.Players {
		names[i] = p.Name
	}
	h := fnv.New64a()
	var buf []byte
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	str(r.Config)
	for i := range r.Players {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(r.Scores[i]))
		buf = binary.AppendVarint(buf, int64(r.Ranks[i]))
		if r.Crashed != nil && r.Crashed[i] {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
	}
	buf = binary.AppendVarint(buf, int64(r.Turns))
	str(r.Reason)
	h.Write(buf)
	fp := h.Sum64()
	if fp == 0 {
		fp = 1 // 0 means unknown
	}
	return rating.Match{Players: names, Ranks: slices.Clone(r.Ranks), Round: r.Round, Seed: r.Seed, Result: fp}
}

// Collector gathers the finished matches of records for a leaderboard,
// keeping only what the ratings need (names, ranks, round, seed and a
// fingerprint of the result), not the records themselves. The zero value
// is ready to use; it is not safe for concurrent use (feed it from Run's
// emit, which is called from one goroutine).
type Collector struct {
	ms rating.Matches
	// err is the first match the leaderboard refuses (a seat without a
	// name), reported by Leaderboard.
	err error
	// Matches counts the records added, Failed those with an Error, and
	// FirstError is "job: error" of the first failed one.
	Matches, Failed int
	FirstError      string
}

// Add counts one record.
func (c *Collector) Add(r Record) {
	c.Matches++
	if r.Error != "" {
		if c.Failed == 0 {
			c.FirstError = r.Job + ": " + r.Error
		}
		c.Failed++
		return
	}
	if err := c.ms.Add(r.Match()); err != nil && c.err == nil {
		c.err = err
	}
}

// Periods returns the pairwise outcomes as rating periods, one per round
// that has a finished match, in increasing round order (the order inside
// a period does not change a rating period).
func (c *Collector) Periods() [][]rating.Outcome {
	byRound := map[int][]rating.Outcome{}
	for m := range c.ms.All() {
		byRound[m.Round] = append(byRound[m.Round], rating.Pairwise(m.Players, m.Ranks)...)
	}
	rounds := slices.Sorted(maps.Keys(byRound))
	out := make([][]rating.Outcome, len(rounds))
	for i, r := range rounds {
		out[i] = byRound[r]
	}
	return out
}

// leaderboard is rating.Leaderboard of the collected matches.
func (c *Collector) leaderboard(names []string, opt rating.Options) (rating.Summary, error) {
	if c.err != nil {
		// The options and the names are checked first, as
		// rating.Leaderboard does.
		if _, err := rating.Leaderboard(names, nil, opt); err != nil {
			return rating.Summary{}, err
		}
		return rating.Summary{}, c.err
	}
	return c.ms.Leaderboard(names, opt)
}

// Leaderboard ranks the collected matches of the named players by the
// model of opt (see rating.Leaderboard), with every interval over
// independent units. The order in which records were added does not
// matter.
func (c *Collector) Leaderboard(names []string, opt rating.Options) (rating.Summary, error) {
	return c.leaderboard(names, opt)
}

// Summary rates the collected matches as a tournament of the named
// players with Glicko-2, one rating period per round: each starts at
// prior[name] or, when missing, at g.Initial, and idle players'
// deviations grow. It returns the leaderboard with its pairwise
// statistics, intervals over independent units. The order in which
// records were added does not matter. (Leaderboard offers the other
// models; a batch is better ordered by Bradley–Terry, whose order follows
// the scores.)
func (c *Collector) Summary(g *rating.Glicko2, names []string, prior map[string]rating.Rating) rating.Summary {
	all := slices.Clone(names)
	for _, n := range slices.Sorted(maps.Keys(prior)) {
		if !slices.Contains(all, n) {
			all = append(all, n)
		}
	}
	s, err := c.leaderboard(all, rating.Options{Model: rating.ModelGlicko2, Glicko2: g, Periods: rating.RoundPeriods, Prior: prior})
	if err != nil {
		// Only names listed twice can fail here: rate as before, over
		// games.
		start := g.Initials(names)
		for n, r := range prior {
			start[n] = r
		}
		var outcomes []rating.Outcome
		for _, p := range c.Periods() {
			outcomes = append(outcomes, p...)
		}
		return rating.Summarize(g.RatePeriods(start, c.Periods()), outcomes)
	}
	return s
}

// Tournament rates records as a tournament of the named players (see
// Collector.Summary).
func Tournament(g *rating.Glicko2, names []string, prior map[string]rating.Rating, recs []Record) rating.Summary {
	var c Collector
	for _, r := range recs {
		c.Add(r)
	}
	return c.Summary(g, names, prior)
}

// Leaderboard ranks the finished records of the named players by the
// model of opt (see rating.Leaderboard); failed records are skipped.
func Leaderboard(names []string, recs []Record, opt rating.Options) (rating.Summary, error) {
	var c Collector
	for _, r := range recs {
		c.Add(r)
	}
	return c.Leaderboard(names, opt)
}
