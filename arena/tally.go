package arena

import (
	"fmt"
	"strconv"
	"strings"
)

// Tally is a results file's records as the readers that rate them see
// them (crucible rate and report): the finished matches, each once, and
// the failed ones, which are skipped and counted.
type Tally struct {
	// Game is the game every record is a match of ("" for no records).
	Game string
	// Finished are the records of finished matches in file order.
	Finished []Record
	// Failed are the records of failed matches (with an Error) that no
	// other record of the same match finished, in file order.
	Failed []Record
	// Retried counts the failed records whose match a resumed run played
	// again and finished.
	Retried int
}

// matchKey identifies a match within a results file: the same job, seed,
// configuration and players are the same match, however often it is
// recorded. Files of runs on other seeds or players may be joined: their
// matches differ.
func matchKey(r Record) string {
	var b strings.Builder
	b.WriteString(r.Job)
	b.WriteByte(0)
	b.WriteString(r.Config)
	b.WriteByte(0)
	b.WriteString(strconv.FormatUint(r.Seed, 10))
	for _, p := range r.Players {
		b.WriteByte(0)
		b.WriteString(p.Name)
	}
	return b.String()
}

// NewTally sorts records for rating. Records of several games in one file
// are an error (a rating compares players of one game), and so is a match
// finished twice (a file appended to itself, or lines copied by hand): it
// would count twice. A failed match is skipped: kept in Failed, or counted
// in Retried when a later record of the same match finished it (--resume
// plays failed matches again).
func NewTally(recs []Record) (Tally, error) {
	var t Tally
	finished := make(map[string]int, len(recs))
	for _, r := range recs {
		if t.Game == "" {
			t.Game = r.Game
		} else if r.Game != t.Game {
			return Tally{}, fmt.Errorf("job %s is a match of %s, but the file's first record is of %s: rate one game's results at a time", r.Job, r.Game, t.Game)
		}
		if r.Error != "" {
			continue
		}
		k := matchKey(r)
		if _, dup := finished[k]; dup {
			return Tally{}, fmt.Errorf("job %s (seed %d) is recorded twice: a results file holds each match once (was it appended to itself?)", r.Job, r.Seed)
		}
		finished[k] = len(t.Finished)
		t.Finished = append(t.Finished, r)
	}
	for _, r := range recs {
		if r.Error == "" {
			continue
		}
		if _, ok := finished[matchKey(r)]; ok {
			t.Retried++
			continue
		}
		t.Failed = append(t.Failed, r)
	}
	return t, nil
}

// Matches is the number of matches the tally holds: finished or failed.
func (t Tally) Matches() int { return len(t.Finished) + len(t.Failed) }

// Note says what the tally skipped, "" when nothing: the failed matches
// (with the first error) and the failed records a later run finished.
// name is the file's name.
func (t Tally) Note(name string) string {
	var parts []string
	if len(t.Failed) > 0 {
		first := t.Failed[0]
		parts = append(parts, fmt.Sprintf("%d of %d matches in %s failed and are left out (see \"error\" in the file); first: %s: %s",
			len(t.Failed), t.Matches(), name, first.Job, first.Error))
	}
	if t.Retried > 0 {
		parts = append(parts, fmt.Sprintf("%d failed records in %s were played again by a resumed run and are left out", t.Retried, name))
	}
	return strings.Join(parts, "; ")
}
