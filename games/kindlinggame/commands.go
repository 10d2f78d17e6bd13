package kindlinggame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"crucible/engine/kindling"
	"crucible/games"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

func newKindlingCmd(env games.CommandEnv) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kindling",
		Short: "Host Kindling matches over the JSON API, or play one as an agent",
		Long: `The Kindling JSON API of the platform, both sides:

  crucible kindling serve                 host matches (the whole API, house bots, deadlines)
  crucible kindling play --url URL ...    play one match on any Kindling server with a strategy`,
	}
	cmd.AddCommand(newServeCmd(env), newPlayCmd(env))
	return cmd
}

// serveOptions are the flags of `crucible kindling serve`.
type serveOptions struct {
	addr         string
	baseURL      string
	createLimit  int
	createWindow time.Duration
	retention    time.Duration
	lobbyExpiry  time.Duration
	maxMatches   int
	botVariant   string
	botVariantAt string
}

func newServeCmd(env games.CommandEnv) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Host Kindling matches: a browser UI and the seed's JSON API with house bots and deadlines",
		Long: fmt.Sprintf(`Serve Kindling to people and agents in the same matches.

  GET  /                            the browser UI: create a match (seats,
                                    house bots, turn seconds, bot level) or
                                    join one by its code, then bid turn by
                                    turn; players show as Human, Agent or Bot.
                                    Plain HTML, CSS and JavaScript built into
                                    the binary; it uses only the API below,
                                    with kind "human".

The Kindling JSON API of the platform:

  POST /api/matches                 create a match, take seat 0 as host
  POST /api/matches/{code}/join     take the next open seat of a lobby
  POST /api/matches/{code}/start    host only: fill open seats with house bots, start
  GET  /api/matches/{code}          the state (no token: as a spectator)
  POST /api/matches/{code}/bids     the seat's move for this turn
  GET  /api/matches/{code}/log      every resolved turn
  GET  /api/rules                   the constants

A turn resolves as soon as every seat has moved, or at its deadline
(turnSeconds), when the seats that did not move bid nothing and are listed in
lastTurn.missed. House bots are the kindling strategies normal and easy;
--bot-variant FILE makes the --bot-variant-level bots play a variant file
(an evolved bidder from crucible evolve) instead.
Errors are {"error","hint"} with status 400, 401, 403, 404, 408, 409, 413,
429 or 503 (500 "internal error" if something fails inside). Finished
matches are deleted after --retention; a lobby not started within
--lobby-expiry is deleted then (one nobody joined, after %v). One address
holds at most %d lobbies; a full table (--max-matches) deletes the oldest
unjoined lobby of the address holding most to seat a newcomer. A request's
body must arrive within %v; at most %d bodies are read at once, %d from one
address, half of them kept for requests with a seat's token. CORS is open.
SIGTERM or Ctrl-C stops it gracefully.

  crucible kindling serve --addr :8787          then open http://127.0.0.1:8787/
  crucible kindling serve --bot-variant runs/demo/evolve/champion.json`, kindlingapi.DefaultEmptyLobbyExpiry, kindlingapi.DefaultLobbiesPerAddr, kindlingapi.DefaultBodyTimeout, kindlingapi.DefaultMaxBodies, kindlingapi.DefaultBodiesPerAddr),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), env, cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", ":8787", "address to listen on, host:port")
	f.StringVar(&o.baseURL, "base-url", "", "public base URL for playUrl in replies (default: the request's host)")
	f.IntVar(&o.createLimit, "create-limit", 10, "matches one address may create per --create-window before 429, at least 1")
	f.DurationVar(&o.createWindow, "create-window", time.Minute, "window of --create-limit, positive")
	f.DurationVar(&o.retention, "retention", 7*24*time.Hour, "how long finished (and abandoned) matches are kept, positive")
	f.DurationVar(&o.lobbyExpiry, "lobby-expiry", kindlingapi.DefaultLobbyExpiry, "how long a lobby may wait for its start before it is deleted, positive")
	f.IntVar(&o.maxMatches, "max-matches", 100000, "most matches held at once, at least 1; creates beyond it get 429")
	f.StringVar(&o.botVariant, "bot-variant", "", "kindling variant file the house bots of --bot-variant-level play (default: the strategy of that name)")
	f.StringVar(&o.botVariantAt, "bot-variant-level", "", "bot level that plays --bot-variant: normal (the default), easy or hard")
	return cmd
}

func runServe(ctx context.Context, env games.CommandEnv, logw io.Writer, o serveOptions) error {
	switch {
	case o.createLimit < 1:
		return fmt.Errorf("--create-limit %d is below 1", o.createLimit)
	case o.maxMatches < 1:
		return fmt.Errorf("--max-matches %d is below 1", o.maxMatches)
	case o.createWindow <= 0:
		return fmt.Errorf("--create-window %v is not positive", o.createWindow)
	case o.retention <= 0:
		return fmt.Errorf("--retention %v is not positive", o.retention)
	case o.lobbyExpiry <= 0:
		return fmt.Errorf("--lobby-expiry %v is not positive", o.lobbyExpiry)
	}
	if o.baseURL != "" {
		if u, err := url.Parse(o.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--base-url %q is not an http:// or https:// URL with a host", o.baseURL)
		}
	}
	reg, err := env.Registry()
	if err != nil {
		return err
	}
	house, labels, err := serveHouseBots(reg, o)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(logw, nil))
	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{
		HouseBot:     house,
		BotLabels:    labels,
		CreateLimit:  o.createLimit,
		CreateWindow: o.createWindow,
		Retention:    o.retention,
		LobbyExpiry:  o.lobbyExpiry,
		MaxMatches:   o.maxMatches,
		BaseURL:      o.baseURL,
		Logger:       logger,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	logger.Info("kindling server listening", "addr", ln.Addr().String(), "ui", "http://"+uiHost(ln.Addr())+"/")
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// serveHouseBots returns the server's house bots: the strategies normal and
// easy, with --bot-variant's variant at --bot-variant-level, and the labels
// their names show.
func serveHouseBots(reg *strategies.Registry, o serveOptions) (kindlingapi.HouseBotFunc, map[string]string, error) {
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		return nil, nil, err
	}
	if o.botVariant == "" {
		if o.botVariantAt != "" {
			return nil, nil, fmt.Errorf("--bot-variant-level %q without --bot-variant: it names the level that plays the variant file", o.botVariantAt)
		}
		return house, nil, nil
	}
	if o.botVariantAt == "" {
		o.botVariantAt = "normal"
	}
	if !kindlingapi.IsBotLevel(o.botVariantAt) {
		return nil, nil, fmt.Errorf("--bot-variant-level %q is not %s", o.botVariantAt, kindlingapi.BotLevelNames)
	}
	s, g, label, err := games.StrategyOrVariant(reg, Name, "", o.botVariant, "house bots play kindling variants")
	if err != nil {
		return nil, nil, fmt.Errorf("--bot-variant: %w", err)
	}
	return kindlingapi.WithVariant(house, o.botVariantAt, s, g), map[string]string{o.botVariantAt: label}, nil
}

// uiHost is the host:port a browser on this machine opens for addr (an
// unspecified address, as ":8787" listens on, is 127.0.0.1).
func uiHost(addr net.Addr) string {
	if ta, ok := addr.(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(ta.Port))
	}
	return addr.String()
}

// playOptions are the flags of `crucible kindling play`.
type playOptions struct {
	url               string
	strategy, variant string
	join              string
	name              string
	seats, bots       int
	turnSeconds       int
	botLevel          string
	poll, startAfter  time.Duration
	quiet             bool
	// given reports whether a flag was set on the command line (nil: none
	// was); flags that shape a created match are refused with --join.
	given func(name string) bool
}

func newPlayCmd(env games.CommandEnv) *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play one Kindling match as an agent on any Kindling server",
		Long: `Play one Kindling match over the JSON API with a strategy or variant, as the
seed's agent loop: poll the state about once a second (skipping work when its
version is unchanged), bid when you.canMove, back off on errors, and stop when
the match is finished; then print the final standings.

Without --join it creates a match (--seats, --bots house bots, --turn-seconds,
--bot-level) and plays seat 0, printing the code others can join; a lobby
that is not full waits for them (--start-after makes the host start it,
filling open seats with house bots). With --join CODE it takes the next open
seat of that lobby; the flags that shape a created match (--seats, --bots,
--turn-seconds, --bot-level, --start-after) are then the host's, and refused.

The server is --url, else $KINDLING_URL: this project's 'crucible kindling
serve' or the public one (https://kindling.adamhaleworks.workers.dev).

  crucible kindling play --url http://127.0.0.1:8787 --strategy normal
  crucible kindling play --url http://127.0.0.1:8787 --variant v.json --seats 4 --bots 2
  crucible kindling play --url http://127.0.0.1:8787 --strategy sniper --join K7QF2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.given = cmd.Flags().Changed
			return runPlay(cmd.Context(), env, cmd.OutOrStdout(), cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.url, "url", "", "Kindling server base URL (default $KINDLING_URL)")
	f.StringVar(&o.strategy, "strategy", "", "kindling strategy to play at its defaults (see crucible strategies --game kindling)")
	f.StringVar(&o.variant, "variant", "", "kindling variant file to play")
	f.StringVar(&o.join, "join", "", "code of a lobby to join instead of creating a match")
	f.StringVar(&o.name, "name", "", fmt.Sprintf("the seat's name, 1-%d printable characters (default the strategy or variant label)", kindlingapi.MaxNameRunes))
	f.IntVar(&o.seats, "seats", kindling.MinSeats, fmt.Sprintf("seats of a created match, %d-%d", kindling.MinSeats, kindling.MaxSeats))
	f.IntVar(&o.bots, "bots", 1, "house bots in a created match, 0..seats-1 (a full table starts at once)")
	f.IntVar(&o.turnSeconds, "turn-seconds", kindlingapi.DefaultTurnSeconds, fmt.Sprintf("turn deadline of a created match, %d-%d", kindlingapi.MinTurnSeconds, kindlingapi.MaxTurnSeconds))
	f.StringVar(&o.botLevel, "bot-level", "normal", "house bot level of a created match: normal, easy or hard (crowd, built for 3-4 seats)")
	f.DurationVar(&o.poll, "poll", time.Second, "pause between state polls, at least 10ms (the seed asks for about 1 s)")
	f.DurationVar(&o.startAfter, "start-after", 0, "as host, start the match after waiting this long in the lobby, 0 or more (0: wait for joins)")
	f.BoolVar(&o.quiet, "quiet", false, "print only the final standings, not each move")
	return cmd
}

// bidderOf resolves --strategy or --variant (exactly one) to a bidder
// constructor and its label.
func bidderOf(reg *strategies.Registry, strategy, variant string) (func(code string, seat int) (kindling.Bidder, error), string, error) {
	s, g, label, err := games.StrategyOrVariant(reg, Name, strategy, variant, "kindling play needs a kindling variant (acb variants: crucible serve)")
	if err != nil {
		return nil, "", err
	}
	return kindlingapi.BidderFactory(s, g), label, nil
}

func runPlay(ctx context.Context, env games.CommandEnv, out, logw io.Writer, o playOptions) error {
	url := o.url
	if url == "" {
		url = os.Getenv("KINDLING_URL")
	}
	if url == "" {
		return errors.New("give --url (or set KINDLING_URL) to the Kindling server, e.g. http://127.0.0.1:8787")
	}
	client, err := kindlingapi.NewClient(url)
	if err != nil {
		return err
	}
	if o.poll < 10*time.Millisecond {
		return fmt.Errorf("--poll %v is below 10ms; the seed asks agents to poll about once a second", o.poll)
	}
	if err := checkPlayMatch(o); err != nil {
		return err
	}
	reg, err := env.Registry()
	if err != nil {
		return err
	}
	newBidder, label, err := bidderOf(reg, o.strategy, o.variant)
	if err != nil {
		return err
	}
	name := o.name
	if name == "" {
		name = label
		if utf8.RuneCountInString(name) > kindlingapi.MaxNameRunes {
			name = string([]rune(name)[:kindlingapi.MaxNameRunes])
		}
	}
	logf := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	if o.quiet {
		logf = func(string, ...any) {}
	}
	final, err := kindlingapi.PlayMatch(ctx, kindlingapi.PlayOptions{
		Client: client,
		Join:   strings.ToUpper(o.join),
		Create: kindlingapi.CreateRequest{Seats: o.seats, Bots: o.bots, TurnSeconds: o.turnSeconds, BotLevel: o.botLevel},
		Name:   name, NewBidder: newBidder,
		Poll: o.poll, StartAfter: o.startAfter, Logf: logf,
		Seated: func(s kindlingapi.Seated) {
			logf("match %s: seat %d as %s (%s); its page: %s", s.Code, s.Seat, name, s.State.Phase, s.PlayURL)
			if s.State.Phase == kindlingapi.PhaseLobby {
				logf("waiting for players: join with --join %s", s.Code)
			}
		},
	})
	if err != nil {
		return err
	}
	return kindlingapi.WriteStandings(out, final)
}

// checkPlayMatch refuses the flags of kindling play that could not
// mean what they say: a negative --start-after; values of --seats, --bots,
// --turn-seconds and --bot-level outside the spec's ranges (a zero would
// be sent as absent and take the server's default); and, with --join, any
// flag that only shapes a match play creates and hosts.
func checkPlayMatch(o playOptions) error {
	if o.startAfter < 0 {
		return fmt.Errorf("--start-after %v is negative; give 0 to wait for joins, or how long to wait before starting", o.startAfter)
	}
	if o.join != "" {
		for _, name := range []string{"seats", "bots", "turn-seconds", "bot-level", "start-after"} {
			if o.given != nil && o.given(name) {
				return fmt.Errorf("--%s shapes a match play creates and hosts; with --join %s the lobby's host chose it", name, o.join)
			}
		}
		return nil
	}
	switch {
	case o.seats < kindling.MinSeats || o.seats > kindling.MaxSeats:
		return fmt.Errorf("--seats %d is outside %d..%d", o.seats, kindling.MinSeats, kindling.MaxSeats)
	case o.bots < 0 || o.bots > o.seats-1:
		return fmt.Errorf("--bots %d is outside 0..%d (--seats - 1)", o.bots, o.seats-1)
	case o.turnSeconds < kindlingapi.MinTurnSeconds || o.turnSeconds > kindlingapi.MaxTurnSeconds:
		return fmt.Errorf("--turn-seconds %d is outside %d..%d", o.turnSeconds, kindlingapi.MinTurnSeconds, kindlingapi.MaxTurnSeconds)
	case !kindlingapi.IsBotLevel(o.botLevel):
		return fmt.Errorf("--bot-level %q is not %s", o.botLevel, kindlingapi.BotLevelNames)
	}
	return nil
}
