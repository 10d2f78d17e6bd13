package acbgame

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/pflag"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/games"
)

// matchOptions are the flags of `crucible match acb`.
type matchOptions struct {
	players     string
	seed        uint64
	configPath  string
	mapPath     string
	replayPath  string
	secret      string
	allowUnfair bool
}

// match is `crucible match acb`.
var match = games.MatchCommand{
	Short: "Play one AI Code Battle match and print the result",
	Long: `Play one AI Code Battle match headless and print the winner, the reason the
match ended, the number of turns and each player's score, energy, living units
and cores.

Players are acb strategy names (see 'crucible strategies --game acb') with
their default parameters, or variant files (FILE.json) with their own; the
engine's built-in players 'idle' (never moves) and 'random' (random valid
moves) are accepted too. http://HOST:PORT plays a remote HTTP bot (the shared
secret comes from --secret, else $ACB_SECRET, else $SHARED_SECRET).

2, 3, 4 or 6 players play on a map generated from the seed (rows and cols may
be adjusted so that every seat is equivalent, e.g. 39x39 for 3 or 6 players);
--map plays a JSON map file instead (any player count its cores allow). A map
file must be fair like a generated map: every seat equivalent under a symmetry
of the grid (a rotation by 90 or 180 degrees then a translation, or a
translation), at least one energy tile, and no open tile the cores cannot
reach; --allow-unfair-map plays one that is not, with a note saying why.

  crucible match acb --players random,idle --seed 42
  crucible match acb --players gatherer,rusher,random --seed 7 --replay m.json
  crucible match acb --players random,random --config cfg.json --map arena.json`,
	Flags:    matchFlags,
	Required: []string{"players"},
}

// matchFlags defines the flags of `crucible match acb`.
func matchFlags(f *pflag.FlagSet) games.MatchFunc {
	var o matchOptions
	f.StringVar(&o.players, "players", "", "comma-separated players in seat order, 2..6 of them: strategy names, variant files (.json), idle, random or http://HOST:PORT bots (required)")
	f.Uint64Var(&o.seed, "seed", 1, "match seed: drives the map and the players' random generators")
	f.StringVar(&o.configPath, "config", "", games.ConfigHelp(games.Game{Name: Name, Presets: presets()}))
	f.StringVar(&o.mapPath, "map", "", "JSON map file (the replay's map shape) instead of a generated map")
	f.BoolVar(&o.allowUnfair, "allow-unfair-map", false, "play a --map that is not fair (seats not equivalent, no energy, unreachable tiles) instead of refusing it")
	f.StringVar(&o.replayPath, "replay", "", "write the match's replay ("+acb.ReplayFormat+" JSON) to this file")
	f.StringVar(&o.secret, "secret", "", "shared secret of http:// bots (default $ACB_SECRET, else $SHARED_SECRET; a flag shows in the process list)")
	return func(ctx context.Context, env games.MatchEnv, out io.Writer) error {
		return runMatch(ctx, env, out, o)
	}
}

// seatsOf resolves player names to seats with env.Player (strategy names,
// variant files, remote bots), then the engine's built-ins. The same name
// may sit in several seats.
func seatsOf(ctx context.Context, env games.MatchEnv, names []string, seed uint64, secret string) ([]engine.Seat, error) {
	reg := env.Registry
	seats := make([]engine.Seat, len(names))
	for i, name := range names {
		name = strings.TrimSpace(name)
		seatSeed := engine.SeatSeed(seed, i)
		if name == "idle" && !slices.Contains(reg.Names(Name), name) {
			seats[i] = engine.Seat{Name: name, Strategy: name, Player: acb.Idle{}}
			continue
		}
		if name == "all" {
			return nil, fmt.Errorf("player all: name the players of a match one by one")
		}
		es, err := env.Player(name, secret)
		if err != nil {
			if !strings.HasPrefix(name, "http://") && !strings.HasPrefix(name, "https://") && !strings.HasSuffix(name, ".json") {
				known := append(reg.Names(Name), "idle")
				slices.Sort(known)
				return nil, fmt.Errorf("unknown acb player %q (known: %s)", name, strings.Join(known, ", "))
			}
			return nil, err
		}
		e := es[0]
		p, err := e.New(ctx, seatSeed, i)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
		seats[i] = engine.Seat{Name: e.Name, Strategy: e.Strategy, Params: e.Params, Player: p}
	}
	return seats, nil
}

func runMatch(ctx context.Context, env games.MatchEnv, out io.Writer, o matchOptions) error {
	names := strings.Split(o.players, ",")
	if o.players == "" || len(names) < 2 || len(names) > 6 {
		return fmt.Errorf("--players needs 2..6 comma-separated names, got %d (%q)", len(names), o.players)
	}
	if o.replayPath != "" {
		if err := env.CheckOut("--replay", o.replayPath); err != nil {
			return err
		}
	}
	mc := acb.MatchConfig{Config: acb.DefaultConfig()}
	if o.configPath != "" {
		data, err := env.Config(o.configPath)
		if err != nil {
			return err
		}
		// The game's own reading: the Config fields and "adjudicate".
		v, err := acb.Game{}.ParseConfig(data)
		if err != nil {
			return fmt.Errorf("%s: %w", o.configPath, err)
		}
		switch c := v.(type) {
		case acb.Config:
			mc.Config = c
		case acb.MatchConfig:
			mc = c
		}
	}
	var mp *acb.Map
	var unfair error // why the map is unfair, when it is played anyway
	if o.mapPath != "" {
		var err error
		if mp, err = acb.LoadMap(o.mapPath); err != nil {
			return err
		}
		if mp.Players() != len(names) {
			return fmt.Errorf("%s has cores for %d players but --players names %d", o.mapPath, mp.Players(), len(names))
		}
		if err := mp.CheckFair(); err != nil {
			if !o.allowUnfair {
				return fmt.Errorf("%s is not a fair map (--allow-unfair-map plays it anyway):\n%w", o.mapPath, err)
			}
			unfair = err
		}
	} else if len(names) == 5 {
		return fmt.Errorf("5 players need a --map with five owners: generated maps exist for 2, 3, 4 or 6 players")
	}
	seats, err := seatsOf(ctx, env, names, o.seed, o.secret)
	if err != nil {
		return err
	}
	var replay bytes.Buffer
	mc.Map = mp
	spec := engine.MatchSpec{Seed: o.seed, Config: mc, Seats: seats}
	if o.replayPath != "" {
		spec.Replay = &replay
	}
	res, err := acb.Game{}.Play(ctx, spec)
	if err != nil {
		return err
	}
	if o.replayPath != "" {
		if err := env.WriteOut("--replay", o.replayPath, replay.Bytes()); err != nil {
			return err
		}
	}
	det := res.Detail.(acb.Detail)
	winner := "none (draw)"
	if det.Winner >= 0 {
		winner = fmt.Sprintf("seat %d (%s)", det.Winner, seats[det.Winner].Name)
	}
	fmt.Fprintf(out, "acb match, seed %d, %d players\n", o.seed, len(seats))
	if unfair != nil {
		fmt.Fprintf(out, "note: %s is not a fair map (played with --allow-unfair-map):\n%v\n", o.mapPath, unfair)
	}
	fmt.Fprintf(out, "winner: %s   reason: %s   turns: %d\n", winner, res.Reason, res.Turns)
	if res.Adjudicated {
		fmt.Fprintln(out, "adjudicated: the rest of the match could not change the result, so it was not played (a config with \"adjudicate\": false plays every turn)")
	}
	tw := tablewriter.NewWriter(out)
	tw.Header("seat", "player", "rank", "score", "energy", "units", "cores", "crashed")
	for i, st := range det.Players {
		if err := tw.Append(strconv.Itoa(i), seats[i].Name, strconv.Itoa(res.Ranks[i]), strconv.Itoa(st.Score),
			strconv.Itoa(st.Energy), strconv.Itoa(st.Units), strconv.Itoa(st.Cores), strconv.FormatBool(st.Crashed)); err != nil {
			return err
		}
	}
	if err := tw.Render(); err != nil {
		return err
	}
	if o.replayPath != "" {
		fmt.Fprintf(out, "replay written to %s\n", o.replayPath)
	}
	return nil
}
