package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/bots"
	"crucible/ladder"
	"crucible/reports"
	"crucible/strategies"
)

// envDB names the environment variable with the default ladder database.
const envDB = "CRUCIBLE_DB"

// ladderOpts are the options every ladder subcommand shares.
type ladderOpts struct {
	db string
}

func newLadderCmd() *cobra.Command {
	var o ladderOpts
	cmd := &cobra.Command{
		Use:   "ladder",
		Short: "Keep a persistent ladder: entrants with versions, nightly runs, rating history",
		Long: `A ladder remembers: entrants (strategies, variant files or remote bots) with
every version they have had, nights of matches chosen by information and played
by the arena, each night closed as one Glicko-2 rating period, and the rating
history that follows.

The ladder lives in a database: an SQLite file (--db ladder.db, the default,
or $CRUCIBLE_DB) or a PostgreSQL server when shared (--db postgres://...).
Its schema is created and upgraded on open.

  crucible ladder init --game kindling
  crucible ladder add normal --strategy normal
  crucible ladder add champ --variant champion.json
  crucible ladder run --budget 20m
  crucible ladder standings
  crucible ladder history champ
  crucible ladder report --out ladder.html

A new version of an entrant plays a regression test (a pentanomial SPRT)
against its previous version; ladder run exits with status 3 while a
version stands found weaker (see ladder run --help).`,
	}
	// The default is resolved when the database is opened, so that the
	// help states it once.
	cmd.PersistentFlags().StringVar(&o.db, "db", "", "ladder database: an SQLite file, or a postgres:// URL (default $"+envDB+", else ladder.db)")
	cmd.AddCommand(
		newLadderInitCmd(&o),
		newLadderAddCmd(&o),
		newLadderRemoveCmd(&o),
		newLadderListCmd(&o),
		newLadderRunCmd(&o),
		newLadderStandingsCmd(&o),
		newLadderHistoryCmd(&o),
		newLadderImportCmd(&o),
		newLadderExportCmd(&o),
		newLadderReportCmd(&o),
	)
	return cmd
}

// open opens the ladder database of --db, which must exist: a command
// other than init never creates one (an SQLite file missing or empty is
// refused before it is touched).
func (o *ladderOpts) open(ctx context.Context) (*ladder.Store, error) {
	path, err := o.path()
	if err != nil {
		return nil, err
	}
	if !ladder.IsPostgres(path) {
		file := strings.TrimPrefix(path, "sqlite:")
		info, err := os.Stat(file)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("--db %s: no such file, so no ladder yet (crucible ladder init --game acb|kindling --db %s creates one)", file, file)
		case err == nil && info.Mode().IsRegular() && info.Size() == 0:
			return nil, fmt.Errorf("--db %s: the file is empty, so it holds no ladder yet (crucible ladder init --game acb|kindling --db %s makes one in it)", file, file)
		}
	}
	return openLadderDB(ctx, path)
}

// create opens the ladder database of --db for ladder init, creating an
// SQLite file that is missing.
func (o *ladderOpts) create(ctx context.Context) (*ladder.Store, error) {
	path, err := o.path()
	if err != nil {
		return nil, err
	}
	return openLadderDB(ctx, path)
}

// path is --db, else $CRUCIBLE_DB, else ladder.db.
func (o *ladderOpts) path() (string, error) {
	path := o.db
	if path == "" {
		path = os.Getenv(envDB)
	}
	if path == "" {
		path = "ladder.db"
	}
	if !ladder.IsPostgres(path) && strings.Contains(path, "://") {
		return "", fmt.Errorf("--db %s: not a postgres:// URL nor a file name", path)
	}
	return path, nil
}

// where is the database --db names (see path), "" for a bad one.
func (o *ladderOpts) where() string {
	path, _ := o.path()
	return path
}

// openLadderDB opens the ladder database at path.
func openLadderDB(ctx context.Context, path string) (*ladder.Store, error) {
	s, err := ladder.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return s, nil
}

func newLadderInitCmd(o *ladderOpts) *cobra.Command {
	var game string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a ladder of one game in --db",
		Long: `Create the ladder's tables in --db (an SQLite file is created if missing) and
make it a ladder of --game. Running it again on the same game changes nothing.

  crucible ladder init --game kindling --db ladder.db
  crucible ladder init --game acb --db postgres://postgres@127.0.0.1:5432/ladder`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := lookupGame(game); err != nil {
				return fmt.Errorf("--game: %w", err)
			}
			s, err := o.create(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			made, err := s.Init(cmd.Context(), game, seed)
			if err != nil {
				return fmt.Errorf("--game: %w", err)
			}
			if made {
				fmt.Fprintf(cmd.OutOrStdout(), "ladder of %s created in %s\n", game, s.Where())
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "%s already holds a ladder of %s; nothing changed\n", s.Where(), game)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", "", "game of the ladder: "+strings.Join(gameNames, " or ")+" (required)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "base seed every night's match seeds are derived from")
	return cmd
}

func newLadderAddCmd(o *ladderOpts) *cobra.Command {
	var strategy, variant, url, bot []string
	var race raceFlags
	cmd := &cobra.Command{
		Use:   "add NAME (--strategy S | --variant FILE | --url http://HOST:PORT | --bot FILE)...",
		Short: "Add an entrant, or a new version of one",
		Long: `Add entrant NAME playing a strategy at its defaults, a variant file, or (AI Code
Battle) a remote bot. Adding an existing entrant with other content makes a new
version: the old one and its history stay, the new one plays the coming nights
under the label NAME@vN, starting from the entrant's rating with the deviation
of a new player (so it gets more games). The same content again changes
nothing; a removed entrant comes back.

  crucible ladder add normal --strategy normal
  crucible ladder add champ --variant runs/demo/evolve/champion.json
  crucible ladder add mybot --url http://127.0.0.1:8080
  crucible ladder add tuned --bot runs/tune/champion.json

--bot stores an outside bot's manifest (kind crucible-bot/1, its values
filled in, its folder made absolute); each night starts the bot's command on
the machine that runs the night, so its command and files must be there
(crucible ladder run says which is missing).

` + ladderRaceHelp + `

  crucible ladder add champ --variant take1.json --variant take2.json --variant take3.json
  crucible ladder add normal --strategy tuned --strategy sniper --race-elo1 10`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := ladder.CheckName(name); err != nil {
				return fmt.Errorf("NAME: %w", err)
			}
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			info, err := s.Info(cmd.Context())
			if err != nil {
				return err
			}
			kinds := 0
			for _, vals := range [][]string{strategy, variant, url, bot} {
				if len(vals) > 0 {
					kinds++
				}
			}
			if kinds != 1 {
				return errors.New("give exactly one of --strategy NAME, --variant FILE, --url http://HOST:PORT, --bot FILE (the same one several times to race candidate versions)")
			}
			var srcs []ladder.Source
			for k, vals := range [][]string{strategy, variant, url, bot} {
				for _, v := range vals {
					one := make([]string, 4)
					one[k] = v
					src, err := ladderSource(info.Game, one[0], one[1], one[2], one[3], cmd.ErrOrStderr())
					if err != nil {
						return err
					}
					srcs = append(srcs, src)
				}
			}
			if len(srcs) > 1 {
				return addCandidates(cmd, s, name, srcs, race)
			}
			for _, f := range raceFlagNames {
				if cmd.Flags().Changed(f) {
					return fmt.Errorf("--%s applies to a race: give several candidate versions", f)
				}
			}
			res, err := s.Add(cmd.Context(), name, srcs[0])
			if err != nil {
				return err
			}
			v := res.Version
			switch {
			case !res.Created && res.Restored:
				fmt.Fprintf(cmd.OutOrStdout(), "%s is back, version %d (%s)\n", name, v.Number, v.Fingerprint)
			case !res.Created:
				fmt.Fprintf(cmd.OutOrStdout(), "%s already plays %s (version %d); nothing changed\n", name, v.Fingerprint, v.Number)
			case v.Number == 1:
				fmt.Fprintf(cmd.OutOrStdout(), "added %s: %s\n", name, v.Fingerprint)
			default:
				fmt.Fprintf(cmd.OutOrStdout(), "added version %d of %s as %s: %s\n", v.Number, name, v.Label, v.Fingerprint)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&strategy, "strategy", nil, "a strategy of the ladder's game, at its defaults (several: candidate versions raced)")
	fl.StringArrayVar(&variant, "variant", nil, "a variant JSON file (its content is stored in the ladder; several: candidate versions raced)")
	fl.StringArrayVar(&url, "url", nil, "a remote AI Code Battle bot, http://HOST:PORT (its secret is given to ladder run; several: candidates raced)")
	fl.StringArrayVar(&bot, "bot", nil, "an outside bot's manifest (crucible-bot/1 JSON): stored in the ladder, started by each night on its machine (several: candidates raced)")
	addRaceFlags(cmd, &race)
	return cmd
}

// ladderSource checks the --strategy / --variant / --url of ladder add
// (exactly one) against game and the registry.
func ladderSource(game, strategy, variant, url, bot string, warn io.Writer) (ladder.Source, error) {
	given := 0
	for _, v := range []string{strategy, variant, url, bot} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return ladder.Source{}, errors.New("give exactly one of --strategy NAME, --variant FILE, --url http://HOST:PORT, --bot FILE")
	}
	if bot != "" {
		return ladderBotSource(game, bot)
	}
	if url != "" {
		if !isBotURL(url) {
			return ladder.Source{}, fmt.Errorf("--url %q: want an http://HOST:PORT or https:// URL", url)
		}
		if g, err := labGames.Lookup(game); err != nil || !g.HasRemote() {
			return ladder.Source{}, fmt.Errorf("--url %s: remote bots play %s, this ladder plays %s", url, strings.Join(labGames.RemoteNames(), ", "), game)
		}
		return ladder.Source{Kind: ladder.KindURL, Strategy: "remote", Content: url}, nil
	}
	reg, err := newRegistry()
	if err != nil {
		return ladder.Source{}, err
	}
	if strategy != "" {
		s, err := reg.Lookup(game, strategy)
		if err != nil {
			return ladder.Source{}, fmt.Errorf("--strategy: %w", err)
		}
		return ladder.Source{Kind: ladder.KindStrategy, Strategy: s.Name}, nil
	}
	// The variant as it plays is stored: every parameter and its id, as
	// crucible arena resolves the file (a hand-written one may leave
	// fields out).
	r, err := loadVariant(reg, game, variant, warn)
	if err != nil {
		return ladder.Source{}, fmt.Errorf("--variant: %w", err)
	}
	data, err := json.MarshalIndent(r.Variant, "", "  ")
	if err != nil {
		return ladder.Source{}, fmt.Errorf("--variant: %w", err)
	}
	return ladder.Source{Kind: ladder.KindVariant, Strategy: r.Variant.Base, VariantID: r.Variant.ID, Content: string(data) + "\n"}, nil
}

// ladderBuilder makes the arena entrant of a ladder version: a strategy at
// its defaults, a stored variant, a remote acb bot signed with secret, or
// a stored bot manifest whose processes bs starts.
func ladderBuilder(reg *strategies.Registry, game, secret string, bs *botSession) ladder.Builder {
	return func(v ladder.Version) (arena.Entrant, error) {
		if v.Kind == ladder.KindVariant && bots.IsManifest([]byte(v.Content)) {
			return ladderBotEntrant(bs, game, v)
		}
		switch v.Kind {
		case ladder.KindStrategy:
			s, err := reg.Lookup(game, v.Strategy)
			if err != nil {
				return arena.Entrant{}, err
			}
			return arena.StrategyEntrant(s, v.Label, "", s.Schema.Defaults()), nil
		case ladder.KindVariant:
			vr, err := strategies.ParseVariant([]byte(v.Content), v.Label)
			if err != nil {
				return arena.Entrant{}, err
			}
			s, g, err := reg.Resolve(vr)
			if err != nil {
				return arena.Entrant{}, err
			}
			return arena.StrategyEntrant(s, v.Label, vr.ID, g), nil
		case ladder.KindURL:
			e, err := remoteEntrant(game, v.Content, secret)
			e.Name = v.Label
			return e, err
		}
		return arena.Entrant{}, fmt.Errorf("version kind %q cannot play", v.Kind)
	}
}

func newLadderRemoveCmd(o *ladderOpts) *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Take an entrant out of the coming nights (its history stays)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			if err := s.Remove(cmd.Context(), args[0]); err != nil {
				return fmt.Errorf("NAME: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s; ladder add brings it back\n", args[0])
			return nil
		},
	}
}

func newLadderListCmd(o *ladderOpts) *cobra.Command {
	var all bool
	var format string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the entrants, their current versions, regression tests and races of candidates",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := reports.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			if _, err := s.Info(cmd.Context()); err != nil {
				return err
			}
			list, err := s.Entrants(cmd.Context(), all)
			if err != nil {
				return err
			}
			tests, err := s.RegressionTests(cmd.Context())
			if err != nil {
				return err
			}
			// The latest test of each entrant's current version.
			byVersion := map[int64]ladder.RegressionTest{}
			for _, t := range tests {
				byVersion[t.Version] = t
			}
			races, err := s.Races(cmd.Context())
			if err != nil {
				return err
			}
			running := map[string]ladder.CandidateRace{}
			for _, r := range races {
				if !r.Done {
					running[r.Entrant] = r
				}
			}
			type listed struct {
				ladder.Entrant
				Test *ladder.RegressionTest `json:"regression_test,omitempty"`
				Race *ladder.CandidateRace  `json:"race,omitempty"`
			}
			out := make([]listed, len(list))
			head := []string{"name", "version", "label", "plays", "added", "removed", "regression test"}
			rows := make([][]string, len(list))
			for i, e := range list {
				out[i].Entrant = e
				state := ""
				if t, ok := byVersion[e.Current.ID]; ok {
					out[i].Test = &t
					state = t.Describe()
				}
				if r, ok := running[e.Name]; ok {
					out[i].Race = &r
					var labels []string
					for _, c := range r.Candidates {
						labels = append(labels, c.Label)
					}
					state = strings.TrimPrefix(state+"; ", "; ") + fmt.Sprintf("race %d of candidates %s: %s", r.ID, strings.Join(labels, ", "), r.Verdict())
				}
				rows[i] = []string{e.Name, fmt.Sprint(e.Current.Number), e.Current.Label, e.Current.Fingerprint, e.Current.AddedAt, e.RemovedAt, state}
			}
			return writeRows(cmd.OutOrStdout(), f, "Entrants", head, rows, out)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "include removed entrants")
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(reports.Formats, ", "))
	return cmd
}

// writeRows writes a table in f: Table and Markdown through reports, CSV
// as head and rows, JSON as v.
func writeRows(w io.Writer, f reports.Format, title string, head []string, rows [][]string, v any) error {
	switch f {
	case reports.JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case reports.CSV:
		cw := csv.NewWriter(w)
		cw.Write(head)
		cw.WriteAll(rows)
		return cw.Error()
	}
	return reports.WriteTable(w, f, title, []int{0}, head, rows)
}
