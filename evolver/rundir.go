package evolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A run directory holds what the search writes (CheckpointFile,
// GenerationsFile, HallDir) and what the final stages write (ChampionFile,
// RankedDir, LeaderboardFile, ReportFile). Every file but generations.jsonl
// is replaced atomically; generations.jsonl is appended to and cut back to
// the checkpoint's generations on resume. A run killed at any point leaves
// at most temporary files of an interrupted write (named after their
// target with a leading dot) and the lines and hall files of a generation
// its checkpoint does not cover; resuming removes both.

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
