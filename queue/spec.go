package queue

import (
	"encoding/json"
	"fmt"
	"strings"

	"crucible/arena"
	"crucible/games"
	"crucible/strategies"
)

// RemoteStrategy is the Strategy of an arena entrant that is a remote bot
// (games.Game.Remote names it by its URL).
const RemoteStrategy = "remote"

// EntrantSpec is an arena entrant as stored with a run: enough for any
// worker to build the same entrant again. A strategy entrant is its
// strategy and parameter values; a remote bot is its URL (the shared
// secret is the worker's own, never stored).
type EntrantSpec struct {
	Name      string             `json:"name"`
	Strategy  string             `json:"strategy"`
	VariantID string             `json:"variant,omitempty"`
	Params    map[string]float64 `json:"params,omitempty"`
	URL       string             `json:"url,omitempty"`
}

// Specs describes entrants of game for storing. An entrant that is neither
// a strategy of the registry at legal parameters nor a remote bot cannot
// be rebuilt by a worker and is an error naming it.
func Specs(reg *strategies.Registry, game string, entrants []arena.Entrant) ([]EntrantSpec, error) {
	out := make([]EntrantSpec, len(entrants))
	for i, e := range entrants {
		if e.Strategy == RemoteStrategy {
			if !strings.HasPrefix(e.Name, "http://") && !strings.HasPrefix(e.Name, "https://") {
				return nil, fmt.Errorf("entrant %d (%s) is a remote bot whose name is not its URL", i, e.Name)
			}
			out[i] = EntrantSpec{Name: e.Name, Strategy: RemoteStrategy, URL: e.Name}
			continue
		}
		s, err := reg.Lookup(game, e.Strategy)
		if err != nil {
			return nil, fmt.Errorf("entrant %d (%s): %w", i, e.Name, err)
		}
		if _, err := s.Schema.FromMap(e.Params); err != nil {
			return nil, fmt.Errorf("entrant %d (%s): its parameters do not fit strategy %s: %w", i, e.Name, s.Name, err)
		}
		out[i] = EntrantSpec{Name: e.Name, Strategy: e.Strategy, VariantID: e.VariantID, Params: e.Params}
	}
	return out, nil
}

// Build makes the arena entrants of specs for game. secret signs the
// requests to remote bots ("" for the game's environment variables).
func Build(reg *strategies.Registry, game string, specs []EntrantSpec, secret string) ([]arena.Entrant, error) {
	out := make([]arena.Entrant, len(specs))
	for i, sp := range specs {
		if sp.Strategy == RemoteStrategy {
			g, err := games.Lookup(game)
			if err != nil {
				return nil, err
			}
			if g.Remote == nil {
				return nil, fmt.Errorf("entrant %d (%s): game %s has no remote bots", i, sp.Name, game)
			}
			e, err := g.Remote(sp.URL, secret)
			if err != nil {
				return nil, fmt.Errorf("entrant %d: %w", i, err)
			}
			e.Name = sp.Name
			out[i] = e
			continue
		}
		s, err := reg.Lookup(game, sp.Strategy)
		if err != nil {
			return nil, fmt.Errorf("entrant %d (%s): %w", i, sp.Name, err)
		}
		g, err := s.Schema.FromMap(sp.Params)
		if err != nil {
			return nil, fmt.Errorf("entrant %d (%s): %w", i, sp.Name, err)
		}
		out[i] = arena.StrategyEntrant(s, sp.Name, sp.VariantID, g)
	}
	return out, nil
}

// wireJob is an arena.Job as stored in queue_batches.
type wireJob struct {
	ID    string `json:"i"`
	Round int    `json:"r"`
	Seed  uint64 `json:"s"`
	Seats []int  `json:"p"`
}

// encodeJobs is the JSON of a batch's jobs.
func encodeJobs(jobs []arena.Job) (string, error) {
	w := make([]wireJob, len(jobs))
	for i, j := range jobs {
		w[i] = wireJob{ID: j.ID, Round: j.Round, Seed: j.Seed, Seats: j.Seats}
	}
	data, err := json.Marshal(w)
	return string(data), err
}

// decodeJobs reads a batch's jobs.
func decodeJobs(text string) ([]arena.Job, error) {
	var w []wireJob
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		return nil, err
	}
	out := make([]arena.Job, len(w))
	for i, j := range w {
		out[i] = arena.Job{ID: j.ID, Round: j.Round, Seed: j.Seed, Seats: j.Seats}
	}
	return out, nil
}

// hasRemote tells whether any job of jobs seats a remote bot, and lists
// the distinct URLs of each job's remote seats.
func remoteURLs(entrants []arena.Entrant, job arena.Job) []string {
	var urls []string
	for _, s := range job.Seats {
		e := entrants[s]
		if e.Strategy == RemoteStrategy {
			dup := false
			for _, u := range urls {
				dup = dup || u == e.Name
			}
			if !dup {
				urls = append(urls, e.Name)
			}
		}
	}
	return urls
}
