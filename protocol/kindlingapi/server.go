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
	// Now is the clock of deadlines and retention; nil means time.Now.
	// Deadlines are evaluated on every request touching a match, so a fake
	// clock drives them in tests without sleeping.
	Now func() time.Time
	// CreateLimit is how many matches one address may create per
	// CreateWindow before it gets 429; defaults 10 per minute.
	CreateLimit  int
	CreateWindow time.Duration
	// Retention is how long a finished match is kept (default 7 days); an
	// unfinished match is dropped the same time after its last change.
	Retention time.Duration
	// MaxMatches caps the matches held at once (default 100000); creates
	// beyond it get 429.
	MaxMatches int
	// BaseURL is the public base URL used in playUrl; empty means the
	// request's own scheme and host.
	BaseURL string
	// Logger receives match events; nil discards them.
	Logger *slog.Logger
}

// Server is the Kindling HTTP API of the seed. It is an http.Handler safe
// for concurrent use; each match has its own lock, the match table a
// read-mostly lock held only to find a match.
type Server struct {
	cfg ServerConfig

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
	if cfg.MaxMatches <= 0 {
		cfg.MaxMatches = 100000
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	keep := cfg.Retention.String()
	if day := 24 * time.Hour; cfg.Retention%day == 0 {
		keep = fmt.Sprintf("%d days", cfg.Retention/day)
	}
	return &Server{cfg: cfg, matches: map[string]*match{}, creates: map[string]*window{},
		missingHint: "match codes are 5 characters, as returned by create; finished matches are deleted after " + keep}, nil
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

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(ErrorBody{Error: "encoding the reply: " + err.Error(), Hint: "this is a server bug"})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, ErrorBody{Error: e.msg, Hint: e.hint})
}

// ServeHTTP routes the API:
//
//	POST /api/matches                 create
//	POST /api/matches/{code}/join     join
//	POST /api/matches/{code}/start    start (host)
//	GET  /api/matches/{code}          state (token optional)
//	POST /api/matches/{code}/bids     move
//	GET  /api/matches/{code}/log      replay
//	GET  /api/rules                   constants
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	if e := s.route(w, r); e != nil {
		writeError(w, e)
	}
}

const pathHint = "paths: POST /api/matches, POST /api/matches/{code}/join|start|bids, GET /api/matches/{code}[/log], GET /api/rules"

func (s *Server) route(w http.ResponseWriter, r *http.Request) *apiError {
	p := r.URL.Path
	method := func(want string) *apiError {
		if r.Method != want && !(want == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", want)
			return errorf(http.StatusMethodNotAllowed, pathHint, "%s %s is not allowed; use %s", r.Method, p, want)
		}
		return nil
	}
	switch {
	case p == "/api/rules":
		if e := method(http.MethodGet); e != nil {
			return e
		}
		writeJSON(w, http.StatusOK, RulesOf())
		return nil
	case p == "/api/matches":
		if e := method(http.MethodPost); e != nil {
			return e
		}
		return s.create(w, r)
	case strings.HasPrefix(p, "/api/matches/"):
		rest := strings.TrimPrefix(p, "/api/matches/")
		code, action, _ := strings.Cut(rest, "/")
		code = strings.ToUpper(code)
		switch action {
		case "":
			if e := method(http.MethodGet); e != nil {
				return e
			}
			return s.state(w, r, code)
		case "log":
			if e := method(http.MethodGet); e != nil {
				return e
			}
			return s.logReply(w, code)
		case "join":
			if e := method(http.MethodPost); e != nil {
				return e
			}
			return s.join(w, r, code)
		case "start":
			if e := method(http.MethodPost); e != nil {
				return e
			}
			return s.start(w, r, code)
		case "bids":
			if e := method(http.MethodPost); e != nil {
				return e
			}
			return s.bid(w, r, code)
		}
	}
	return errorf(http.StatusNotFound, pathHint, "no such endpoint: %s %s", r.Method, p)
}

// readBody reads a request body of at most MaxBody bytes; an empty body
// reads as {}.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errorf(http.StatusRequestEntityTooLarge, "bodies are small JSON objects", "body is over %d bytes", MaxBody)
		}
		return nil, errorf(http.StatusBadRequest, "send a JSON object", "reading the body: %v", err)
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
	body, e := readBody(w, r)
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
	return m, now, nil
}

// newToken returns 160 random bits as 40 hex characters.
func newToken() string {
	var b [20]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// codeAlphabet has no look-alikes (I, O, 0, 1).
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func newCode() string {
	var b [5]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b[:])
}

// checkName validates a player name: 1 to 32 printable characters.
func checkName(name string) *apiError {
	const hint = "name: 1 to 32 printable characters"
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

const createHint = `{"name":"MyAgent","seats":2,"bots":1,"turnSeconds":45,"botLevel":"normal"}: seats 2-4, bots 0..seats-1, turnSeconds 10-120, botLevel normal or easy, name 1-32 printable characters`

func (s *Server) create(w http.ResponseWriter, r *http.Request) *apiError {
	body, e := readBody(w, r)
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
	var seedBytes [8]byte
	rand.Read(seedBytes[:])
	m := &match{
		seats:       req.Seats,
		turnSeconds: req.TurnSeconds,
		botLevel:    req.BotLevel,
		seed:        binary.LittleEndian.Uint64(seedBytes[:]),
		created:     now,
		phase:       PhaseLobby,
		version:     1,
	}
	m.players = append(m.players, seat{name: req.Name, kind: req.Kind, token: newToken()})
	for i := 0; i < req.Bots; i++ {
		if err := m.addBot(s.cfg.HouseBot); err != nil {
			return errorf(http.StatusInternalServerError, "this is a server bug", "%v", err)
		}
	}
	if len(m.players) == m.seats {
		if err := m.start(now, s.cfg.HouseBot); err != nil {
			return errorf(http.StatusInternalServerError, "this is a server bug", "%v", err)
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
			return errorf(http.StatusInternalServerError, "this is a server bug", "%v", err)
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
		return errorf(http.StatusInternalServerError, "this is a server bug", "%v", err)
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

const bidHint = `{"bids":[0,1,3,1,0],"turn":3}: 5 whole numbers >= 0 adding up to at most you.sparks; turn is optional`

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
// than Retention ago, lobbies and abandoned matches idle that long, and
// stale create counters. Serve runs it every minute.
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
		var since time.Time
		switch m.phase {
		case PhaseFinished:
			since = m.finished
		case PhaseLobby:
			since = m.created
		default:
			since = m.deadline
		}
		if now.Sub(since) > s.cfg.Retention {
			expired = append(expired, m.code)
		}
		m.mu.Unlock()
	}
	if len(expired) > 0 {
		s.mu.Lock()
		for _, c := range expired {
			delete(s.matches, c)
		}
		s.mu.Unlock()
		s.cfg.Logger.Info("matches deleted after retention", "count", len(expired))
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
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
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
