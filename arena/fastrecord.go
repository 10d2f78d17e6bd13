package arena

import (
	"strconv"
	"unicode/utf8"
)

// fastRecord decodes a result line in exactly the form ResultsWriter
// writes it (json.Marshal of a Record: the fields in order, no spaces, no
// escapes, no nulls) several times faster than encoding/json, for files of
// millions of lines. It accepts nothing decodeRecord would refuse and
// gives the same Record; any other line (another spelling, an escape, a
// failed match's nulls, a number encoding/json reads differently) makes it
// return false, and the caller decodes the line with decodeRecord, which
// also gives the errors. The checks decodeRecord makes after decoding
// (checkRecord) are the caller's.
func fastRecord(line []byte) (Record, bool) {
	p := fastParser{b: line}
	var r Record
	ok := p.lit(`{"job":`) && p.str(&r.Job) && p.lit(`,"game":`) && p.str(&r.Game)
	if ok && p.try(`,"config":`) {
		ok = p.str(&r.Config) && r.Config != ""
	}
	ok = ok && p.lit(`,"round":`) && p.int(&r.Round) && p.lit(`,"seed":`) && p.uint(&r.Seed) && p.lit(`,"players":[`)
	for ok {
		var pl PlayerRef
		ok = p.lit(`{"name":`) && p.str(&pl.Name) && p.lit(`,"strategy":`) && p.str(&pl.Strategy)
		if ok && p.try(`,"variant":`) {
			ok = p.str(&pl.VariantID) && pl.VariantID != ""
		}
		ok = ok && p.lit(`}`)
		r.Players = append(r.Players, pl)
		if !ok || !p.try(`,`) {
			break
		}
	}
	ok = ok && p.lit(`],"scores":[`) && p.list(func() bool {
		var v float64
		r.Scores = append(r.Scores, v)
		return p.float(&r.Scores[len(r.Scores)-1])
	})
	ok = ok && p.lit(`],"ranks":[`) && p.list(func() bool {
		var v int
		r.Ranks = append(r.Ranks, v)
		return p.int(&r.Ranks[len(r.Ranks)-1])
	})
	ok = ok && p.lit(`],"turns":`) && p.int(&r.Turns) && p.lit(`,"reason":`) && p.str(&r.Reason)
	if ok && p.try(`,"crashed":[`) {
		ok = p.list(func() bool {
			t := p.try("true")
			r.Crashed = append(r.Crashed, t)
			return t || p.try("false")
		}) && len(r.Crashed) > 0 && p.lit(`]`)
	}
	if ok && p.try(`,"error":`) {
		ok = p.str(&r.Error) && r.Error != ""
	}
	ok = ok && p.lit(`,"duration_ms":`) && p.float(&r.DurationMS) && p.lit(`}`) && p.i == len(p.b)
	// encoding/json leaves an empty array empty, not nil.
	if ok && r.Scores == nil {
		r.Scores = []float64{}
	}
	if ok && r.Ranks == nil {
		r.Ranks = []int{}
	}
	return r, ok
}

// fastParser walks a line for fastRecord; every method returns false when
// the line does not continue as it expects.
type fastParser struct {
	b []byte
	i int
}

// list reads the elements of an array up to (not including) its "]",
// each with elem, separated by commas.
func (p *fastParser) list(elem func() bool) bool {
	for !p.peek(']') {
		if !elem() || (!p.peek(']') && !p.lit(`,`)) {
			return false
		}
	}
	return true
}

// lit consumes s.
func (p *fastParser) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// try consumes s when the line continues with it.
func (p *fastParser) try(s string) bool { return p.lit(s) }

// peek tells whether the next byte is c.
func (p *fastParser) peek(c byte) bool { return p.i < len(p.b) && p.b[p.i] == c }

// str reads a string without escapes or control characters, in valid
// UTF-8 (encoding/json would replace invalid bytes).
func (p *fastParser) str(dst *string) bool {
	if !p.peek('"') {
		return false
	}
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			s := p.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return false
			}
			*dst = string(s)
			p.i = j + 1
			return true
		case c == '\\' || c < 0x20:
			return false
		case c >= 0x80:
			ascii = false
		}
	}
	return false
}

// number reads a JSON number's text; integer tells whether it has no
// fraction and no exponent.
func (p *fastParser) number() (text []byte, integer, ok bool) {
	start, j := p.i, p.i
	digits := func() int {
		k := j
		for j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(p.b) && p.b[j] == '-' {
		j++
	}
	n := digits()
	if n == 0 || (n > 1 && p.b[j-n] == '0') {
		return nil, false, false
	}
	integer = true
	if j < len(p.b) && p.b[j] == '.' {
		j++
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	if j < len(p.b) && (p.b[j] == 'e' || p.b[j] == 'E') {
		j++
		if j < len(p.b) && (p.b[j] == '+' || p.b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	p.i = j
	return p.b[start:j], integer, true
}

// int reads an integer that fits an int.
func (p *fastParser) int(dst *int) bool {
	text, integer, ok := p.number()
	if !ok || !integer {
		return false
	}
	v, err := strconv.ParseInt(string(text), 10, strconv.IntSize)
	*dst = int(v)
	return err == nil
}

// uint reads a non-negative integer that fits a uint64.
func (p *fastParser) uint(dst *uint64) bool {
	text, integer, ok := p.number()
	if !ok || !integer || text[0] == '-' {
		return false
	}
	v, err := strconv.ParseUint(string(text), 10, 64)
	*dst = v
	return err == nil
}

// float reads a number as encoding/json does (strconv.ParseFloat), and
// refuses one out of range.
func (p *fastParser) float(dst *float64) bool {
	text, _, ok := p.number()
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(string(text), 64)
	*dst = v
	return err == nil
}
