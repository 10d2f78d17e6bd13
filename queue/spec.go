package queue

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/strategies"
)

// RemoteStrategy is the Strategy of an arena entrant that is a remote bot
// (the games table names it by its URL).
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
	// Bot is an outside bot's manifest (../shared/specs/bots.md), values
	// filled in and folder absolute: a worker starts the bot from it on
	// its own machine (see BotGames).
	Bot string `json:"bot,omitempty"`
}

// Specs describes entrants of game for storing. An entrant that is neither
// a strategy of the registry at legal parameters nor a remote bot cannot
// be rebuilt by a worker and is an error naming it.
func Specs(reg *strategies.Registry, game string, entrants []arena.Entrant) ([]EntrantSpec, error) {
	return SpecsWithBots(reg, game, entrants, nil)
}

// SpecsWithBots is Specs for a run with outside bots: manifests maps the
// name of each entrant that is one to its manifest (see EntrantSpec.Bot).
func SpecsWithBots(reg *strategies.Registry, game string, entrants []arena.Entrant, manifests map[string]string) ([]EntrantSpec, error) {
	out := make([]EntrantSpec, len(entrants))
	for i, e := range entrants {
		if m, ok := manifests[e.Name]; ok {
			out[i] = EntrantSpec{Name: e.Name, Strategy: e.Strategy, VariantID: e.VariantID, Params: e.Params, Bot: m}
			continue
		}
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

// Build makes the arena entrants of specs for game: strategies from reg,
// remote bots from gs. secret signs the requests to remote bots ("" for
// the game's environment variables).
func Build(gs Games, reg *strategies.Registry, game string, specs []EntrantSpec, secret string) ([]arena.Entrant, error) {
	out := make([]arena.Entrant, len(specs))
	for i, sp := range specs {
		if sp.Bot != "" {
			e, err := buildBot(gs, game, sp)
			if err != nil {
				return nil, fmt.Errorf("entrant %d (%s): %w", i, sp.Name, err)
			}
			out[i] = e
			continue
		}
		if sp.Strategy == RemoteStrategy {
			e, err := gs.Remote(game, sp.URL, secret)
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

// encodeJobs is the text of a batch's jobs in queue_batches: one line a
// job, "id<TAB>round<TAB>seed<TAB>seat,seat,...". (A worker decodes it
// ten times faster than JSON: 0.2 µs a job, against 2 µs, which matters
// beside Kindling's 100 µs matches.)
func encodeJobs(jobs []arena.Job) (string, error) {
	var b strings.Builder
	for _, j := range jobs {
		if j.ID == "" || strings.ContainsAny(j.ID, "\t\n") {
			return "", fmt.Errorf("job id %q: want a non-empty id without tabs or newlines", j.ID)
		}
		b.WriteString(j.ID)
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(j.Round))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatUint(j.Seed, 10))
		b.WriteByte('\t')
		for k, s := range j.Seats {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(s))
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// decodeJobs reads a batch's jobs.
func decodeJobs(text string) ([]arena.Job, error) {
	out := make([]arena.Job, 0, strings.Count(text, "\n"))
	for n := 1; text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("job line %d %q: want 4 tab-separated fields", n, line)
		}
		round, err1 := strconv.Atoi(f[1])
		seed, err2 := strconv.ParseUint(f[2], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("job line %d %q: %w", n, line, err)
		}
		var seats []int
		for _, x := range strings.Split(f[3], ",") {
			v, err := strconv.Atoi(x)
			if err != nil {
				return nil, fmt.Errorf("job line %d %q: seat: %w", n, line, err)
			}
			seats = append(seats, v)
		}
		out = append(out, arena.Job{ID: f[0], Round: round, Seed: seed, Seats: seats})
	}
	return out, nil
}

// remoteURLs lists the distinct URLs of the remote bots job seats.
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
