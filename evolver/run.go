package evolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"crucible/arena/rating"
	"crucible/internal/jsonl"
	"crucible/strategies"
)

// Run is a run directory read back (OpenRun): what the search and the final
// stages have written so far. A run stopped during its search has
// generations and hall champions but no final files; a run whose report.json
// is missing or empty may still have its champion, ranked finalists and
// leaderboard in their own files.
type Run struct {
	// Dir is the run directory.
	Dir string
	// Meta is the run's configuration from its checkpoint.
	Meta Meta
	// Generations are the lines of generations.jsonl, in order.
	Generations []GenStats
	// Report is report.json (its Leaderboard filled from
	// leaderboard.json when that exists); nil until the final stages have
	// written it, or when it is empty.
	Report *Report
	// Champion is champion.json; nil until the selection has run.
	Champion *strategies.Variant
	// Ranked are the finalists of ranked/, in leaderboard order.
	Ranked []strategies.Variant
	// Leaderboard is leaderboard.json; nil when it is missing.
	Leaderboard *rating.Summary
	// HallChampion is the latest champion the search recorded in hall/,
	// and HallFile its path relative to Dir; nil and "" before the first.
	HallChampion *strategies.Variant
	HallFile     string
	// Warnings are the problems the reading went past: a half-written
	// last line of generations.jsonl, left by a killed run.
	Warnings []string
}

// OpenRun reads the run directory dir. A directory that does not exist
// gives an error wrapping ErrNoRunDir; one without a checkpoint is not a
// run. Errors name the directory or the file at fault (and a line of
// generations.jsonl by its number); a file the run has not written yet is
// no error, it leaves its field empty.
func OpenRun(dir string) (*Run, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", dir, ErrNoRunDir)
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	meta, ok, err := ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s is not an evolve run directory: it holds no %s (a run writes one when it starts and after every generation)", dir, CheckpointFile)
	}
	r := &Run{Dir: dir, Meta: meta}
	if r.Generations, r.Warnings, err = readGenerations(filepath.Join(dir, GenerationsFile)); err != nil {
		return r, err
	}
	if r.Report, err = readReport(filepath.Join(dir, ReportFile)); err != nil {
		return r, err
	}
	if r.Champion, err = loadVariantIfAny(filepath.Join(dir, ChampionFile)); err != nil {
		return r, err
	}
	if r.Ranked, err = loadVariants(filepath.Join(dir, RankedDir)); err != nil {
		return r, err
	}
	if r.Leaderboard, err = readLeaderboard(filepath.Join(dir, LeaderboardFile)); err != nil {
		return r, err
	}
	if r.Report != nil && r.Leaderboard != nil {
		r.Report.Leaderboard = *r.Leaderboard
	}
	hall, err := variantFiles(filepath.Join(dir, HallDir))
	if err != nil {
		return r, err
	}
	if n := len(hall); n > 0 {
		r.HallFile = filepath.Join(HallDir, hall[n-1])
		if r.HallChampion, err = loadVariantIfAny(filepath.Join(dir, r.HallFile)); err != nil {
			return r, err
		}
	}
	return r, nil
}

// readGenerations reads generations.jsonl; a missing file is no
// generation yet.
func readGenerations(path string) ([]GenStats, []string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return parseGenerations(data, path)
}

// parseGenerations decodes the lines of generations.jsonl; name is used in
// messages. Blank lines are ignored; a half-written last line (no newline,
// left by a killed run) is skipped with a warning; any other line that is
// not a generation, or a generation that does not follow the one before
// it, is an error naming its line number.
func parseGenerations(data []byte, name string) ([]GenStats, []string, error) {
	var out []GenStats
	prev := -1
	res, err := jsonl.Decode(data, name, func(_ int, line []byte) error {
		var g GenStats
		if err := json.Unmarshal(line, &g); err != nil {
			return fmt.Errorf("not a generation line: %w", err)
		}
		if g.Generation <= prev {
			return fmt.Errorf("not a generation line: generation %d follows generation %d (generations must increase)", g.Generation, prev)
		}
		out = append(out, g)
		prev = g.Generation
		return nil
	})
	var warnings []string
	if w := res.Warning(name); w != "" {
		warnings = append(warnings, w)
	}
	if err != nil {
		return nil, warnings, err
	}
	return out, warnings, nil
}

// readReport reads report.json; nil when the run has not written it (or
// left it empty).
func readReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if rep.Champion.ID == "" {
		return nil, fmt.Errorf("%s names no champion", path)
	}
	return &rep, nil
}

// readLeaderboard reads the ranking tournament's leaderboard.json; nil when
// it is missing.
func readLeaderboard(path string) (*rating.Summary, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s rating.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// loadVariantIfAny loads a variant file, or returns nil when there is
// none.
func loadVariantIfAny(path string) (*strategies.Variant, error) {
	v, err := strategies.LoadVariant(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// variantFiles lists the variant files of dir (hall/ or ranked/) sorted by
// name, which is their order: both number their files. Temporary files of
// interrupted writes are left out; a missing directory has none.
func variantFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !isTemp(filepath.Base(dir), e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// loadVariants loads the variant files of dir in order.
func loadVariants(dir string) ([]strategies.Variant, error) {
	names, err := variantFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []strategies.Variant
	for _, n := range names {
		v, err := strategies.LoadVariant(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
