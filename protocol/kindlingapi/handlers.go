package kindlingapi

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"crucible/engine/kindling"
	"crucible/protocol/httpguard"
)

// openPost reads a POST's body, then opens the match of code (see open):
// the preamble of join, start and bids. The caller unlocks m.mu.
func (s *Server) openPost(w http.ResponseWriter, r *http.Request, code string) ([]byte, *match, time.Time, *apiError) {
	body, e := s.readBody(w, r, s.seated(r, code))
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
	if m.gone {
		m.mu.Unlock()
		return nil, time.Time{}, errorf(http.StatusNotFound, s.missingHint, "no match with code %q", code)
	}
	if s.lobbyExpired(m, now) {
		m.mu.Unlock()
		s.remove(m)
		return nil, time.Time{}, errorf(http.StatusNotFound, s.missingHint, "no match with code %q", code)
	}
	return m, now, nil
}

// seated reports whether r carries the token of one of the seats of the
// match of code, without answering anything: such a request's body may
// take the reading slots kept for the players of a match.
func (s *Server) seated(r *http.Request, code string) bool {
	tok := tokenOf(r)
	if tok == "" {
		return false
	}
	s.mu.RLock()
	m := s.matches[strings.ToUpper(code)]
	s.mu.RUnlock()
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seatOf(tok) >= 0
}

// lobbyExpired reports whether m is a lobby that has waited longer than
// LobbyExpiry for its start, or EmptyLobbyExpiry if nobody has joined it.
// The caller holds m.mu.
func (s *Server) lobbyExpired(m *match, now time.Time) bool {
	if m.phase != PhaseLobby {
		return false
	}
	age := now.Sub(m.created)
	return age > s.cfg.LobbyExpiry || (m.unjoined() && age > s.cfg.EmptyLobbyExpiry)
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

var createHint = fmt.Sprintf(`{"name":"MyAgent","seats":%d,"bots":1,"turnSeconds":%d,"botLevel":"normal"}: seats %d-%d, bots 0..seats-1, turnSeconds %d-%d, botLevel %s, name 1-%d printable characters`,
	kindling.MinSeats, DefaultTurnSeconds, kindling.MinSeats, kindling.MaxSeats, MinTurnSeconds, MaxTurnSeconds, BotLevelNames, MaxNameRunes)

func (s *Server) create(w http.ResponseWriter, r *http.Request) *apiError {
	body, e := s.readBody(w, r, false)
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
	if !IsBotLevel(req.BotLevel) {
		return errorf(http.StatusBadRequest, createHint, "botLevel = %q is not %s", req.BotLevel, BotLevelNames)
	}
	kind := ""
	if f.Kind != nil {
		kind = *f.Kind
	}
	if req.Kind, e = checkKind(kind); e != nil {
		return e
	}
	now := s.cfg.Now()
	addr := httpguard.ClientAddr(r)
	if e := s.allowCreate(addr, now); e != nil {
		return e
	}
	if req.Bots+1 < req.Seats { // a lobby
		if e := s.lobbyShare(addr); e != nil {
			return e
		}
	}
	if s.Matches() >= s.cfg.MaxMatches {
		s.Sweep() // expired lobbies and matches make room before a 429
		if s.Matches() >= s.cfg.MaxMatches {
			s.makeRoom(addr) // so do the lobbies of the address holding most
		}
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
		owner:       addr,
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

// playURL is the browser page of the match of code: the UI at / with the
// code after the #, which fills in the code to join (or, in the tab that
// created or joined it, resumes the seat).
func (s *Server) playURL(r *http.Request, code string) string {
	base := s.cfg.BaseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + "/#" + code
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
	m.bump()
	if len(m.players) == m.seats {
		if err := m.start(now, s.cfg.HouseBot); err != nil {
			return s.internal("seating a house bot", err)
		}
		s.lobbies.leave(m)
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
	s.lobbies.leave(m)
	writeJSON(w, http.StatusOK, m.render(now, you))
	return nil
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, code string) *apiError {
	poll, e := longPollOf(r)
	if e != nil {
		return e
	}
	m, now, e := s.awaitChange(r, code, poll)
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
