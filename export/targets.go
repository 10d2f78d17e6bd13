package export

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"text/template"
	"time"

	"crucible/protocol/acbhttp"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// PublicKindling is the public Kindling server, the default of an exported
// agent's KINDLING_URL (as for the platform's sample bots).
const PublicKindling = "https://kindling.adamhaleworks.workers.dev"

// Target is what exporting a variant of one game writes and runs; the
// table of games (package games) gives each game its target.
type Target struct {
	// Game is the name of the game whose variants the target exports.
	Game string
	// Bot says what the exported binary is, for help texts.
	Bot string
	// Dockerfile and README are the templates of the export's files.
	Dockerfile, README *template.Template
	// RunHint is the command that runs the exported bot from its
	// directory (%s), printed after an export.
	RunHint string
	// Run is the exported program: it plays the resolved variant with
	// the command-line arguments args (the bot's flags), writing its
	// results to out and its log to errw, until ctx ends or its work is
	// done.
	Run func(ctx context.Context, v strategies.Resolved, args []string, out, errw io.Writer) error
}

// ACB exports an AI Code Battle variant as the platform's HTTP bot.
var ACB = Target{
	Game:       "acb",
	Bot:        "the AI Code Battle HTTP bot (reads SHARED_SECRET and PORT)",
	Dockerfile: acbDockerfile,
	README:     acbReadme,
	RunHint:    "cd %s && SHARED_SECRET=... PORT=8080 ./bot",
	Run:        runACB,
}

// Kindling exports a Kindling variant as an agent of the Kindling JSON API.
var Kindling = Target{
	Game:       "kindling",
	Bot:        "the Kindling agent (reads KINDLING_URL; creates a match or joins the code given as argument)",
	Dockerfile: kindlingDockerfile,
	README:     kindlingReadme,
	RunHint:    "cd %s && KINDLING_URL=" + PublicKindling + " ./bot [CODE]",
	Run:        runKindling,
}

// runACB serves the variant as the platform's HTTP bot: GET /health and
// POST /turn with HMAC-SHA256 signatures, reading SHARED_SECRET (required)
// and PORT (default 8080) from the environment.
func runACB(ctx context.Context, r strategies.Resolved, args []string, out, errw io.Writer) error {
	v := r.Variant
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(errw)
	host := fs.String("host", "", "interface to listen on (default all)")
	fs.Usage = func() {
		fmt.Fprintf(errw, `%s: AI Code Battle bot (variant %s of %s)

Serves GET /health and POST /turn of the platform's bot protocol.
Environment:
  SHARED_SECRET  the HMAC key shared with the match coordinator (required)
  PORT           the port to listen on (default 8080)
Flags:
`, "bot", v.ID, v.Base)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (the bot reads SHARED_SECRET and PORT from the environment)", fs.Arg(0))
	}
	port := 8080
	if env := os.Getenv("PORT"); env != "" {
		p, err := strconv.Atoi(env)
		if err != nil || p < 1 || p > 65535 {
			return fmt.Errorf("PORT=%q is not a port number 1..65535", env)
		}
		port = p
	}
	logger := slog.New(slog.NewTextHandler(errw, nil))
	srv, err := acbhttp.NewServer(acbhttp.ServerConfig{Secret: os.Getenv("SHARED_SECRET"), New: acbhttp.StrategyFactory(r.Strategy, r.Genome), Logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	logger.Info("serving", "bot", v.Label(), "addr", ln.Addr().String())
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// runKindling plays the variant as an agent against a Kindling server
// ($KINDLING_URL, default the public one): it creates a match against a
// house bot, or joins the lobby whose code is its argument, plays it to the
// end and prints the standings.
func runKindling(ctx context.Context, r strategies.Resolved, args []string, out, errw io.Writer) error {
	v := r.Variant
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(errw)
	url := fs.String("url", "", "Kindling server (default $KINDLING_URL, else "+PublicKindling+")")
	name := fs.String("name", "", "the seat's name, 1-32 printable characters (default base#id of the variant)")
	seats := fs.Int("seats", 2, "seats of a created match, 2-4")
	bots := fs.Int("bots", 1, "house bots in a created match, 0..seats-1")
	turnSeconds := fs.Int("turn-seconds", kindlingapi.DefaultTurnSeconds, "turn deadline of a created match, 10-120")
	botLevel := fs.String("bot-level", "normal", "house bot level of a created match: normal or easy")
	poll := fs.Duration("poll", time.Second, "pause between state polls (about 1 s, as the server asks)")
	startAfter := fs.Duration("start-after", 0, "as host, start the match after this long in the lobby (0: wait for joins)")
	quiet := fs.Bool("quiet", false, "print only the final standings")
	fs.Usage = func() {
		fmt.Fprintf(errw, `bot: Kindling agent (variant %s of %s)

  bot [flags]         create a match (against a house bot by default) and play it
  bot [flags] CODE    join the lobby CODE and play it
Environment:
  KINDLING_URL   the server (default %s)
Flags:
`, v.ID, v.Base, PublicKindling)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("give at most one lobby code, got %q", fs.Args())
	}
	base := *url
	if base == "" {
		base = os.Getenv("KINDLING_URL")
	}
	if base == "" {
		base = PublicKindling
	}
	if *poll < 10*time.Millisecond {
		return fmt.Errorf("-poll %v is below 10ms", *poll)
	}
	client, err := kindlingapi.NewClient(base)
	if err != nil {
		return err
	}
	seatName := *name
	if seatName == "" {
		seatName = v.Label()
	}
	logf := func(format string, a ...any) { fmt.Fprintf(errw, format+"\n", a...) }
	if *quiet {
		logf = func(string, ...any) {}
	}
	final, err := kindlingapi.PlayMatch(ctx, kindlingapi.PlayOptions{
		Client: client,
		Join:   strings.ToUpper(fs.Arg(0)),
		Create: kindlingapi.CreateRequest{Seats: *seats, Bots: *bots, TurnSeconds: *turnSeconds, BotLevel: *botLevel},
		Name:   seatName, NewBidder: kindlingapi.BidderFactory(r.Strategy, r.Genome),
		Poll: *poll, StartAfter: *startAfter, Logf: logf,
		Seated: func(st kindlingapi.Seated) {
			logf("match %s: seat %d as %s on %s", st.Code, st.Seat, seatName, base)
			if st.State.Phase == kindlingapi.PhaseLobby {
				logf("waiting for players: others join with code %s", st.Code)
			}
		},
	})
	if err != nil {
		return err
	}
	return kindlingapi.WriteStandings(out, final)
}
