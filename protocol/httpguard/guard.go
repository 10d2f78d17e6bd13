// Package httpguard is the protection the lab's HTTP servers share (the AI
// Code Battle bot server of protocol/acbhttp, the Kindling server of
// protocol/kindlingapi): a handler wrapper that bounds how long a request
// body may take and turns a panic into a logged 500, a limiter of the
// request bodies read at once (a global cap, a share of it kept for
// requests that have proven themselves, a cap per client address), a
// bounded body reader whose memory grows with the bytes that arrive rather
// than with what a Content-Length promises, and a Serve with a header
// timeout and a graceful shutdown.
//
// A stranger who opens many connections and sends their bodies slowly
// holds at most Max bodies' worth of memory, each only until the body
// deadline, and of those at most PerAddr from one address; requests that
// have proven themselves (a signed turn of a known match, a seat's token)
// keep Reserved slots the strangers cannot take.
package httpguard

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"
)

// Wrap returns h guarded: a request with a body must have all of it within
// bodyTimeout of the moment its headers were read (the read deadline of
// its connection, which also bounds the server's drain of a body no
// handler reads), and a panic in h is logged to logger with its stack and
// answered by internal unless a reply has already begun. A panic of
// http.ErrAbortHandler passes through, as net/http means it to.
func Wrap(h http.Handler, bodyTimeout time.Duration, logger *slog.Logger, internal func(http.ResponseWriter)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			logger.Error("request panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if !tw.wrote {
				internal(tw)
			}
		}()
		if r.Body != nil && r.Body != http.NoBody {
			// A writer without a connection has no deadline to set.
			_ = http.NewResponseController(tw).SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		h.ServeHTTP(tw, r)
	})
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

// unwrap returns the server's own writer under w, which
// http.MaxBytesReader needs to close the connection of a body over its
// limit (it does not unwrap).
func unwrap(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// ClientAddr is the address a request is counted against: the host of the
// connection's remote address (X-Forwarded-For is not trusted: anyone can
// write it).
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
