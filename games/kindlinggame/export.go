package kindlinggame

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/template"
	"time"

	"crucible/export"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// PublicKindling is the public Kindling server, the default of an exported
// agent's KINDLING_URL (as for the platform's sample bots).
const PublicKindling = "https://kindling.adamhaleworks.workers.dev"

// exportTarget exports a Kindling variant as an agent of the Kindling JSON API.
var exportTarget = export.Target{
	Game:       "kindling",
	Bot:        "the Kindling agent (reads KINDLING_URL; creates a match or joins the code given as argument)",
	Dockerfile: dockerfile,
	README:     readme,
	RunHint:    "cd %s && KINDLING_URL=" + PublicKindling + " ./bot [CODE]",
	Run:        runKindling,
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

var dockerfile = template.Must(template.New("Dockerfile").Parse(`# Kindling agent {{.Label}}, exported by crucible.
# Build: docker build -t kindling-{{.V.ID}} .
# Run:   docker run --rm kindling-{{.V.ID}}            (a match against a house bot)
#        docker run --rm kindling-{{.V.ID}} K7QF2      (join lobby K7QF2)
FROM ` + export.BaseImage + `
COPY bot /bot
COPY variant.json /variant.json
ENV KINDLING_URL=` + PublicKindling + `
USER nonroot:nonroot
ENTRYPOINT ["/bot"]
`))

var readme = template.Must(template.New("README.md").Parse(`# {{.Label}}: a Kindling agent

Variant ` + "`{{.V.ID}}`" + ` of the bidder ` + "`{{.V.Base}}`" + ` ({{.Description}}),
exported by crucible. ` + "`bot`" + ` is a static Linux/{{.Arch}} binary that plays this variant
and nothing else over the Kindling JSON API, as the platform's agent loop: it polls the
state about once a second, bids when it can move, backs off on errors, and prints the final
standings when the match is finished.

## Run

    ./bot                          # create a match against one house bot and play it
    ./bot K7QF2                    # join the lobby K7QF2 and play it
    ./bot -seats 4 -bots 2         # create a 4-seat match with 2 house bots; others join with its code
    ./bot -seats 3 -bots 0 -start-after 2m   # wait 2 minutes for players, then fill with house bots
    ./bot -help                    # every flag

With Docker (the image is distroless and carries the CA certificates for https):

    docker build -t kindling-{{.V.ID}} .
    docker run --rm kindling-{{.V.ID}}
    docker run --rm -e KINDLING_URL=http://host.docker.internal:8787 kindling-{{.V.ID}}

## Environment

| variable | meaning |
|---|---|
| KINDLING_URL | the server (default ` + PublicKindling + `; ` + "`-url`" + ` overrides it) |

## Try it against crucible

    crucible kindling serve --addr :8787 &
    KINDLING_URL=http://127.0.0.1:8787 ./bot -seats 4 -bots 3

## The variant

` + export.ParamTable + `
The same parameters are in ` + "`variant.json`" + `; rebuild with
` + "`crucible export --variant variant.json --out DIR`" + ` from the crucible checkout.
`))
