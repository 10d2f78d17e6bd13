package ladder

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/stats"
)

// A night's matches are stored in chunks of its schedule: chunk k holds
// the results of jobs [k*size, (k+1)*size), size being the night's
// NightConfig.ChunkSize, as one row with the result lines exactly as the
// arena writes them (in schedule order) and a tally of what closing the
// night and the regression tests need. A chunk is written once, whole, when
// its last match has finished (UNIQUE(night, chunk): no job can be recorded
// twice); a process killed loses at most the chunks in flight. Only a night
// closed early by its budget writes its last chunks with the matches they
// have.

// Chunk sizing.
const (
	// chunkTarget is the playing time, on the night's workers, a chunk is
	// sized to.
	chunkTarget = 150 * time.Millisecond
	// minChunk and maxChunk bound a chunk's jobs; a size is even, so a
	// chunk never splits a game pair (pairs start at even positions).
	minChunk = 2
	maxChunk = 32768
	// importChunk is the chunk size of an imported results file.
	importChunk = 4096
	// calibrationTime and calibrationJobs bound the matches a ladder's
	// first night plays, and throws away, to measure its match time.
	calibrationTime = 100 * time.Millisecond
	calibrationJobs = 256
)

// chunkSizeFor is the even number of jobs, within [minChunk, maxChunk],
// that workers play in about chunkTarget when one match takes perMatch.
func chunkSizeFor(perMatch time.Duration, workers int) int {
	if perMatch <= 0 {
		return maxChunk
	}
	n := int(int64(chunkTarget) * int64(max(workers, 1)) / int64(perMatch))
	n += n % 2
	return min(max(n, minChunk), maxChunk)
}

// entry is one job of a chunk: its record once played, its players'
// version ids in seat order, and for a regression game its test, pair and
// the new version's seat.
type entry struct {
	rec      arena.Record
	played   bool
	versions []int64
	test     int64
	pair     int
	newSeat  int
}

// chunkTally is what is read of a chunk instead of its lines to close a
// night: its rated, finished matches counted by seating and ranking, its
// complete regression game pairs by the new version's total in the pair,
// its failed matches and the playing time of its matches.
type chunkTally struct {
	Seatings []seating                    `json:"seatings,omitempty"`
	Pairs    map[string]stats.Pentanomial `json:"pairs,omitempty"`
	Failed   int                          `json:"failed,omitempty"`
	PlayMS   float64                      `json:"play_ms"`
}

// seating counts the matches of one seating (version ids in seat order)
// that ended in one ranking.
type seating struct {
	Seats []int64 `json:"seats"`
	Ranks []int   `json:"ranks"`
	N     int     `json:"n"`
}

// key orders seatings: by seats, then ranks, as decimal text.
func (s seating) key() string { return joinInts(s.Seats) + "|" + joinRanks(s.Ranks) }

// add adds another tally's counts.
func (t *chunkTally) add(o chunkTally) {
	byKey := make(map[string]int, len(t.Seatings))
	for i, s := range t.Seatings {
		byKey[s.key()] = i
	}
	for _, s := range o.Seatings {
		if i, ok := byKey[s.key()]; ok {
			t.Seatings[i].N += s.N
			continue
		}
		byKey[s.key()] = len(t.Seatings)
		t.Seatings = append(t.Seatings, seating{Seats: s.Seats, Ranks: s.Ranks, N: s.N})
	}
	sort.Slice(t.Seatings, func(i, j int) bool { return t.Seatings[i].key() < t.Seatings[j].key() })
	for id, p := range o.Pairs {
		if t.Pairs == nil {
			t.Pairs = map[string]stats.Pentanomial{}
		}
		q := t.Pairs[id]
		for k := range q {
			q[k] += p[k]
		}
		t.Pairs[id] = q
	}
	t.Failed += o.Failed
	t.PlayMS += o.PlayMS
}

// chunkRow is a chunk as stored.
type chunkRow struct {
	index, first, matches int
	lines                 []byte
	tally                 chunkTally
	replayDir             string
}

// encodeChunk makes chunk index of a schedule whose first job is at
// position first: the played entries' result lines, in order, and their
// tally. Regression pairs are entries 2i and 2i+1 of the chunk (first is
// even); a pair counts when both its games finished.
func encodeChunk(index, first int, entries []entry, replayDir string) (chunkRow, error) {
	row := chunkRow{index: index, first: first, replayDir: replayDir}
	var buf bytes.Buffer
	buf.Grow(lineSizeHint * len(entries))
	enc := lineEncoder{buf: &buf}
	counts := map[seatingKey]int{}
	for i := range entries {
		e := &entries[i]
		if !e.played {
			continue
		}
		if err := enc.encode(&e.rec); err != nil {
			return row, fmt.Errorf("encoding the result of job %s: %w", e.rec.Job, err)
		}
		row.matches++
		row.tally.PlayMS += e.rec.DurationMS
		if e.rec.Error != "" {
			row.tally.Failed++
			continue
		}
		if e.test != 0 {
			continue
		}
		if len(e.rec.Ranks) != len(e.versions) {
			return row, fmt.Errorf("job %s: %d ranks for %d seats", e.rec.Job, len(e.rec.Ranks), len(e.versions))
		}
		k := keyOf(e.versions, e.rec.Ranks)
		if _, ok := counts[k]; !ok {
			row.tally.Seatings = append(row.tally.Seatings, seating{Seats: e.versions, Ranks: e.rec.Ranks})
		}
		counts[k]++
	}
	for i := range row.tally.Seatings {
		st := &row.tally.Seatings[i]
		st.N = counts[keyOf(st.Seats, st.Ranks)]
	}
	sort.Slice(row.tally.Seatings, func(i, j int) bool { return row.tally.Seatings[i].key() < row.tally.Seatings[j].key() })
	if first%2 != 0 {
		return row, fmt.Errorf("chunk %d starts at odd position %d", index, first)
	}
	for i := 0; i+1 < len(entries); i += 2 {
		a, b := entries[i], entries[i+1]
		if a.test == 0 {
			continue
		}
		if b.test != a.test || b.pair != a.pair {
			return row, fmt.Errorf("job %s: the other game of its pair is not next to it", a.rec.Job)
		}
		if !a.played || !b.played || a.rec.Error != "" || b.rec.Error != "" {
			continue
		}
		k, err := pairClass(a, b)
		if err != nil {
			return row, err
		}
		if row.tally.Pairs == nil {
			row.tally.Pairs = map[string]stats.Pentanomial{}
		}
		id := strconv.FormatInt(a.test, 10)
		p := row.tally.Pairs[id]
		p[k]++
		row.tally.Pairs[id] = p
	}
	row.lines = buf.Bytes()
	return row, nil
}

// lineSizeHint is about the bytes of a Kindling result line, to size a
// chunk's buffer once.
const lineSizeHint = 288

// seatingKey identifies a seating and its ranking in a map without making
// a string: up to maxKeySeats seats inline, more in long.
type seatingKey struct {
	n     int
	seats [maxKeySeats]int64
	ranks [maxKeySeats]int
	long  string
}

const maxKeySeats = 4

func keyOf(seats []int64, ranks []int) seatingKey {
	k := seatingKey{n: len(seats)}
	if len(seats) > maxKeySeats || len(ranks) != len(seats) {
		k.long = joinInts(seats) + "|" + joinRanks(ranks)
		return k
	}
	copy(k.seats[:], seats)
	copy(k.ranks[:], ranks)
	return k
}

// pairClass is the pentanomial class of a game pair from the tested
// version's side (its newSeat in each game).
func pairClass(a, b entry) (int, error) {
	sa, err := seatScore(a)
	if err != nil {
		return 0, err
	}
	sb, err := seatScore(b)
	if err != nil {
		return 0, err
	}
	return stats.PairBucket(sa, sb)
}

// seatScore is the new version's score in a two-seat regression game: 1
// ranked ahead of the baseline, 0.5 level, 0 behind.
func seatScore(e entry) (float64, error) {
	if len(e.rec.Ranks) != 2 || e.newSeat < 0 || e.newSeat > 1 {
		return 0, fmt.Errorf("job %s: a regression game has two seats, this one %d ranks", e.rec.Job, len(e.rec.Ranks))
	}
	mine, theirs := e.rec.Ranks[e.newSeat], e.rec.Ranks[1-e.newSeat]
	switch {
	case mine < theirs:
		return 1, nil
	case mine == theirs:
		return 0.5, nil
	}
	return 0, nil
}

func joinRanks(ks []int) string {
	b := make([]byte, 0, 4*len(ks))
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(k), 10)
	}
	return string(b)
}

func joinInts(ids []int64) string {
	b := make([]byte, 0, 8*len(ids))
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(b)
}

// chunkCols are the columns of a chunk row, in insert order.
const chunkCols = "night_id, chunk, first_job, matches, lines, tally, replay_dir, recorded_at"

// insertChunks writes chunk rows of night inside tx. A chunk already
// recorded violates the primary key: the transaction fails, nothing of it
// is kept.
func (s *Store) insertChunks(ctx context.Context, tx *sql.Tx, night int64, rows []chunkRow) error {
	q := s.rebind("INSERT INTO match_chunks (" + chunkCols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
	t := now()
	for _, r := range rows {
		tally, err := json.Marshal(r.tally)
		if err != nil {
			return err
		}
		replay := sql.NullString{String: r.replayDir, Valid: r.replayDir != ""}
		if _, err := tx.ExecContext(ctx, q, night, r.index, r.first, r.matches, string(r.lines), string(tally), replay, t); err != nil {
			return fmt.Errorf("night %d: recording chunk %d (jobs from %d, %d matches): %w", night, r.index, r.first, r.matches, err)
		}
	}
	return nil
}

// recordedChunks is the set of a night's recorded chunk indices.
func (s *Store) recordedChunks(ctx context.Context, q querier, night int64) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, s.rebind("SELECT chunk FROM match_chunks WHERE night_id = ?"), night)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var k int
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

// nightTally sums the tallies of a night's chunks.
func (s *Store) nightTally(ctx context.Context, q querier, night int64) (chunkTally, error) {
	var total chunkTally
	rows, err := q.QueryContext(ctx, s.rebind("SELECT chunk, tally FROM match_chunks WHERE night_id = ? ORDER BY chunk"), night)
	if err != nil {
		return total, err
	}
	defer rows.Close()
	for rows.Next() {
		var k int
		var text string
		if err := rows.Scan(&k, &text); err != nil {
			return total, err
		}
		var t chunkTally
		if err := json.Unmarshal([]byte(text), &t); err != nil {
			return total, fmt.Errorf("night %d: chunk %d: tally: %w", night, k, err)
		}
		total.add(t)
	}
	return total, rows.Err()
}

// nightOutcomes returns the pairwise outcomes of a night's rated, finished
// matches, players named by label, and the ids of the versions that played
// them, from the chunks' tallies (no result line is read). The outcomes
// come in the order of their seatings and rankings as decimal text, the
// same on every store and however the night was recorded.
func (s *Store) nightOutcomes(ctx context.Context, q querier, night int64, versions map[int64]Version) ([]rating.Outcome, map[int64]bool, error) {
	t, err := s.nightTally(ctx, q, night)
	if err != nil {
		return nil, nil, err
	}
	var out []rating.Outcome
	played := map[int64]bool{}
	for _, st := range t.Seatings {
		names := make([]string, len(st.Seats))
		for i, id := range st.Seats {
			v, ok := versions[id]
			if !ok {
				return nil, nil, fmt.Errorf("night %d: seat %d of seating %s holds unknown version %d", night, i, joinInts(st.Seats), id)
			}
			played[id] = true
			names[i] = v.Label
		}
		one := rating.Pairwise(names, st.Ranks)
		for c := 0; c < st.N; c++ {
			out = append(out, one...)
		}
	}
	return out, played, nil
}

// chunkRows queries cols of the match chunks of every night (night 0) or
// of one, in night and chunk order.
func (s *Store) chunkRows(ctx context.Context, cols string, night int64) (*sql.Rows, error) {
	q := "SELECT " + cols + " FROM match_chunks"
	var args []any
	if night != 0 {
		q += " WHERE night_id = ?"
		args = append(args, night)
	}
	return s.db.QueryContext(ctx, s.rebind(q+" ORDER BY night_id, chunk"), args...)
}

// ExportLines writes every recorded match (night 0) or one night's, night
// by night in the order the nights started and, within a night, in
// schedule order (an imported file's own order), as the arena's result
// lines, byte for byte as they were recorded.
func (s *Store) ExportLines(ctx context.Context, night int64, w io.Writer) error {
	rows, err := s.chunkRows(ctx, "lines", night)
	if err != nil {
		return err
	}
	defer rows.Close()
	var lines sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&lines); err != nil {
			return err
		}
		if _, err := w.Write(lines); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Export calls emit with every recorded match (night 0) or one night's, in
// the order of ExportLines, decoded: arena.ResultsWriter writes them back
// byte for byte as the arena did.
func (s *Store) Export(ctx context.Context, night int64, emit func(arena.Record) error) error {
	rows, err := s.chunkRows(ctx, "night_id, chunk, lines", night)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		var k int
		var lines []byte
		if err := rows.Scan(&n, &k, &lines); err != nil {
			return err
		}
		res, err := arena.ParseResults(lines, fmt.Sprintf("night %d, chunk %d", n, k))
		if err != nil {
			return err
		}
		if len(res.Warnings) > 0 {
			return fmt.Errorf("night %d, chunk %d: %s", n, k, strings.Join(res.Warnings, "; "))
		}
		for _, r := range res.Records {
			if err := emit(r); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// MatchCount is the number of recorded matches, of one night or (night 0)
// of all.
func (s *Store) MatchCount(ctx context.Context, night int64) (int, error) {
	var n sql.NullInt64
	q, args := "SELECT SUM(matches) FROM match_chunks", []any{}
	if night != 0 {
		q += " WHERE night_id = ?"
		args = append(args, night)
	}
	err := s.db.QueryRowContext(ctx, s.rebind(q), args...).Scan(&n)
	return int(n.Int64), err
}
