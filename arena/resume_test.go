package arena_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"crucible/arena"
)

// ResumeResults: a run that created its file and wrote nothing leaves no
// file behind; a resumed file gives the jobs left and the matches done; a
// file of another schedule is a NotThisRunError and stays as it was.
func TestResumeResults(t *testing.T) {
	es := toyEntrants(3)
	jobs := arena.RoundRobin(len(es), arena.Seeds(3, 2)) // 12 jobs
	game := toyGame{}
	path := filepath.Join(t.TempDir(), "r.jsonl")

	r, err := arena.ResumeResults(path, true, game, nil, jobs, es)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Fresh || len(r.Todo) != len(jobs) {
		t.Fatalf("a missing file: fresh %v, %d jobs to play; want fresh and %d", r.Fresh, len(r.Todo), len(jobs))
	}
	r.Discard()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a created file nothing was written to is left behind: %v", err)
	}

	r, _ = arena.ResumeResults(path, false, game, nil, jobs, es)
	err = arena.Run(context.Background(), game, es, jobs[:5], arena.Options{Workers: 1}, r.Write)
	r.Discard()
	if err != nil {
		t.Fatal(err)
	}
	r, err = arena.ResumeResults(path, true, game, nil, jobs, es)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fresh || len(r.Todo) != 7 || r.Done.Matches != 5 || r.Summary(len(jobs)) != "5 of 12 matches done, 7 to play" {
		t.Fatalf("resumed: fresh %v, %d to play, %d done, %q", r.Fresh, len(r.Todo), r.Done.Matches, r.Summary(len(jobs)))
	}
	r.Discard()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("a resumed file that got no new line was removed: %v", err)
	}

	before, _ := os.ReadFile(path)
	other := arena.RoundRobin(len(es), arena.Seeds(4, 2))
	var nt *arena.NotThisRunError
	if _, err := arena.ResumeResults(path, true, game, nil, other, es); !errors.As(err, &nt) || nt.Path != path {
		t.Fatalf("resuming with other seeds: %v, want a NotThisRunError naming the file", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a refused resume changed the file")
	}
}
