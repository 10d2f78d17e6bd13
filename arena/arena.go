// Package arena plays many headless matches of one game in parallel and
// streams their results: schedules (round robin, gauntlet, free-for-all),
// a worker pool, the JSON-lines results file that --resume continues, the
// glue from results to leaderboards (Collector, Leaderboard; package
// arena/rating), and the sequential test that plays seat-swapped pairs
// until it decides (PlaySPRT; package crucible/stats).
//
// The arena knows games only through engine.Game and players only through
// Entrant constructors: it never imports a game's package or one of the
// strategy packages (only package strategies, the contract of every
// strategy, for StrategyEntrant).
package arena

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"crucible/engine"
	"crucible/strategies"
)

// Entrant is a participant as the arena sees it.
type Entrant struct {
	// Name is the participant's display name, unique within the run.
	Name string
	// Strategy is the base strategy's name.
	Strategy string
	// VariantID is the variant's id, "" for a strategy at its defaults.
	VariantID string
	// Params are the parameter values, recorded in replays.
	Params map[string]float64
	// New builds a fresh player for one match. ctx is the run's context:
	// a constructor that waits (a remote bot's health check) gives up when
	// it ends. seed is the seat's own seed, engine.SeatSeed(match seed,
	// seat), and seat its index in the match. It is called from many goroutines at once and must not share
	// mutable state between the players it returns. A player that
	// implements io.Closer is closed once its match is over.
	New func(ctx context.Context, seed uint64, seat int) (engine.Player, error)
}

// Ref returns the entrant's identity as recorded in results.
func (e Entrant) Ref() PlayerRef {
	return PlayerRef{Name: e.Name, Strategy: e.Strategy, VariantID: e.VariantID}
}

// StrategyEntrant makes an entrant named name that plays strategy s with
// genome g (legal for s's schema); variantID is "" for the strategy's
// defaults. Each match gets a fresh player from s.New with its own copy of
// the genome, the seat's seed and the seat, so a constructor that keeps or
// writes into its genome shares nothing between matches; a constructor
// that returns no player fails the match with an error naming the
// strategy.
func StrategyEntrant(s strategies.Strategy, name, variantID string, g strategies.Genome) Entrant {
	g = slices.Clone(g)
	return Entrant{
		Name:      name,
		Strategy:  s.Name,
		VariantID: variantID,
		Params:    s.Schema.Map(g),
		New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			p := s.New(slices.Clone(g), seed, seat)
			if p == nil {
				return nil, fmt.Errorf("strategy %s built no player", s.Name)
			}
			return p, nil
		},
	}
}

// Names returns the entrants' names in order.
func Names(entrants []Entrant) []string {
	out := make([]string, len(entrants))
	for i, e := range entrants {
		out[i] = e.Name
	}
	return out
}

// PlayerRef identifies one seat's participant in a Record.
type PlayerRef struct {
	Name      string `json:"name"`
	Strategy  string `json:"strategy"`
	VariantID string `json:"variant,omitempty"`
}

// Record is one finished match: one JSON line of the results file. Every
// field but DurationMS depends only on the job, the entrants and the game,
// so the same schedule gives the same lines at any worker count.
type Record struct {
	// Job is the job's id within its schedule (see Job.ID).
	Job string `json:"job"`
	// Game is the game's name.
	Game string `json:"game"`
	// Config identifies the game configuration the match was played with
	// (see ConfigID); --resume refuses results of another configuration.
	Config string `json:"config,omitempty"`
	// Round is the rating period the match belongs to.
	Round int `json:"round"`
	// Seed is the match seed.
	Seed uint64 `json:"seed"`
	// Players are the participants in seat order.
	Players []PlayerRef `json:"players"`
	// Scores, Ranks, Turns, Reason and Crashed are the engine's Result
	// (ranks: 1 is best, ties share a place). Empty when Error is set.
	Scores  []float64 `json:"scores"`
	Ranks   []int     `json:"ranks"`
	Turns   int       `json:"turns"`
	Reason  string    `json:"reason"`
	Crashed []bool    `json:"crashed,omitempty"`
	// Adjudicated is the engine's Result.Adjudicated: the match stopped
	// early with the result playing on would give (omitted when false).
	Adjudicated bool `json:"adjudicated,omitempty"`
	// Detail is the engine's game-specific per-seat figures
	// (engine.Result.Detail), for callers that measure what the players
	// did; it is not written to results files.
	Detail any `json:"-"`
	// Error is set when the match failed; it names the failing player's
	// strategy and the seed. A failed match does not count in ratings.
	Error string `json:"error,omitempty"`
	// DurationMS is the wall-clock time in milliseconds the worker spent
	// on the match (building its players and playing it, and keeping its
	// replay), the only field that varies between runs.
	DurationMS float64 `json:"duration_ms"`
}

// ConfigID identifies a configuration of game g in results: the first 12
// hex digits of the SHA-256 of its JSON encoding. A nil cfg stands for
// g.DefaultConfig(), so leaving the configuration out and spelling out the
// defaults give the same id; a game without a configuration gives "".
func ConfigID(g engine.Game, cfg any) (string, error) {
	if cfg == nil {
		cfg = g.DefaultConfig()
	}
	if cfg == nil {
		return "", nil
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return "", fmt.Errorf("encoding the %s configuration: %w", g.Name(), err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6]), nil
}
