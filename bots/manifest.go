// Package bots reads the manifests of outside bots (../shared/specs/bots.md):
// a JSON file, written by hand beside a bot in any language, that says how
// the lab starts the bot (command, working directory, environment), how
// many matches one of its processes may serve at once, and which named,
// bounded parameters it takes (the same fields and checks as the built-in
// strategies' strategies.Param). A manifest with values is a variant of
// the bot; Variant carries a manifest with a full genome, its id, and the
// environment that hands the values to the bot.
//
// The package only reads, checks and writes manifests; starting and
// stopping the processes is package bots/botproc's work.
package bots

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"crucible/strategies"
)

// Kind is the value of every manifest's "kind" field.
const Kind = "crucible-bot/1"

// MaxConcurrency bounds a manifest's concurrency.
const MaxConcurrency = 256

// MaxNameLength bounds a manifest's name.
const MaxNameLength = 64

// Manifest is one outside bot as its file describes it.
type Manifest struct {
	// Game is the game the bot plays ("acb", "kindling").
	Game string
	// Name labels the bot in results and logs: 1 to MaxNameLength
	// characters among letters, digits, '.', '_' and '-'.
	Name string
	// Command is the argv the lab runs (no shell): Command[0] is looked up
	// on PATH when it has no slash, else taken relative to Dir.
	Command []string
	// Dir is the working directory as the file spells it ("." when left
	// out): relative to the manifest's own folder unless absolute.
	Dir string
	// Env adds variables to the bot's environment.
	Env map[string]string
	// Concurrency is how many matches one process may serve at once (1
	// when left out).
	Concurrency int
	// Params are the bot's parameters, in the file's order; checked as a
	// strategies.Schema.
	Params strategies.Schema
	// Values sets some of the parameters (nil when the file has none):
	// a manifest with values is a variant of the bot.
	Values map[string]float64
	// Folder is the absolute folder of the manifest's file, the base of a
	// relative Dir.
	Folder string
}

// fields are the keys of a manifest, matched exactly.
var fields = []string{"kind", "game", "name", "command", "dir", "env", "concurrency", "params", "values"}

// paramFields are the keys of one entry of params, matched exactly.
var paramFields = []string{"name", "description", "min", "max", "default", "integer"}

// Load reads and checks the manifest at path (see Parse).
func Load(path string, games []string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bot manifest: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("bot manifest %s: %w", path, err)
	}
	return Parse(data, filepath.Dir(abs), path, games)
}

// Parse decodes and checks a manifest: one JSON object with the keys of
// the spec, spelled exactly, and nothing after it. kind must be Kind;
// game one of games (the lab's games, from the table of games); name as
// Manifest.Name says; command a non-empty list of strings whose first is
// not empty; dir a string; env an object of strings whose names are
// neither empty nor contain '=' or NUL and are not variables the lab sets
// itself (see Reserved); concurrency a whole number in [1,
// MaxConcurrency]; params a list of objects with name, min, max, default
// (required), description and integer, valid as a strategies.Schema,
// whose names stay distinct once turned into environment names (see
// EnvName); values an object of legal values of known parameters. folder
// is the absolute folder a relative dir is taken from; name is used in
// errors. Every error names the field and the value at fault.
func Parse(data []byte, folder, name string, games []string) (*Manifest, error) {
	m, err := parse(data, folder, games)
	if err != nil {
		return nil, fmt.Errorf("bot manifest %s: %w", name, err)
	}
	return m, nil
}

func parse(data []byte, folder string, games []string) (*Manifest, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty; a manifest is a JSON object with kind, game, name and command")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if raw == nil {
		return nil, errors.New("the file holds null; a manifest is a JSON object with kind, game, name and command")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON object")
	}
	if err := knownKeys("", raw, fields); err != nil {
		return nil, err
	}
	m := &Manifest{Folder: folder, Dir: ".", Concurrency: 1}
	var kind string
	for _, f := range []struct {
		key string
		dst *string
	}{{"kind", &kind}, {"game", &m.Game}, {"name", &m.Name}, {"dir", &m.Dir}} {
		if err := decodeField(raw, f.key, f.dst, "a string"); err != nil {
			return nil, err
		}
	}
	if err := checkHead(kind, m.Game, m.Name, m.Dir, games); err != nil {
		return nil, err
	}
	if _, ok := raw["command"]; !ok {
		return nil, errors.New(`field command is missing; want the bot's argv, e.g. ["python3", "main.py"]`)
	}
	if err := decodeField(raw, "command", &m.Command, "a list of strings"); err != nil {
		return nil, err
	}
	if len(m.Command) == 0 || m.Command[0] == "" {
		return nil, fmt.Errorf(`command = %s: want a non-empty argv whose first element names the program, e.g. ["python3", "main.py"]`, raw["command"])
	}
	for i, a := range m.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, fmt.Errorf("command[%d] = %q contains a NUL byte", i, a)
		}
	}
	if err := decodeField(raw, "env", &m.Env, "an object of strings"); err != nil {
		return nil, err
	}
	if err := checkEnv(m.Env); err != nil {
		return nil, err
	}
	if msg, ok := raw["concurrency"]; ok {
		if err := decodeField(raw, "concurrency", &m.Concurrency, "a whole number"); err != nil {
			return nil, err
		}
		if m.Concurrency < 1 || m.Concurrency > MaxConcurrency {
			return nil, fmt.Errorf("concurrency = %s is outside [1, %d]", msg, MaxConcurrency)
		}
	}
	if msg, ok := raw["params"]; ok {
		params, err := parseParams(msg)
		if err != nil {
			return nil, err
		}
		m.Params = params
	}
	if msg, ok := raw["values"]; ok {
		values, err := parseValues(msg)
		if err != nil {
			return nil, err
		}
		if _, err := m.Params.FromMap(values); err != nil {
			return nil, fmt.Errorf("values: %w", err)
		}
		m.Values = values
	}
	return m, nil
}

// checkHead checks kind, game, name and dir.
func checkHead(kind, game, name, dir string, games []string) error {
	if kind != Kind {
		return fmt.Errorf("kind = %q: want %q", kind, Kind)
	}
	if !slices.Contains(games, game) {
		return fmt.Errorf("game = %q is not one of %s", game, strings.Join(games, ", "))
	}
	if name == "" || len(name) > MaxNameLength || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}) >= 0 {
		return fmt.Errorf("name = %q: want 1 to %d letters, digits, '.', '_' or '-'", name, MaxNameLength)
	}
	if dir == "" || strings.IndexByte(dir, 0) >= 0 {
		return fmt.Errorf("dir = %q: want a folder, relative to the manifest's own (or leave it out for that folder)", dir)
	}
	return nil
}

// Reserved reports whether the lab sets the environment variable key
// itself, so that a manifest may not: the port and secret of both
// spellings, KINDLING_URL, and every CRUCIBLE_ variable.
func Reserved(key string) bool {
	switch key {
	case "PORT", "SHARED_SECRET", "BOT_PORT", "BOT_SECRET", "KINDLING_URL":
		return true
	}
	return strings.HasPrefix(key, "CRUCIBLE_")
}

func checkEnv(env map[string]string) error {
	for _, k := range sortedKeys(env) {
		switch {
		case k == "" || strings.ContainsAny(k, "=\x00"):
			return fmt.Errorf("env: variable name %q must be non-empty without '=' or NUL", k)
		case strings.IndexByte(env[k], 0) >= 0:
			return fmt.Errorf("env.%s = %q contains a NUL byte", k, env[k])
		case Reserved(k):
			return fmt.Errorf("env.%s = %q: the lab sets %s itself (port, secret, KINDLING_URL and CRUCIBLE_* variables are reserved)", k, env[k], k)
		}
	}
	return nil
}

// parseParams decodes params strictly and checks it as a schema.
func parseParams(msg json.RawMessage) (strategies.Schema, error) {
	var items []json.RawMessage
	if isNull(msg) || json.Unmarshal(msg, &items) != nil {
		return nil, fmt.Errorf("params = %s: want a list of parameters", clip(msg))
	}
	schema := make(strategies.Schema, 0, len(items))
	for i, it := range items {
		var raw map[string]json.RawMessage
		if isNull(it) || json.Unmarshal(it, &raw) != nil {
			return nil, fmt.Errorf("params[%d] = %s: want an object with name, min, max and default", i, clip(it))
		}
		at := fmt.Sprintf("params[%d].", i)
		if err := knownKeys(at, raw, paramFields); err != nil {
			return nil, err
		}
		for _, k := range []string{"name", "min", "max", "default"} {
			if _, ok := raw[k]; !ok {
				return nil, fmt.Errorf("%s%s is missing", at, k)
			}
		}
		var p strategies.Param
		for _, f := range []struct {
			key  string
			dst  any
			want string
		}{{"name", &p.Name, "a string"}, {"description", &p.Description, "a string"}, {"min", &p.Min, "a number"},
			{"max", &p.Max, "a number"}, {"default", &p.Default, "a number"}, {"integer", &p.Integer, "true or false"}} {
			if err := decodeField(raw, f.key, f.dst, f.want); err != nil {
				return nil, fmt.Errorf("params[%d].%w", i, err)
			}
		}
		schema = append(schema, p)
	}
	if err := schema.Validate(); err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	byEnv := map[string]string{}
	for _, p := range schema {
		e := EnvName(p.Name)
		if other, ok := byEnv[e]; ok {
			return nil, fmt.Errorf("params: parameters %q and %q share the environment variable %s; rename one", other, p.Name, e)
		}
		byEnv[e] = p.Name
	}
	return schema, nil
}

// parseValues decodes values, naming the parameter whose value is not a
// number.
func parseValues(msg json.RawMessage) (map[string]float64, error) {
	var raw map[string]json.RawMessage
	if isNull(msg) || json.Unmarshal(msg, &raw) != nil {
		return nil, fmt.Errorf("values = %s: want an object from parameter name to value", clip(msg))
	}
	values := make(map[string]float64, len(raw))
	for _, k := range sortedKeys(raw) {
		var x float64
		if isNull(raw[k]) || json.Unmarshal(raw[k], &x) != nil {
			return nil, fmt.Errorf("values.%s = %s is not a number", k, clip(raw[k]))
		}
		values[k] = x
	}
	return values, nil
}

// knownKeys refuses a key outside known, naming it with its prefix.
func knownKeys(prefix string, raw map[string]json.RawMessage, known []string) error {
	for _, k := range sortedKeys(raw) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("unknown field %s%s (fields: %s)", prefix, k, strings.Join(known, ", "))
		}
	}
	return nil
}

// decodeField decodes raw[key] into dst when present; null or a value of
// the wrong type is an error naming the field, its value and what it
// wants.
func decodeField(raw map[string]json.RawMessage, key string, dst any, want string) error {
	msg, ok := raw[key]
	if !ok {
		return nil
	}
	if isNull(msg) || json.Unmarshal(msg, dst) != nil {
		return fmt.Errorf("%s = %s: want %s", key, clip(msg), want)
	}
	return nil
}

func isNull(msg json.RawMessage) bool { return string(bytes.TrimSpace(msg)) == "null" }

// clip shortens a raw value for an error message.
func clip(msg json.RawMessage) string {
	const n = 60
	s := string(bytes.TrimSpace(msg))
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// WorkDir is the bot's working directory: Dir taken from Folder.
func (m *Manifest) WorkDir() string {
	if filepath.IsAbs(m.Dir) {
		return filepath.Clean(m.Dir)
	}
	return filepath.Join(m.Folder, m.Dir)
}

// Genome is the manifest's own genome: the defaults overridden by Values
// (clamped by the schema, which Parse's checks make a no-op).
func (m *Manifest) Genome() strategies.Genome {
	g := m.Params.Defaults()
	for name, v := range m.Values {
		if i := m.Params.Index(name); i >= 0 {
			g[i] = v
		}
	}
	return m.Params.Clamp(g)
}

// IsManifest reports whether data is a JSON object whose kind names a
// bot manifest ("crucible-bot/..."), so that a command taking a strategy,
// a variant file or a manifest can tell the last two apart before parsing
// (a variant file has no kind).
func IsManifest(data []byte) bool {
	var head struct {
		Kind *string `json:"kind"`
	}
	if json.Unmarshal(data, &head) != nil || head.Kind == nil {
		return false
	}
	return strings.HasPrefix(*head.Kind, "crucible-bot/")
}

// CheckRunnable checks that the bot can start on this machine: its working
// directory exists and its program is found (on PATH for a name without a
// slash, else relative to the working directory) and is executable. A
// queue worker runs it before its first match, so that a manifest whose
// files are not there fails with their names rather than match by match.
func (m *Manifest) CheckRunnable() error {
	dir := m.WorkDir()
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("bot %s: its folder %s (dir %q of the manifest in %s) is not there: copy the bot's files to this machine", m.Name, dir, m.Dir, m.Folder)
	}
	prog := m.Command[0]
	if !strings.ContainsRune(prog, '/') {
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Errorf("bot %s: command %q is not on this machine's PATH: %v", m.Name, prog, err)
		}
		return nil
	}
	path := prog
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("bot %s: command %s (%s) is not an executable file: %v; build or copy it, or fix command in the manifest", m.Name, prog, path, err)
	}
	return nil
}
