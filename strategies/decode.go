package strategies

import (
	"fmt"
	"strings"
)

// Decoder reads a genome's values by parameter name. Strategies build their
// players with one, so that a value is always found by its name and never by
// its position in the schema: inserting, removing or moving a parameter in a
// schema cannot hand a strategy another parameter's value.
//
// A name the schema lacks, or Int on a real-valued parameter, panics; a
// strategy's registration runs CheckDecode on its constructor so that such a
// mistake, or a parameter the constructor never reads, fails at start-up
// rather than in play.
type Decoder struct {
	schema Schema
	genome Genome
	used   []bool // which parameters were read; nil except under CheckDecode
}

// Decoder returns the Decoder of g, a genome of s (as Strategy.New receives
// it: in schema order, every value legal).
func (s Schema) Decoder(g Genome) Decoder { return Decoder{schema: s, genome: g} }

// decodeError is the panic value of a read the schema cannot satisfy.
type decodeError struct{ msg string }

func (d Decoder) index(name string, integer bool) int {
	i := d.schema.Index(name)
	if i < 0 {
		panic(decodeError{fmt.Sprintf("reads parameter %q, which the schema lacks (known: %s)", name, strings.Join(d.schema.Names(), ", "))})
	}
	if integer && !d.schema[i].Integer {
		panic(decodeError{fmt.Sprintf("reads parameter %s as a whole number, but it is real-valued in %s", name, d.schema[i].Range())})
	}
	if d.used != nil {
		d.used[i] = true
	}
	return i
}

// Float returns the value of the named parameter.
func (d Decoder) Float(name string) float64 { return d.genome[d.index(name, false)] }

// Int returns the value of the named integer parameter (Param.Integer).
func (d Decoder) Int(name string) int { return int(d.genome[d.index(name, true)]) }

// CheckDecode runs decode once on a Decoder of the schema's defaults and
// reports the first mismatch between the two as an error: a name the schema
// lacks, Int on a real-valued parameter, or a parameter decode never reads.
// decode must read every parameter it uses unconditionally, as a
// constructor filling its fields does.
func (s Schema) CheckDecode(decode func(Decoder)) (err error) {
	d := Decoder{schema: s, genome: s.Defaults(), used: make([]bool, len(s))}
	defer func() {
		if r := recover(); r != nil {
			de, ok := r.(decodeError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("constructor %s", de.msg)
		}
	}()
	decode(d)
	var unread []string
	for i, u := range d.used {
		if !u {
			unread = append(unread, s[i].Name)
		}
	}
	if len(unread) > 0 {
		return fmt.Errorf("constructor never reads parameter %s", strings.Join(unread, ", "))
	}
	return nil
}
