package strategies

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"crucible/internal/atomicfile"
)

// Variant is a base strategy with particular parameter values: what the
// evolver produces and what users export. Variants are small JSON files
// that can be read, diffed and committed.
type Variant struct {
	// Game is the game's identifier.
	Game string `json:"game"`
	// Base is the base strategy's name.
	Base string `json:"base"`
	// ID names the variant: the hash of its game, base and full, clamped
	// genome (see Strategy.VariantID), so it does not depend on which
	// parameters a file spells out.
	ID string `json:"id"`
	// Params holds the parameter values by name. Variants written by
	// crucible hold every parameter of the base's schema; a hand-written
	// file may leave some out, which then take their defaults.
	Params map[string]float64 `json:"params"`
	// Parents are the ids of the variants this one was derived from.
	Parents []string `json:"parents,omitempty"`
	// Note is free text, e.g. where and how it was found.
	Note string `json:"note,omitempty"`
	// Fingerprint is the hash of what the variant does on the evolver's
	// fixed probe matches (evolver.ProbeFingerprinter): two variants with
	// one fingerprint played those matches move for move alike. Empty
	// when unknown.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Program is the readable program of a program strategy (see
	// Program): what plays. Params then hold the same program as the
	// genome the search works on; a hand-edited file may drop params and
	// the id, which are recomputed from the program.
	Program json.RawMessage `json:"program,omitempty"`
}

// VariantID is the short hash that names a variant: the first 10 hex digits
// of SHA-256 over game, base and the parameters in name order. params must
// hold every parameter of the base's schema, clamped (Strategy.VariantID
// does that); the id of a partial map would depend on how the variant was
// written.
func VariantID(game, base string, params map[string]float64) string {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", game, base)
	for _, k := range names {
		fmt.Fprintf(h, "\x00%s=%v", k, params[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// VariantID is the id of the variant of s with genome g: the hash of the
// full genome after clamping by the schema (a short genome is padded with
// defaults), so a variant that spells out a default and one that leaves it
// out get the same id.
func (s Strategy) VariantID(g Genome) string {
	return VariantID(s.Game, s.Name, s.Schema.Map(s.canonical(g)))
}

// NewVariant builds the variant of s with genome g (clamped by the schema)
// and its parents.
func NewVariant(s Strategy, g Genome, parents ...string) Variant {
	g = s.canonical(g)
	params := s.Schema.Map(g)
	v := Variant{
		Game:    s.Game,
		Base:    s.Name,
		ID:      VariantID(s.Game, s.Name, params),
		Params:  params,
		Parents: append([]string(nil), parents...),
	}
	if s.Program != nil && s.Program.Encode != nil {
		if prog, err := s.Program.Encode(g); err == nil {
			v.Program = prog
		}
	}
	return v
}

// Label is the variant's display name: "base#id".
func (v Variant) Label() string { return v.Base + "#" + v.ID }

// Resolved is a variant checked against its strategy (see Registry.Check).
type Resolved struct {
	// Variant is the variant as NewVariant writes it: every parameter of
	// the schema, its id over the full genome, its parents and note kept.
	Variant Variant
	// Strategy is the base strategy and Genome the legal genome.
	Strategy Strategy
	Genome   Genome
	// Notice is set when the variant's id was computed by the rule of
	// earlier versions (over the parameters the file spells out) and has
	// been recomputed; it says both ids.
	Notice string
}

// Check resolves v against the registry: the base must be known, every
// parameter known and legal (missing ones take their defaults), and the id,
// when given, must be the variant's: the hash of the full, clamped genome.
// An id that earlier versions computed over the parameters the file spells
// out (a file written before a parameter was added, or a hand-written
// partial file whose id was copied from an earlier run) is accepted and
// recomputed, with a Notice; any other id is an error, so a hand edit of a
// value never passes silently under the old name.
func (r *Registry) Check(v Variant) (Resolved, error) {
	s, err := r.Lookup(v.Game, v.Base)
	if err != nil {
		return Resolved{}, err
	}
	label := v.ID
	if label == "" {
		label = v.Base
	}
	g, err := s.Schema.FromMap(v.Params)
	if err != nil {
		return Resolved{}, fmt.Errorf("variant %s: %w", label, err)
	}
	if v.Program != nil {
		if g, err = programGenome(s, v, g); err != nil {
			return Resolved{}, fmt.Errorf("variant %s: %w", label, err)
		}
	}
	out := NewVariant(s, g, v.Parents...)
	g = s.canonical(g)
	out.Note = v.Note
	out.Fingerprint = v.Fingerprint
	res := Resolved{Variant: out, Strategy: s, Genome: g}
	switch v.ID {
	case "", out.ID:
	case VariantID(v.Game, v.Base, v.Params):
		res.Notice = fmt.Sprintf("variant %s: id %s was computed over the parameters the file spells out (the rule of earlier versions); its id over the full genome is %s",
			v.Label(), v.ID, out.ID)
	default:
		return Resolved{}, fmt.Errorf("variant %s: id %q does not match its content (expected %q); remove the id field to recompute it", v.Label(), v.ID, out.ID)
	}
	return res, nil
}

// programGenome decodes v's program; params, when the file has them too,
// must hold the same program.
func programGenome(s Strategy, v Variant, fromParams Genome) (Genome, error) {
	if s.Program == nil || s.Program.Decode == nil {
		return nil, fmt.Errorf("base %s is not a program strategy; remove the program field", s.Name)
	}
	g, err := s.Program.Decode(v.Program)
	if err != nil {
		return nil, fmt.Errorf("program: %w", err)
	}
	if len(v.Params) > 0 && !slices.Equal(s.canonical(fromParams), g) {
		return nil, errors.New("params and program describe different programs; the program is what plays: remove params (and the id) to recompute them")
	}
	return g, nil
}

// Resolve checks v as Check does and returns its strategy and genome.
func (r *Registry) Resolve(v Variant) (Strategy, Genome, error) {
	res, err := r.Check(v)
	if err != nil {
		return Strategy{}, nil, err
	}
	return res.Strategy, res.Genome, nil
}

// LoadVariant reads a variant JSON file (see ParseVariant).
func LoadVariant(path string) (Variant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Variant{}, err
	}
	return ParseVariant(data, path)
}

// variantFields are the keys of a variant file, matched exactly.
var variantFields = []string{"game", "base", "id", "params", "parents", "note", "fingerprint", "program"}

// ParseVariant decodes a variant file: one JSON object with the keys game
// and base (required), id, params, parents, note, fingerprint and program
// (a program strategy's rules, see Program), spelled exactly
// (lower case), with nothing after it; name is used in errors. A value of
// the wrong type, null included, is an error naming its field (or
// parameter). The id, when given, is kept as written: it can only be
// checked against the base's schema (Registry.Check).
func ParseVariant(data []byte, name string) (Variant, error) {
	fail := func(format string, a ...any) (Variant, error) {
		return Variant{}, fmt.Errorf("variant %s: "+format, append([]any{name}, a...)...)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fail("the file is empty; a variant is a JSON object with game, base and params")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fail("not a JSON object: %w", err)
	}
	if raw == nil {
		return fail("the file holds null; a variant is a JSON object with game, base and params")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fail("unexpected data after the JSON object")
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(variantFields, k) {
			return fail("unknown field %q (fields: %s)", k, strings.Join(variantFields, ", "))
		}
	}
	var v Variant
	str := func(key string, dst *string) error {
		msg, ok := raw[key]
		if !ok {
			return nil
		}
		if isNull(msg) {
			return fmt.Errorf("%s is null; want a string", key)
		}
		if err := json.Unmarshal(msg, dst); err != nil {
			return fmt.Errorf("%s: want a string, got %s", key, msg)
		}
		return nil
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"game", &v.Game}, {"base", &v.Base}, {"id", &v.ID}, {"note", &v.Note}, {"fingerprint", &v.Fingerprint}} {
		if err := str(f.key, f.dst); err != nil {
			return fail("%w", err)
		}
	}
	if v.Game == "" || v.Base == "" {
		return fail("fields game and base are required")
	}
	if msg, ok := raw["params"]; ok {
		params, err := parseParams(msg)
		if err != nil {
			return fail("%w", err)
		}
		v.Params = params
	}
	if msg, ok := raw["program"]; ok {
		if t := bytes.TrimSpace(msg); len(t) == 0 || t[0] != '{' {
			return fail("program: want a JSON object (a program's rules), got %s", msg)
		}
		v.Program = msg
	}
	if msg, ok := raw["parents"]; ok {
		if isNull(msg) {
			return fail("parents is null; want a list of variant ids (or leave it out)")
		}
		if err := json.Unmarshal(msg, &v.Parents); err != nil {
			return fail("parents: want a list of variant ids, got %s", msg)
		}
	}
	return v, nil
}

// parseParams decodes the params object, naming the parameter whose value
// is not a number.
func parseParams(msg json.RawMessage) (map[string]float64, error) {
	if isNull(msg) {
		return nil, errors.New("params is null; want an object from parameter name to value (or leave it out for the defaults)")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(msg, &raw); err != nil {
		return nil, fmt.Errorf("params: want an object from parameter name to value, got %s", msg)
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	params := make(map[string]float64, len(raw))
	for _, k := range names {
		var x float64
		if isNull(raw[k]) {
			return nil, fmt.Errorf("parameter %s is null; want a number", k)
		}
		if err := json.Unmarshal(raw[k], &x); err != nil {
			return nil, fmt.Errorf("parameter %s: %s is not a number", k, raw[k])
		}
		params[k] = x
	}
	return params, nil
}

func isNull(msg json.RawMessage) bool { return string(bytes.TrimSpace(msg)) == "null" }

// Save writes the variant as indented JSON, atomically: a crash leaves
// either the old file or the new one, never half of one.
func (v Variant) Save(path string) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'))
}
