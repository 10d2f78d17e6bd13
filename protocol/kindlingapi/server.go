package kindlingapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"crucible/engine/kindling"
	"crucible/protocol/httpguard"
)

// HouseBotFunc builds the house bot of a level (see BotLevels) for one
// seat of one match, with its own random seed.
type HouseBotFunc func(level string, seed uint64, seat int) (kindling.Bidder, error)

// ServerConfig configures a Kindling server. Zero values take the
// documented defaults.
type ServerConfig struct {
	// HouseBot builds house bots (required).
	HouseBot HouseBotFunc
	// BotLabels names what plays each bot level in the house bots' names
	// ("Bot 1 (normal#3fa9c2e1b0d4)" for an evolved variant); a level
	// without a label shows the level.
	BotLabels map[string]string
	// Now is the clock of deadlines and retention; nil means time.Now.
	// Deadlines are evaluated on every request touching a match, so a fake
	// clock drives them in tests without sleeping.
	Now func() time.Time
	// CreateLimit is how many matches one address may create per
	// CreateWindow before it gets 429; defaults 10 per minute.
	CreateLimit  int
	CreateWindow time.Duration
	// Retention is how long a finished match is kept (default 7 days); a
	// match abandoned in play is dropped the same time after its last
	// deadline (a lobby, after LobbyExpiry).
	Retention time.Duration
	// LobbyExpiry is how long a lobby may wait for its start (default
	// DefaultLobbyExpiry): a lobby not started by then is deleted, so that
	// lobbies nobody starts do not fill MaxMatches for the whole Retention.
	LobbyExpiry time.Duration
	// EmptyLobbyExpiry is how long a lobby nobody has joined (only its
	// host and house bots seated) may wait (default DefaultEmptyLobbyExpiry,
	// at most LobbyExpiry): the lobbies a flood of creates leaves behind go
	// sooner than those someone is waiting in.
	EmptyLobbyExpiry time.Duration
	// MaxMatches caps the matches held at once (default 100000). When the
	// table is full, a create from an address holding fewer lobbies than
	// the address holding most deletes that address's oldest lobby nobody
	// has joined; otherwise it gets 429.
	MaxMatches int
	// LobbiesPerAddr caps the lobbies (matches not yet started) created
	// from one address held at once (default DefaultLobbiesPerAddr);
	// creates beyond it get 429.
	LobbiesPerAddr int
	// HeaderTimeout bounds how long Serve waits for a request's headers
	// (default DefaultHeaderTimeout).
	HeaderTimeout time.Duration
	// BodyTimeout bounds how long a request's body may take to arrive once
	// its headers are read, waiting for a reading slot included (default
	// DefaultBodyTimeout); a slower body is answered 408.
	BodyTimeout time.Duration
	// MaxBodies caps the request bodies read at once (default
	// DefaultMaxBodies); a body that finds no slot within BodyTimeout is
	// answered 503. Half of them are kept for requests that carry a seat's
	// token for the match they name (bids, start), so that bodies without
	// a token cannot starve the moves of a match in play.
	MaxBodies int
	// BodiesPerAddr caps the bodies read at once from one address
	// (default DefaultBodiesPerAddr).
	BodiesPerAddr int
	// BaseURL is the public base URL used in playUrl; empty means the
	// request's own scheme and host.
	BaseURL string
	// Logger receives match events; nil discards them.
	Logger *slog.Logger
}

// DefaultLobbyExpiry is how long a lobby may wait for its start before it
// is deleted.
const DefaultLobbyExpiry = time.Hour

// DefaultEmptyLobbyExpiry is how long a lobby nobody has joined may wait
// for its start before it is deleted.
const DefaultEmptyLobbyExpiry = 15 * time.Minute

// DefaultLobbiesPerAddr is how many lobbies one address may hold at once.
const DefaultLobbiesPerAddr = 10

// DefaultHeaderTimeout is how long Serve waits for a request's headers once
// its first byte has arrived.
const DefaultHeaderTimeout = 10 * time.Second

// DefaultBodyTimeout is how long a request's body may take to arrive once
// its headers are read, its wait for a reading slot included: a fifth of
// the shortest turn (10 s), so that a stalled body holds a slot far less
// long than a turn lasts.
const DefaultBodyTimeout = 2 * time.Second

// DefaultMaxBodies is how many request bodies the server reads at once
// (each at most MaxBody): connections that send their bodies slowly hold
// at most DefaultMaxBodies x MaxBody of memory, and only until their body
// timeout.
const DefaultMaxBodies = 64

// DefaultBodiesPerAddr is how many request bodies from one address the
// server reads at once: one address that stalls its bodies holds no more.
const DefaultBodiesPerAddr = 4

// Server is the Kindling HTTP API of the seed. It is an http.Handler safe
// for concurrent use; each match has its own lock, the match table a
// read-mostly lock held only to find a match.
type Server struct {
	cfg     ServerConfig
	handler http.Handler
	mux     *http.ServeMux
	// bodies reads request bodies, MaxBodies at most at once.
	bodies httpguard.Bodies

	mu      sync.RWMutex
	matches map[string]*match
	// missingHint is the hint of a 404 for a match code; it states the
	// retention.
	missingHint string

	limitMu sync.Mutex
	creates map[string]*window

	// lobbies lists the lobbies of each address, oldest first.
	lobbies lobbyBook
}

// window counts one address's creates in the current window.
type window struct {
	start time.Time
	n     int
}

// NewServer checks cfg and returns a server.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.HouseBot == nil {
		return nil, errors.New("kindling server: no house bot factory")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CreateLimit <= 0 {
		cfg.CreateLimit = 10
	}
	if cfg.CreateWindow <= 0 {
		cfg.CreateWindow = time.Minute
	}
	if cfg.Retention <= 0 {
		cfg.Retention = 7 * 24 * time.Hour
	}
	if cfg.LobbyExpiry <= 0 {
		cfg.LobbyExpiry = DefaultLobbyExpiry
	}
	if cfg.EmptyLobbyExpiry <= 0 {
		cfg.EmptyLobbyExpiry = DefaultEmptyLobbyExpiry
	}
	cfg.EmptyLobbyExpiry = min(cfg.EmptyLobbyExpiry, cfg.LobbyExpiry)
	if cfg.MaxMatches <= 0 {
		cfg.MaxMatches = 100000
	}
	if cfg.LobbiesPerAddr <= 0 {
		cfg.LobbiesPerAddr = DefaultLobbiesPerAddr
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
	if cfg.BodiesPerAddr <= 0 {
		cfg.BodiesPerAddr = DefaultBodiesPerAddr
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	slots, err := httpguard.NewSlots(httpguard.SlotsConfig{Max: cfg.MaxBodies, Reserved: cfg.MaxBodies / 2, PerAddr: cfg.BodiesPerAddr, ProvenPerAddr: cfg.BodiesPerAddr})
	if err != nil {
		return nil, err
	}
	missing := fmt.Sprintf("match codes are %d characters, as returned by create; finished matches are deleted after ", codeLength) + spell(cfg.Retention) +
		", lobbies not started within " + spell(cfg.LobbyExpiry)
	if cfg.EmptyLobbyExpiry < cfg.LobbyExpiry {
		missing += " (" + spell(cfg.EmptyLobbyExpiry) + " if nobody joined)"
	}
	s := &Server{cfg: cfg, matches: map[string]*match{}, creates: map[string]*window{},
		bodies:      httpguard.Bodies{Slots: slots, Timeout: cfg.BodyTimeout, Max: MaxBody},
		missingHint: missing}
	s.lobbies.init()
	s.handler = httpguard.Wrap(http.HandlerFunc(s.serve), cfg.BodyTimeout, cfg.Logger, func(w http.ResponseWriter) {
		writeError(w, errorf(http.StatusInternalServerError, bugHint, internalError))
	})
	s.routes()
	return s, nil
}

// spell writes a duration as a person would: "7 days", "1 hour",
// "90 minutes", else Go's form.
func spell(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}} {
		if d%u.d == 0 {
			if n := d / u.d; n != 1 {
				return fmt.Sprintf("%d %ss", n, u.name)
			}
			return "1 " + u.name
		}
	}
	return d.String()
}

// ServeHTTP answers the API:
//
//	POST /api/matches                 create
//	POST /api/matches/{code}/join     join
//	POST /api/matches/{code}/start    start (host)
//	GET  /api/matches/{code}          state (token optional)
//	POST /api/matches/{code}/bids     move
//	GET  /api/matches/{code}/log      replay
//	GET  /api/rules                   constants
//
// Another method on one of these paths is a JSON 405 naming the allowed
// one, another path a JSON 404, OPTIONS a CORS preflight. A request's body
// must arrive within BodyTimeout. A panic answers a generic 500 (the
// detail goes to the log, never to the caller).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// serve is ServeHTTP under the guard: CORS, then the routes.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.mux.ServeHTTP(w, r)
}

const pathHint = "paths: POST /api/matches, POST /api/matches/{code}/join|start|bids, GET /api/matches/{code}[/log], GET /api/rules"

// routes registers every endpoint with its method, and the same path
// without one for the JSON 405.
func (s *Server) routes() {
	mux := http.NewServeMux()
	type handler func(w http.ResponseWriter, r *http.Request, code string) *apiError
	endpoint := func(method, path string, h handler) {
		mux.HandleFunc(method+" "+path, func(w http.ResponseWriter, r *http.Request) {
			if e := h(w, r, strings.ToUpper(r.PathValue("code"))); e != nil {
				writeError(w, e)
			}
		})
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", method)
			writeError(w, errorf(http.StatusMethodNotAllowed, pathHint, "%s %s is not allowed; use %s", r.Method, r.URL.Path, method))
		})
	}
	endpoint(http.MethodGet, "/api/rules", func(w http.ResponseWriter, _ *http.Request, _ string) *apiError {
		writeJSON(w, http.StatusOK, RulesOf())
		return nil
	})
	endpoint(http.MethodPost, "/api/matches", func(w http.ResponseWriter, r *http.Request, _ string) *apiError { return s.create(w, r) })
	endpoint(http.MethodGet, "/api/matches/{code}", s.state)
	endpoint(http.MethodGet, "/api/matches/{code}/log", func(w http.ResponseWriter, _ *http.Request, code string) *apiError { return s.logReply(w, code) })
	endpoint(http.MethodPost, "/api/matches/{code}/join", s.join)
	endpoint(http.MethodPost, "/api/matches/{code}/start", s.start)
	endpoint(http.MethodPost, "/api/matches/{code}/bids", s.bid)
	uiRoutes(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, pathHint, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
	s.mux = mux
}

// Sweep brings every match up to date and deletes those finished longer
// than Retention ago, abandoned matches idle that long, lobbies not
// started within LobbyExpiry (EmptyLobbyExpiry if nobody joined), and stale create counters. Serve runs it
// every minute.
func (s *Server) Sweep() {
	now := s.cfg.Now()
	s.mu.RLock()
	list := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		list = append(list, m)
	}
	s.mu.RUnlock()
	var expired []*match
	for _, m := range list {
		m.mu.Lock()
		m.advance(now)
		switch m.phase {
		case PhaseFinished:
			if now.Sub(m.finished) > s.cfg.Retention {
				expired = append(expired, m)
			}
		case PhaseLobby:
			if s.lobbyExpired(m, now) {
				expired = append(expired, m)
			}
		default:
			if now.Sub(m.deadline) > s.cfg.Retention {
				expired = append(expired, m)
			}
		}
		m.mu.Unlock()
	}
	if len(expired) > 0 {
		s.remove(expired...)
		s.cfg.Logger.Info("expired matches and lobbies deleted", "count", len(expired))
	}
	s.limitMu.Lock()
	for a, win := range s.creates {
		if now.Sub(win.start) >= s.cfg.CreateWindow {
			delete(s.creates, a)
		}
	}
	s.limitMu.Unlock()
}

// Matches returns the number of matches held.
func (s *Server) Matches() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.matches)
}

// Serve answers requests on ln until ctx is cancelled, sweeping expired
// matches every minute, then shuts down gracefully and returns nil.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return httpguard.Serve(ctx, ln, s, httpguard.ServeConfig{Name: "kindling server", HeaderTimeout: s.cfg.HeaderTimeout, Every: time.Minute, Tick: s.Sweep})
}
