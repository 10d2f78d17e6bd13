package kindlingapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"crucible/protocol/httpguard"
)

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

// readBody reads a request body of at most MaxBody bytes once a reading
// slot is free (for a request carrying a seat's token of the match it
// names, one of those kept for such requests), all within BodyTimeout; an
// empty body reads as {}.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, seated bool) ([]byte, *apiError) {
	b, err := s.bodies.Read(w, r, seated)
	var busy *httpguard.BusyError
	switch {
	case err == nil:
	case errors.As(err, &busy):
		w.Header().Set("Retry-After", "1")
		return nil, errorf(http.StatusServiceUnavailable, "try again in a moment", "the body was not read within %v: the server was already reading %v", s.cfg.BodyTimeout, busy)
	case errors.Is(err, httpguard.ErrEnded):
		return nil, errorf(http.StatusBadRequest, "send a JSON object", "%v", err)
	case errors.Is(err, httpguard.ErrTooLarge):
		return nil, errorf(http.StatusRequestEntityTooLarge, "bodies are small JSON objects", "%v", err)
	case errors.Is(err, httpguard.ErrTimeout):
		return nil, errorf(http.StatusRequestTimeout, "send the whole body at once", "%v", err)
	default:
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
