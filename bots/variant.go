package bots

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"crucible/bots/botproc"
	"crucible/internal/atomicfile"
	"crucible/strategies"
)

// ParamsEnv is the variable that holds every parameter's value as one
// JSON object.
const ParamsEnv = "CRUCIBLE_PARAMS"

// ParamEnvPrefix starts the variable of one parameter (see EnvName).
const ParamEnvPrefix = "CRUCIBLE_PARAM_"

// Variant is an outside bot with a full genome: what one process of it
// plays. The manifest's own values make one variant (Manifest.Variant of
// Manifest.Genome); the evolver's candidates are others.
type Variant struct {
	// Manifest is the bot; its Values are not consulted (Genome is).
	Manifest *Manifest
	// Genome holds every parameter's value in schema order, legal.
	Genome strategies.Genome
	// ID names the variant (see Manifest.VariantID).
	ID string
}

// Variant returns the variant of m with genome g, clamped by the schema (a
// short genome is padded with defaults), as strategies.NewVariant does for
// the built-in strategies.
func (m *Manifest) Variant(g strategies.Genome) Variant {
	g = m.Params.Clamp(g)
	return Variant{Manifest: m, Genome: g, ID: m.VariantID(g)}
}

// Own is the variant the manifest's file describes: its defaults
// overridden by its values.
func (m *Manifest) Own() Variant { return m.Variant(m.Genome()) }

// VariantID is the short hash that names the variant of m with genome g,
// in the manner of the built-in variants' ids (strategies.VariantID): the
// first 10 hex digits of SHA-256 over the kind, the game, the name, the
// command, the environment the manifest adds (sorted) and every
// parameter's clamped value in name order. So a file that spells out a
// default and one that leaves it out name the same variant; the working
// directory, the concurrency, and the parameters' descriptions and bounds
// are left out: moving the bot's folder (as a written champion does) or
// serving more matches at once does not change what plays.
func (m *Manifest) VariantID(g strategies.Genome) string {
	params := m.Params.Map(m.Params.Clamp(g))
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", Kind, m.Game, m.Name)
	for _, a := range m.Command {
		fmt.Fprintf(h, "\x00cmd=%s", a)
	}
	for _, k := range sortedKeys(m.Env) {
		fmt.Fprintf(h, "\x00env=%s=%s", k, m.Env[k])
	}
	for _, k := range sortedKeys(params) {
		fmt.Fprintf(h, "\x00%s=%v", k, params[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// Label is the variant's display name: "name#id".
func (v Variant) Label() string { return v.Manifest.Name + "#" + v.ID }

// Values returns every parameter's value by name.
func (v Variant) Values() map[string]float64 { return v.Manifest.Params.Map(v.Genome) }

// EnvName is the variable of the parameter called name:
// ParamEnvPrefix and the name upper-cased, every character outside
// [A-Z0-9] turned into '_' ("max-radius" is CRUCIBLE_PARAM_MAX_RADIUS).
func EnvName(name string) string {
	var b strings.Builder
	b.WriteString(ParamEnvPrefix)
	for _, r := range name {
		r = unicode.ToUpper(r)
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// FormatValue writes a parameter's value for its variable: whole numbers
// without a decimal point ("3"), others in the shortest decimal form that
// reads back as the same float64 ("0.25"), never with an exponent.
func FormatValue(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Env is what the variant adds to the lab's environment, as "KEY=value"
// entries: the manifest's env (sorted by name), then ParamsEnv with a JSON
// object of every value, then one EnvName variable per parameter in schema
// order. The process manager adds the port and secret.
func (v Variant) Env() []string {
	m := v.Manifest
	out := make([]string, 0, len(m.Env)+1+len(m.Params))
	for _, k := range sortedKeys(m.Env) {
		out = append(out, k+"="+m.Env[k])
	}
	// A map of float64 always encodes; encoding/json writes whole
	// numbers without a decimal point.
	data, _ := json.Marshal(v.Values())
	out = append(out, ParamsEnv+"="+string(data))
	for i, p := range m.Params {
		out = append(out, EnvName(p.Name)+"="+FormatValue(v.Genome[i]))
	}
	return out
}

// file is the written form of a manifest, fields in the spec's order.
type file struct {
	Kind        string             `json:"kind"`
	Game        string             `json:"game"`
	Name        string             `json:"name"`
	Command     []string           `json:"command"`
	Dir         string             `json:"dir"`
	Env         map[string]string  `json:"env,omitempty"`
	Concurrency int                `json:"concurrency"`
	Params      strategies.Schema  `json:"params"`
	Values      map[string]float64 `json:"values"`
}

// Marshal writes the variant as a manifest to be saved in folder: the
// bot's fields as they are, every parameter's value filled in under
// values, and dir rewritten so that it names the same working directory
// from folder (relative when it can be, else absolute). What it writes
// runs as it is (Load) and names the same variant.
func (v Variant) Marshal(folder string) ([]byte, error) {
	m := v.Manifest
	work := m.WorkDir()
	dir := work
	if abs, err := filepath.Abs(folder); err == nil {
		if rel, err := filepath.Rel(abs, work); err == nil {
			dir = filepath.ToSlash(rel)
		}
	}
	f := file{
		Kind: Kind, Game: m.Game, Name: m.Name, Command: m.Command, Dir: dir, Env: m.Env,
		Concurrency: m.Concurrency, Params: slices.Clone(m.Params), Values: v.Values(),
	}
	if f.Params == nil {
		f.Params = strategies.Schema{}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing the manifest of %s: %w", v.Label(), err)
	}
	return append(data, '\n'), nil
}

// Write saves the variant as a manifest at path (see Marshal),
// atomically: what the evolver's champion is, ready for ladder add and
// for deployment as it is.
func (v Variant) Write(path string) error {
	data, err := v.Marshal(filepath.Dir(path))
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}

// Spec is how the process manager runs the variant: its command in its
// working directory with its environment, its id, label and concurrency.
func (v Variant) Spec() botproc.Spec {
	m := v.Manifest
	return botproc.Spec{
		ID:          v.ID,
		Label:       v.Label(),
		Command:     slices.Clone(m.Command),
		Dir:         m.WorkDir(),
		Env:         v.Env(),
		Concurrency: m.Concurrency,
	}
}
