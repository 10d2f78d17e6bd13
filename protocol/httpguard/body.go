package httpguard

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Bodies reads request bodies within a deadline, at most Max bytes each
// and at most as many at once as its Slots allow.
type Bodies struct {
	// Slots limits the bodies read at once.
	Slots *Slots
	// Timeout bounds the wait for a slot and the reading together.
	Timeout time.Duration
	// Max is the largest body read, in bytes.
	Max int64
}

// The reasons Read gives for a body it could not read; the error it
// returns wraps one of them (or is a *BusyError, or ErrEnded).
var (
	// ErrTooLarge: the body is over Max bytes (the connection is closed).
	ErrTooLarge = errors.New("body too large")
	// ErrTimeout: the body did not arrive within Timeout.
	ErrTimeout = errors.New("body too slow")
	// ErrShort: the body ended before its Content-Length.
	ErrShort = errors.New("body cut short")
	// ErrRead: reading failed otherwise (the connection broke).
	ErrRead = errors.New("reading the body failed")
)

// Read reads r's body once a slot is free for a request from
// ClientAddr(r), proven or not, all within Timeout of the call. The error
// says why it could not without naming the connection: a *BusyError when
// no slot was free in time, ErrEnded when the request ended first, else an
// error wrapping ErrTooLarge, ErrTimeout, ErrShort or ErrRead.
func (b *Bodies) Read(w http.ResponseWriter, r *http.Request, proven bool) ([]byte, error) {
	deadline := time.Now().Add(b.Timeout)
	_ = http.NewResponseController(w).SetReadDeadline(deadline)
	release, err := b.Slots.Acquire(r.Context(), ClientAddr(r), proven, deadline)
	if err != nil {
		return nil, err
	}
	defer release()
	body, err := readAll(http.MaxBytesReader(unwrap(w), r.Body, b.Max), r.ContentLength)
	if err == nil {
		return body, nil
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		return nil, &bodyError{ErrTooLarge, fmt.Sprintf("body is over %d bytes", b.Max)}
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, &bodyError{ErrTimeout, fmt.Sprintf("the body did not arrive within %v", b.Timeout)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &bodyError{ErrShort, "the body ended before its Content-Length"}
	}
	return nil, ErrRead
}

// bodyError is a reason of Read (kind, for errors.Is) with its message.
type bodyError struct {
	kind error
	msg  string
}

func (e *bodyError) Error() string { return e.msg }
func (e *bodyError) Unwrap() error { return e.kind }

// maxPrealloc caps the buffer readAll sizes from a declared length: a
// body's memory grows with the bytes that actually arrive, not with what
// its Content-Length promises.
const maxPrealloc = 64 << 10

// readAll reads all of rd into a buffer sized from the declared length, up
// to maxPrealloc at first (a usual body is read with one allocation), then
// doubling as bytes arrive but never past the declared length, so that a
// body holds at most twice what has arrived (three times while a buffer
// is copied into its successor) and never more than its own size.
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
