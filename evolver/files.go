package evolver

import (
	"crucible/internal/atomicfile"
	"crucible/strategies"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// runFiles are the names a run writes at the top of its directory.
var runFiles = []string{CheckpointFile, GenerationsFile, ChampionFile, LeaderboardFile, ReportFile}

// isTemp reports whether name, in the directory sub of a run ("" for the
// top), is the temporary file of an interrupted atomic write: a dot, then
// the name of one of the run's files (in hall/ and ranked/, any dot file).
func isTemp(sub, name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	if sub != "" {
		return true
	}
	for _, f := range runFiles {
		if strings.HasPrefix(name[1:], f) {
			return true
		}
	}
	return false
}

// removeTemps removes the temporary files of interrupted writes from the
// run directory, hall/ and ranked/.
func removeTemps(dir string) error {
	for _, sub := range []string{"", HallDir, RankedDir} {
		d := filepath.Join(dir, sub)
		entries, err := os.ReadDir(d)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && isTemp(sub, e.Name()) {
				if err := os.Remove(filepath.Join(d, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// files writes a run's files. Its hook, set only by tests, is called
// before and after every write with "before" or "after" and the path; an
// error from it stops the run at that point, as a kill would.
type files struct {
	hook func(when, path string) error
}

// do calls the hook around write.
func (f files) do(path string, write func() error) error {
	if f.hook != nil {
		if err := f.hook("before", path); err != nil {
			return err
		}
	}
	if err := write(); err != nil {
		return err
	}
	if f.hook != nil {
		return f.hook("after", path)
	}
	return nil
}

// atomic replaces path with data atomically.
func (f files) atomic(path string, data []byte) error {
	return f.do(path, func() error { return atomicfile.WriteFile(path, data) })
}

// variant writes v to path atomically.
func (f files) variant(path string, v strategies.Variant) error {
	return f.do(path, func() error { return v.Save(path) })
}

// appendLine appends line and a newline to path, creating it.
func (f files) appendLine(path string, line []byte) error {
	return f.do(path, func() error {
		fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		_, werr := fh.Write(append(line[:len(line):len(line)], '\n'))
		return errors.Join(werr, fh.Close())
	})
}

// File names inside a run directory: the final stages' (champion,
// leaderboard, report, ranked variants) and the search's.
const (
	ChampionFile    = "champion.json"
	LeaderboardFile = "leaderboard.json"
	ReportFile      = "report.json"
	RankedDir       = "ranked"
	CheckpointFile  = "checkpoint.json"
	GenerationsFile = "generations.jsonl"
	HallDir         = "hall"
	checkpointKind  = "crucible-evolve-checkpoint/1"
)
