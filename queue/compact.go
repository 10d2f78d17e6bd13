package queue

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"crucible/arena"
)

// A batch's results are stored compactly: only what the match decided
// (scores, ranks, turns, reason, crash flags, adjudication, error,
// duration), since the
// rest of each result line (job id, game, configuration, round, seed,
// players) follows from the batch's jobs and the run. The follower
// rebuilds the records and writes them with the arena's own encoder, so
// the lines are the local arena's to the byte; a worker spends no time
// encoding JSON, and stores some 40 bytes a match instead of 270 (before
// gzip). See TestCompactRecords.

// compactVersion is the first byte of the encoding.
const compactVersion = 1

// Flags of a compact record: which slices are nil (JSON null) rather
// than empty, and whether the match was adjudicated (Record.Adjudicated:
// stopped early with the turn limit's result). A flag outside knownFlags
// is an encoding this version cannot read.
const (
	nilScores = 1 << iota
	nilRanks
	nilCrashed
	adjudicated
	knownFlags = nilScores | nilRanks | nilCrashed | adjudicated
)

// encodeRecords encodes the records of a batch of jobs.
func encodeRecords(recs []arena.Record, jobs []arena.Job) ([]byte, error) {
	index := make(map[string]int, len(jobs))
	for i, j := range jobs {
		index[j.ID] = i
	}
	buf := make([]byte, 0, 1+48*len(recs))
	buf = append(buf, compactVersion)
	buf = binary.AppendUvarint(buf, uint64(len(recs)))
	for _, r := range recs {
		i, ok := index[r.Job]
		if !ok {
			return nil, fmt.Errorf("record of job %s, which is not in the batch", r.Job)
		}
		flags := 0
		if r.Scores == nil {
			flags |= nilScores
		}
		if r.Ranks == nil {
			flags |= nilRanks
		}
		if r.Crashed == nil {
			flags |= nilCrashed
		}
		if r.Adjudicated {
			flags |= adjudicated
		}
		buf = binary.AppendUvarint(buf, uint64(i))
		buf = binary.AppendUvarint(buf, uint64(flags))
		buf = binary.AppendUvarint(buf, uint64(len(r.Scores)))
		for _, s := range r.Scores {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(s))
		}
		buf = binary.AppendUvarint(buf, uint64(len(r.Ranks)))
		for _, k := range r.Ranks {
			buf = binary.AppendVarint(buf, int64(k))
		}
		buf = binary.AppendVarint(buf, int64(r.Turns))
		buf = appendString(buf, r.Reason)
		buf = binary.AppendUvarint(buf, uint64(len(r.Crashed)))
		for _, c := range r.Crashed {
			b := byte(0)
			if c {
				b = 1
			}
			buf = append(buf, b)
		}
		buf = appendString(buf, r.Error)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(r.DurationMS))
	}
	return buf, nil
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// errShort is a compact encoding cut short.
var errShort = errors.New("compact records cut short")

// reader reads a compact encoding.
type reader struct {
	data []byte
	err  error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *reader) float() float64 {
	if len(r.data) < 8 {
		r.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.data))
	r.data = r.data[8:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if uint64(len(r.data)) < n {
		r.fail()
		return nil
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}

// count reads a slice length, which cannot exceed the bytes left.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.data)) {
		r.fail()
		return 0
	}
	return int(n)
}

// slice reads a slice's length: -1 for a nil slice (whose length must be
// 0).
func (r *reader) slice(isNil bool) int {
	n := r.count()
	if isNil {
		if n != 0 {
			r.fail()
		}
		return -1
	}
	return n
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errShort
	}
	r.data = nil
}

// decodeRecords rebuilds the records of a batch of jobs of a run of game,
// configuration configID and entrants refs.
func decodeRecords(data []byte, jobs []arena.Job, game, configID string, refs []arena.PlayerRef) ([]arena.Record, error) {
	if len(data) == 0 || data[0] != compactVersion {
		return nil, fmt.Errorf("compact records: unknown version (first byte %v)", data[:min(1, len(data))])
	}
	r := &reader{data: data[1:]}
	n := r.count()
	out := make([]arena.Record, 0, n)
	for range n {
		i := r.uvarint()
		if r.err == nil && i >= uint64(len(jobs)) {
			return nil, fmt.Errorf("compact records: job %d of a batch of %d", i, len(jobs))
		}
		if r.err != nil {
			break
		}
		j := jobs[i]
		rec := arena.Record{Job: j.ID, Game: game, Config: configID, Round: j.Round, Seed: j.Seed, Players: make([]arena.PlayerRef, len(j.Seats))}
		for s, e := range j.Seats {
			if e < 0 || e >= len(refs) {
				return nil, fmt.Errorf("job %s seats entrant %d of %d", j.ID, e, len(refs))
			}
			rec.Players[s] = refs[e]
		}
		flags := r.uvarint()
		if r.err == nil && flags&^knownFlags != 0 {
			return nil, fmt.Errorf("compact records: job %s has unknown flags %#x", j.ID, flags&^knownFlags)
		}
		rec.Adjudicated = flags&adjudicated != 0
		if k := r.slice(flags&nilScores != 0); k >= 0 {
			rec.Scores = make([]float64, k)
		}
		for s := range rec.Scores {
			rec.Scores[s] = r.float()
		}
		if k := r.slice(flags&nilRanks != 0); k >= 0 {
			rec.Ranks = make([]int, k)
		}
		for s := range rec.Ranks {
			rec.Ranks[s] = int(r.varint())
		}
		rec.Turns = int(r.varint())
		rec.Reason = string(r.bytes(r.uvarint()))
		if k := r.slice(flags&nilCrashed != 0); k >= 0 {
			rec.Crashed = make([]bool, k)
		}
		for s := range rec.Crashed {
			if b := r.bytes(1); len(b) == 1 {
				rec.Crashed[s] = b[0] == 1
			}
		}
		rec.Error = string(r.bytes(r.uvarint()))
		rec.DurationMS = r.float()
		if r.err != nil {
			break
		}
		out = append(out, rec)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.data) != 0 {
		return nil, fmt.Errorf("compact records: %d bytes left over", len(r.data))
	}
	return out, nil
}
