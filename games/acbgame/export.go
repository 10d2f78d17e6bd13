package acbgame

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"text/template"

	"crucible/export"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
)

// exportTarget exports an AI Code Battle variant as the platform's HTTP bot.
var exportTarget = export.Target{
	Game:       "acb",
	Bot:        "the AI Code Battle HTTP bot (reads SHARED_SECRET and PORT)",
	Dockerfile: dockerfile,
	README:     readme,
	RunHint:    "cd %s && SHARED_SECRET=... PORT=8080 ./bot",
	Run:        runACB,
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

var dockerfile = template.Must(template.New("Dockerfile").Parse(`# AI Code Battle bot {{.Label}}, exported by crucible.
# Build: docker build -t acb-{{.V.ID}} .
# Run:   docker run --rm -p 8080:8080 -e SHARED_SECRET=... acb-{{.V.ID}}
FROM ` + export.BaseImage + `
COPY bot /bot
COPY variant.json /variant.json
ENV PORT=8080
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/bot"]
`))

var readme = template.Must(template.New("README.md").Parse(`# {{.Label}}: an AI Code Battle bot

Variant ` + "`{{.V.ID}}`" + ` of the strategy ` + "`{{.V.Base}}`" + ` ({{.Description}}),
exported by crucible. ` + "`bot`" + ` is a static Linux/{{.Arch}} binary that serves this variant
and nothing else, speaking the platform's bot protocol.

## Run

    SHARED_SECRET=your-secret PORT=8080 ./bot
    curl -i http://localhost:8080/health        # 200 when ready

With Docker (the image is distroless; nothing else is needed):

    docker build -t acb-{{.V.ID}} .
    docker run --rm -p 8080:8080 -e SHARED_SECRET=your-secret acb-{{.V.ID}}

## Environment

| variable | meaning |
|---|---|
| SHARED_SECRET | the HMAC key shared with the match coordinator (required: the bot refuses to start without it) |
| PORT | the port to listen on (default 8080) |

Flag: ` + "`-host ADDR`" + ` listens on one interface only (default all). SIGTERM stops the bot
gracefully.

## Protocol

- ` + "`GET /health`" + ` answers 200.
- ` + "`POST /turn`" + ` checks, in order: the five headers X-ACB-Match-Id, X-ACB-Turn,
  X-ACB-Timestamp, X-ACB-Bot-Id, X-ACB-Signature; the timestamp within 30 s of now; the
  signature, HMAC-SHA256(SHARED_SECRET, "{match_id}.{turn}.{timestamp}.{sha256_hex(body)}")
  as 64 hex characters compared in constant time; then the body, whose match_id and turn
  must equal the headers. Failures answer 401 (authentication) or 400 (body, including a body
  over 4 MiB), computing no moves.
- The reply is ` + "`{\"moves\": [...]}`" + `, signed over its exact bytes with
  "{match_id}.{turn}.{sha256_hex(reply)}" in X-ACB-Signature.
- One strategy instance per match keeps its memory between turns. If the strategy has not
  answered within 80% of config.turn_timeout, the bot answers no moves rather than miss the
  deadline.

## Try it against crucible

    SHARED_SECRET=s3cret PORT=8080 ./bot &
    ACB_SECRET=s3cret crucible arena --game acb --players gatherer,http://127.0.0.1:8080
    ACB_SECRET=s3cret crucible match acb --players http://127.0.0.1:8080,gatherer --seed 5

The bot seeds its tie-breaking from the match id. A match id of the engine's own form,
` + "`m_`" + ` and the seed in 16 hex digits (what ` + "`crucible match acb`" + ` sends), gives the seed
itself, so that match is move for move the one ` + "`variant.json`" + ` plays in-process on the same
seed; other ids (the platform's, an arena's) are hashed, and the bot plays as well but breaks
ties otherwise.

## The variant

` + export.ParamTable + `
The same parameters are in ` + "`variant.json`" + `; rebuild with
` + "`crucible export --variant variant.json --out DIR`" + ` from the crucible checkout.
`))
