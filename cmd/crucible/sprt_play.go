package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"crucible/arena"
	"crucible/stats"
)

// Flag ranges of the play mode of crucible sprt.
const maxSPRTPairs = 10_000_000

// sprtPlayHelp documents the play mode in crucible sprt --help.
const sprtPlayHelp = `Playing the test (--game, --a, --b): B (--b) is tested against A (--a), both
given as crucible arena's --players items (a strategy, a variant .json file, an
http:// bot). Pair k is played on its own seed (derived from --seed), seats
swapped: A-B and B-A. Pairs are played --workers at a time in batches, but
counted in pair order, and the test stops at the first pair whose count
decides it, so the counts and the verdict are the same at any --workers; pairs
finished in parallel after that one are recorded but not counted. The test
also stops, undecided, after --max-pairs pairs. Progress (LLR with its bounds,
pairs, Elo) is shown on stderr when it is a terminal.

N-seat games (--seats N, up to the game's seats): the group is A, B and the N-2
--opponents, played on each seed in the N rotations of the seats (everyone in
every seat once). In each rotation B scores 1 if it finished ahead of A, 1/2
if level, 0 if behind (the others' places do not count); the seed's pair score
is the mean over the rotations, and its pentanomial class the nearest of 0,
1/4, 1/2, 3/4, 1 (a tie between two going to the one nearer 1/2). With two
seats this is exactly the seat-swapped pair.

--out streams every match as a JSON line, as crucible arena does; --resume
continues the same test from it (the same players, --seed and --config): its
finished matches count without being played again. A failed match (a remote
bot down, say) stops the test, since a pair cannot be skipped without bias;
--resume plays it again.`

// sprtPlayFlags are the flags that select the play mode.
var sprtPlayFlags = []string{"game", "a", "b", "opponents", "seats", "max-pairs", "workers", "seed", "out", "resume", "config", "secret"}

// sprtPlayOptions are the play mode's flags.
type sprtPlayOptions struct {
	game, a, b, opponents string
	seats, maxPairs       int
	workers               int
	seed                  uint64
	out, config, secret   string
	resume                bool
}

// sprtPlay describes a played test in the report.
type sprtPlay struct {
	Game      string   `json:"game"`
	A         string   `json:"a"`
	B         string   `json:"b"`
	Opponents []string `json:"opponents,omitempty"`
	Seats     int      `json:"seats"`
	Seed      uint64   `json:"seed"`
	// Pairs are the pairs counted, MaxPairs the cap, Decided whether the
	// LLR crossed a bound.
	Pairs    int  `json:"pairs"`
	MaxPairs int  `json:"max_pairs"`
	Decided  bool `json:"decided"`
	// Played counts the matches this run played, Resumed those taken
	// from --out, Beyond the complete pairs after the deciding one.
	Played  int    `json:"played"`
	Resumed int    `json:"resumed"`
	Beyond  int    `json:"beyond"`
	Results string `json:"results,omitempty"`
}

func addSPRTPlayFlags(cmd *cobra.Command, o *sprtPlayOptions) {
	fl := cmd.Flags()
	fl.StringVar(&o.game, "game", "", "play the test in this game: "+strings.Join(gameNames, ", "))
	fl.StringVar(&o.a, "a", "", "player A, the reference: a strategy, a variant .json file, a bot manifest (.json, started by the lab; logs beside --out) or an http:// bot")
	fl.StringVar(&o.b, "b", "", "player B, tested against A, in the same forms")
	fl.StringVar(&o.opponents, "opponents", "", "--seats N > 2: the N-2 fixed opponents, comma-separated")
	fl.IntVar(&o.seats, "seats", 2, "seats per match: 2 plays seat-swapped pairs; more needs --opponents")
	fl.IntVar(&o.maxPairs, "max-pairs", 100_000, fmt.Sprintf("stop undecided after this many pairs, 1 to %d", maxSPRTPairs))
	fl.IntVar(&o.workers, "workers", runtime.NumCPU(), fmt.Sprintf("matches played at once, 1 to %d", maxWorkers))
	fl.Uint64Var(&o.seed, "seed", 1, "base seed the pairs' seeds are derived from")
	fl.StringVar(&o.out, "out", "", "results file, one JSON line per match (as crucible arena writes); needed by --resume")
	fl.BoolVar(&o.resume, "resume", false, "continue the test in an existing --out")
	fl.StringVar(&o.config, "config", "", configHelp())
	fl.StringVar(&o.secret, "secret", "", "shared secret of http:// bots (default $ACB_SECRET, else $SHARED_SECRET)")
}

// runSPRTPlay is the play mode: it checks the flags, plays the test and
// prints it.
func runSPRTPlay(cmd *cobra.Command, o sprtOptions) error {
	test, err := sprtTest(o)
	if err != nil {
		return err
	}
	p := o.sprtPlayOptions
	switch {
	case o.pentanomial != "" || o.trinomial != "":
		return errors.New("--pentanomial and --trinomial give counts by hand; the play mode (--game, --a, --b) counts its own pairs")
	case p.game == "":
		return fmt.Errorf("--game is required to play the test (%s)", labGames.List())
	case p.a == "" || p.b == "":
		return errors.New("--a and --b are required: the players A and B (B is tested against A)")
	}
	if err := checkSPRTPlayRanges(p, "test"); err != nil {
		return err
	}
	if p.seats < 2 {
		return fmt.Errorf("--seats %d: a match has at least 2 seats", p.seats)
	}
	game, err := lookupGameFlag(p.game)
	if err != nil {
		return err
	}
	if lo, hi := game.SeatRange(); p.seats < lo || p.seats > hi {
		return fmt.Errorf("--seats %d is outside its range [%d, %d] for %s", p.seats, lo, hi, game.Name())
	}
	ps, err := newPlaySession(cmd, game, p.game, p.secret, sprtBotLogDir(p.out))
	if err != nil {
		return err
	}
	defer ps.Close()
	stderr := ps.stderr
	a, err := ps.player("--a", p.a)
	if err != nil {
		return err
	}
	b, err := ps.player("--b", p.b)
	if err != nil {
		return err
	}
	if a.Name == b.Name {
		return fmt.Errorf("--a and --b are the same player, %s", a.Name)
	}
	entrants := []arena.Entrant{a, b}
	var opponents []string
	switch {
	case p.seats == 2 && p.opponents != "":
		return errors.New("--opponents applies to --seats 3 or more (a 2-seat test is A against B alone)")
	case p.seats > 2:
		if p.opponents == "" {
			return fmt.Errorf("--seats %d needs --opponents: the %d fixed opponents of A and B", p.seats, p.seats-2)
		}
		opps, err := ps.players("--opponents", p.opponents)
		if err != nil {
			return err
		}
		if len(opps) != p.seats-2 {
			return fmt.Errorf("--opponents %q names %d players; --seats %d needs %d", p.opponents, len(opps), p.seats, p.seats-2)
		}
		for _, e := range opps {
			if e.Name == a.Name || e.Name == b.Name {
				return fmt.Errorf("--opponents lists %s, which is A or B", e.Name)
			}
			opponents = append(opponents, e.Name)
		}
		entrants = append(entrants, opps...)
	}
	cfg, err := ps.config(p.config)
	if err != nil {
		return err
	}
	out, err := openSPRTOut(p, stderr, "test")
	if err != nil {
		return err
	}
	defer out.Discard()
	opt := arena.SPRTOptions{Test: test, Level: sprtLevel, MaxPairs: p.maxPairs, Seed: p.seed,
		Run: arena.Options{Workers: p.workers, Config: cfg}}
	progress := newSPRTProgress(stderr)
	if progress != nil {
		opt.Progress = progress.update
	}
	start := time.Now()
	st, runErr := arena.PlaySPRT(cmd.Context(), game, entrants, out.prev.Records, opt, out.emit)
	if progress != nil {
		progress.finish(st)
	}
	if runErr != nil {
		if cmd.Context().Err() != nil {
			how := "add --out to keep the matches of a test and --resume to continue it"
			if p.out != "" {
				how = "run the same command with --resume to continue the test from " + p.out
			}
			fmt.Fprintf(stderr, "interrupted after %d pairs; %s\n", st.Pairs, how)
		}
		return out.runError(p, runErr)
	}
	printPlayed(stderr, st.Played, p.workers, start)
	rep := sprtReport{Test: test, Result: st.Result, Pentanomial: &st.Counts, Play: &sprtPlay{
		Game: game.Name(), A: a.Name, B: b.Name, Opponents: opponents, Seats: p.seats, Seed: p.seed,
		Pairs: st.Pairs, MaxPairs: p.maxPairs, Decided: st.Decided, Played: st.Played, Resumed: st.Resumed, Beyond: st.Beyond, Results: p.out}}
	if o.format == "json" {
		return writeJSON(cmd.OutOrStdout(), rep)
	}
	return writeSPRTTable(cmd.OutOrStdout(), rep)
}

// playRows are the table's lines about a played test.
func playRows(p *sprtPlay, v stats.Verdict) [][]string {
	players := fmt.Sprintf("B %s against A %s (%s, %d seats", p.B, p.A, p.Game, p.Seats)
	if len(p.Opponents) > 0 {
		players += ", with " + strings.Join(p.Opponents, ", ")
	}
	players += ")"
	bound := "upper"
	if v == stats.AcceptH0 {
		bound = "lower"
	}
	stopped := fmt.Sprintf("by itself after %d pairs: the LLR crossed the %s bound", p.Pairs, bound)
	if !p.Decided {
		stopped = fmt.Sprintf("undecided at --max-pairs %d", p.MaxPairs)
	}
	pairs := fmt.Sprintf("%d counted, on seeds derived from --seed %d", p.Pairs, p.Seed)
	var more []string
	if p.Played > 0 {
		more = append(more, fmt.Sprintf("%d matches played", p.Played))
	}
	if p.Resumed > 0 {
		more = append(more, fmt.Sprintf("%d resumed from %s", p.Resumed, p.Results))
	}
	if p.Beyond > 0 {
		more = append(more, fmt.Sprintf("%d more pairs finished in parallel after the decision, not counted", p.Beyond))
	}
	if len(more) > 0 {
		pairs += "; " + strings.Join(more, ", ")
	}
	return [][]string{{"players", players}, {"stopped", stopped}, {"pairs", pairs}}
}

// sprtProgress shows a running test on a terminal.
type sprtProgress struct {
	w    io.Writer
	bar  *progressbar.ProgressBar
	last time.Time
}

// newSPRTProgress returns the progress display on w, or nil when w is not
// a terminal.
func newSPRTProgress(w io.Writer) *sprtProgress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &sprtProgress{w: w, bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("SPRT"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("pairs"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)}
}

func (p *sprtProgress) update(st arena.SPRTState) {
	if time.Since(p.last) < 100*time.Millisecond && !st.Decided {
		return
	}
	p.last = time.Now()
	r := st.Result
	p.bar.Describe(fmt.Sprintf("LLR %+.2f [%.2f, %.2f] · Elo %+.1f [%+.1f, %+.1f] · pairs", r.LLR, r.Lower, r.Upper, r.Elo.Elo, r.Elo.EloLo, r.Elo.EloHi))
	p.bar.Set(st.Pairs)
}

func (p *sprtProgress) finish(st arena.SPRTState) {
	p.update(st)
	p.bar.Finish()
	fmt.Fprintln(p.w)
}
