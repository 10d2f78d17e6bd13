package acbgame

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"crucible/games"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
)

// serveOptions are the flags of `crucible serve`.
type serveOptions struct {
	strategy, variant string
	secret            string
	host              string
	port              int
	portSet           bool // --port was given (0 then is a mistake, not "use $PORT")
	sessionIdle       time.Duration
}

func newServeCmd(env games.CommandEnv) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve an AI Code Battle strategy or variant as an HTTP bot",
		Long: fmt.Sprintf(`Serve one AI Code Battle strategy (at its defaults) or variant file as the HTTP
bot of the platform's protocol: GET /health answers 200; POST /turn verifies
the five X-ACB-* headers, the timestamp (%d s window) and the HMAC-SHA256
signature, then the body, and answers the strategy's moves signed over the
exact reply bytes. Failures answer 401 (authentication) or 400 (body,
including one over %d MiB, one that does not arrive within %v, or a grid
that changes within a match) without computing moves; at most %d bodies are
read at once before their signatures are checked, %d of them kept for matches
that have already sent a signed turn (from the address they sent it from) and
at most %d from one address otherwise. An internal failure answers 500
"internal error" and is logged.

One strategy instance plays each (match_id, seat), keeping its memory between
turns, for at most %d matches (a new one beyond that drops the match idle
longest); it is replaced when the turn counter goes back and dropped after
--session-idle without turns. If the strategy has not answered within %d%% of
config.turn_timeout, the bot answers an empty move list (units hold) rather
than miss the deadline.

Environment:
  SHARED_SECRET   the HMAC key (required; --secret overrides it, but a flag
                  is visible in the process list)
  PORT            the port to listen on (default %d; --port overrides it)

SIGTERM or Ctrl-C stops it gracefully (requests in flight finish).

  SHARED_SECRET=s3cret crucible serve --strategy gatherer
  SHARED_SECRET=s3cret PORT=9000 crucible serve --variant best.json`,
			int(acbhttp.MaxClockSkew/time.Second), acbhttp.DefaultMaxBody>>20, acbhttp.DefaultBodyTimeout, acbhttp.DefaultMaxBodies,
			acbhttp.DefaultProvenBodies, acbhttp.DefaultBodiesPerAddr, acbhttp.DefaultMaxMatches,
			int(acbhttp.DefaultAnswerFraction*100), acbhttp.DefaultPort),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.portSet = cmd.Flags().Changed("port")
			return runServe(cmd.Context(), env, cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.strategy, "strategy", "", "acb strategy to serve at its default parameters (see crucible strategies --game acb)")
	f.StringVar(&o.variant, "variant", "", "acb variant file to serve (JSON, see crucible evolve)")
	f.StringVar(&o.secret, "secret", "", "shared HMAC secret (default $SHARED_SECRET)")
	f.StringVar(&o.host, "host", "", "interface to listen on (default all)")
	f.IntVar(&o.port, "port", 0, fmt.Sprintf("port to listen on, 1 to 65535 (default $PORT, else %d)", acbhttp.DefaultPort))
	f.DurationVar(&o.sessionIdle, "session-idle", acbhttp.DefaultSessionIdle, "drop a match's strategy instance after this long without a turn, positive")
	return cmd
}

// acbFactory resolves --strategy or --variant (exactly one) to a controller
// factory and its display label.
func acbFactory(reg *strategies.Registry, strategy, variant string) (acbhttp.Factory, string, error) {
	s, g, label, err := games.StrategyOrVariant(reg, Name, strategy, variant, "serve plays acb (use crucible kindling play for kindling)")
	if err != nil {
		return nil, "", err
	}
	return acbhttp.StrategyFactory(s, g), label, nil
}

// listenPort returns the port: the flag when given, else $PORT, else
// acbhttp.DefaultPort. A given flag outside 1..65535 (0 included: it does
// not mean "any port", nor "the default") is an error.
func listenPort(flag int, given bool) (int, error) {
	if given {
		if flag < 1 || flag > 65535 {
			return 0, fmt.Errorf("--port %d is outside 1..65535 (leave --port out to use $PORT, else %d)", flag, acbhttp.DefaultPort)
		}
		return flag, nil
	}
	env := os.Getenv("PORT")
	if env == "" {
		return acbhttp.DefaultPort, nil
	}
	p, err := strconv.Atoi(env)
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("PORT=%q is not a port number 1..65535", env)
	}
	return p, nil
}

func runServe(ctx context.Context, env games.CommandEnv, logw io.Writer, o serveOptions) error {
	if o.sessionIdle <= 0 {
		return fmt.Errorf("--session-idle %v is not positive", o.sessionIdle)
	}
	reg, err := env.Registry()
	if err != nil {
		return err
	}
	factory, label, err := acbFactory(reg, o.strategy, o.variant)
	if err != nil {
		return err
	}
	secret := o.secret
	if secret == "" {
		secret = os.Getenv("SHARED_SECRET")
	}
	port, err := listenPort(o.port, o.portSet)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(logw, nil))
	srv, err := acbhttp.NewServer(acbhttp.ServerConfig{Secret: secret, New: factory, SessionIdle: o.sessionIdle, Logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(o.host, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	logger.Info("serving", "bot", label, "addr", ln.Addr().String(), "endpoints", "GET /health, POST /turn")
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}
