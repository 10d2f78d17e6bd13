package ladder

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"sync/atomic"

	"crucible/arena"
)

// A chunk's lines are the arena's result lines: json.Marshal of each
// arena.Record. Encoding them through reflection costs about a tenth of a
// Kindling match, so the ladder writes them with appendRecord, which spells
// out the same bytes field by field. Each chunk checks its first line
// against json.Marshal; should they ever differ (a field added to
// arena.Record, say), every later line of the process goes through
// json.Marshal.

// reflectOnly is set once appendRecord has been caught disagreeing with
// json.Marshal.
var reflectOnly atomic.Bool

// lineEncoder writes a chunk's result lines into a buffer.
type lineEncoder struct {
	buf     *bytes.Buffer
	scratch []byte
	checked bool
}

// encode writes r's line and a newline.
func (e *lineEncoder) encode(r *arena.Record) error {
	if !reflectOnly.Load() {
		line, ok := appendRecord(e.scratch[:0], r)
		if ok && !e.checked {
			e.checked = true
			want, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if !bytes.Equal(line, want) {
				reflectOnly.Store(true)
				ok = false
			}
		}
		if ok {
			e.scratch = line
			e.buf.Write(line)
			e.buf.WriteByte('\n')
			return nil
		}
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	e.buf.Write(line)
	e.buf.WriteByte('\n')
	return nil
}

// appendRecord appends r as json.Marshal encodes an arena.Record. It
// reports false, and r must go through json.Marshal, for a score or
// duration that is not a finite number (which json.Marshal refuses).
func appendRecord(b []byte, r *arena.Record) ([]byte, bool) {
	b = append(b, `{"job":`...)
	b = appendString(b, r.Job)
	b = append(b, `,"game":`...)
	b = appendString(b, r.Game)
	if r.Config != "" {
		b = append(b, `,"config":`...)
		b = appendString(b, r.Config)
	}
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(r.Round), 10)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, r.Seed, 10)
	b = append(b, `,"players":`...)
	if r.Players == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range r.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendString(b, p.Name)
			b = append(b, `,"strategy":`...)
			b = appendString(b, p.Strategy)
			if p.VariantID != "" {
				b = append(b, `,"variant":`...)
				b = appendString(b, p.VariantID)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"scores":`...)
	if r.Scores == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range r.Scores {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendFloat(b, s); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"ranks":`...)
	if r.Ranks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, k := range r.Ranks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(k), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"turns":`...)
	b = strconv.AppendInt(b, int64(r.Turns), 10)
	b = append(b, `,"reason":`...)
	b = appendString(b, r.Reason)
	if len(r.Crashed) > 0 {
		b = append(b, `,"crashed":[`...)
		for i, c := range r.Crashed {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendBool(b, c)
		}
		b = append(b, ']')
	}
	if r.Adjudicated {
		b = append(b, `,"adjudicated":true`...)
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = appendString(b, r.Error)
	}
	b = append(b, `,"duration_ms":`...)
	b, ok := appendFloat(b, r.DurationMS)
	return append(b, '}'), ok
}

// appendString appends s as a JSON string as json.Marshal writes it: text
// of printable ASCII without a quote, backslash or the HTML characters
// < > & as it is, anything else through json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as json.Marshal writes a float64 (the shortest
// decimal that reads back as f, in exponent form below 1e-6 and from 1e21
// up, with an exponent of at least two digits written without a leading
// zero: 1e-7, not 1e-07). It reports false for NaN and infinities.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	abs := math.Abs(f)
	if abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.AppendFloat(b, f, 'f', -1, 64), true
	}
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	// strconv writes e-07; JSON numbers as json.Marshal writes them, e-7.
	if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b, true
}
