package evolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

type checkpoint struct {
	Format      string            `json:"format"`
	Meta        json.RawMessage   `json:"meta,omitempty"`
	Algorithm   string            `json:"algorithm"`
	Seed        uint64            `json:"seed"`
	Generations int               `json:"generations"`
	ElapsedMS   float64           `json:"elapsed_ms"`
	Matches     int               `json:"matches"`
	RefSum      float64           `json:"ref_sum"`
	Hall        []string          `json:"hall"`
	Champions   []string          `json:"champions"`
	Archive     []entry           `json:"archive"`
	Aliases     map[string]string `json:"aliases,omitempty"`
	Cache       CacheStats        `json:"cache"`
	State       json.RawMessage   `json:"state"`
}

// readCheckpoint reads the checkpoint of dir; an error names the file.
func readCheckpoint(dir string) (*checkpoint, error) {
	path := filepath.Join(dir, CheckpointFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cp.Format != checkpointKind {
		return nil, fmt.Errorf("%s: format %q, expected %q", path, cp.Format, checkpointKind)
	}
	return &cp, nil
}

// load starts a fresh state or restores the checkpoint. Whatever a run
// killed at any point left beyond its checkpoint goes: temporary files of
// interrupted writes, the lines and hall files of a generation the
// checkpoint does not cover. A fresh state is checkpointed at once, so that
// a run killed in its first generation resumes with its identity.
func (s *search) load() (*searchState, error) {
	if err := removeTemps(s.Dir); err != nil {
		return nil, err
	}
	st := &searchState{arch: newArchive(), fp: map[string]string{}, alias: map[string]string{}}
	baseX := s.Space.Origin()
	if s.Resume {
		cp, err := readCheckpoint(s.Dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if cp.Algorithm != s.Algorithm.Name() || cp.Seed != s.Seed {
				return nil, fmt.Errorf("checkpoint in %s is of algorithm %s with seed %d, not %s with seed %d", s.Dir, cp.Algorithm, cp.Seed, s.Algorithm.Name(), s.Seed)
			}
			for _, e := range cp.Archive {
				st.arch.byID[e.ID] = &e
			}
			for _, id := range append(append([]string(nil), cp.Hall...), cp.Champions...) {
				if st.arch.get(id) == nil {
					return nil, fmt.Errorf("checkpoint in %s names variant %s that its archive lacks", s.Dir, id)
				}
			}
			st.hall, st.champions = cp.Hall, cp.Champions
			for id, to := range cp.Aliases {
				st.alias[id] = to
			}
			st.cache = cp.Cache
			st.reindex()
			st.done, st.matches, st.refSum = cp.Generations, cp.Matches, cp.RefSum
			st.elapsed = time.Duration(cp.ElapsedMS * float64(time.Millisecond))
			if err := s.Algorithm.Restore(cp.Generations, cp.State); err != nil {
				return nil, err
			}
			if err := s.truncateLines(filepath.Join(s.Dir, GenerationsFile), cp.Generations); err != nil {
				return nil, err
			}
			if err := s.pruneHall(st); err != nil {
				return nil, err
			}
			return st, nil
		}
	}
	base := st.arch.ensure(s.Space.ID(baseX), baseX, nil, 0)
	st.hall = []string{base.ID}
	if err := os.Remove(filepath.Join(s.Dir, GenerationsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := s.pruneHall(st); err != nil {
		return nil, err
	}
	if err := s.checkpoint(st); err != nil {
		return nil, err
	}
	return st, nil
}

// hallFile is the name in the hall directory of the i-th champion (from
// 0), id.
func hallFile(i int, id string) string { return fmt.Sprintf("%03d-%s.json", i+1, id) }

// pruneHall removes from the hall directory every file that is not one of
// the state's champions: those of a generation the checkpoint does not
// cover.
func (s *search) pruneHall(st *searchState) error {
	dir := filepath.Join(s.Dir, HallDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for i, id := range st.champions {
		keep[hallFile(i, id)] = true
	}
	for _, e := range entries {
		if e.IsDir() || keep[e.Name()] || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// truncateLines keeps the first n lines of a file (the generations a
// checkpoint covers; a killed run may have written one more, or half of
// one).
func (s *search) truncateLines(path string, n int) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if n == 0 {
			return nil
		}
		return fmt.Errorf("%s is missing but the checkpoint covers %d generations", path, n)
	}
	if err != nil {
		return err
	}
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(data[off:], '\n')
		if j < 0 {
			return fmt.Errorf("%s has %d complete lines but the checkpoint covers %d generations", path, i, n)
		}
		off += j + 1
	}
	if off == len(data) {
		return nil
	}
	return s.files.atomic(path, data[:off])
}

// record appends the generation's line, writes new champions to the hall
// directory and the checkpoint, in that order (a checkpoint never covers a
// generation whose line or hall file is missing), and reports the
// generation (its Budget the session's with prior, the earlier sessions'
// time, added: the run's budget so far).
func (s *search) record(st *searchState, gs GenStats, prior time.Duration) error {
	line, err := json.Marshal(gs)
	if err != nil {
		return err
	}
	if err := s.files.appendLine(filepath.Join(s.Dir, GenerationsFile), line); err != nil {
		return fmt.Errorf("writing %s: %w", GenerationsFile, err)
	}
	if err := s.writeHall(st); err != nil {
		return err
	}
	if err := s.checkpoint(st); err != nil {
		return err
	}
	budget := time.Duration(0)
	if s.Budget > 0 {
		budget = prior + s.Budget
	}
	emit(s.Progress, GenerationDone{Stats: gs, Generations: max(0, s.Generations), Budget: budget, Elapsed: st.elapsed})
	return nil
}

// checkpoint writes the state after st.done generations.
func (s *search) checkpoint(st *searchState) error {
	state, err := s.Algorithm.State()
	if err != nil {
		return err
	}
	cp := checkpoint{
		Format: checkpointKind, Meta: s.Meta, Algorithm: s.Algorithm.Name(), Seed: s.Seed,
		Generations: st.done, ElapsedMS: ms(st.elapsed), Matches: st.matches, RefSum: st.refSum,
		Hall: st.hall, Champions: st.champions, Archive: st.arch.list(), State: state, Aliases: st.alias, Cache: st.cache,
	}
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	if err := s.files.atomic(filepath.Join(s.Dir, CheckpointFile), append(data, '\n')); err != nil {
		return fmt.Errorf("writing checkpoint: %w", err)
	}
	return nil
}

// writeHall writes every recorded champion so far as a variant file in
// the hall directory (the files of earlier champions stay: they are the
// hall of fame of the run).
func (s *search) writeHall(st *searchState) error {
	dir := filepath.Join(s.Dir, HallDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, id := range st.champions {
		path := filepath.Join(dir, hallFile(i, id))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		e := st.arch.get(id)
		v := s.Space.Variant(e.X, e.Parents...)
		v.Fingerprint = e.Fingerprint
		v.Note = fmt.Sprintf("champion %d of the search, from generation %d: fitness %.3f (score rate %.3f over %.0f pairwise games)", i+1, st.done-1, e.Fitness, e.Mean(), e.Games)
		if err := s.files.variant(path, v); err != nil {
			return err
		}
	}
	return nil
}
