package proglang

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeStrict reads the one JSON program object of data into v: unknown
// fields, a value of the wrong type and anything after the object are
// errors; fields says, for the error, what the object holds.
func DecodeStrict(data []byte, v any, fields string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a program object (%s): %w", fields, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the program object")
	}
	return nil
}

// ParseRules reads at most slots rules with parse, in order; an error
// names the rule (counted from 1) and comes with the rules read before it.
func ParseRules[J, R any](in []J, slots int, parse func(J) (R, error)) ([]R, error) {
	if len(in) > slots {
		return nil, fmt.Errorf("rules: %d rules, more than the %d a program holds", len(in), slots)
	}
	var out []R
	for i, r := range in {
		ru, err := parse(r)
		if err != nil {
			return out, fmt.Errorf("rule %d: %w", i+1, err)
		}
		out = append(out, ru)
	}
	return out, nil
}
