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
	"sync"
	"time"

	"crucible/engine"
	"crucible/engine/acb"
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

// Factory builds a fresh controller for one seat of one match: the bot
// server calls it on the first turn it sees of (match_id, you.id).
type Factory func(matchID string, seat int) (acb.Controller, error)

// StrategyFactory returns a Factory that plays strategy s with genome g.
// Each instance gets its own copy of g (matches run concurrently) and a
// random seed derived from the match id and seat, so a replayed match gets
// the same decisions.
func StrategyFactory(s strategies.Strategy, g strategies.Genome) Factory {
	g = slices.Clone(g)
	return func(matchID string, seat int) (acb.Controller, error) {
		h := fnv.New64a()
		h.Write([]byte(matchID))
		p := s.New(slices.Clone(g), engine.SeatSeed(h.Sum64(), seat), seat)
		c, ok := p.(acb.Controller)
		if !ok {
			return nil, fmt.Errorf("strategy %s/%s does not build an acb.Controller (got %T)", s.Game, s.Name, p)
		}
		return c, nil
	}
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
	// AnswerFraction is the share of config.turn_timeout the server allows
	// itself to compute moves; past it, it answers an empty, signed move
	// list so the turn is not counted as a failure. 0 means 0.8.
	AnswerFraction float64
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
// dropped after SessionIdle without turns. It is an http.Handler safe for
// concurrent use by many matches.
type Server struct {
	cfg ServerConfig

	mu        sync.Mutex
	sessions  map[sessionKey]*session
	lastSweep time.Time
}

type sessionKey struct {
	matchID string
	seat    int
}

// session is one match's controller. sem serialises its turns; whoever
// holds sem may touch ctrl, buf and lastTurn.
type session struct {
	sem      chan struct{}
	ctrl     acb.Controller
	buf      []acb.Move
	lastTurn int
	lastUsed time.Time // guarded by Server.mu
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
	if cfg.AnswerFraction <= 0 || cfg.AnswerFraction > 1 {
		cfg.AnswerFraction = 0.8
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Server{cfg: cfg, sessions: map[sessionKey]*session{}}, nil
}

// Sessions returns the number of matches the server currently keeps a
// controller for.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// ServeHTTP routes GET /health and POST /turn.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/health":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpError(w, http.StatusMethodNotAllowed, "use GET /health")
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	case "/turn":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			httpError(w, http.StatusMethodNotAllowed, "use POST /turn")
			return
		}
		s.turn(w, r)
	default:
		httpError(w, http.StatusNotFound, "this bot serves GET /health and POST /turn")
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

// turn verifies a /turn request in the seed's order and answers it.
func (s *Server) turn(w http.ResponseWriter, r *http.Request) {
	// The answer deadline runs on the real clock from the moment the
	// request is read; cfg.Now (injectable) only judges the timestamp.
	arrived := time.Now()
	received := s.cfg.Now()
	// Headers and timestamp need no body: check them first so that a
	// stranger's oversized body is refused 401, not read.
	for _, name := range requiredHeaders {
		if r.Header.Get(name) == "" {
			httpError(w, http.StatusUnauthorized, fmt.Sprintf("header %s is missing", name))
			return
		}
	}
	if err := CheckTimestamp(r.Header.Get(HeaderTimestamp), received); err != nil {
		httpError(w, http.StatusUnauthorized, err.Error())
		return
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody), r.ContentLength, s.cfg.MaxBody)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("body is over %d bytes", s.cfg.MaxBody))
			return
		}
		httpError(w, http.StatusBadRequest, "reading body: "+err.Error())
		return
	}
	auth, err := VerifyRequest(s.cfg.Secret, r.Header, body, received)
	if err != nil {
		httpError(w, http.StatusUnauthorized, err.Error())
		return
	}
	v, err := ParseTurnRequest(body, auth)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	budget := time.Duration(float64(v.Config.TurnTimeout) * s.cfg.AnswerFraction)
	out, err := s.compute(v, arrived.Add(budget))
	if err != nil {
		s.cfg.Logger.Error("turn failed", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn, "err", err)
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(HeaderSignature, SignResponse(s.cfg.Secret, auth.MatchID, auth.Turn, out))
	w.Write(out)
}

// readBody reads all of rd into a buffer sized from the declared length
// (when it is within max), so that a body is read with one allocation.
func readBody(rd io.Reader, declared, max int64) ([]byte, error) {
	if declared <= 0 || declared > max {
		return io.ReadAll(rd)
	}
	buf := make([]byte, 0, declared+1) // +1: reading EOF needs no growth
	for {
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// emptyReply is the body sent when the strategy cannot answer in time.
var emptyReply = []byte(`{"moves":[]}`)

// compute runs the match's controller on v and returns the reply body. If
// the controller has not answered by answerBy it returns an empty move list
// (the controller finishes in the background and its moves are dropped).
func (s *Server) compute(v *acb.View, answerBy time.Time) ([]byte, error) {
	sess := s.session(v)
	wait := time.NewTimer(time.Until(answerBy))
	defer wait.Stop()
	select {
	case sess.sem <- struct{}{}:
	case <-wait.C:
		s.cfg.Logger.Warn("previous turn still running; answering no moves", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn)
		return emptyReply, nil
	}
	type result struct {
		body []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("strategy panicked on turn %d: %v", v.Turn, p)}
			}
			<-sess.sem
			done <- res
		}()
		if sess.ctrl == nil || v.Turn < sess.lastTurn {
			c, err := s.cfg.New(v.MatchID, v.You.ID)
			if err != nil {
				res.err = err
				return
			}
			sess.ctrl, sess.buf = c, nil
		}
		sess.lastTurn = v.Turn
		// The strategy runs to the end of its turn even when the answer
		// deadline passes (its state must stay whole for the next turn),
		// so it does not get the request's context.
		moves, err := sess.ctrl.Turn(context.Background(), v, sess.buf[:0])
		if err != nil {
			res.err = fmt.Errorf("strategy failed on turn %d: %w", v.Turn, err)
			return
		}
		sess.buf = moves
		res.body, res.err = MarshalOrders(moves)
	}()
	select {
	case res := <-done:
		return res.body, res.err
	case <-wait.C:
		s.cfg.Logger.Warn("strategy missed the answer deadline; answering no moves", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn)
		return emptyReply, nil
	}
}

// session finds or creates the session of v's match and seat, and now and
// then drops sessions idle for longer than SessionIdle.
func (s *Server) session(v *acb.View) *session {
	now := s.cfg.Now()
	key := sessionKey{v.MatchID, v.You.ID}
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.lastSweep) > s.cfg.SessionIdle/4 {
		s.lastSweep = now
		for k, old := range s.sessions {
			if now.Sub(old.lastUsed) > s.cfg.SessionIdle {
				delete(s.sessions, k)
				s.cfg.Logger.Info("match dropped after inactivity", "match", k.matchID, "seat", k.seat)
			}
		}
	}
	sess, ok := s.sessions[key]
	if !ok {
		sess = &session{sem: make(chan struct{}, 1)}
		s.sessions[key] = sess
		s.cfg.Logger.Info("new match", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn)
	}
	sess.lastUsed = now
	return sess
}

// Serve answers requests on ln until ctx is cancelled, then shuts down
// gracefully: it stops accepting, lets requests in flight finish (at most
// 10 s) and returns nil.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("bot server shutdown: %w", err)
	}
	<-errc
	return nil
}
