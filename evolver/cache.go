package evolver

import (
	"context"
	"fmt"

	"crucible/strategies"
)

// CacheStats counts what the behaviour cache (Search.Fingerprint) saved:
// proposals that were not measured because a variant measured before or in
// the same generation behaves alike. Saved counts them (ByFingerprint of
// them differed in their genome, the others were a genome already
// measured), SavedMatches the matches they would have played, and
// ProbeMatches the matches the fingerprints themselves cost.
type CacheStats struct {
	Saved         int `json:"saved"`
	ByFingerprint int `json:"by_fingerprint"`
	SavedMatches  int `json:"saved_matches"`
	ProbeMatches  int `json:"probe_matches"`
}

// add adds o to c.
func (c *CacheStats) add(o CacheStats) {
	c.Saved += o.Saved
	c.ByFingerprint += o.ByFingerprint
	c.SavedMatches += o.SavedMatches
	c.ProbeMatches += o.ProbeMatches
}

// fingerprint gives the fingerprints of the proposals' genomes the search
// has never seen (by id) and of the hall's entries that have none yet (the
// base in the first generation), registering the hall's. It returns the new
// genomes' fingerprints by id; none without a Fingerprinter.
func (s *Search) fingerprint(ctx context.Context, st *searchState, props []Proposal, gs *GenStats) (map[string]string, error) {
	if s.Fingerprint == nil {
		return nil, nil
	}
	var genomes []strategies.Genome
	var ids []string
	var hall []*Entry
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
	fps, err := s.Fingerprint.Fingerprint(ctx, genomes)
	if err != nil {
		return nil, fmt.Errorf("fingerprints: %w", err)
	}
	gs.Cache.ProbeMatches = len(genomes) * s.Fingerprint.ProbeMatches()
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
