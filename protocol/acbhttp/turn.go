package acbhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"crucible/engine/acb"
	"crucible/protocol/httpguard"
)

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
	// The signature covers the body, so it can be verified only once the
	// body is read; a signature that is not 64 hex characters is refused
	// before.
	if _, err := decodeSignature(r.Header.Get(HeaderSignature)); err != nil {
		httpError(w, http.StatusUnauthorized, err.Error())
		return
	}
	host := httpguard.ClientAddr(r)
	body, err := s.readBody(w, r, s.matches.proven(r.Header.Get(HeaderMatchID), host, s.cfg.Now()))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	auth, err := VerifyRequest(s.cfg.Secret, r.Header, body, received)
	if err != nil {
		httpError(w, http.StatusUnauthorized, err.Error())
		return
	}
	s.matches.prove(auth.MatchID, host, s.cfg.Now())
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

// readBody reads a /turn body once a reading slot is free (a proven
// turn's among the reserved ones), all within BodyTimeout; the error says
// why it could not (too large, too slow, cut short, no slot free) without
// naming the connection.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, proven bool) ([]byte, error) {
	body, err := s.bodies.Read(w, r, proven)
	var busy *httpguard.BusyError
	switch {
	case err == nil:
		return body, nil
	case errors.As(err, &busy):
		return nil, fmt.Errorf("the body was not read within %v: the bot was already reading %v", s.cfg.BodyTimeout, busy)
	}
	return nil, err
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
	sess := s.matches.session(v, s.cfg.Now())
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
