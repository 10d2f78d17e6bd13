package evolver

import (
	"context"
	"fmt"
	"time"

	"crucible/strategies"
)

// fingerprint gives the fingerprints of the proposals' genomes the search
// has never seen (by id) and of the hall's entries that have none yet (the
// base in the first generation), registering the hall's, and counts their
// probe matches in cache. It returns the new
// genomes' fingerprints by id; none when the evaluator gives none. check,
// when set, is called after the first few genomes' probes with the seconds
// a match took and the matches the rest of the generation plans.
func (s *search) fingerprint(ctx context.Context, st *searchState, props []proposal, cache *CacheStats, check func(spm float64, planned int) error) (map[string]string, error) {
	fp, ok := s.Evaluator.(fingerprinter)
	if !ok || fp.ProbeMatches() == 0 {
		return nil, nil
	}
	var genomes []strategies.Genome
	var ids []string
	var hall []*entry
	for _, id := range st.hall {
		if e := st.arch.get(id); e.Fingerprint == "" {
			hall = append(hall, e)
			genomes = append(genomes, s.Space.Genome(e.X))
		}
	}
	seen := map[string]bool{}
	for _, p := range props {
		x := s.Space.Canonical(p.X)
		id := s.Space.ID(x)
		if seen[id] || st.arch.get(id) != nil || st.alias[id] != "" {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
		genomes = append(genomes, s.Space.Genome(x))
	}
	if len(genomes) == 0 {
		return nil, nil
	}
	var fps []string
	if check != nil {
		// The first genomes' probes time a match: the estimate of the
		// whole generation, before most of it is spent. The first two
		// warm up; the rate is read off the next four, when there are.
		var spm float64
		for _, k := range []int{2, 4} {
			k = min(k, len(genomes))
			if k == 0 {
				break
			}
			t0 := time.Now()
			got, err := fp.Fingerprint(ctx, genomes[:k])
			if err != nil {
				return nil, fmt.Errorf("fingerprints: %w", err)
			}
			spm = time.Since(t0).Seconds() / float64(k*fp.ProbeMatches())
			fps, genomes = append(fps, got...), genomes[k:]
		}
		planned := len(genomes) * fp.ProbeMatches()
		if p, ok := s.Evaluator.(matchPlanner); ok {
			planned += p.PlannedMatches(len(props)+len(st.hall)+1, s.Seeds, min(max(0, s.HallOpponents), len(st.champions)))
		}
		if err := check(spm, planned); err != nil {
			return nil, err
		}
	}
	rest, err := fp.Fingerprint(ctx, genomes)
	if err != nil {
		return nil, fmt.Errorf("fingerprints: %w", err)
	}
	fps = append(fps, rest...)
	cache.ProbeMatches = len(fps) * fp.ProbeMatches()
	for i, e := range hall {
		e.Fingerprint = fps[i]
		if _, ok := st.fp[fps[i]]; !ok {
			st.fp[fps[i]] = e.ID
		}
	}
	out := make(map[string]string, len(ids))
	for i, id := range ids {
		out[id] = fps[len(hall)+i]
	}
	return out, nil
}

// reindex rebuilds the fingerprint index from the archive (the first
// entry by id of each fingerprint) and drops the aliases of entries the
// archive no longer holds.
func (st *searchState) reindex() {
	st.fp = map[string]string{}
	for _, e := range st.arch.list() {
		if _, ok := st.fp[e.Fingerprint]; e.Fingerprint != "" && !ok {
			st.fp[e.Fingerprint] = e.ID
		}
	}
	for id, to := range st.alias {
		if st.arch.get(to) == nil {
			delete(st.alias, id)
		}
	}
}
