package games

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/strategies"
)

// Viewer is how a game's matches become a self-contained HTML page: what
// crucible replay reads and what crucible arena --replays writes beside
// each replay.
type Viewer struct {
	// Flag is the crucible replay flag that names a replay of the game
	// ("replay": --replay FILE).
	Flag string
	// What names such a file for help texts and messages: "AI Code Battle
	// replay (crucible-acb-replay/1 JSON)".
	What string
	// Help is a paragraph of crucible replay --help: what the page shows.
	Help string
	// Write writes the page of the replay data to w; a document that is not
	// one of the game's replays is an error saying why.
	Write func(w io.Writer, data []byte) error
	// Recognize reports whether data looks like one of the game's replays,
	// for the hint when another game's viewer refuses it (nil: no hint).
	Recognize func(data []byte) bool
}

// Bench is what crucible bench measures of one game besides the arena
// round robin of its strategies.
type Bench struct {
	// Help describes the game's engine figures for crucible bench --help.
	Help string
	// Seeds is the default seeds of the game's arena round robin (about a
	// second of play).
	Seeds int
	// Workload adds the game's own flags to fs (crucible bench
	// --acb-matches, say) and returns the engine measure, which reads
	// them.
	Workload func(fs *pflag.FlagSet) BenchWorkload
}

// BenchWorkload is the engine measure of one game.
type BenchWorkload struct {
	// Check validates the game's bench flags before anything is measured
	// (nil: nothing to check).
	Check func() error
	// Run measures the engine on this machine.
	Run func(ctx context.Context, reg *strategies.Registry) ([]Figure, error)
}

// Figure is one measured line of crucible bench: Count units of work
// (Unit: "turn", "match") that took CPU of the process's CPU time (user
// and system, every thread: see crucible/internal/cpuclock) and Wall of
// elapsed time. crucible bench reports the CPU time per unit, min, median
// and max over its --repeats runs, with the wall time beside it: CPU time
// is what other load on the machine disturbs least.
type Figure struct {
	What  string
	Unit  string
	Count int
	CPU   time.Duration
	Wall  time.Duration
	// Note says what the figure is for (a target, say).
	Note string
}

// MatchCommand is a game's `crucible match GAME` subcommand: its help, its
// flags and what plays the match with them.
type MatchCommand struct {
	// Short is the one-line summary, Long the help text with examples.
	Short, Long string
	// Flags defines the subcommand's flags on fs and returns what plays the
	// match with their values.
	Flags func(fs *pflag.FlagSet) MatchFunc
	// Required lists the flags that must be given.
	Required []string
}

// MatchFunc plays one match, printing it to out.
type MatchFunc func(ctx context.Context, env MatchEnv, out io.Writer) error

// MatchEnv is what the command line lends a match subcommand: the ways all
// commands share of resolving players, reading configurations and writing
// files.
type MatchEnv struct {
	// Registry holds every strategy of every game.
	Registry *strategies.Registry
	// Player resolves one player item of the game (a strategy name, a
	// variant .json file, an http:// bot), as crucible arena's --players
	// does; secret signs remote bots ("" for the environment).
	Player func(item, secret string) ([]arena.Entrant, error)
	// Config returns the JSON that a --config value names: a file, or one
	// of the game's presets.
	Config func(value string) ([]byte, error)
	// CheckOut refuses an output path that exists or cannot be written,
	// before the match is played; WriteOut writes it atomically. flag names
	// the option in errors.
	CheckOut func(flag, path string) error
	WriteOut func(flag, path string, data []byte) error
}

// ConfigHelp is the help text of a --config flag that takes a file or a
// preset of gs.
func ConfigHelp(gs ...Game) string {
	var ps []string
	for _, g := range gs {
		for _, p := range g.Presets {
			ps = append(ps, fmt.Sprintf("%s (%s: %s)", p.Name, g.Name, p.Description))
		}
	}
	help := "game configuration: a JSON file whose fields left out keep the game's defaults"
	if len(ps) > 0 {
		help += ", or a preset: " + strings.Join(ps, "; ")
	}
	return help
}

// CommandEnv is what the command line lends a game's own commands (its
// protocol's server, its agent, its tools).
type CommandEnv struct {
	// Registry builds the registry of every strategy of every game.
	Registry func() (*strategies.Registry, error)
	// CheckOut refuses an output path that exists or cannot be written;
	// WriteOut writes it atomically. flag names the option in errors.
	CheckOut func(flag, path string) error
	WriteOut func(flag, path string, data []byte) error
}

// Commands builds a game's own top-level commands with env.
type Commands func(env CommandEnv) []*cobra.Command

// StrategyOrVariant resolves the --strategy NAME / --variant FILE pair of a
// command that plays one player of game (exactly one of the two is given)
// to the strategy, its genome and a display label. hint says what to do
// with a variant of another game.
func StrategyOrVariant(reg *strategies.Registry, game, strategy, variant, hint string) (strategies.Strategy, strategies.Genome, string, error) {
	switch {
	case strategy != "" && variant != "":
		return strategies.Strategy{}, nil, "", errors.New("give --strategy or --variant, not both")
	case strategy != "":
		s, err := reg.Lookup(game, strategy)
		if err != nil {
			return strategies.Strategy{}, nil, "", err
		}
		return s, s.Schema.Defaults(), s.Name, nil
	case variant != "":
		r, err := LoadVariant(reg, game, variant)
		if err != nil {
			var other *OtherGameError
			if errors.As(err, &other) {
				return strategies.Strategy{}, nil, "", fmt.Errorf("variant %s is for game %s; %s", variant, other.Got, hint)
			}
			return strategies.Strategy{}, nil, "", err
		}
		return r.Strategy, r.Genome, r.Variant.Label(), nil
	}
	return strategies.Strategy{}, nil, "", errors.New("give --strategy NAME or --variant FILE")
}

// OtherGameError is LoadVariant's error for a variant of another game.
type OtherGameError struct{ Got, Want string }

func (e *OtherGameError) Error() string {
	return fmt.Sprintf("a variant of game %s, but the game played is %s", e.Got, e.Want)
}

// LoadVariant reads a variant file of game and resolves it, the one way the
// commands read a variant file: a hand-written file may leave out the id
// and any parameter, which take their computed value and defaults; every
// parameter must be known and legal. A variant of another game is an
// *OtherGameError. The resolved variant's Notice says when its id was
// computed by an earlier version.
func LoadVariant(reg *strategies.Registry, game, path string) (strategies.Resolved, error) {
	v, err := strategies.LoadVariant(path)
	if err != nil {
		return strategies.Resolved{}, err
	}
	if v.Game != game {
		return strategies.Resolved{}, &OtherGameError{Got: v.Game, Want: game}
	}
	return reg.Check(v)
}
