package acbhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/protocol/httpguard"
	"crucible/strategies"
)

// DefaultMaxBody is the largest /turn body the bot server reads (4 MiB); a
// larger one is a body failure, answered 400 without computing moves (the
// spec allows only 401 and 400 for a refused /turn). A 200x200 state with
// every tile listed is well under 2 MiB.
const DefaultMaxBody = 4 << 20

// DefaultSessionIdle is how long the bot server keeps a match's strategy
// instance after its last turn.
const DefaultSessionIdle = 10 * time.Minute

// DefaultMaxMatches is how many match ids the bot server keeps state for
// at once; a new match beyond it evicts the one idle longest.
const DefaultMaxMatches = 1000

// DefaultHeaderTimeout is how long Serve waits for a request's headers once
// its first byte has arrived.
const DefaultHeaderTimeout = 10 * time.Second

// DefaultBodyTimeout is how long a /turn body may take to arrive, its wait
// for a reading slot included, from the moment its headers have been
// read: a third of the spec's 3 s turn budget, so that a stranger's
// stalled body holds a slot far less long than a turn lasts. A body that
// is not complete by then is answered 400 and its connection closed.
const DefaultBodyTimeout = time.Second

// DefaultMaxBodies is how many /turn bodies the bot server reads at once
// before their signatures are verified (the signature covers the body's
// hash, so it cannot be checked before the body is read). Strangers who
// open many connections and send their bodies slowly hold at most
// DefaultMaxBodies x MaxBody of memory, and only until the body timeout.
const DefaultMaxBodies = 32

// DefaultProvenBodies is how many of the MaxBodies reading slots are kept
// for proven turns: those of a match that has already sent a validly
// signed turn, from the address it sent it from. Strangers without the
// secret share the others, so they cannot starve a running match.
const DefaultProvenBodies = 16

// DefaultBodiesPerAddr is how many bodies of unproven turns (a match's
// first turn, or a stranger's) one address may have read at once.
const DefaultBodiesPerAddr = 4

// DefaultAnswerFraction is the share of config.turn_timeout the bot server
// allows its strategy before it answers an empty move list.
const DefaultAnswerFraction = 0.8

// DefaultPort is the port a bot listens on when PORT is not set (the spec's
// default).
const DefaultPort = 8080

// Factory builds a fresh controller for one seat of one match: the bot
// server calls it on the first turn it sees of (match_id, you.id).
type Factory func(matchID string, seat int) (acb.Controller, error)

// StrategyFactory returns a Factory that plays strategy s with genome g.
// Each instance gets its own copy of g (matches run concurrently) and the
// random seed of its seat derived from the match id (see MatchSeed), so a
// replayed match gets the same decisions, and a match crucible plays under
// the engine's own id gets those of the in-process player.
func StrategyFactory(s strategies.Strategy, g strategies.Genome) Factory {
	g = slices.Clone(g)
	return func(matchID string, seat int) (acb.Controller, error) {
		p := s.New(slices.Clone(g), engine.SeatSeed(MatchSeed(matchID), seat), seat)
		c, ok := p.(acb.Controller)
		if !ok {
			return nil, fmt.Errorf("strategy %s/%s does not build an acb.Controller (got %T)", s.Game, s.Name, p)
		}
		return c, nil
	}
}

// MatchSeed is the match seed a bot seeds its seats from (through
// engine.SeatSeed, as the engine seeds an in-process player). The id the
// engine gives a match that has none, "m_" and the seed in 16 lowercase
// hex digits (acb.NewMatchWith; `crucible match acb` plays under it),
// gives that seed back: the strategies break ties with their random
// generator, so a bot seeded otherwise plays another match than the
// in-process player on the same seed. Any other id (the platform's, the
// arena's) is hashed with FNV-1a.
func MatchSeed(matchID string) uint64 {
	if hexSeed, ok := strings.CutPrefix(matchID, "m_"); ok && len(hexSeed) == 16 {
		if seed, err := strconv.ParseUint(hexSeed, 16, 64); err == nil && fmt.Sprintf("m_%016x", seed) == matchID {
			return seed
		}
	}
	h := fnv.New64a()
	h.Write([]byte(matchID))
	return h.Sum64()
}

// ServerConfig configures a bot server.
type ServerConfig struct {
	// Secret is the shared HMAC key (required: an empty secret is an error,
	// never an open bot).
	Secret string
	// New builds the controller of each match (required).
	New Factory
	// MaxBody caps the /turn body in bytes; 0 means DefaultMaxBody.
	MaxBody int64
	// SessionIdle drops a match's controller after this long without a
	// turn; 0 means DefaultSessionIdle.
	SessionIdle time.Duration
	// MaxMatches caps the match ids the server keeps state for (their
	// controllers, and whether they have proven themselves); a new one
	// beyond it evicts the match idle longest. 0 means DefaultMaxMatches.
	MaxMatches int
	// AnswerFraction is the share of config.turn_timeout the server allows
	// itself to compute moves; past it, it answers an empty, signed move
	// list so the turn is not counted as a failure. 0 means
	// DefaultAnswerFraction.
	AnswerFraction float64
	// HeaderTimeout bounds how long Serve waits for a request's headers;
	// 0 means DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// BodyTimeout bounds how long a request's body may take to arrive once
	// its headers are read (waiting for a reading slot included); 0 means
	// DefaultBodyTimeout.
	BodyTimeout time.Duration
	// MaxBodies caps the /turn bodies read at once before their signatures
	// are verified; 0 means DefaultMaxBodies.
	MaxBodies int
	// ProvenBodies is how many of MaxBodies only proven turns may take
	// (see DefaultProvenBodies); 0 means DefaultProvenBodies, or
	// MaxBodies/2 when MaxBodies is at most DefaultProvenBodies.
	ProvenBodies int
	// BodiesPerAddr caps the unproven bodies read at once from one
	// address; 0 means DefaultBodiesPerAddr.
	BodiesPerAddr int
	// Now is the clock for the timestamp window and session ages; nil means
	// time.Now.
	Now func() time.Time
	// Logger receives session and error events; nil discards them.
	Logger *slog.Logger
}

// Server is the AI Code Battle bot server of the seed: GET /health answers
// 200 and POST /turn verifies, computes and signs moves. It keeps one
// controller per (match_id, you.id), created on the first turn, replaced
// when the turn counter goes back (a new match under a reused id), and
// dropped after SessionIdle without turns or when MaxMatches newer matches
// have come since. It is an http.Handler safe for concurrent use by many
// matches.
type Server struct {
	cfg     ServerConfig
	handler http.Handler
	// bodies reads /turn bodies, MaxBodies at most at once.
	bodies httpguard.Bodies
	// matches holds the state of each match id, MaxMatches at most.
	matches matchTable
}

// NewServer checks cfg and returns a server.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Secret == "" {
		return nil, errors.New("the shared secret is empty: set SHARED_SECRET (a bot without a secret would accept anyone's requests)")
	}
	if cfg.New == nil {
		return nil, errors.New("bot server: no controller factory")
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.SessionIdle <= 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.MaxMatches <= 0 {
		cfg.MaxMatches = DefaultMaxMatches
	}
	if cfg.AnswerFraction <= 0 || cfg.AnswerFraction > 1 {
		cfg.AnswerFraction = DefaultAnswerFraction
	}
	if cfg.HeaderTimeout <= 0 {
		cfg.HeaderTimeout = DefaultHeaderTimeout
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	if cfg.MaxBodies <= 0 {
		cfg.MaxBodies = DefaultMaxBodies
	}
	if cfg.ProvenBodies <= 0 || cfg.ProvenBodies >= cfg.MaxBodies {
		cfg.ProvenBodies = min(DefaultProvenBodies, cfg.MaxBodies/2)
	}
	if cfg.BodiesPerAddr <= 0 {
		cfg.BodiesPerAddr = DefaultBodiesPerAddr
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	slots, err := httpguard.NewSlots(httpguard.SlotsConfig{Max: cfg.MaxBodies, Reserved: cfg.ProvenBodies, PerAddr: cfg.BodiesPerAddr})
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, bodies: httpguard.Bodies{Slots: slots, Timeout: cfg.BodyTimeout, Max: cfg.MaxBody}}
	s.matches.init(cfg.MaxMatches, cfg.SessionIdle, cfg.Logger)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", health)
	mux.HandleFunc("/health", notAllowed("GET, HEAD", "use GET /health"))
	mux.HandleFunc("POST /turn", s.turn)
	mux.HandleFunc("/turn", notAllowed("POST", "use POST /turn"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "this bot serves GET /health and POST /turn")
	})
	s.handler = httpguard.Wrap(mux, cfg.BodyTimeout, cfg.Logger, func(w http.ResponseWriter) {
		httpError(w, http.StatusInternalServerError, internalError)
	})
	return s, nil
}

// ServeHTTP routes GET /health and POST /turn; any other method on those
// paths is a JSON 405 naming the allowed ones, any other path a JSON 404.
// A request's body must arrive within BodyTimeout. A panic answers a
// generic 500 (the detail goes to the log, never to the caller).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// internalError is the whole message of every 500: what failed inside is
// logged, not sent.
const internalError = "internal error"

func health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

// notAllowed answers 405 with the allowed methods.
func notAllowed(allow, msg string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		httpError(w, http.StatusMethodNotAllowed, msg)
	}
}

// httpError writes a small unsigned JSON error.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Write(append(b, '\n'))
}

// Serve answers requests on ln until ctx is cancelled, then shuts down
// gracefully: it stops accepting, lets requests in flight finish (at most
// 10 s) and returns nil. Headers must arrive within HeaderTimeout.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return httpguard.Serve(ctx, ln, s, httpguard.ServeConfig{Name: "bot server", HeaderTimeout: s.cfg.HeaderTimeout})
}
