package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"crucible/strategies"
)

// maxScan bounds the bytes the reply parser decodes while it looks for
// JSON in a reply, so that a pathological reply (thousands of unclosed
// brackets) costs milliseconds, not minutes.
const maxScan = 8 << 20

// thinkBlock matches the reasoning some models print before their answer
// (<think>...</think>, or an unclosed <think> to the end of the reply).
var thinkBlock = regexp.MustCompile(`(?s)<think>.*?(</think>|\z)`)

// ParseReply reads the genomes out of a model's reply, as real models
// write them:
//
//   - The JSON may stand alone, sit in a Markdown code fence, or follow (or
//     precede) prose; a <think>...</think> block is skipped. When the reply
//     holds several JSON values, the one with the most genomes is the
//     answer (ties go to the last, so a genome the model quotes from the
//     prompt before answering is not taken for the answer).
//   - The answer is an object {"genomes": [...]}, a bare list [...], or a
//     single genome; its other top-level fields ("reasoning", ...) are
//     ignored.
//   - A genome is {"params": {name: number, ...}} (the shape the prompt
//     shows; fields beside "params", such as "fitness" or "why", are
//     ignored) or a flat {name: number, ...}.
//
// Each genome is checked against the schema. It is rejected, with a note
// naming the parameter and the value, when it names an unknown parameter,
// gives a value that is not a JSON number (a string such as "0.7"
// included) or one outside the parameter's range. A parameter it leaves
// out takes its default (the prompt says so), with a note; a fractional
// value of an integer parameter is rounded, with a note. At most n genomes
// are taken (the rest are dropped with a note). A reply with no JSON
// holding genomes, or no acceptable genome, is an error; the notes say
// why each genome was rejected.
func ParseReply(reply []byte, schema strategies.Schema, n int) ([]strategies.Genome, []string, error) {
	text := thinkBlock.ReplaceAll(reply, nil)
	if len(bytes.TrimSpace(text)) == 0 {
		if len(bytes.TrimSpace(reply)) == 0 {
			return nil, nil, errors.New("reply is empty")
		}
		return nil, nil, errors.New("reply has nothing after its <think> block")
	}
	items, err := findAnswer(text, schema)
	if err != nil {
		return nil, nil, err
	}
	var out []strategies.Genome
	var notes []string
	for i, item := range items {
		if len(out) == n {
			notes = append(notes, fmt.Sprintf("reply has %d genomes, %d asked for: genomes %d to %d are dropped", len(items), n, i+1, len(items)))
			break
		}
		g, gnotes, err := parseItem(item, schema)
		for _, s := range gnotes {
			notes = append(notes, fmt.Sprintf("genome %d: %s", i+1, s))
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("genome %d rejected: %v", i+1, err))
			continue
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, notes, fmt.Errorf("reply has no acceptable genome (%d given)", len(items))
	}
	return out, notes, nil
}

// findAnswer returns the genome items of the reply's answer: of the
// top-level JSON values in text that have the shape of an answer, the one
// with the most items, the last on ties.
func findAnswer(text []byte, schema strategies.Schema) ([]any, error) {
	var best []any
	found := false
	scanned := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		if scanned > maxScan {
			break
		}
		dec := json.NewDecoder(bytes.NewReader(text[i:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				scanned += int(syn.Offset)
			} else {
				scanned += len(text) - i
			}
			continue
		}
		end := int(dec.InputOffset())
		scanned += end
		if items, ok := answerItems(v, schema); ok && (!found || len(items) >= len(best)) {
			best, found = items, true
		}
		i += end - 1 // nested values belong to this one
	}
	if !found {
		return nil, fmt.Errorf(`reply holds no JSON with genomes ({"genomes": [...]}, a list, or {"params": {...}}); it begins %q`, excerpt(text, 60))
	}
	if len(best) == 0 {
		return nil, errors.New(`reply's "genomes" list is empty`)
	}
	return best, nil
}

// excerpt is the first k runes of text with its blanks collapsed.
func excerpt(text []byte, k int) string {
	s := strings.Join(strings.Fields(string(text)), " ")
	if r := []rune(s); len(r) > k {
		return string(r[:k]) + "..."
	}
	return s
}

// answerItems returns the genome items of v when v has the shape of an
// answer: an object with a "genomes" list, a list of genomes, or one
// genome ({"params": ...} or an object naming a parameter).
func answerItems(v any, schema strategies.Schema) ([]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if gs, ok := t["genomes"]; ok {
			if list, ok := gs.([]any); ok {
				return list, true
			}
			return []any{genomesNotList{gs}}, true
		}
		if looksLikeGenome(t, schema) {
			return []any{t}, true
		}
	case []any:
		for _, item := range t {
			if m, ok := item.(map[string]any); ok && looksLikeGenome(m, schema) {
				return t, true
			}
		}
	}
	return nil, false
}

// genomesNotList stands for a "genomes" field that is not a list, so that
// its rejection names what it is.
type genomesNotList struct{ v any }

// looksLikeGenome reports whether m is a genome: it has a "params" field
// or names a parameter of the schema.
func looksLikeGenome(m map[string]any, schema strategies.Schema) bool {
	if _, ok := m["params"]; ok {
		return true
	}
	for k := range m {
		if schema.Index(k) >= 0 {
			return true
		}
	}
	return false
}

// parseItem reads one genome item: {"params": {...}, ...} or a flat
// object of parameters.
func parseItem(item any, schema strategies.Schema) (strategies.Genome, []string, error) {
	if g, ok := item.(genomesNotList); ok {
		return nil, nil, fmt.Errorf(`"genomes" is %s, not a list`, describeJSON(g.v))
	}
	m, ok := item.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("it is %s, not an object of parameters", describeJSON(item))
	}
	if p, ok := m["params"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf(`"params" is %s, not an object of parameters`, describeJSON(p))
		}
		m = pm
	}
	return parseGenome(m, schema)
}

// parseGenome checks name -> value against the schema (see ParseReply).
func parseGenome(m map[string]any, schema strategies.Schema) (strategies.Genome, []string, error) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if schema.Index(k) < 0 {
			return nil, nil, fmt.Errorf("unknown parameter %q = %s (known: %s)", k, describeJSON(m[k]), strings.Join(schema.Names(), ", "))
		}
	}
	if len(m) == 0 {
		return nil, nil, errors.New("it names no parameter")
	}
	g := make(strategies.Genome, len(schema))
	var notes []string
	var missing []string
	for i, p := range schema {
		raw, ok := m[p.Name]
		if !ok {
			g[i] = p.Default
			missing = append(missing, fmt.Sprintf("%s = %s", p.Name, formatParam(p, p.Default)))
			continue
		}
		num, ok := raw.(json.Number)
		switch {
		case raw == nil:
			return nil, nil, fmt.Errorf("parameter %s is null, not a number", p.Name)
		case !ok:
			return nil, nil, fmt.Errorf("parameter %s = %s is %s, not a number", p.Name, jsonText(raw), kindJSON(raw))
		}
		v, err := num.Float64()
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, nil, fmt.Errorf("parameter %s = %s is not a finite number", p.Name, num)
		}
		// A value a rounding error outside a bound is on it.
		tol := 1e-9 * (p.Max - p.Min)
		if v < p.Min-tol || v > p.Max+tol {
			return nil, nil, fmt.Errorf("parameter %s = %s is outside its range %s", p.Name, num, p.Range())
		}
		c := p.Clamp(v)
		if p.Integer && math.Abs(c-v) > tol {
			notes = append(notes, fmt.Sprintf("%s = %s must be whole, rounded to %v", p.Name, num, c))
		}
		g[i] = c
	}
	if len(missing) > 0 {
		notes = append(notes, "not given, so at the default: "+strings.Join(missing, ", "))
	}
	return g, notes, nil
}

// describeJSON names a decoded JSON value for a message: the value itself
// for a number, string, boolean or null, its kind for an object or list.
func describeJSON(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return jsonText(v)
}

// jsonText is v written as JSON, cut to 40 characters.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if s := []rune(string(b)); len(s) > 40 {
		return string(s[:40]) + "..."
	}
	return string(b)
}

// kindJSON names the JSON kind of a decoded value.
func kindJSON(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return "a number"
}
