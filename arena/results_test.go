package arena_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/engine"
)

const (
	goodLine  = `{"job":"r0-0v1","game":"toy","round":0,"seed":5,"players":[{"name":"a","strategy":"x"},{"name":"b","strategy":"x"}],"scores":[1,2],"ranks":[2,1],"turns":1,"reason":"toy","duration_ms":0.1}`
	goodLine2 = `{"job":"r0-1v0","game":"toy","round":0,"seed":5,"players":[{"name":"b","strategy":"x"},{"name":"a","strategy":"x"}],"scores":[2,2],"ranks":[1,1],"turns":1,"reason":"toy","duration_ms":0.1}`
	errLine   = `{"job":"r1-0v1","game":"toy","round":1,"seed":6,"players":[{"name":"a","strategy":"x"},{"name":"b","strategy":"x"}],"scores":null,"ranks":null,"turns":0,"reason":"","error":"seed 6: player a failed","duration_ms":0.1}`
)

// TestParseResults checks the results-file rules: complete lines decode,
// a half-written last line is skipped with a warning, anything else that
// is wrong is an error with its line number.
func TestParseResults(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		records  int
		size     int // -1: whole file
		warning  string
		errorMsg string
	}{
		{"empty file", "", 0, -1, "", ""},
		{"complete lines", goodLine + "\n" + goodLine2 + "\n" + errLine + "\n", 3, -1, "", ""},
		{"blank lines are ignored", goodLine + "\n\n" + goodLine2 + "\n", 2, -1, "", ""},
		{"a valid last line without newline counts", goodLine + "\n" + goodLine2, 2, -1, "", ""},
		{"a half-written last line is skipped", goodLine + "\n" + goodLine2[:40], 1, len(goodLine) + 1,
			"res.jsonl:2: skipping a half-written last line", ""},
		{"a corrupt middle line is an error", goodLine + "\n" + goodLine2[:40] + "\n" + goodLine + "\n", 0, 0, "",
			"res.jsonl:2: not a result record"},
		{"a corrupt last line with its newline is an error", goodLine + "\n{oops}\n", 0, 0, "", "res.jsonl:2: not a result record"},
		{"an unknown field is an error", strings.Replace(goodLine, `"turns"`, `"turnz"`, 1) + "\n", 0, 0, "",
			`res.jsonl:1: not a result record: json: unknown field "turnz"`},
		{"scores must match players", strings.Replace(goodLine, `"scores":[1,2]`, `"scores":[1]`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1 has 2 players but 1 scores"},
		{"ranks must be places", strings.Replace(goodLine, `"ranks":[2,1]`, `"ranks":[3,1]`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1: rank 3 of seat 0 is outside [1, 2]"},
		{"a record needs a job", strings.Replace(goodLine, `"job":"r0-0v1"`, `"job":""`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record has no job id"},
		{"two values on a line", goodLine + goodLine + "\n", 0, 0, "", "res.jsonl:1: not a result record: more than one JSON value"},
		{"a negative round is an error", strings.Replace(goodLine, `"round":0`, `"round":-1`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1: round -1 is negative"},
		{"a record names its game", strings.Replace(goodLine, `"game":"toy"`, `"game":""`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1 names no game"},
		{"a key in another case is an error", strings.Replace(goodLine, `"seed"`, `"SEED"`, 1) + "\n", 0, 0, "",
			`res.jsonl:1: not a result record: unknown field "SEED"`},
		{"a player key in another case is an error", strings.Replace(goodLine, `{"name":"b"`, `{"Name":"b"`, 1) + "\n", 0, 0, "",
			`res.jsonl:1: not a result record: unknown field "Name"`},
		{"a null seed is an error", strings.Replace(goodLine, `"seed":5`, `"seed":null`, 1) + "\n", 0, 0, "",
			`res.jsonl:1: not a result record: field "seed" is null`},
		{"an absurd score is an error (defect 20: 1e308 was accepted)", goodLine + "\n" + strings.Replace(goodLine2, `"scores":[2,2]`, `"scores":[2,1e308]`, 1) + "\n", 0, 0, "",
			"res.jsonl:2: result record of job r0-1v0: score 1e+308 of seat 1 is outside [-1e+09, 1e+09]"},
		{"a large negative score is an error", strings.Replace(goodLine, `"scores":[1,2]`, `"scores":[-2e9,2]`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1: score -2e+09 of seat 0 is outside [-1e+09, 1e+09]"},
		{"a null score is an error", strings.Replace(goodLine, `"scores":[1,2]`, `"scores":[null,2]`, 1) + "\n", 0, 0, "",
			`res.jsonl:1: not a result record: an element of field "scores" is null`},
		{"a null line is an error", "null\n", 0, 0, "", "res.jsonl:1: not a result record: the line is null"},
		{"keys and nulls inside strings are text", strings.Replace(goodLine, `"reason":"toy"`, `"reason":"null \\\"SEED\\\": x"`, 1) + "\n", 1, -1, "", ""},
		{"a finished match names every player", strings.Replace(goodLine, `{"name":"b"`, `{"name":""`, 1) + "\n", 0, 0, "",
			"res.jsonl:1: result record of job r0-0v1: player 1 has no name"},
		{"a failed match of an earlier version may leave seats unnamed", strings.Replace(errLine, `{"name":"b"`, `{"name":""`, 1) + "\n", 1, -1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := arena.ParseResults([]byte(tt.data), "res.jsonl")
			if tt.errorMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorMsg) {
					t.Fatalf("error %v, want %q", err, tt.errorMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Records) != tt.records {
				t.Fatalf("%d records, want %d", len(res.Records), tt.records)
			}
			size := tt.size
			if size < 0 {
				size = len(tt.data)
			}
			if res.Size != int64(size) {
				t.Fatalf("size %d, want %d", res.Size, size)
			}
			if tt.warning == "" && len(res.Warnings) > 0 || tt.warning != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tt.warning)) {
				t.Fatalf("warnings %q, want %q", res.Warnings, tt.warning)
			}
		})
	}
}

// FuzzParseResults checks that no input makes the parser panic, that the
// valid part it reports is a prefix it parses again to the same records,
// and that records it accepts survive a round trip through the writer.
func FuzzParseResults(f *testing.F) {
	f.Add([]byte(goodLine + "\n" + errLine + "\n"))
	f.Add([]byte(goodLine + "\n" + goodLine2[:30]))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := arena.ParseResults(data, "fuzz")
		if err != nil {
			return
		}
		if res.Size < 0 || res.Size > int64(len(data)) {
			t.Fatalf("size %d outside [0, %d]", res.Size, len(data))
		}
		again, err := arena.ParseResults(data[:res.Size], "fuzz")
		if err != nil || len(again.Records) != len(res.Records) || len(again.Warnings) != 0 {
			t.Fatalf("the valid prefix does not parse cleanly: %v", err)
		}
		path := filepath.Join(t.TempDir(), "again.jsonl")
		w, _, err := arena.OpenResults(path, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if err := w.Write(r); err != nil {
				t.Fatalf("writing an accepted record: %v", err)
			}
		}
		w.Close()
		back, err := arena.LoadResults(path)
		if err != nil || len(back.Records) != len(res.Records) {
			t.Fatalf("the written records do not load again: %v", err)
		}
		for i := range back.Records {
			a, _ := json.Marshal(res.Records[i])
			b, _ := json.Marshal(back.Records[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("record %d changed through the writer:\n%s\n%s", i, a, b)
			}
		}
	})
}

// TestOpenResultsRefusesToOverwrite checks that a non-empty results file is
// never overwritten without resume, and is left untouched.
func TestOpenResultsRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "res.jsonl")
	os.WriteFile(path, []byte(goodLine+"\n"), 0o644)
	_, _, err := arena.OpenResults(path, false)
	if !errors.Is(err, arena.ErrResultsExist) {
		t.Fatalf("got %v, want ErrResultsExist", err)
	}
	if data, _ := os.ReadFile(path); string(data) != goodLine+"\n" {
		t.Fatalf("the file changed: %q", data)
	}
	// An empty file is fine to start.
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	w, _, err := arena.OpenResults(empty, false)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}

// TestOpenResultsResumeCutsHalfLine checks that resuming a file that ends
// in a half-written line cuts it off and appends after the valid lines,
// and that a valid last line without newline gets one.
func TestOpenResultsResumeCutsHalfLine(t *testing.T) {
	tests := []struct {
		name, data, keep string
		warn             bool
	}{
		{"half-written line", goodLine + "\n" + goodLine2[:50], goodLine + "\n", true},
		{"missing newline", goodLine, goodLine + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "res.jsonl")
			os.WriteFile(path, []byte(tt.data), 0o644)
			w, prev, err := arena.OpenResults(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(prev.Records) != 1 || (len(prev.Warnings) == 1) != tt.warn {
				t.Fatalf("prev %d records, warnings %q", len(prev.Records), prev.Warnings)
			}
			rec := prev.Records[0]
			rec.Job = "r9-1v0"
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			w.Close()
			data, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(data), tt.keep) {
				t.Fatalf("file starts %q, want %q", data, tt.keep)
			}
			res, err := arena.ParseResults(data, path)
			if err != nil || len(res.Records) != 2 || res.Records[1].Job != "r9-1v0" || len(res.Warnings) != 0 {
				t.Fatalf("after appending: %v, %+v", err, res)
			}
		})
	}
}

// TestResumeAfterCancel checks the whole resume cycle: a run cancelled
// part-way keeps its finished matches in the file; a resumed run plays
// only the rest; the final file holds the same set of lines (duration
// aside) as an uninterrupted run.
func TestResumeAfterCancel(t *testing.T) {
	es := toyEntrants(5)
	jobs := arena.RoundRobin(len(es), arena.Seeds(3, 4))
	// Matches of about a millisecond: a 10 ms hand-over window holds only
	// a few, so the cancelled run stops well short of the schedule.
	game := toyGame{work: 400000}
	dir := t.TempDir()

	runInto := func(path string, resume bool, stopAfter int) (int, error) {
		w, prev, err := arena.OpenResults(path, resume)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		todo, err := arena.Remaining(game, nil, jobs, es, prev.Records)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		err = arena.Run(ctx, game, es, todo, arena.Options{Workers: 2}, func(r arena.Record) error {
			if err := w.Write(r); err != nil {
				return err
			}
			if w.Written() == stopAfter {
				cancel()
			}
			return nil
		})
		return len(todo), err
	}

	full := filepath.Join(dir, "full.jsonl")
	if _, err := runInto(full, false, -1); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "part.jsonl")
	if _, err := runInto(part, false, 15); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	// Simulate a crash in the middle of a line on top.
	f, _ := os.OpenFile(part, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"job":"r5-`)
	f.Close()
	mid, err := arena.LoadResults(part)
	if err != nil {
		t.Fatal(err)
	}
	if len(mid.Records) < 15 || len(mid.Records) >= len(jobs) || len(mid.Warnings) != 1 {
		t.Fatalf("interrupted file: %d records, warnings %q", len(mid.Records), mid.Warnings)
	}
	todo, err := runInto(part, true, -1)
	if err != nil {
		t.Fatal(err)
	}
	if todo != len(jobs)-len(mid.Records) {
		t.Fatalf("resume played %d jobs, want the %d missing", todo, len(jobs)-len(mid.Records))
	}
	a, err := arena.LoadResults(full)
	if err != nil {
		t.Fatal(err)
	}
	b, err := arena.LoadResults(part)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines(t, a.Records), lines(t, b.Records)) {
		t.Fatalf("resumed file differs from the uninterrupted one (%d vs %d records)", len(b.Records), len(a.Records))
	}
	// Resuming a finished file plays nothing.
	if todo, err := runInto(part, true, -1); err != nil || todo != 0 {
		t.Fatalf("resuming a finished file: %d jobs, %v", todo, err)
	}
}

// cfgGame is toyGame with a configuration: its defaults are {"size": 3}.
type cfgGame struct{ toyGame }

func (cfgGame) DefaultConfig() any { return map[string]int{"size": 3} }

// otherGame is toyGame under another name.
type otherGame struct{ toyGame }

func (otherGame) Name() string { return "other" }

// TestRemainingRejectsOtherSchedules checks that resuming with results of
// another schedule, game, game configuration or players is refused with
// the reason.
func TestRemainingRejectsOtherSchedules(t *testing.T) {
	es := toyEntrants(3)
	jobs := arena.RoundRobin(3, arena.Seeds(1, 2))
	small := map[string]int{"size": 2}
	recs, err := runAll(t, context.Background(), cfgGame{}, es, jobs[:4], arena.Options{Config: small})
	if err != nil {
		t.Fatal(err)
	}
	variant := slices.Clone(es)
	variant[1].VariantID = "abc123"
	tests := []struct {
		name   string
		game   engine.Game
		config any
		jobs   []arena.Job
		es     []arena.Entrant
		recs   []arena.Record
		want   string
	}{
		{"other seeds", cfgGame{}, small, arena.RoundRobin(3, arena.Seeds(2, 2)), es, recs, "but this schedule gives it seed"},
		{"other players", cfgGame{}, small, jobs, toyEntrants(4)[1:], recs, "but this schedule seats"},
		{"same name, other variant", cfgGame{}, small, jobs, variant, recs, `variant "abc123"`},
		{"job not in schedule", cfgGame{}, small, arena.RoundRobin(2, arena.Seeds(1, 2)), es, recs, "is not in this schedule"},
		{"job twice", cfgGame{}, small, jobs, es, append(recs, recs[0]), "is recorded twice"},
		{"other game", otherGame{}, small, jobs, es, recs, "is a match of toy, but this run plays other"},
		{"other game configuration", cfgGame{}, map[string]int{"size": 4}, jobs, es, recs, "(was --config different?)"},
		{"the defaults instead of a configuration", cfgGame{}, nil, jobs, es, recs, "(was --config different?)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := arena.Remaining(tt.game, tt.config, tt.jobs, tt.es, tt.recs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	rest, err := arena.Remaining(cfgGame{}, small, jobs, es, recs)
	if err != nil || len(rest) != len(jobs)-4 {
		t.Fatalf("Remaining gave %d jobs, %v; want %d", len(rest), err, len(jobs)-4)
	}
	// Leaving the configuration out means the game's defaults: results
	// played with the defaults spelled out resume without one, and back.
	def, err := runAll(t, context.Background(), cfgGame{}, es, jobs[:2], arena.Options{Config: map[string]int{"size": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arena.Remaining(cfgGame{}, nil, jobs, es, def); err != nil {
		t.Fatalf("results of the spelled-out defaults refused without a configuration: %v", err)
	}
	nodef, err := runAll(t, context.Background(), cfgGame{}, es, jobs[:2], arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arena.Remaining(cfgGame{}, map[string]int{"size": 3}, jobs, es, nodef); err != nil {
		t.Fatalf("results of the defaults refused with them spelled out: %v", err)
	}
	if nodef[0].Config == "" || nodef[0].Config != def[0].Config || recs[0].Config == def[0].Config {
		t.Fatalf("configuration ids: defaults %q and %q, size 2 %q; want the defaults' equal and the other different", nodef[0].Config, def[0].Config, recs[0].Config)
	}
}
