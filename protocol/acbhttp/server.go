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
	"runtime/debug"
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

// DefaultHeaderTimeout is how long Serve waits for a request's headers once
// its first byte has arrived.
const DefaultHeaderTimeout = 10 * time.Second

// DefaultBodyTimeout is how long a request's body may take to arrive, from
// the moment its headers have been read; a /turn body that is not complete
// by then is answered 400 and its connection closed.
const DefaultBodyTimeout = 10 * time.Second

// DefaultMaxBodies is how many /turn bodies the bot server reads at once
// before their signatures are verified. A body waits for one of these
// slots (within its body timeout), so strangers who open many connections
// and send their bodies slowly hold at most DefaultMaxBodies x MaxBody of
// memory, and only until the body timeout.
const DefaultMaxBodies = 32

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
	mux *http.ServeMux
	// bodies holds a token per /turn body being read (MaxBodies at most).
	bodies chan struct{}

	mu        sync.Mutex
	sessions  map[sessionKey]*session
	lastSweep time.Time
}

type sessionKey struct {
	matchID string
	seat    int
}

// session is one match's controller. sem serialises its turns; whoever
// holds sem may touch ctrl, buf, lastTurn, rows and cols.
type session struct {
	sem        chan struct{}
	ctrl       acb.Controller
	buf        []acb.Move
	lastTurn   int
	rows, cols int       // the grid of the turn ctrl was built on
	lastUsed   time.Time // guarded by Server.mu
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
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, sessions: map[sessionKey]*session{}, bodies: make(chan struct{}, cfg.MaxBodies)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", health)
	mux.HandleFunc("/health", notAllowed("GET, HEAD", "use GET /health"))
	mux.HandleFunc("POST /turn", s.turn)
	mux.HandleFunc("/turn", notAllowed("POST", "use POST /turn"))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "this bot serves GET /health and POST /turn")
	})
	s.mux = mux
	return s, nil
}

// ServeHTTP routes GET /health and POST /turn; any other method on those
// paths is a JSON 405 naming the allowed ones, any other path a JSON 404.
// A request's body must arrive within BodyTimeout. A panic answers a
// generic 500 (the detail goes to the log, never to the caller).
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
			httpError(tw, http.StatusInternalServerError, internalError)
		}
	}()
	if r.Body != nil && r.Body != http.NoBody {
		// Also bounds the server's drain of a body no handler reads. A
		// writer without a connection has no deadline to set.
		_ = http.NewResponseController(tw).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	}
	s.mux.ServeHTTP(tw, r)
}

// internalError is the whole message of every 500: what failed inside is
// logged, not sent.
const internalError = "internal error"

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

// turn verifies a /turn request in the seed's order and answers it.
func (s *Server) turn(w http.ResponseWriter, r *http.Request) {
	// The answer deadline runs on the real clock from the moment the
	// request is read; cfg.Now (injectable) only judges the timestamp.
	arrived := time.Now()
	received := s.cfg.Now()
	// Headers and timestamp need no body: check them first so that a
	// stranger's body is refused 401, not read.
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
	body, err := s.readBody(w, r)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
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
	out, err := s.compute(v, s.answerBy(arrived, v))
	if err != nil {
		if errors.Is(err, ErrBody) {
			httpError(w, http.StatusBadRequest, err.Error())
			return
		}
		s.cfg.Logger.Error("turn failed", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn, "err", err)
		httpError(w, http.StatusInternalServerError, internalError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(HeaderSignature, SignResponse(s.cfg.Secret, auth.MatchID, auth.Turn, out))
	w.Write(out)
}

// answerBy is when the server answers v's turn at the latest, whatever its
// strategy has done: AnswerFraction of config.turn_timeout after the
// request arrived.
func (s *Server) answerBy(arrived time.Time, v *acb.View) time.Time {
	return arrived.Add(time.Duration(float64(v.Config.TurnTimeout) * s.cfg.AnswerFraction))
}

// readBody reads a /turn body once one of the MaxBodies reading slots is
// free, all within BodyTimeout; the error says why it could not (too
// large, too slow, cut short) without naming the connection.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	deadline := time.Now().Add(s.cfg.BodyTimeout)
	_ = http.NewResponseController(w).SetReadDeadline(deadline)
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case s.bodies <- struct{}{}:
	case <-wait.C:
		return nil, fmt.Errorf("the body was not read within %v: the bot was already reading its limit of %d bodies", s.cfg.BodyTimeout, s.cfg.MaxBodies)
	case <-r.Context().Done():
		return nil, errors.New("the request ended before its body was read")
	}
	defer func() { <-s.bodies }()
	body, err := readAll(http.MaxBytesReader(unwrap(w), r.Body, s.cfg.MaxBody), r.ContentLength)
	if err == nil {
		return body, nil
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		return nil, fmt.Errorf("body is over %d bytes", s.cfg.MaxBody)
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, fmt.Errorf("the body did not arrive within %v", s.cfg.BodyTimeout)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errors.New("the body ended before its Content-Length")
	}
	return nil, errors.New("reading the body failed")
}

// maxPrealloc caps the buffer readAll sizes from a declared length: a
// body's memory grows with the bytes that actually arrive, not with what
// its Content-Length promises.
const maxPrealloc = 64 << 10

// readAll reads all of rd into a buffer sized from the declared length, up
// to maxPrealloc at first (a usual body is read with one allocation), then
// doubling as bytes arrive but never past the declared length, so that a
// body holds at most its own size.
func readAll(rd io.Reader, declared int64) ([]byte, error) {
	size := int64(512)
	if declared > 0 {
		size = min(declared+1, maxPrealloc) // +1: reading EOF needs no growth
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			next := 2 * int64(cap(buf))
			if declared >= int64(len(buf)) {
				next = min(next, declared+1)
			}
			buf = append(make([]byte, 0, next), buf...)
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// emptyReply is the body sent when the strategy cannot answer in time.
var emptyReply = []byte(`{"moves":[]}`)

// compute runs the match's controller on v and returns the reply body. If
// the controller has not answered by answerBy it returns an empty move list
// (the controller finishes in the background and its moves are dropped).
// A state whose grid differs from the one the match began on is an error
// wrapping ErrBody; any other error (the factory's, the strategy's, a
// panic) is internal.
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
				res = result{err: fmt.Errorf("strategy panicked on turn %d: %v\n%s", v.Turn, p, debug.Stack())}
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
			sess.rows, sess.cols = v.Config.Rows, v.Config.Cols
		} else if v.Config.Rows != sess.rows || v.Config.Cols != sess.cols {
			// The strategy sized its memory for the first grid.
			res.err = fmt.Errorf("%w: config is %dx%d (rows x cols) on turn %d, but match %s seat %d began on a %dx%d grid; the grid cannot change within a match",
				ErrBody, v.Config.Rows, v.Config.Cols, v.Turn, v.MatchID, v.You.ID, sess.rows, sess.cols)
			return
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
// 10 s) and returns nil. Headers must arrive within HeaderTimeout.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
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
