package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
	"crucible/internal/atomicfile"
	"crucible/reports"
	"crucible/strategies"
)

// Flag ranges of the arena command.
const (
	maxSeeds   = 1_000_000
	maxWorkers = 1024
)

// arenaFlags are the arena command's options.
type arenaFlags struct {
	game, players, schedule, pool string
	seats, seeds, workers         int
	seed                          uint64
	config, out, replays, format  string
	resume, matrix, pairs, field  bool
	secret                        string
	rating, periods               string
	db, queue                     string // arena_db.go
	batch                         int
	rank                          rankFlags
	adaptiveFlags                 // arena_adaptive.go
}

func newArenaCmd() *cobra.Command {
	var f arenaFlags
	cmd := &cobra.Command{
		Use:   "arena",
		Short: "Run many matches in parallel and rank the players",
		Long: `Play a schedule of headless matches on every core, stream each result as one
JSON line to --out as it finishes, then print the leaderboard (ordered by
--rating, Bradley–Terry by default) with the pairwise score matrix.

Players (--players, comma-separated):
  all            every strategy of the game at its defaults
  NAME           a strategy at its defaults (see crucible strategies --game G)
  FILE.json      a variant file (its name is base#id), or a bot manifest
                 (its name is name#id; logs beside --out: a.jsonl logs to a-bots/)
  http://H:P     ` + remoteHelp() + `

` + botsHelp + `

Schedules:
  round-robin    every pair, both seat orders on the same seed (a paired game)
  gauntlet       each of --players against each of --pool, both seat orders
  ffa            every group of --seats (3 or 4) players, seats rotated on one seed
  adaptive       pairs chosen to settle the order of the --top players, until
                 --confidence or --budget (see below)

Every pairing is played on --seeds seeds derived from --seed, so the same flags
give the same matches and the same result lines at any --workers. An existing
non-empty --out is never overwritten: add --resume to play only the matches it
lacks (after Ctrl-C, or with more --seeds) and the ones that failed (a remote
bot down, say); failed matches stay in the file as "error" lines that the
ratings skip. A half-written last line left by a crash is dropped with a
warning. An arena in which every match fails exits with an error.

--replays DIR keeps every match's replay (AI Code Battle) or log (Kindling)
as DIR/<job>.json and writes its viewer page beside it as DIR/<job>.html (the
page of crucible replay: self-contained, it opens from disk); crucible report
--results OUT --replays DIR lists the matches with links to those pages.

` + adaptiveHelp + `

` + ratingHelp + `

` + rankHelp + `

  crucible arena --game kindling --players all --seeds 20
  crucible arena --game kindling --players all --seeds 20 --ranks
  crucible arena --game kindling --players normal,best.json --schedule gauntlet --pool all
  crucible arena --game kindling --players all --schedule ffa --seats 4 --out ffa.jsonl --resume
  crucible arena --game kindling --players all --schedule ffa --seats 4 --rating weng-lin --out ffa.jsonl --resume
  crucible arena --game acb --players all --schedule adaptive --budget 20000 --top 5 --confidence 0.95 --out adaptive.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runArena(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", defaultGame, "game to play: "+labGames.List())
	fl.StringVar(&f.players, "players", "all", "players, comma-separated: all, strategy names, variant .json files, bot manifests (.json), or http://HOST:PORT bots of "+strings.Join(labGames.RemoteNames(), ", "))
	fl.StringVar(&f.schedule, "schedule", "round-robin", "schedule: round-robin, gauntlet, ffa or adaptive")
	fl.StringVar(&f.pool, "pool", "", "gauntlet opponents, in the same form as --players (required by --schedule gauntlet)")
	fl.IntVar(&f.seats, "seats", 4, "seats per free-for-all match, 3 or 4 (--schedule ffa only)")
	fl.IntVar(&f.seeds, "seeds", 10, fmt.Sprintf("seeds (rounds) every pairing is played on, 1 to %d", maxSeeds))
	fl.Uint64Var(&f.seed, "seed", 1, "base seed the match seeds are derived from")
	fl.StringVar(&f.config, "config", "", configHelp())
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), fmt.Sprintf("matches played at once, 1 to %d", maxWorkers))
	fl.StringVar(&f.out, "out", "results.jsonl", "results file, one JSON line per match, appended as matches finish")
	fl.BoolVar(&f.resume, "resume", false, "continue an existing --out: play only the matches it lacks")
	fl.StringVar(&f.replays, "replays", "", "directory that keeps each match's replay or log as <job>.json and its viewer page as <job>.html (created if missing; a fresh run refuses one that holds replays of its jobs)")
	fl.StringVar(&f.format, "format", "table", "leaderboard format: "+strings.Join(reports.Formats, ", "))
	fl.BoolVar(&f.matrix, "matrix", true, "print the pairwise score matrix (table and markdown)")
	fl.StringVar(&f.secret, "secret", "", "shared secret of http:// bots (default $ACB_SECRET, else $SHARED_SECRET; a flag shows in the process list)")
	fl.BoolVar(&f.pairs, "pairs", false, "print every pair's W-D-L with its 95% interval over the seeds the pair met on (table and markdown)")
	fl.StringVar(&f.rating, "rating", string(rating.ModelBT), "model the leaderboard is ordered by: "+modelList(rating.RatingModels()))
	fl.StringVar(&f.periods, "periods", string(rating.OnePeriod), `--rating glicko2: "one" rates the whole run as one period, "rounds" one period per round`)
	addArenaDBFlags(fl, &f)
	addAdaptiveFlags(fl, &f.adaptiveFlags)
	fl.BoolVar(&f.field, "field", false, "also print the non-transitive field: α-Rank and Nash masses and the cycles of significant wins (table and markdown)")
	addRankFlags(fl, &f.rank)
	return cmd
}

// runArena checks every flag before it touches --out, then plays.
func runArena(cmd *cobra.Command, f arenaFlags) error {
	format, err := reports.ParseFormat(f.format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	if _, err := leaderboardOptions(cmd, "--rating", f.rating, rating.RatingModels(), f.periods); err != nil {
		return err
	}
	if _, err := f.rank.options(cmd); err != nil {
		return err
	}
	if f.seeds < 1 || f.seeds > maxSeeds {
		return fmt.Errorf("--seeds %d is outside its range [1, %d]", f.seeds, maxSeeds)
	}
	if f.workers < 1 || f.workers > maxWorkers {
		return fmt.Errorf("--workers %d is outside its range [1, %d]", f.workers, maxWorkers)
	}
	if f.out == "" {
		return errors.New("--out must name a results file")
	}
	if cmd.Flags().Changed("seats") && f.schedule != "ffa" {
		return fmt.Errorf("--seats applies to --schedule ffa only (the %s schedule plays 2 seats)", f.schedule)
	}
	if f.pool != "" && f.schedule != "gauntlet" {
		return fmt.Errorf("--pool applies to --schedule gauntlet only")
	}
	if err := checkAdaptiveFlags(cmd, f); err != nil {
		return err
	}
	game, err := lookupGameFlag(f.game)
	if err != nil {
		return err
	}
	// Outside bots (manifests) log beside --out.
	ps, err := newPlaySession(cmd, game, f.game, f.secret, botLogDir(f.out))
	if err != nil {
		return err
	}
	defer ps.Close()
	reg, stderr, bs := ps.reg, ps.stderr, ps.bs
	players, err := ps.players("--players", f.players)
	if err != nil {
		return err
	}
	cfg, err := ps.config(f.config)
	if err != nil {
		return err
	}
	if f.schedule == "adaptive" {
		return playArenaAdaptive(cmd, f, game, cfg, players, format)
	}
	entrants, jobs, err := buildSchedule(reg, game, f, players, stderr, bs)
	if err != nil {
		return err
	}
	if err := arena.Validate(game, entrants, jobs); err != nil {
		return err
	}
	if f.db != "" {
		return playArenaDB(cmd, f, game, cfg, entrants, jobs, format, bs)
	}
	if f.replays != "" {
		if !f.resume {
			if err := checkNoReplays(f.replays, jobs); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(f.replays, 0o755); err != nil {
			return fmt.Errorf("--replays: %w", err)
		}
		if f.resume {
			if err := removeReplayTemps(stderr, f.replays, jobs); err != nil {
				return err
			}
		}
	}
	return playArena(cmd, f, game, cfg, entrants, jobs, format)
}

// playArena plays the checked schedule into --out (resuming it with
// --resume) and prints the leaderboard.
func playArena(cmd *cobra.Command, f arenaFlags, game engine.Game, cfg any, entrants []arena.Entrant, jobs []arena.Job, format reports.Format) error {
	stderr := cmd.ErrOrStderr()
	res, err := openRunResults(stderr, f.out, f.resume, game, cfg, jobs, entrants)
	if err != nil {
		return err
	}
	// The finished matches of the file count in the ratings; its failed
	// ones are played again (their error lines stay for the readers to
	// skip).
	col, todo, w := &res.Done, res.Todo, res.ResultsWriter
	// --top on a round robin: its records, to find when they settled it.
	settle := f.schedule == "round-robin" && (cmd.Flags().Changed("top") || cmd.Flags().Changed("confidence"))
	var kept []arena.Record
	if settle {
		for _, r := range res.Prev.Records {
			if r.Error == "" {
				kept = append(kept, r)
			}
		}
	}
	res.Prev.Records = nil
	opt := arena.Options{Workers: f.workers, Config: cfg, ReplayDir: f.replays}
	bar := newProgressBar(stderr, len(todo))
	if bar != nil {
		// Redraw at most every 100 ms: fast games finish many matches a
		// millisecond and the bar must not slow the emitter down.
		var last time.Time
		opt.Progress = func(done, total int) {
			if done == total || time.Since(last) >= 100*time.Millisecond {
				bar.Set(done)
				last = time.Now()
			}
		}
	}
	start := time.Now()
	runErr := arena.Run(cmd.Context(), game, entrants, todo, opt, func(r arena.Record) error {
		if err := w.Write(r); err != nil {
			return err
		}
		col.Add(r)
		if settle && r.Error == "" {
			kept = append(kept, r)
		}
		return nil
	})
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(stderr)
	}
	elapsed := time.Since(start)
	played := w.Written()
	res.Discard()
	if runErr != nil {
		if cmd.Context().Err() != nil {
			fmt.Fprintf(stderr, "interrupted: %d of %d matches are in %s; run the same command with --resume to finish\n",
				col.Matches, len(jobs), f.out)
		}
		return runErr
	}
	if played > 0 {
		fmt.Fprintf(stderr, "played %d matches in %s (%.0f matches/s) with %d workers; results in %s\n",
			played, elapsed.Round(time.Millisecond), float64(played)/elapsed.Seconds(), min(f.workers, played), f.out)
	}
	if f.replays != "" {
		if err := arenaViewerPages(cmd, f, jobs); err != nil {
			return err
		}
	}
	if settle {
		if err := writeRoundRobinSettled(stderr, f, entrants, kept); err != nil {
			return err
		}
	}
	return printArenaSummary(cmd, f, col, entrants, played, format)
}

// checkNoReplays refuses a fresh run whose replay directory already holds
// the replay of one of its jobs: an earlier run's replays are never
// overwritten (a resumed run may replace those of the matches it plays).
func checkNoReplays(dir string, jobs []arena.Job) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--replays: %w", err)
	}
	have := make(map[string]bool, len(entries))
	for _, e := range entries {
		have[e.Name()] = true
	}
	for _, j := range jobs {
		if name := j.ID + ".json"; have[name] {
			return fmt.Errorf("--replays %s already holds %s (a replay of job %s); refusing to overwrite it: choose another directory, or add --resume to continue the run it belongs to", dir, name, j.ID)
		}
	}
	return nil
}

// removeReplayTemps removes from the replay directory the temporary files
// of replays and viewer pages of the run's jobs that a killed run left
// half-written (see atomicfile.TempOf), and says how many.
func removeReplayTemps(stderr io.Writer, dir string, jobs []arena.Job) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--replays: %w", err)
	}
	ours := make(map[string]bool, 2*len(jobs))
	for _, j := range jobs {
		ours[j.ID+".json"], ours[j.ID+".html"] = true, true
	}
	removed := 0
	for _, e := range entries {
		if dest, ok := atomicfile.TempOf(e.Name()); ok && ours[dest] && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("--replays: removing a temporary file: %w", err)
			}
			removed++
		}
	}
	if removed > 0 {
		fmt.Fprintf(stderr, "removed %d temporary files a killed run left half-written in %s\n", removed, dir)
	}
	return nil
}

// buildSchedule returns the entrants of the run and its jobs for the
// chosen schedule.
func buildSchedule(reg *strategies.Registry, game engine.Game, f arenaFlags, players []arena.Entrant, warn io.Writer, bs *botSession) ([]arena.Entrant, []arena.Job, error) {
	seeds := arena.Seeds(f.seed, f.seeds)
	switch f.schedule {
	case "round-robin":
		if len(players) < 2 {
			return nil, nil, fmt.Errorf("--schedule round-robin needs at least 2 players, --players gives %d", len(players))
		}
		return players, arena.RoundRobin(len(players), seeds), nil
	case "gauntlet":
		if f.pool == "" {
			return nil, nil, errors.New("--schedule gauntlet needs --pool (the opponents, e.g. --pool all)")
		}
		pool, err := resolvePlayers(reg, f.game, f.pool, f.secret, warn, bs)
		if err != nil {
			return nil, nil, fmt.Errorf("--pool: %w", err)
		}
		entrants, pi, qi, err := arena.GauntletEntrants(players, pool)
		if err != nil {
			return nil, nil, fmt.Errorf("--pool: %w", err)
		}
		jobs := arena.Gauntlet(pi, qi, seeds)
		if len(jobs) == 0 {
			return nil, nil, errors.New("--schedule gauntlet: no pairing between --players and --pool (a player never meets itself)")
		}
		return entrants, jobs, nil
	case "ffa":
		lo, hi := game.SeatRange()
		if f.seats < max(3, lo) || f.seats > min(4, hi) {
			return nil, nil, fmt.Errorf("--seats %d is outside its range [%d, %d] for %s free-for-all", f.seats, max(3, lo), min(4, hi), game.Name())
		}
		jobs, err := arena.FreeForAll(len(players), f.seats, seeds)
		if err != nil {
			return nil, nil, fmt.Errorf("--schedule ffa: %w", err)
		}
		return players, jobs, nil
	}
	return nil, nil, fmt.Errorf("--schedule %q is not one of round-robin, gauntlet, ffa", f.schedule)
}

// newProgressBar returns a progress bar with matches per second on w, or
// nil when w is not a terminal (pipes, files, CI logs stay clean).
func newProgressBar(w io.Writer, total int) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if !ok || total == 0 || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("matches"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("matches"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
	)
}

// remoteHelp describes the remote bots the arena plays, from the table of
// games.
func remoteHelp() string {
	var titles []string
	for _, g := range labGames.All() {
		if g.HasRemote() {
			titles = append(titles, g.Title)
		}
	}
	return "a remote bot of " + strings.Join(titles, " or ") + ", signed with --secret"
}
