package kindlinggame

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/pflag"

	"crucible/bots"
	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/games"
	"crucible/strategies"
)

// matchOptions are the flags of `crucible match kindling`.
type matchOptions struct {
	players string
	seed    uint64
	params  []string
	logPath string
}

// match is `crucible match kindling`.
var match = games.MatchCommand{
	Short: "Play one Kindling match and print it turn by turn",
	Long: `Play one Kindling match headless (8 turns, 2 to 4 seats) and print every
turn: the beacons' values, each seat's bids, who lit which beacon, the points
scored and the running scores; then the final standings (score, then sparks
left; seats equal on both share the win).

Players are Kindling strategy names in seat order (see
'crucible strategies --game kindling'), each at its default parameters unless
--param changes them. --param NAME.KEY=VALUE sets parameter KEY of every seat
playing strategy NAME; it may be repeated. Values must lie in the parameter's
range. A manifest (FILE.json, kind crucible-bot/1) is an outside agent: the
lab runs its Kindling server on loopback and starts the agent with
KINDLING_URL and the match code, as crucible arena does; its output goes to
crucible-bots-PID in the temporary folder.

  crucible match kindling --players normal,sniper --seed 7
  crucible match kindling --players normal,easy,greedy,random --seed 3 --log m.json
  crucible match kindling --players sniper,normal --param sniper.margin=2 --param normal.memory=0.3`,
	Flags:    matchFlags,
	Required: []string{"players"},
}

// matchFlags defines the flags of `crucible match kindling`.
func matchFlags(f *pflag.FlagSet) games.MatchFunc {
	var o matchOptions
	f.StringVar(&o.players, "players", "", "comma-separated players in seat order, 2 to 4 of them: strategy names, variant files (.json) or outside agents' manifests (.json, crucible-bot/1) (required)")
	f.Uint64Var(&o.seed, "seed", 1, "match seed: drives the players' random generators and the match code")
	f.StringArrayVar(&o.params, "param", nil, "NAME.KEY=VALUE: set parameter KEY of strategy NAME for every seat playing it (repeatable)")
	f.StringVar(&o.logPath, "log", "", "write the match log (the JSON of GET /api/matches/{code}/log) to this file")
	return func(ctx context.Context, env games.MatchEnv, out io.Writer) error {
		return runMatch(ctx, env, out, o)
	}
}

// seatsOf resolves the players and --param settings to seats: strategy
// names, variant files and outside agents' manifests (started with
// env.Player, as crucible arena starts them).
func seatsOf(ctx context.Context, env games.MatchEnv, o matchOptions) ([]engine.Seat, error) {
	reg := env.Registry
	names := strings.Split(o.players, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	if n := len(names); o.players == "" || n < kindling.MinSeats || n > kindling.MaxSeats {
		if o.players == "" {
			n = 0
		}
		return nil, fmt.Errorf("--players lists %d players (%q); a kindling match has %d to %d", n, o.players, kindling.MinSeats, kindling.MaxSeats)
	}
	agents := map[string]bool{}
	genomes := map[string]strategies.Genome{}
	strats := map[string]strategies.Strategy{}
	labels := map[string]string{} // the seat's name: the strategy's, or a variant's base#id
	for _, name := range names {
		if name == "" {
			return nil, fmt.Errorf("--players %q has an empty name", o.players)
		}
		if strings.HasSuffix(name, ".json") && isManifestFile(name) {
			agents[name] = true // an outside agent's manifest, started below
			continue
		}
		if strings.HasSuffix(name, ".json") { // a variant file, read as crucible arena reads it
			r, err := games.LoadVariant(reg, Name, name)
			if err != nil {
				return nil, fmt.Errorf("player %s: %w", name, err)
			}
			strats[name], genomes[name], labels[name] = r.Strategy, r.Genome, r.Variant.Label()
			continue
		}
		s, err := reg.Lookup(Name, name)
		if err != nil {
			return nil, err
		}
		strats[name] = s
		genomes[name] = s.Schema.Defaults()
		labels[name] = name
	}
	for _, p := range o.params {
		target, value, ok := strings.Cut(p, "=")
		// The key is after the last dot: a name may be a file's path.
		dot := strings.LastIndex(target, ".")
		ok2 := dot >= 0
		name, key := target, ""
		if ok2 {
			name, key = target[:dot], target[dot+1:]
		}
		if !ok || !ok2 || name == "" || key == "" {
			return nil, fmt.Errorf("--param %q: want NAME.KEY=VALUE, e.g. sniper.margin=2", p)
		}
		if agents[name] {
			return nil, fmt.Errorf("--param %s: %s is an outside agent; set its values in its manifest", p, name)
		}
		s, err := reg.Lookup(Name, name)
		if err != nil {
			return nil, fmt.Errorf("--param %s: %w", p, err)
		}
		g, playing := genomes[name]
		if !playing {
			return nil, fmt.Errorf("--param %s: no seat plays %s (players: %s)", p, name, strings.Join(names, ", "))
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			i := s.Schema.Index(key)
			if i < 0 {
				return nil, fmt.Errorf("--param %s: strategy %s: %w", p, name, s.Schema.Set(g, key, 0))
			}
			return nil, fmt.Errorf("--param %s: value %q is not a number (%s.%s takes %s)", p, value, name, key, s.Schema[i].Range())
		}
		if err := s.Schema.Set(g, key, v); err != nil {
			return nil, fmt.Errorf("--param %s: strategy %s: %w", p, name, err)
		}
	}
	seats := make([]engine.Seat, len(names))
	for i, name := range names {
		if agents[name] {
			es, err := env.Player(name, "")
			if err != nil {
				return nil, fmt.Errorf("player %s: %w", name, err)
			}
			p, err := es[0].New(ctx, engine.SeatSeed(o.seed, i), i)
			if err != nil {
				closeSeats(seats)
				return nil, fmt.Errorf("player %s: %w", name, err)
			}
			seats[i] = engine.Seat{Name: es[0].Name, Strategy: es[0].Strategy, Params: es[0].Params, Player: p}
			continue
		}
		s, g := strats[name], slices.Clone(genomes[name])
		seats[i] = engine.Seat{Name: labels[name], Strategy: s.Name, Params: s.Schema.Map(g),
			Player: s.New(g, engine.SeatSeed(o.seed, i), i)}
	}
	return seats, nil
}

// closeSeats closes the players that hold a process (an outside agent's).
func closeSeats(seats []engine.Seat) {
	for _, s := range seats {
		if c, ok := s.Player.(io.Closer); ok {
			c.Close()
		}
	}
}

// isManifestFile reports whether path holds an outside bot's manifest.
func isManifestFile(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bots.IsManifest(data)
}

func runMatch(ctx context.Context, env games.MatchEnv, out io.Writer, o matchOptions) error {
	if o.logPath != "" {
		if err := env.CheckOut("--log", o.logPath); err != nil {
			return err
		}
	}
	seats, err := seatsOf(ctx, env, o)
	if err != nil {
		return err
	}
	var logBuf bytes.Buffer
	res, err := kindling.Game{}.Play(ctx, engine.MatchSpec{Seed: o.seed, Seats: seats, Replay: &logBuf})
	// An agent's seat ends its process when its match is over.
	closeSeats(seats)
	if err != nil {
		return err
	}
	var lg kindling.Log
	if err := json.Unmarshal(logBuf.Bytes(), &lg); err != nil {
		return fmt.Errorf("reading back the match log: %w", err)
	}
	if o.logPath != "" {
		if err := env.WriteOut("--log", o.logPath, logBuf.Bytes()); err != nil {
			return err
		}
	}
	return printMatch(out, o.seed, seats, res, lg, o.logPath)
}

// printMatch writes the match turn by turn and the final standings.
func printMatch(out io.Writer, seed uint64, seats []engine.Seat, res engine.Result, lg kindling.Log, logPath string) error {
	names := kindling.BeaconNames()
	width := 0
	for _, s := range seats {
		width = max(width, len(s.Name))
	}
	fmt.Fprintf(out, "Kindling match %s, seed %d, %d seats:", lg.Code, seed, len(seats))
	for i, s := range seats {
		fmt.Fprintf(out, " %d %s", i, s.Name)
	}
	fmt.Fprintln(out)
	for _, t := range lg.Turns {
		fmt.Fprintf(out, "\nturn %d  values", t.Turn)
		for i, v := range t.Values {
			fmt.Fprintf(out, "  %s %d", names[i], v)
		}
		fmt.Fprintln(out)
		for p := 0; p < t.Seats; p++ {
			missed := ""
			if t.Missed[p] {
				missed = "  (missed the turn)"
			}
			fmt.Fprintf(out, "  seat %d %-*s  bids %v  +%d  score %d%s\n", p, width, seats[p].Name, t.Bids[p], t.Points[p], t.Scores[p], missed)
		}
		var lit, unlit []string
		for i, w := range t.Winners {
			if w == kindling.NoWinner {
				unlit = append(unlit, names[i])
			} else {
				lit = append(lit, fmt.Sprintf("%s by seat %d (+%d)", names[i], w, t.Values[i]))
			}
		}
		line := "  lit: none"
		if len(lit) > 0 {
			line = "  lit: " + strings.Join(lit, ", ")
		}
		if len(unlit) > 0 {
			line += "; unlit: " + strings.Join(unlit, ", ")
		}
		fmt.Fprintln(out, line)
	}
	fin := lg.Final
	fmt.Fprintln(out, "\nfinal standings")
	tw := tablewriter.NewWriter(out)
	tw.Header("rank", "seat", "player", "score", "sparks left")
	for _, p := range fin.Standings {
		if err := tw.Append(strconv.Itoa(res.Ranks[p]), strconv.Itoa(p), seats[p].Name,
			strconv.Itoa(fin.Scores[p]), strconv.Itoa(fin.Sparks[p])); err != nil {
			return err
		}
	}
	if err := tw.Render(); err != nil {
		return err
	}
	var who []string
	for _, p := range fin.Winners {
		who = append(who, fmt.Sprintf("seat %d (%s)", p, seats[p].Name))
	}
	if len(who) == 1 {
		fmt.Fprintf(out, "winner: %s\n", who[0])
	} else {
		fmt.Fprintf(out, "shared win: %s\n", strings.Join(who, ", "))
	}
	if logPath != "" {
		fmt.Fprintf(out, "log written to %s\n", logPath)
	}
	return nil
}
