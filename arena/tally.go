package arena

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"strings"

	"crucible/internal/jsonl"
)

// Tally is a results file's records as the readers that rate them see
// them (crucible rate and report): the finished matches, each once, and
// the failed ones, which are skipped and counted.
type Tally struct {
	// Game is the game every record is a match of ("" for no records).
	Game string
	// Finished are the records of finished matches in file order (nil
	// from StreamTally, which hands them on instead of keeping them).
	Finished []Record
	// Failed are the records of failed matches (with an Error) that no
	// other record of the same match finished, in file order.
	Failed []Record
	// Retried counts the failed records whose match a resumed run played
	// again and finished.
	Retried int
	// finished counts the finished matches.
	finished int
}

// matchKey identifies a match within a results file: the same job, seed,
// configuration and players are the same match, however often it is
// recorded. Files of runs on other seeds or players may be joined: their
// matches differ. The key is a 128-bit FNV-1a hash of those fields, each
// length-prefixed, so that a set of keys costs a few words a match.
func matchKey(r Record) [16]byte {
	h := fnv.New128a()
	var buf [binary.MaxVarintLen64]byte
	str := func(s string) {
		h.Write(binary.AppendUvarint(buf[:0], uint64(len(s))))
		h.Write([]byte(s))
	}
	str(r.Job)
	str(r.Config)
	h.Write(binary.BigEndian.AppendUint64(buf[:0], r.Seed))
	for _, p := range r.Players {
		str(p.Name)
	}
	var k [16]byte
	h.Sum(k[:0])
	return k
}

// tallier sorts records one at a time, as NewTally and StreamTally read
// them.
type tallier struct {
	t        Tally
	keep     bool // keep the finished records in t.Finished
	finished map[[16]byte]struct{}
	failed   [][16]byte // the keys of t.Failed
}

// add sorts one record; finished tells whether it is a finished match
// that counts.
func (a *tallier) add(r Record) (finished bool, err error) {
	if a.t.Game == "" {
		a.t.Game = r.Game
	} else if r.Game != a.t.Game {
		return false, fmt.Errorf("job %s is a match of %s, but the file's first record is of %s: rate one game's results at a time", r.Job, r.Game, a.t.Game)
	}
	k := matchKey(r)
	if r.Error != "" {
		a.t.Failed = append(a.t.Failed, r)
		a.failed = append(a.failed, k)
		return false, nil
	}
	if a.finished == nil {
		a.finished = map[[16]byte]struct{}{}
	}
	if _, dup := a.finished[k]; dup {
		return false, fmt.Errorf("job %s (seed %d) is recorded twice: a results file holds each match once (was it appended to itself?)", r.Job, r.Seed)
	}
	a.finished[k] = struct{}{}
	a.t.finished++
	if a.keep {
		a.t.Finished = append(a.t.Finished, r)
	}
	return true, nil
}

// done drops the failed records of matches a later record finished.
func (a *tallier) done() Tally {
	failed := a.t.Failed[:0]
	for i, r := range a.t.Failed {
		if _, ok := a.finished[a.failed[i]]; ok {
			a.t.Retried++
			continue
		}
		failed = append(failed, r)
	}
	a.t.Failed = failed
	return a.t
}

// NewTally sorts records for rating. Records of several games in one file
// are an error (a rating compares players of one game), and so is a match
// finished twice (a file appended to itself, or lines copied by hand): it
// would count twice. A failed match is skipped: kept in Failed, or counted
// in Retried when a later record of the same match finished it (--resume
// plays failed matches again).
func NewTally(recs []Record) (Tally, error) {
	a := tallier{keep: true}
	for _, r := range recs {
		if _, err := a.add(r); err != nil {
			return Tally{}, err
		}
	}
	return a.done(), nil
}

// StreamTally reads the results file at path line by line, as NewTally
// of LoadResults would sort it, and hands each finished match to
// finished instead of keeping it: the memory it holds is a few words a
// match (to find a match recorded twice) and the failed records, however
// long the file. The warnings describe what was skipped (a half-written
// last line); errors are LoadResults' and, as a *TallyError, NewTally's
// and finished's.
func StreamTally(path string, finished func(Record) error) (Tally, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return Tally{}, nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	var a tallier
	if info, err := f.Stat(); err == nil {
		// About one match per 256 bytes of file: the set of keys is made
		// once instead of growing (and rehashing) a million times over.
		a.finished = make(map[[16]byte]struct{}, min(info.Size()/256, 1<<24))
	}
	var failure error // an error of the tally or of finished, not of reading
	got, err := jsonl.DecodeReader(f, path, func(_ int, line []byte) error {
		rec, err := decodeRecord(line)
		if err != nil {
			return err
		}
		ok, err := a.add(rec)
		if err == nil && ok {
			err = finished(rec)
		}
		if err != nil {
			failure = err
			return jsonl.ErrStop
		}
		return nil
	})
	if err != nil {
		return Tally{}, nil, err
	}
	if failure != nil {
		return Tally{}, nil, &TallyError{failure}
	}
	var warnings []string
	if w := got.Warning(path); w != "" {
		warnings = append(warnings, w)
	}
	return a.done(), warnings, nil
}

// TallyError is an error of StreamTally that is not one of reading the
// file (a match recorded twice, records of two games, or the error of its
// finished function).
type TallyError struct{ Err error }

func (e *TallyError) Error() string { return e.Err.Error() }
func (e *TallyError) Unwrap() error { return e.Err }

// Matches is the number of matches the tally holds: finished or failed.
func (t Tally) Matches() int { return t.finished + len(t.Failed) }

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
