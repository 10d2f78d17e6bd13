package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"crucible/arena"
	"crucible/engine"
	"crucible/internal/atomicfile"
)

// checkOutPath refuses an output file flag (flag is its name, "--out")
// that cannot be written, before any work is done: a path that names a
// directory ("--out runs is a directory"), or one in a directory that does
// not exist.
func checkOutPath(flag, path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s %s is a directory; name the file to write", flag, path)
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: directory %s does not exist", flag, path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", flag, path, err)
	case !info.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return nil
}

// writeOutFile writes an output file flag's file atomically; a path that
// became a directory since checkOutPath says so with the flag's name.
func writeOutFile(flag, path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		if errors.Is(err, atomicfile.ErrIsDir) {
			return fmt.Errorf("%s %w; name the file to write", flag, err)
		}
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// checkNotInput refuses an output file that is one of the command's input
// files: writing it would destroy what was read (crucible rate --results
// r.jsonl --out r.jsonl replaced the results by ratings).
func checkNotInput(outFlag, out, inFlag, in string) error {
	if out == "" || in == "" {
		return nil
	}
	a, errA := os.Stat(out)
	b, errB := os.Stat(in)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return fmt.Errorf("%s %s is the %s file; choose another file to write", outFlag, out, inFlag)
	}
	return nil
}

// openRunResults opens --out (path) for the run of jobs, resuming it when
// resume is set, and tells stderr what it found: the warnings of a
// half-written last line, what a resumed file held, or that --resume found
// no file and starts afresh. It is the one way crucible arena, local or on
// the queue, opens its results file.
func openRunResults(stderr io.Writer, path string, resume bool, game engine.Game, cfg any, jobs []arena.Job, entrants []arena.Entrant) (*arena.Resumed, error) {
	r, err := arena.ResumeResults(path, resume, game, cfg, jobs, entrants)
	var other *arena.NotThisRunError
	switch {
	case errors.Is(err, arena.ErrResultsExist):
		return nil, fmt.Errorf("--out %w; refusing to overwrite it: add --resume to continue it, or choose another --out", err)
	case errors.As(err, &other):
		return nil, fmt.Errorf("--resume %w", err)
	case err != nil:
		return nil, fmt.Errorf("--out: %w", err)
	}
	for _, warn := range r.Prev.Warnings {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	switch {
	case resume && r.Fresh:
		fmt.Fprintf(stderr, "--resume: %s holds no results yet; starting a fresh run of %d matches\n", path, len(jobs))
	case !r.Fresh:
		fmt.Fprintf(stderr, "resuming %s: %s\n", path, r.Summary(len(jobs)))
	}
	return r, nil
}
