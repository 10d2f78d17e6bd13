package kindlingbot

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"crucible/protocol/kindlingapi"
)

// Host is the Kindling server on loopback that an entrant's agents play
// on: the seed's JSON API (POST /api/matches/{code}/join, GET
// /api/matches/{code}, POST /api/matches/{code}/bids, in
// protocol/kindlingapi's shapes) over the seats the arena gives them, with
// the lab's long poll (?wait=S&version=V). It is started on its first
// match and stopped by Close.
type Host struct {
	warn io.Writer

	mu      sync.Mutex
	ln      net.Listener
	srv     *http.Server
	url     string
	seats   map[string]*seat
	closed  bool
	slowed  bool // the slow-poll notice was given
	warnFor string
}

// NewHost returns a host whose notices (an agent that polls without the
// long poll) go to warn, labelled with label.
func NewHost(warn io.Writer, label string) *Host {
	if warn == nil {
		warn = io.Discard
	}
	return &Host{warn: warn, warnFor: label, seats: map[string]*seat{}}
}

// start listens on a free loopback port, once.
func (h *Host) start() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return "", errors.New("the Kindling host is closed")
	}
	if h.srv != nil {
		return h.url, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("the lab's Kindling server: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/matches/{code}/join", h.join)
	mux.HandleFunc("GET /api/matches/{code}", h.state)
	mux.HandleFunc("POST /api/matches/{code}/bids", h.bid)
	h.ln, h.url = ln, "http://"+ln.Addr().String()
	h.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go h.srv.Serve(ln)
	return h.url, nil
}

// Close stops the server; long polls in flight end.
func (h *Host) Close() {
	h.mu.Lock()
	srv := h.srv
	h.closed = true
	h.mu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		srv.Close()
	}
}

// open registers a new seat under a fresh match code.
func (h *Host) open(name string, seatNo int, turn time.Duration) (*seat, error) {
	var b [6]byte
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		code := make([]byte, len(b))
		for i, x := range b {
			code[i] = 'A' + x%26
		}
		if h.seats[string(code)] == nil {
			s := newSeat(string(code), name, seatNo, turn)
			h.seats[s.code] = s
			return s, nil
		}
	}
}

// drop forgets a seat.
func (h *Host) drop(s *seat) {
	h.mu.Lock()
	delete(h.seats, s.code)
	h.mu.Unlock()
}

func (h *Host) find(w http.ResponseWriter, r *http.Request) *seat {
	h.mu.Lock()
	s := h.seats[strings.ToUpper(r.PathValue("code"))]
	h.mu.Unlock()
	if s == nil {
		reply(w, http.StatusNotFound, kindlingapi.ErrorBody{Error: fmt.Sprintf("no match with code %q", r.PathValue("code")), Hint: "the lab's server holds only the matches it started the agent for"})
	}
	return s
}

// slowPoll says once that an agent polls without the long poll.
func (h *Host) slowPoll() {
	h.mu.Lock()
	first := !h.slowed
	h.slowed = true
	h.mu.Unlock()
	if first {
		fmt.Fprintf(h.warn, "crucible: Kindling agent %s polls without ?wait=S&version=V: each turn waits for its next poll (about 1 s with the seed's loop, 8 s a match); it still plays, slowly. Send GET /api/matches/{code}?wait=25&version=V to play at full speed\n", h.warnFor)
	}
}

// notice reports something about one of the agent's matches.
func (h *Host) notice(msg string) {
	fmt.Fprintf(h.warn, "crucible: Kindling agent %s: %s\n", h.warnFor, msg)
}

func (h *Host) join(w http.ResponseWriter, r *http.Request) {
	s := h.find(w, r)
	if s == nil {
		return
	}
	var req kindlingapi.JoinRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, kindlingapi.MaxBody)).Decode(&req); err != nil {
		reply(w, http.StatusBadRequest, kindlingapi.ErrorBody{Error: "the body is not JSON: " + err.Error(), Hint: `send {"name": "mybot"}`})
		return
	}
	st, tok, err := s.join()
	if err != nil {
		reply(w, http.StatusConflict, kindlingapi.ErrorBody{Error: err.Error(), Hint: "one agent plays one seat"})
		return
	}
	reply(w, http.StatusOK, kindlingapi.Seated{Code: s.code, Seat: s.you(), Token: tok, State: st})
}

func (h *Host) state(w http.ResponseWriter, r *http.Request) {
	s := h.find(w, r)
	if s == nil {
		return
	}
	q := r.URL.Query()
	ws, vs := q.Get("wait"), q.Get("version")
	var wait time.Duration
	var version int64 = -1
	if ws != "" || vs != "" {
		secs, err1 := strconv.Atoi(ws)
		v, err2 := strconv.ParseInt(vs, 10, 64)
		if err1 != nil || err2 != nil || secs < 0 {
			reply(w, http.StatusBadRequest, kindlingapi.ErrorBody{Error: fmt.Sprintf("wait=%s version=%s: want whole numbers, wait >= 0", ws, vs), Hint: "GET /api/matches/{code}?wait=25&version=7"})
			return
		}
		wait, version = min(time.Duration(secs)*time.Second, kindlingapi.MaxWait), v
	} else if s.polled() {
		h.slowPoll()
	}
	st, ok := s.await(r.Context(), wait, version, tokenOf(r))
	if !ok {
		reply(w, http.StatusUnauthorized, kindlingapi.ErrorBody{Error: "the token is not this match's", Hint: "send Authorization: Bearer <token> from the join reply"})
		return
	}
	reply(w, http.StatusOK, st)
}

func (h *Host) bid(w http.ResponseWriter, r *http.Request) {
	s := h.find(w, r)
	if s == nil {
		return
	}
	var req kindlingapi.BidRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, kindlingapi.MaxBody)).Decode(&req); err != nil {
		reply(w, http.StatusBadRequest, kindlingapi.ErrorBody{Error: "the bids are not JSON: " + err.Error(), Hint: `{"bids":[0,1,3,1,0],"turn":3}`})
		return
	}
	status, err := s.lockIn(tokenOf(r), req)
	if err != nil {
		reply(w, status, kindlingapi.ErrorBody{Error: err.Error(), Hint: `{"bids":[0,1,3,1,0],"turn":3}: whole numbers >= 0 adding up to at most you.sparks`})
		return
	}
	st, _ := s.await(r.Context(), 0, -1, tokenOf(r))
	reply(w, http.StatusOK, st)
}

func tokenOf(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func reply(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}
