// Package toygame is a third game for the tests of the command line: a
// table entry and its own package, nothing else. Its rules: each of
// Rounds rounds, every seat calls a number 0..9; the highest number
// called by one seat alone scores a point for that seat (a number called
// twice scores nothing). The match log is {"toy": 1, "calls": [[...], ...],
// "scores": [...]}.
//
// TestAThirdGameTouchesNoFileOutsideItsPackage (cmd/crucible) plays it
// through the arena, match, bench, replay and viewer-page paths that its
// entry enables; nothing outside this package and the table it is added to
// names it.
package toygame

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/engine"
	"crucible/games"
	"crucible/internal/cpuclock"
	"crucible/strategies"
	"crucible/viewer"
)

// Name is the game's name.
const Name = "toy"

// Rounds is the rounds of a match.
const Rounds = 5

// Caller is a seat's player: it calls a number 0..9 each round.
type Caller interface{ Call(round int) int }

// Rules are the toy game's rules.
type Rules struct{}

var _ engine.Game = Rules{}

func (Rules) Name() string          { return Name }
func (Rules) SeatRange() (int, int) { return 2, 4 }
func (Rules) DefaultConfig() any    { return nil }
func (Rules) ParseConfig([]byte) (any, error) {
	return nil, errors.New("the toy game has no configuration")
}

// Log is a match's log document.
type Log struct {
	Toy    int     `json:"toy"`
	Seed   uint64  `json:"seed"`
	Calls  [][]int `json:"calls"`
	Scores []int   `json:"scores"`
}

// Play plays one match.
func (Rules) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	n := len(spec.Seats)
	if n < 2 || n > 4 {
		return engine.Result{}, fmt.Errorf("toy: %d seats, want 2 to 4", n)
	}
	callers := make([]Caller, n)
	for i, s := range spec.Seats {
		c, ok := s.Player.(Caller)
		if !ok {
			return engine.Result{}, &engine.PlayerError{Seat: i, Name: s.Name, Err: fmt.Errorf("%T is not a toy Caller", s.Player)}
		}
		callers[i] = c
	}
	lg := Log{Toy: 1, Seed: spec.Seed, Scores: make([]int, n)}
	for r := range Rounds {
		if err := ctx.Err(); err != nil {
			return engine.Result{}, err
		}
		calls := make([]int, n)
		for i, c := range callers {
			calls[i] = min(9, max(0, c.Call(r)))
		}
		best := -1
		for i, v := range calls {
			alone := true
			for j, w := range calls {
				alone = alone && (j == i || w != v)
			}
			if alone && (best < 0 || v > calls[best]) {
				best = i
			}
		}
		if best >= 0 {
			lg.Scores[best]++
		}
		lg.Calls = append(lg.Calls, calls)
	}
	scores := make([]float64, n)
	for i, s := range lg.Scores {
		scores[i] = float64(s)
	}
	if spec.Replay != nil {
		data, _ := json.Marshal(lg)
		if _, err := spec.Replay.Write(append(data, '\n')); err != nil {
			return engine.Result{}, err
		}
	}
	return engine.Result{Scores: scores, Ranks: engine.RanksFromScores(scores), Turns: Rounds, Reason: "rounds"}, nil
}

// caller calls aim, or a random number with probability 1 - focus.
type caller struct {
	aim   int
	focus float64
	rng   *rand.Rand
}

func (c *caller) Call(int) int {
	if c.rng.Float64() < c.focus {
		return c.aim
	}
	return c.rng.IntN(10)
}

// strategy is a caller strategy aiming at aim by default.
func strategy(name string, aim float64) strategies.Strategy {
	return strategies.Strategy{
		Game: Name, Name: name, Description: fmt.Sprintf("calls %v most of the time", aim),
		Schema: strategies.Schema{
			{Name: "aim", Description: "the number called", Min: 0, Max: 9, Default: aim, Integer: true},
			{Name: "focus", Description: "how often it calls its aim", Min: 0, Max: 1, Default: 0.8},
		},
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return &caller{aim: int(g[0]), focus: g[1], rng: rand.New(rand.NewPCG(seed, uint64(seat)))}
		},
	}
}

// All returns the toy game's strategies.
func All() []strategies.Strategy {
	return []strategies.Strategy{strategy("high", 9), strategy("low", 3), strategy("mid", 6)}
}

// Game returns the toy game's row of a table.
func Game() games.Game {
	return games.Game{
		Name:       Name,
		Title:      "Toy",
		Rules:      Rules{},
		Strategies: All,
		Elsewhere:  "toy bots play nowhere but here",
		Viewer: &games.Viewer{
			Flag:  "toy-log",
			What:  "toy log (JSON)",
			Help:  "A toy log (--toy-log) becomes a table of the calls.",
			Write: writePage,
			Recognize: func(data []byte) bool {
				var l Log
				return json.Unmarshal(data, &l) == nil && l.Toy == 1
			},
		},
		Bench: &games.Bench{
			Help:  "Toy: whole matches of two callers.",
			Seeds: 3,
			Workload: func(fs *pflag.FlagSet) games.BenchWorkload {
				n := fs.Int("toy-matches", 100, "toy matches timed, 1 to 1000")
				return games.BenchWorkload{
					Check: func() error {
						if *n < 1 || *n > 1000 {
							return fmt.Errorf("--toy-matches %d is outside its range 1..1000", *n)
						}
						return nil
					},
					Run: func(ctx context.Context, reg *strategies.Registry) ([]games.Figure, error) {
						return benchEngine(ctx, reg, *n)
					},
				}
			},
		},
		Commands: func(games.CommandEnv) []*cobra.Command {
			return []*cobra.Command{{
				Use:   "toy-rules",
				Short: "Print the toy game's rules",
				Args:  cobra.NoArgs,
				RunE: func(cmd *cobra.Command, _ []string) error {
					_, err := fmt.Fprintf(cmd.OutOrStdout(), "%d rounds; the highest number called by one seat alone scores\n", Rounds)
					return err
				},
			}}
		},
		Match: &games.MatchCommand{
			Short:    "Play one toy match",
			Long:     "Play one toy match and print the scores.\n\n  crucible match toy --players high,low --seed 3",
			Flags:    matchFlags,
			Required: []string{"players"},
		},
	}
}

// writePage writes the toy log's viewer page.
func writePage(w io.Writer, data []byte) error {
	var l Log
	if err := json.Unmarshal(data, &l); err != nil || l.Toy != 1 {
		return errors.New("not a toy log")
	}
	return viewer.Write(w, viewer.Page{
		Title:   fmt.Sprintf("Toy, seed %d", l.Seed),
		Kind:    Name,
		Body:    template.HTML(`<p id="scores"></p>`),
		Script:  `document.getElementById("scores").textContent = DATA.scores.join(" "); document.body.dataset.ready = "1";`,
		Data:    data,
		Derived: map[string]int{"rounds": len(l.Calls)},
	}, "toy log")
}

// benchEngine times n matches of high against low.
func benchEngine(ctx context.Context, reg *strategies.Registry, n int) ([]games.Figure, error) {
	var seats []engine.Seat
	for i, name := range []string{"high", "low"} {
		s, err := reg.Lookup(Name, name)
		if err != nil {
			return nil, err
		}
		seats = append(seats, engine.Seat{Name: name, Strategy: name, Player: s.New(s.Schema.Defaults(), uint64(i), i)})
	}
	meter := cpuclock.Start()
	for i := range n {
		if _, err := (Rules{}).Play(ctx, engine.MatchSpec{Seed: uint64(i), Seats: seats}); err != nil {
			return nil, err
		}
	}
	took := meter.Stop()
	return []games.Figure{{What: "engine: toy matches, 1 core", Unit: "match", Count: n, CPU: took.CPU, Wall: took.Wall}}, nil
}

// matchFlags defines `crucible match toy`.
func matchFlags(fs *pflag.FlagSet) games.MatchFunc {
	players := fs.String("players", "", "comma-separated players in seat order (required)")
	seed := fs.Uint64("seed", 1, "match seed")
	logPath := fs.String("log", "", "write the match log to this file")
	return func(ctx context.Context, env games.MatchEnv, out io.Writer) error {
		if *logPath != "" {
			if err := env.CheckOut("--log", *logPath); err != nil {
				return err
			}
		}
		var seats []engine.Seat
		for i, item := range strings.Split(*players, ",") {
			es, err := env.Player(item, "")
			if err != nil {
				return err
			}
			p, err := es[0].New(ctx, engine.SeatSeed(*seed, i), i)
			if err != nil {
				return err
			}
			seats = append(seats, engine.Seat{Name: es[0].Name, Strategy: es[0].Strategy, Params: es[0].Params, Player: p})
		}
		var buf bytes.Buffer
		res, err := (Rules{}).Play(ctx, engine.MatchSpec{Seed: *seed, Seats: seats, Replay: &buf})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "toy match, seed %d:", *seed)
		for i, s := range seats {
			fmt.Fprintf(out, " %s %v", s.Name, res.Scores[i])
		}
		fmt.Fprintln(out)
		if *logPath != "" {
			return env.WriteOut("--log", *logPath, buf.Bytes())
		}
		return nil
	}
}
