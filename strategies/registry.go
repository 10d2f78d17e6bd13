package strategies

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"crucible/engine"
)

// Strategy is a named, parameterised way of playing one game.
type Strategy struct {
	// Game is the game's identifier ("acb" or "kindling").
	Game string
	// Name is the strategy's identifier within its game.
	Name string
	// Description is a one-line summary of its idea.
	Description string
	// Schema lists its parameters.
	Schema Schema
	// New builds a fresh player for one match from a legal genome (in schema
	// order) and the seat's own random seed (engine.SeatSeed). The seat is
	// the player's index in the match.
	New func(g Genome, seed uint64, seat int) engine.Player
}

// Registry maps (game, name) to strategies. It is built once from the
// strategy packages' lists and not changed after.
type Registry struct {
	byGame map[string][]Strategy
}

// NewRegistry builds a registry from strategies, checking that names are
// unique within a game and that every schema is valid.
func NewRegistry(list ...Strategy) (*Registry, error) {
	r := &Registry{byGame: map[string][]Strategy{}}
	for _, s := range list {
		var missing []string
		if s.Game == "" {
			missing = append(missing, "Game")
		}
		if s.Name == "" {
			missing = append(missing, "Name")
		}
		if s.New == nil {
			missing = append(missing, "New")
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("strategy %q of game %q has no %s", s.Name, s.Game, strings.Join(missing, ", "))
		}
		if err := s.Schema.Validate(); err != nil {
			return nil, fmt.Errorf("strategy %s/%s: %w", s.Game, s.Name, err)
		}
		for _, t := range r.byGame[s.Game] {
			if t.Name == s.Name {
				return nil, fmt.Errorf("strategy %s/%s registered twice", s.Game, s.Name)
			}
		}
		r.byGame[s.Game] = append(r.byGame[s.Game], s)
	}
	for g := range r.byGame {
		sort.Slice(r.byGame[g], func(i, j int) bool { return r.byGame[g][i].Name < r.byGame[g][j].Name })
	}
	return r, nil
}

// Games lists the games that have strategies, sorted.
func (r *Registry) Games() []string {
	out := make([]string, 0, len(r.byGame))
	for g := range r.byGame {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// List returns the strategies of game sorted by name.
func (r *Registry) List(game string) []Strategy {
	return append([]Strategy(nil), r.byGame[game]...)
}

// Names returns the strategy names of game sorted.
func (r *Registry) Names(game string) []string {
	var out []string
	for _, s := range r.byGame[game] {
		out = append(out, s.Name)
	}
	return out
}

// Lookup finds a strategy. An unknown name is an error that lists the known
// ones.
func (r *Registry) Lookup(game, name string) (Strategy, error) {
	list, ok := r.byGame[game]
	if !ok {
		return Strategy{}, fmt.Errorf("unknown game %q (known: %s)", game, strings.Join(r.Games(), ", "))
	}
	for _, s := range list {
		if s.Name == name {
			return s, nil
		}
	}
	return Strategy{}, fmt.Errorf("unknown %s strategy %q (known: %s)", game, name, strings.Join(r.Names(game), ", "))
}

// Variant is a base strategy with particular parameter values: what the
// evolver produces and what users export. Variants are small JSON files
// that can be read, diffed and committed.
type Variant struct {
	// Game is the game's identifier.
	Game string `json:"game"`
	// Base is the base strategy's name.
	Base string `json:"base"`
	// ID is a short hash of game, base and params (see VariantID).
	ID string `json:"id"`
	// Params holds every parameter of the base's schema.
	Params map[string]float64 `json:"params"`
	// Parents are the ids of the variants this one was derived from.
	Parents []string `json:"parents,omitempty"`
	// Note is free text, e.g. where and how it was found.
	Note string `json:"note,omitempty"`
}

// VariantID is the short hash that names a variant: the first 10 hex digits
// of SHA-256 over game, base and the parameters in name order.
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

// NewVariant builds the variant of s with genome g (clamped by the schema)
// and its parents.
func NewVariant(s Strategy, g Genome, parents ...string) Variant {
	params := s.Schema.Map(s.Schema.Clamp(g))
	return Variant{
		Game:    s.Game,
		Base:    s.Name,
		ID:      VariantID(s.Game, s.Name, params),
		Params:  params,
		Parents: append([]string(nil), parents...),
	}
}

// Label is the variant's display name: "base#id".
func (v Variant) Label() string { return v.Base + "#" + v.ID }

// Resolve checks v against the registry and returns its strategy and
// genome. Missing parameters take their defaults; an unknown parameter or a
// value out of range is an error naming it.
func (r *Registry) Resolve(v Variant) (Strategy, Genome, error) {
	s, err := r.Lookup(v.Game, v.Base)
	if err != nil {
		return Strategy{}, nil, err
	}
	g, err := s.Schema.FromMap(v.Params)
	if err != nil {
		return Strategy{}, nil, fmt.Errorf("variant %s: %w", v.ID, err)
	}
	return s, g, nil
}

// LoadVariant reads a variant JSON file. Unknown fields are an error, and
// so is an id that does not match the content (a hand-edited file gets its
// id recomputed only through NewVariant, so edits are never silent).
func LoadVariant(path string) (Variant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Variant{}, err
	}
	return ParseVariant(data, path)
}

// ParseVariant decodes a variant from JSON; name is used in errors.
func ParseVariant(data []byte, name string) (Variant, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v Variant
	if err := dec.Decode(&v); err != nil {
		return Variant{}, fmt.Errorf("variant %s: %w", name, err)
	}
	if v.Game == "" || v.Base == "" {
		return Variant{}, fmt.Errorf("variant %s: fields game and base are required", name)
	}
	if want := VariantID(v.Game, v.Base, v.Params); v.ID == "" {
		v.ID = want
	} else if v.ID != want {
		return Variant{}, fmt.Errorf("variant %s: id %q does not match its content (expected %q); remove the id field to recompute it", name, v.ID, want)
	}
	return v, nil
}

// Save writes the variant as indented JSON, atomically: a crash leaves
// either the old file or the new one, never half of one.
func (v Variant) Save(path string) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// WriteFileAtomic writes data to a temporary file beside path and renames
// it into place, so readers never see a partial file. The file is readable
// by everyone (0644), like any output file.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	merr := f.Chmod(0o644) // CreateTemp makes files private; outputs are not
	cerr := f.Close()
	if err := errors.Join(werr, merr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
