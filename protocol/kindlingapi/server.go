package kindlingapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"crucible/engine/kindling"
)

// HouseBotFunc builds the house bot of a level ("normal" or "easy") for one
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
	// MaxMatches caps the matches held at once (default 100000); creates
	// beyond it get 429.
	MaxMatches int
	// HeaderTimeout bounds how long Serve waits for a request's headers
	// (default DefaultHeaderTimeout).
	HeaderTimeout time.Duration
	// BodyTimeout bounds how long a request's body may take to arrive once
	// its headers are read, waiting for a reading slot included (default
	// DefaultBodyTimeout); a slower body is answered 408.
	BodyTimeout time.Duration
	// MaxBodies caps the request bodies read at once (default
	// DefaultMaxBodies); a body that finds no slot within BodyTimeout is
	// answered 503.
	MaxBodies int
	// BaseURL is the public base URL used in playUrl; empty means the
	// request's own scheme and host.
	BaseURL string
	// Logger receives match events; nil discards them.
	Logger *slog.Logger
}

// DefaultLobbyExpiry is how long a lobby may wait for its start before it
// is deleted.
const DefaultLobbyExpiry = time.Hour

// DefaultHeaderTimeout is how long Serve waits for a request's headers once
// its first byte has arrived.
const DefaultHeaderTimeout = 10 * time.Second

// DefaultBodyTimeout is how long a request's body may take to arrive once
// its headers are read.
const DefaultBodyTimeout = 10 * time.Second

// DefaultMaxBodies is how many request bodies the server reads at once
// (each at most MaxBody): connections that send their bodies slowly hold
// at most DefaultMaxBodies x MaxBody of memory, and only until their body
// timeout.
const DefaultMaxBodies = 64

// Server is the Kindling HTTP API of the seed. It is an http.Handler safe
// for concurrent use; each match has its own lock, the match table a
// read-mostly lock held only to find a match.
type Server struct {
	cfg ServerConfig
	mux *http.ServeMux
	// bodies holds a token per request body being read.
	bodies chan struct{}

	mu      sync.RWMutex
	matches map[string]*match
	// missingHint is the hint of a 404 for a match code; it states the
	// retention.
	missingHint string

	limitMu sync.Mutex
	creates map[string]*window
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
	if cfg.MaxMatches <= 0 {
		cfg.MaxMatches = 100000
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
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	s := &Server{cfg: cfg, matches: map[string]*match{}, creates: map[string]*window{}, bodies: make(chan struct{}, cfg.MaxBodies),
		missingHint: fmt.Sprintf("match codes are %d characters, as returned by create; finished matches are deleted after ", codeLength) + spell(cfg.Retention) +
			", lobbies not started within " + spell(cfg.LobbyExpiry)}
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

// apiError is an error reply with its status.
type apiError struct {
	status int
	msg    string
	hint   string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, hint, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...), hint: hint}
}

// internalError is the whole message of every 500: what failed inside is
// logged, not sent.
const internalError = "internal error"

const bugHint = "this is a server bug"

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(ErrorBody{Error: internalError, Hint: bugHint})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, ErrorBody{Error: e.msg, Hint: e.hint})
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
	tw := &trackingWriter{ResponseWriter: w}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if p == http.ErrAbortHandler {
			panic(p)
		}
		s.cfg.Logger.Error("request panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		if !tw.wrote {
			writeError(tw, errorf(http.StatusInternalServerError, bugHint, internalError))
		}
	}()
	h := tw.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Max-Age", "86400")
		tw.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		// Also bounds the server's drain of a body no handler reads. A
		// writer without a connection has no deadline to set.
		_ = http.NewResponseController(tw).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	}
	s.mux.ServeHTTP(tw, r)
}

// trackingWriter remembers whether a reply has begun, so that a recovered
// panic does not write a second one.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackingWriter) WriteHeader(code int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackingWriter) Write(b []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// unwrap returns the server's own writer under w, which http.MaxBytesReader
// needs to close the connection of a body over its limit (it does not
// unwrap).
func unwrap(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
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

// readBody reads a request body of at most MaxBody bytes once one of the
// MaxBodies reading slots is free, all within BodyTimeout; an empty body
// reads as {}.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	deadline := time.Now().Add(s.cfg.BodyTimeout)
	_ = http.NewResponseController(w).SetReadDeadline(deadline)
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case s.bodies <- struct{}{}:
	case <-wait.C:
		w.Header().Set("Retry-After", "1")
		return nil, errorf(http.StatusServiceUnavailable, "try again in a moment", "the body was not read within %v: the server was already reading its limit of %d bodies", s.cfg.BodyTimeout, s.cfg.MaxBodies)
	case <-r.Context().Done():
		return nil, errorf(http.StatusBadRequest, "send a JSON object", "the request ended before its body was read")
	}
	defer func() { <-s.bodies }()
	b, err := io.ReadAll(http.MaxBytesReader(unwrap(w), r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		var netErr net.Error
		switch {
		case errors.As(err, &tooBig):
			return nil, errorf(http.StatusRequestEntityTooLarge, "bodies are small JSON objects", "body is over %d bytes", MaxBody)
		case errors.As(err, &netErr) && netErr.Timeout():
			return nil, errorf(http.StatusRequestTimeout, "send the whole body at once", "the body did not arrive within %v", s.cfg.BodyTimeout)
		}
		return nil, errorf(http.StatusBadRequest, "send a JSON object", "the body ended before its Content-Length")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}")
	}
	return b, nil
}

// decodeBody decodes a JSON object into v; unknown fields are ignored.
func decodeBody(body []byte, v any, hint string) *apiError {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, hint, "%s", describeJSONError(err))
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, hint, "body has data after the JSON object")
	}
	return nil
}

// tokenOf returns the request's token: Authorization: Bearer <token>, or
// ?token=.
func tokenOf(r *http.Request) string {
	if a := r.Header.Get("Authorization"); a != "" {
		if scheme, tok, ok := strings.Cut(a, " "); ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok)
		}
	}
	return r.URL.Query().Get("token")
}

// seatOf finds the seat whose token equals tok, comparing with every seat
// in constant time. It returns -1 when none does.
func (m *match) seatOf(tok string) int {
	found := -1
	if tok == "" {
		return found
	}
	for i, p := range m.players {
		if p.token != "" && subtle.ConstantTimeCompare([]byte(p.token), []byte(tok)) == 1 {
			found = i
		}
	}
	return found
}

const tokenHint = "send the token from create or join as Authorization: Bearer <token> (or ?token=)"

// auth returns the seat of the request's token, or 401.
func (m *match) auth(r *http.Request) (int, *apiError) {
	tok := tokenOf(r)
	if tok == "" {
		return -1, errorf(http.StatusUnauthorized, tokenHint, "this action needs a seat's token")
	}
	seat := m.seatOf(tok)
	if seat < 0 {
		return -1, errorf(http.StatusUnauthorized, tokenHint, "the token is not one of match %s's seats", m.code)
	}
	return seat, nil
}

// openPost reads a POST's body, then opens the match of code (see open):
// the preamble of join, start and bids. The caller unlocks m.mu.
func (s *Server) openPost(w http.ResponseWriter, r *http.Request, code string) ([]byte, *match, time.Time, *apiError) {
	body, e := s.readBody(w, r)
	if e != nil {
		return nil, nil, time.Time{}, e
	}
	m, now, e := s.open(code)
	return body, m, now, e
}

// open finds the match of code (or answers 404), locks it and brings it up
// to date at the server's clock, which it returns. Every handler of one
// match starts here; the caller unlocks m.mu.
func (s *Server) open(code string) (m *match, now time.Time, e *apiError) {
	s.mu.RLock()
	m = s.matches[code]
	s.mu.RUnlock()
	if m == nil {
		return nil, time.Time{}, errorf(http.StatusNotFound, s.missingHint, "no match with code %q", code)
	}
	now = s.cfg.Now()
	m.mu.Lock()
	m.advance(now)
	if s.lobbyExpired(m, now) {
		m.mu.Unlock()
		s.mu.Lock()
		if s.matches[code] == m {
			delete(s.matches, code)
		}
		s.mu.Unlock()
		return nil, time.Time{}, errorf(http.StatusNotFound, s.missingHint, "no match with code %q", code)
	}
	return m, now, nil
}

// lobbyExpired reports whether m is a lobby that has waited longer than
// LobbyExpiry for its start. The caller holds m.mu.
func (s *Server) lobbyExpired(m *match, now time.Time) bool {
	return m.phase == PhaseLobby && now.Sub(m.created) > s.cfg.LobbyExpiry
}

// newToken returns 160 random bits as 40 hex characters.
func newToken() string {
	var b [20]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// codeAlphabet has no look-alikes (I, O, 0, 1).
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// codeLength is the number of characters of a match code.
const codeLength = 5

func newCode() string {
	var b [codeLength]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b[:])
}

// checkName validates a player name: 1 to 32 printable characters.
func checkName(name string) *apiError {
	hint := fmt.Sprintf("name: 1 to %d printable characters", MaxNameRunes)
	n := utf8.RuneCountInString(name)
	if n == 0 || strings.TrimSpace(name) == "" {
		return errorf(http.StatusBadRequest, hint, "name is required")
	}
	if n > MaxNameRunes {
		return errorf(http.StatusBadRequest, hint, "name has %d characters, at most %d allowed", n, MaxNameRunes)
	}
	if !utf8.ValidString(name) {
		return errorf(http.StatusBadRequest, hint, "name is not valid UTF-8")
	}
	for _, c := range name {
		if !unicode.IsPrint(c) {
			return errorf(http.StatusBadRequest, hint, "name contains the unprintable character %U", c)
		}
	}
	return nil
}

func checkKind(kind string) (string, *apiError) {
	switch kind {
	case "":
		return KindAgent, nil
	case KindAgent, KindHuman:
		return kind, nil
	}
	return "", errorf(http.StatusBadRequest, `kind: "agent" (default) or "human"`, "kind = %q is not agent or human", kind)
}

// createFields decodes a create body, telling absent fields from zeros.
type createFields struct {
	Name        *string `json:"name"`
	Seats       *int    `json:"seats"`
	Bots        *int    `json:"bots"`
	TurnSeconds *int    `json:"turnSeconds"`
	BotLevel    *string `json:"botLevel"`
	Kind        *string `json:"kind"`
}

var createHint = fmt.Sprintf(`{"name":"MyAgent","seats":%d,"bots":1,"turnSeconds":%d,"botLevel":"normal"}: seats %d-%d, bots 0..seats-1, turnSeconds %d-%d, botLevel normal or easy, name 1-%d printable characters`,
	kindling.MinSeats, DefaultTurnSeconds, kindling.MinSeats, kindling.MaxSeats, MinTurnSeconds, MaxTurnSeconds, MaxNameRunes)

func (s *Server) create(w http.ResponseWriter, r *http.Request) *apiError {
	body, e := s.readBody(w, r)
	if e != nil {
		return e
	}
	var f createFields
	if e := decodeBody(body, &f, createHint); e != nil {
		return e
	}
	req := CreateRequest{Seats: kindling.MinSeats, TurnSeconds: DefaultTurnSeconds, BotLevel: "normal"}
	if f.Name != nil {
		req.Name = *f.Name
	}
	if e := checkName(req.Name); e != nil {
		return e
	}
	if f.Seats != nil {
		req.Seats = *f.Seats
	}
	if req.Seats < kindling.MinSeats || req.Seats > kindling.MaxSeats {
		return errorf(http.StatusBadRequest, createHint, "seats = %d is outside %d..%d", req.Seats, kindling.MinSeats, kindling.MaxSeats)
	}
	if f.Bots != nil {
		req.Bots = *f.Bots
	}
	if req.Bots < 0 || req.Bots > req.Seats-1 {
		return errorf(http.StatusBadRequest, createHint, "bots = %d is outside 0..%d (seats - 1)", req.Bots, req.Seats-1)
	}
	if f.TurnSeconds != nil {
		req.TurnSeconds = *f.TurnSeconds
	}
	if req.TurnSeconds < MinTurnSeconds || req.TurnSeconds > MaxTurnSeconds {
		return errorf(http.StatusBadRequest, createHint, "turnSeconds = %d is outside %d..%d", req.TurnSeconds, MinTurnSeconds, MaxTurnSeconds)
	}
	if f.BotLevel != nil {
		req.BotLevel = *f.BotLevel
	}
	if req.BotLevel != "normal" && req.BotLevel != "easy" {
		return errorf(http.StatusBadRequest, createHint, "botLevel = %q is not normal or easy", req.BotLevel)
	}
	kind := ""
	if f.Kind != nil {
		kind = *f.Kind
	}
	if req.Kind, e = checkKind(kind); e != nil {
		return e
	}
	now := s.cfg.Now()
	if e := s.allowCreate(clientAddr(r), now); e != nil {
		return e
	}
	if s.Matches() >= s.cfg.MaxMatches {
		s.Sweep() // expired lobbies and matches make room before a 429
	}
	var seedBytes [8]byte
	rand.Read(seedBytes[:])
	m := &match{
		seats:       req.Seats,
		turnSeconds: req.TurnSeconds,
		botLevel:    req.BotLevel,
		botLabel:    s.botLabel(req.BotLevel),
		seed:        binary.LittleEndian.Uint64(seedBytes[:]),
		created:     now,
		phase:       PhaseLobby,
		version:     1,
	}
	m.players = append(m.players, seat{name: req.Name, kind: req.Kind, token: newToken()})
	for i := 0; i < req.Bots; i++ {
		if err := m.addBot(s.cfg.HouseBot); err != nil {
			return s.internal("seating a house bot", err)
		}
	}
	if len(m.players) == m.seats {
		if err := m.start(now, s.cfg.HouseBot); err != nil {
			return s.internal("seating a house bot", err)
		}
	}
	if e := s.insert(m); e != nil {
		return e
	}
	s.cfg.Logger.Info("match created", "code", m.code, "seats", m.seats, "bots", req.Bots, "turnSeconds", m.turnSeconds)
	m.mu.Lock()
	defer m.mu.Unlock()
	writeJSON(w, http.StatusOK, Seated{Code: m.code, Seat: 0, Token: m.players[0].token, PlayURL: s.playURL(r, m.code), State: m.render(now, 0)})
	return nil
}

// botLabel is the name shown for house bots of level.
func (s *Server) botLabel(level string) string {
	if l := s.cfg.BotLabels[level]; l != "" {
		return l
	}
	return level
}

// internal logs what failed inside and returns the generic 500.
func (s *Server) internal(what string, err error) *apiError {
	s.cfg.Logger.Error(what+" failed", "err", err)
	return errorf(http.StatusInternalServerError, bugHint, internalError)
}

// insert gives m a fresh code and adds it to the table.
func (s *Server) insert(m *match) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.matches) >= s.cfg.MaxMatches {
		return errorf(http.StatusTooManyRequests, "try again later", "the server holds %d matches, its limit", len(s.matches))
	}
	for {
		code := newCode()
		if _, taken := s.matches[code]; !taken {
			m.code = code
			s.matches[code] = m
			return nil
		}
	}
}

// clientAddr is the address a create is counted against: the connection's
// remote host (X-Forwarded-For is not trusted).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// allowCreate counts a create against addr, or answers 429.
func (s *Server) allowCreate(addr string, now time.Time) *apiError {
	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	win := s.creates[addr]
	if win == nil || now.Sub(win.start) >= s.cfg.CreateWindow {
		win = &window{start: now}
		s.creates[addr] = win
	}
	if win.n >= s.cfg.CreateLimit {
		wait := win.start.Add(s.cfg.CreateWindow).Sub(now)
		return errorf(http.StatusTooManyRequests, fmt.Sprintf("wait %d s, or join an existing lobby", int(wait.Seconds()+0.999)),
			"too many matches created from %s: %d per %v", addr, s.cfg.CreateLimit, s.cfg.CreateWindow)
	}
	win.n++
	return nil
}

func (s *Server) playURL(r *http.Request, code string) string {
	base := s.cfg.BaseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + "/api/matches/" + code
}

const joinHint = `{"name":"MyAgent"}; only lobbies with an open seat can be joined`

func (s *Server) join(w http.ResponseWriter, r *http.Request, code string) *apiError {
	body, m, now, e := s.openPost(w, r, code)
	if e != nil {
		return e
	}
	defer m.mu.Unlock()
	var f struct {
		Name *string `json:"name"`
		Kind *string `json:"kind"`
	}
	if e := decodeBody(body, &f, joinHint); e != nil {
		return e
	}
	name, kind := "", ""
	if f.Name != nil {
		name = *f.Name
	}
	if f.Kind != nil {
		kind = *f.Kind
	}
	if e := checkName(name); e != nil {
		return e
	}
	if kind, e = checkKind(kind); e != nil {
		return e
	}
	if m.phase != PhaseLobby {
		return errorf(http.StatusConflict, "create a new match, or join one still in its lobby", "match %s has already started (phase %s)", m.code, m.phase)
	}
	if len(m.players) >= m.seats {
		return errorf(http.StatusConflict, "create a new match", "match %s is full", m.code)
	}
	seatNo := len(m.players)
	m.players = append(m.players, seat{name: name, kind: kind, token: newToken()})
	m.version++
	if len(m.players) == m.seats {
		if err := m.start(now, s.cfg.HouseBot); err != nil {
			return s.internal("seating a house bot", err)
		}
	}
	writeJSON(w, http.StatusOK, Seated{Code: m.code, Seat: seatNo, Token: m.players[seatNo].token, PlayURL: s.playURL(r, m.code), State: m.render(now, seatNo)})
	return nil
}

func (s *Server) start(w http.ResponseWriter, r *http.Request, code string) *apiError {
	body, m, now, e := s.openPost(w, r, code)
	if e != nil {
		return e
	}
	defer m.mu.Unlock()
	var f struct{}
	if e := decodeBody(body, &f, "send {}"); e != nil {
		return e
	}
	you, e := m.auth(r)
	if e != nil {
		return e
	}
	if you != 0 {
		return errorf(http.StatusForbidden, "only the host (seat 0, who created the match) can start it", "seat %d is not the host of match %s", you, m.code)
	}
	if m.phase != PhaseLobby {
		return errorf(http.StatusConflict, "the match is already running; poll its state", "match %s has already started (phase %s)", m.code, m.phase)
	}
	if err := m.start(now, s.cfg.HouseBot); err != nil {
		return s.internal("starting the match", err)
	}
	writeJSON(w, http.StatusOK, m.render(now, you))
	return nil
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, code string) *apiError {
	m, now, e := s.open(code)
	if e != nil {
		return e
	}
	defer m.mu.Unlock()
	you := -1
	if tokenOf(r) != "" {
		if you, e = m.auth(r); e != nil {
			return e
		}
	}
	writeJSON(w, http.StatusOK, m.render(now, you))
	return nil
}

func (s *Server) logReply(w http.ResponseWriter, code string) *apiError {
	m, _, e := s.open(code)
	if e != nil {
		return e
	}
	defer m.mu.Unlock()
	writeJSON(w, http.StatusOK, m.logOf())
	return nil
}

var bidHint = fmt.Sprintf(`{"bids":[0,1,3,1,0],"turn":3}: %d whole numbers >= 0 adding up to at most you.sparks; turn is optional`, kindling.Beacons)

func (s *Server) bid(w http.ResponseWriter, r *http.Request, code string) *apiError {
	body, m, now, e := s.openPost(w, r, code)
	if e != nil {
		return e
	}
	defer m.mu.Unlock()
	var f struct {
		Bids json.RawMessage `json:"bids"`
		Turn *int            `json:"turn"`
	}
	you, e := m.auth(r)
	if e != nil {
		return e
	}
	if e := decodeBody(body, &f, bidHint); e != nil {
		return e
	}
	if m.phase != PhasePlaying {
		return errorf(http.StatusConflict, "moves are taken only while the phase is playing", "match %s is not playing (phase %s)", m.code, m.phase)
	}
	if f.Turn != nil && *f.Turn != m.st.Turn {
		return errorf(http.StatusConflict, "fetch the state and bid for its turn", "turn %d is not the current turn %d", *f.Turn, m.st.Turn)
	}
	if f.Bids == nil {
		return errorf(http.StatusBadRequest, bidHint, "field bids is missing")
	}
	bid, err := kindling.ParseBid(f.Bids)
	if err != nil {
		return errorf(http.StatusBadRequest, bidHint, "%v", err)
	}
	if err := kindling.CheckBid(&m.st, you, bid); err != nil {
		return errorf(http.StatusBadRequest, bidHint, "%v", err)
	}
	m.lockIn(you, bid, now)
	writeJSON(w, http.StatusOK, m.render(now, you))
	return nil
}

// Sweep brings every match up to date and deletes those finished longer
// than Retention ago, abandoned matches idle that long, lobbies not
// started within LobbyExpiry, and stale create counters. Serve runs it
// every minute.
func (s *Server) Sweep() {
	now := s.cfg.Now()
	s.mu.RLock()
	list := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		list = append(list, m)
	}
	s.mu.RUnlock()
	var expired []string
	for _, m := range list {
		m.mu.Lock()
		m.advance(now)
		switch m.phase {
		case PhaseFinished:
			if now.Sub(m.finished) > s.cfg.Retention {
				expired = append(expired, m.code)
			}
		case PhaseLobby:
			if s.lobbyExpired(m, now) {
				expired = append(expired, m.code)
			}
		default:
			if now.Sub(m.deadline) > s.cfg.Retention {
				expired = append(expired, m.code)
			}
		}
		m.mu.Unlock()
	}
	if len(expired) > 0 {
		s.mu.Lock()
		for _, c := range expired {
			delete(s.matches, c)
		}
		s.mu.Unlock()
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
	hs := &http.Server{Handler: s, ReadHeaderTimeout: s.cfg.HeaderTimeout, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case err := <-errc:
			return err
		case <-tick.C:
			s.Sweep()
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := hs.Shutdown(sctx); err != nil {
				return fmt.Errorf("kindling server shutdown: %w", err)
			}
			<-errc
			return nil
		}
	}
}
