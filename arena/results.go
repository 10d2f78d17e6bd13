package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"crucible/engine"
	"crucible/internal/jsonl"
)

// Results is the content of a results file.
type Results struct {
	// Records are the file's complete, valid lines in file order.
	Records []Record
	// Size is the length in bytes of the part of the file they occupy; a
	// half-written last line lies beyond it.
	Size int64
	// Warnings describe what was skipped (a half-written last line).
	Warnings []string
}

// ParseResults decodes a results file: one JSON Record per line, blank
// lines ignored (see package crucible/internal/jsonl). name is used in
// messages. A last line that has no newline and does not decode is what a
// killed run leaves behind: it is skipped with a warning. Any other line
// that does not decode, or a record that is inconsistent, is an error
// naming the line number.
func ParseResults(data []byte, name string) (Results, error) {
	var res Results
	got, err := jsonl.Decode(data, name, func(_ int, line []byte) error {
		rec, err := decodeRecord(line)
		if err != nil {
			return err
		}
		res.Records = append(res.Records, rec)
		return nil
	})
	if err != nil {
		return Results{}, err
	}
	res.Size = got.Size
	if w := got.Warning(name); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// decodeRecord decodes and checks one line: in the writer's own form by
// fastRecord, any other with encoding/json.
func decodeRecord(text []byte) (Record, error) {
	if r, ok := fastRecord(text); ok {
		return checkRecord(r)
	}
	r, err := decodeJSONRecord(text)
	if err != nil {
		return Record{}, err
	}
	return checkRecord(r)
}

// decodeJSONRecord decodes one line with encoding/json and refuses what
// it lets through (checkLine).
func decodeJSONRecord(text []byte) (Record, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return Record{}, fmt.Errorf("not a result record: %w", err)
	}
	if dec.More() {
		return Record{}, errors.New("not a result record: more than one JSON value on the line")
	}
	if err := checkLine(text); err != nil {
		return Record{}, fmt.Errorf("not a result record: %w", err)
	}
	return r, nil
}

// checkRecord checks a decoded record's fields.
func checkRecord(r Record) (Record, error) {
	if r.Job == "" {
		return Record{}, errors.New("result record has no job id")
	}
	if r.Game == "" {
		return Record{}, fmt.Errorf("result record of job %s names no game", r.Job)
	}
	if r.Round < 0 {
		return Record{}, fmt.Errorf("result record of job %s: round %d is negative", r.Job, r.Round)
	}
	if len(r.Players) == 0 {
		return Record{}, fmt.Errorf("result record of job %s has no players", r.Job)
	}
	// Versions before every seat was named left the seats after a player
	// that failed to build unnamed; such a failed match is still read (and
	// skipped by the readers).
	for i, p := range r.Players {
		if p.Name == "" && r.Error == "" {
			return Record{}, fmt.Errorf("result record of job %s: player %d has no name", r.Job, i)
		}
	}
	if r.Error == "" {
		n := len(r.Players)
		if len(r.Scores) != n || len(r.Ranks) != n || (r.Crashed != nil && len(r.Crashed) != n) {
			return Record{}, fmt.Errorf("result record of job %s has %d players but %d scores, %d ranks and %d crash flags",
				r.Job, n, len(r.Scores), len(r.Ranks), len(r.Crashed))
		}
		for i, k := range r.Ranks {
			if k < 1 || k > n {
				return Record{}, fmt.Errorf("result record of job %s: rank %d of seat %d is outside [1, %d]", r.Job, k, i, n)
			}
		}
		if err := checkScores(r); err != nil {
			return Record{}, err
		}
	}
	return r, nil
}

// recordKeys and playerKeys are the keys of a record line and of one of
// its players, as the writer spells them; nullable are the keys whose
// value the writer may leave null (those of a failed match).
var (
	recordKeys = []string{"job", "game", "config", "round", "seed", "players", "scores", "ranks", "turns", "reason", "crashed", "adjudicated", "error", "duration_ms"}
	playerKeys = []string{"name", "strategy", "variant"}
	nullable   = []string{"scores", "ranks", "crashed"}
)

// checkLine refuses what encoding/json lets through on a line that
// decoded: keys spelled in another case than the writer's ("JOB" sets Job
// too) and null values, which leave a field at zero (a null seed is seed
// 0). Only a failed match's scores, ranks and crash flags may be null. It
// walks the line's bytes once.
func checkLine(line []byte) error {
	depth := 0     // 1 inside the record, 3 inside one of its players
	key := ""      // the last key read at depth 1
	inStr := false // inside a string
	start := 0     // where the current string started
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
				// A string followed by a colon is a key.
				j := i + 1
				for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
					j++
				}
				if j < len(line) && line[j] == ':' {
					k := string(line[start:i])
					switch {
					case depth == 1 && slices.Contains(recordKeys, k):
						key = k
					case depth == 3 && slices.Contains(playerKeys, k):
					default:
						return fmt.Errorf("unknown field %q (fields are spelled in lower case)", line[start:i])
					}
				}
			}
			continue
		}
		switch c {
		case '"':
			inStr, start = true, i+1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case 'n':
			switch {
			case depth == 0:
				return errors.New("the line is null; want a record (a JSON object)")
			case depth > 1:
				return fmt.Errorf("an element of field %q is null; want a value", key)
			case !slices.Contains(nullable, key):
				return fmt.Errorf("field %q is null; want a value", key)
			}
		}
	}
	return nil
}

// LoadResults reads and parses a results file.
func LoadResults(path string) (Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Results{}, fmt.Errorf("reading results: %w", err)
	}
	return ParseResults(data, path)
}

// ErrResultsExist is returned by OpenResults when the file already holds
// results and resuming was not asked for.
var ErrResultsExist = errors.New("results file exists and is not empty")

var _ io.Closer = (*ResultsWriter)(nil)

// ResultsWriter appends records to a results file, one line per Write, each
// line handed to the operating system as soon as it is written.
type ResultsWriter struct {
	f    *os.File
	path string
	n    int
}

// OpenResults opens path for appending records. A missing or empty file is
// started afresh. A non-empty file is an error wrapping ErrResultsExist
// unless resume is set: then its records are read and returned, a
// half-written last line is cut off (with a warning in Results), and new
// records go after the valid ones.
func OpenResults(path string, resume bool) (*ResultsWriter, Results, error) {
	var prev Results
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, Results{}, fmt.Errorf("results file: %w", err)
	case info.IsDir():
		return nil, Results{}, fmt.Errorf("results file %s is a directory", path)
	case info.Size() > 0 && !resume:
		return nil, Results{}, fmt.Errorf("%s (%d bytes): %w", path, info.Size(), ErrResultsExist)
	case info.Size() > 0:
		if prev, err = LoadResults(path); err != nil {
			return nil, Results{}, err
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, Results{}, fmt.Errorf("results file: %w", err)
	}
	if err := f.Truncate(prev.Size); err != nil {
		f.Close()
		return nil, Results{}, fmt.Errorf("cutting the half-written line of %s: %w", path, err)
	}
	if _, err := f.Seek(prev.Size, io.SeekStart); err != nil {
		f.Close()
		return nil, Results{}, err
	}
	w := &ResultsWriter{f: f, path: path}
	if prev.Size > 0 {
		// A last line written by hand may lack its newline.
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, prev.Size-1); err != nil {
			f.Close()
			return nil, Results{}, err
		}
		if last[0] != '\n' {
			if _, err := f.Write([]byte{'\n'}); err != nil {
				f.Close()
				return nil, Results{}, err
			}
		}
	}
	return w, prev, nil
}

// Write appends one record as a JSON line.
func (w *ResultsWriter) Write(r Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding the result of job %s: %w", r.Job, err)
	}
	if _, err := w.f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", w.path, err)
	}
	w.n++
	return nil
}

// Written is the number of records written since the file was opened.
func (w *ResultsWriter) Written() int { return w.n }

// Close closes the file.
func (w *ResultsWriter) Close() error { return w.f.Close() }

// Remaining returns the jobs that have no finished match in done, checking
// that every record of done belongs to this run: a job id that is not in
// jobs, a different seed or different players (name, strategy or variant)
// mean the file was made by another schedule, another game or
// configuration (config as Options.Config, see ConfigID) by another run,
// and a job finished twice means it was edited; all are errors. A failed
// match (a record with an Error) is not done: its job is played again, and
// its record stays in the file for readers to skip (see NewTally). Records
// without a configuration id (written before ids existed) are taken as
// matching.
func Remaining(g engine.Game, config any, jobs []Job, entrants []Entrant, done []Record) ([]Job, error) {
	cfgID, err := ConfigID(g, config)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(jobs))
	for i, j := range jobs {
		byID[j.ID] = i
	}
	seen := make(map[string]bool, len(done))
	for _, r := range done {
		if r.Game != g.Name() {
			return nil, fmt.Errorf("recorded job %s is a match of %s, but this run plays %s", r.Job, r.Game, g.Name())
		}
		if r.Config != "" && r.Config != cfgID {
			return nil, fmt.Errorf("recorded job %s was played with game configuration %s, this run's is %s (was --config different?)", r.Job, r.Config, cfgID)
		}
		i, ok := byID[r.Job]
		if !ok {
			return nil, fmt.Errorf("recorded job %s is not in this schedule (the results come from other players, seeds or schedule)", r.Job)
		}
		j := jobs[i]
		if r.Seed != j.Seed {
			return nil, fmt.Errorf("recorded job %s has seed %d but this schedule gives it seed %d (was --seed different?)", r.Job, r.Seed, j.Seed)
		}
		if len(r.Players) != len(j.Seats) {
			return nil, fmt.Errorf("recorded job %s has %d players but this schedule gives it %d", r.Job, len(r.Players), len(j.Seats))
		}
		for s, ei := range j.Seats {
			got, want := r.Players[s], entrants[ei].Ref()
			if got.Name == "" && r.Error != "" {
				continue // a failed match of an earlier version: the seat was never named
			}
			if got.Name != want.Name {
				return nil, fmt.Errorf("recorded job %s has %s in seat %d but this schedule seats %s there (were the players different?)", r.Job, got.Name, s, want.Name)
			}
			if got != want {
				return nil, fmt.Errorf("recorded job %s has %s in seat %d as strategy %s variant %q but this run's %s is strategy %s variant %q", r.Job, got.Name, s, got.Strategy, got.VariantID, want.Name, want.Strategy, want.VariantID)
			}
		}
		if r.Error != "" {
			continue
		}
		if seen[r.Job] {
			return nil, fmt.Errorf("job %s is recorded twice", r.Job)
		}
		seen[r.Job] = true
	}
	var out []Job
	for _, j := range jobs {
		if !seen[j.ID] {
			out = append(out, j)
		}
	}
	return out, nil
}
