package evolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"crucible/internal/atomicfile"
	"crucible/strategies"
)

// A run directory holds what the search writes (CheckpointFile,
// GenerationsFile, HallDir) and what the final stages write (ChampionFile,
// RankedDir, LeaderboardFile, ReportFile). Every file but generations.jsonl
// is replaced atomically; generations.jsonl is appended to and cut back to
// the checkpoint's generations on resume. A run killed at any point leaves
// at most temporary files of an interrupted write (named after their
// target with a leading dot) and the lines and hall files of a generation
// its checkpoint does not cover; resuming removes both.

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

// checkOut applies the run directory's rules: a fresh run needs a missing
// or empty directory (temporary files of interrupted writes count for
// nothing); a resumed one an existing directory with a checkpoint, or one
// a run left before its first checkpoint (only generations.jsonl and
// hall/), or an empty one, which start afresh. It reports whether a
// checkpoint exists. Errors are FieldErrors of Out.
func checkOut(dir string, resume bool) (bool, error) {
	outErr := func(err error) error { return &FieldError{Field: "Out", Value: dir, Err: err} }
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist) && resume:
		return false, outErr(ErrNoRunDir)
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, outErr(err)
	}
	has, runOnly, empty := false, true, true
	for _, e := range entries {
		if e.Type().IsRegular() && isTemp("", e.Name()) {
			continue
		}
		empty = false
		switch {
		case e.Name() == CheckpointFile:
			has = true
		case e.Name() == GenerationsFile || (e.Name() == HallDir && e.IsDir()):
		default:
			runOnly = false
		}
	}
	switch {
	case empty:
		return false, nil
	case !resume && (has || runOnly):
		return has, outErr(ErrRunExists)
	case !resume:
		return false, outErr(ErrNotEmpty)
	case has:
		return true, nil
	case runOnly:
		return false, nil
	}
	return false, &FieldError{Field: "Out", Value: dir, Reason: "holds no " + CheckpointFile + " to resume from", Err: ErrNotEmpty}
}

// removeFinal removes what the final stages of an earlier session wrote:
// a resumed run replaces them, and until it does they would describe a
// search that has since gone on.
func removeFinal(dir string) error {
	for _, f := range []string{ReportFile, ChampionFile, LeaderboardFile} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.RemoveAll(filepath.Join(dir, RankedDir))
}

// ReadMeta returns the Meta of the checkpoint in dir, with the wall time
// its sessions took (Meta.Elapsed), and false when dir holds no checkpoint
// (or does not exist).
func ReadMeta(dir string) (Meta, bool, error) {
	cp, err := readCheckpoint(dir)
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, false, nil
	}
	if err != nil {
		return Meta{}, false, err
	}
	var m Meta
	if err := json.Unmarshal(cp.Meta, &m); err != nil || m.Game == "" || m.Base == "" {
		return Meta{}, false, fmt.Errorf("%s does not describe the run (no game and base in its meta)", filepath.Join(dir, CheckpointFile))
	}
	m.Elapsed = time.Duration(cp.ElapsedMS * float64(time.Millisecond))
	return m, true, nil
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
