// Command bot is the program `crucible export` builds: one variant, fixed
// at link time, served as what its game needs and nothing else.
//
//   - An AI Code Battle variant runs the platform's HTTP bot: GET /health and
//     POST /turn with HMAC-SHA256 signatures, reading SHARED_SECRET (required)
//     and PORT (default 8080) from the environment.
//   - A Kindling variant runs the agent loop against a Kindling server
//     ($KINDLING_URL, default the public one): it creates a match against a
//     house bot, or joins the lobby whose code is its argument, plays it to
//     the end and prints the standings.
//
// The variant is the base64 of its JSON, set with
// -ldflags "-X main.variantJSON=...". Built without it, the program says so
// and exits.
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"crucible/protocol/acbhttp"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
	"crucible/strategies/bidders"
)

// variantJSON is the base64 of the variant's JSON, set at link time.
var variantJSON string

// PublicKindling is the public Kindling server, the default of KINDLING_URL
// (as for the platform's sample bots).
const PublicKindling = "https://kindling.adamhaleworks.workers.dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
}

// variant decodes the linked-in variant.
func variant() (strategies.Variant, error) {
	if variantJSON == "" {
		return strategies.Variant{}, errors.New("this binary has no variant linked in; build it with crucible export --variant FILE --out DIR")
	}
	data, err := base64.StdEncoding.DecodeString(variantJSON)
	if err != nil {
		return strategies.Variant{}, fmt.Errorf("the linked-in variant is not base64: %w", err)
	}
	return strategies.ParseVariant(data, "linked-in variant")
}

func run(ctx context.Context, args []string, out, errw io.Writer) error {
	v, err := variant()
	if err != nil {
		return err
	}
	switch v.Game {
	case "acb":
		return runACB(ctx, v, args, errw)
	case "kindling":
		return runKindling(ctx, v, args, out, errw)
	}
	return fmt.Errorf("variant %s is for game %q; this program plays acb or kindling", v.ID, v.Game)
}

func runACB(ctx context.Context, v strategies.Variant, args []string, errw io.Writer) error {
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
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		return err
	}
	s, g, err := reg.Resolve(v)
	if err != nil {
		return err
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
	srv, err := acbhttp.NewServer(acbhttp.ServerConfig{Secret: os.Getenv("SHARED_SECRET"), New: acbhttp.StrategyFactory(s, g), Logger: logger})
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

func runKindling(ctx context.Context, v strategies.Variant, args []string, out, errw io.Writer) error {
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
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		return err
	}
	s, g, err := reg.Resolve(v)
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
		Name:   seatName, NewBidder: kindlingapi.BidderFactory(s, g),
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
