package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"crucible/strategies"
)

// ProgramSystem is the system message of a request for programs.
const ProgramSystem = "You write programs of rules for a game-playing strategy to make it win more. You answer with one JSON object."

// programText is the program of g as one line of JSON, or its error.
func programText(p *strategies.Program, g strategies.Genome) string {
	js, err := p.Encode(g)
	if err != nil {
		return fmt.Sprintf("(unprintable: %v)", err)
	}
	return string(js)
}

// ProgramPrompt is Prompt for a program strategy (Input.Strategy.Program
// set): the game's rules, the language (grammar, features, goals), what
// fitness is, the best and worst programs so far as JSON with their
// fitness, their results against each opponent, the trend, and the
// answer's shape: {"programs": [PROGRAM, ...]}.
func ProgramPrompt(in Input) string {
	s := in.Strategy
	p := s.Program
	var b strings.Builder
	title := in.Title
	if title == "" {
		title = strconv.Quote(s.Game)
	}
	fmt.Fprintf(&b, "You are writing programs for the strategy %q of the game %s: %s.\n", s.Name, title, s.Description)
	if in.Rules != "" {
		b.WriteString("\n## The game\n\n")
		b.WriteString(in.Rules)
		if cfg := configText(in.GameConfig); cfg != "" {
			fmt.Fprintf(&b, "\nThis run changes these settings from their defaults: %s\n", cfg)
		}
	}
	b.WriteString("\n## The language\n\n")
	b.WriteString(p.Grammar)
	b.WriteString("\n## Fitness\n\nEvery generation, each program plays matches on that generation's fresh seeds against a fixed pool of opponents: win 1, draw 0.5, loss 0 per opponent. " +
		"A program's fitness is the base's (the empty program's) mean score rate plus the program's mean advantage over it on the same seeds. " +
		"se is one standard error: differences smaller than about two of them are noise. Of two programs within noise, the shorter is preferred.\n")
	base, measured := in.Base, in.Measured
	if base != nil && base.Games == 0 {
		base = nil
	}
	if len(in.Opponents) > 0 {
		b.WriteString("\n## Opponents\n\n")
		for _, o := range in.Opponents {
			fmt.Fprintf(&b, "- %s: %s\n", o.Name, o.Description)
		}
		fmt.Fprintf(&b, "- %s: the search's latest champion joins the opponents once there is one.\n", HallRow)
	}
	line := func(label string, e *Measured) {
		fmt.Fprintf(&b, "%s {\"program\": %s, \"fitness\": %s, \"se\": %s, \"games\": %.0f}\n", label, programText(p, e.Genome),
			sig3(e.Fitness), sig3(stdErr(e.Fitness, e.Games)), e.Games)
	}
	b.WriteString("\n## Measured programs\n")
	if base != nil {
		b.WriteString("\nThe base (the empty program):\n")
		line("base", base)
	}
	k := min(in.Show, len(measured))
	best := measured[:k]
	if len(measured) == 0 {
		b.WriteString("\nNo program has been measured yet.\n")
	} else {
		b.WriteString("\nBest programs so far, by fitness:\n")
		for i := range best {
			line(fmt.Sprintf("#%d", i+1), &best[i])
		}
		if rest := measured[k:]; len(rest) > 0 {
			b.WriteString("\nWorst programs so far:\n")
			rest = rest[max(0, len(rest)-in.Show):]
			for i := range rest {
				line("-", &rest[i])
			}
		}
	}
	writeVersus(&b, base, best)
	writeTrend(&b, in.Trend)
	fmt.Fprintf(&b, "\n## Your answer\n\nThis is generation %d of the search. Propose %d new programs, different from those above, that you expect to reach a higher fitness than the best so far. "+
		"Answer with one JSON object of this shape, with %d entries in \"programs\", each a program in the JSON form above (\"reasoning\" is optional; keep it short):\n"+
		"{\"reasoning\": \"...\", \"programs\": [%s]}\n", in.Generation+1, in.N, in.N, programText(p, s.Schema.Defaults()))
	return b.String()
}

// unknownField matches encoding/json's complaint about a field a strict
// decoder does not know.
var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// ParseProgramReply reads the programs out of a model's reply, as real
// models write them: the JSON may stand alone, sit in a code fence or
// among prose (a <think> block is skipped); of several JSON values the
// one with the most programs is the answer (the last on ties). The answer
// is {"programs": [...]}, a bare list, or one program; an item is a
// program or {"program": PROGRAM, ...} (fields beside it, such as
// "fitness" or "why", are ignored). Fields a program does not have are
// dropped with a note naming them; anything else the language refuses
// (an unknown feature or goal, a constant off its grid, too many rules)
// rejects the program with a note naming the rule and the field. At most
// n programs are taken. A reply with no acceptable program is an error.
func ParseProgramReply(reply []byte, prog *strategies.Program, n int) ([]strategies.Genome, []string, error) {
	text := thinkBlock.ReplaceAll(reply, nil)
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, nil, errors.New("reply is empty")
	}
	items := findPrograms(text)
	if len(items) == 0 {
		return nil, nil, fmt.Errorf(`reply holds no JSON with programs ({"programs": [...]}, a list, or one program with "rules"); it begins %q`, excerpt(text, 60))
	}
	var out []strategies.Genome
	var notes []string
	for i, item := range items {
		if len(out) == n {
			notes = append(notes, fmt.Sprintf("reply has %d programs, %d asked for: programs %d to %d are dropped", len(items), n, i+1, len(items)))
			break
		}
		g, pnotes, err := parseProgramItem(item, prog)
		for _, s := range pnotes {
			notes = append(notes, fmt.Sprintf("program %d: %s", i+1, s))
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("program %d rejected: %v", i+1, err))
			continue
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, notes, fmt.Errorf("reply has no acceptable program (%d given)", len(items))
	}
	return out, notes, nil
}

// findPrograms returns the program items of the reply's answer (see
// ParseProgramReply).
func findPrograms(text []byte) []any {
	var best []any
	found := false
	scanned := 0
	for i := 0; i < len(text) && scanned <= maxScan; i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text[i:]))
		var v any
		if err := dec.Decode(&v); err != nil {
			scanned += 1
			continue
		}
		end := int(dec.InputOffset())
		scanned += end
		if items, ok := programItems(v); ok && (!found || len(items) >= len(best)) {
			best, found = items, true
		}
		i += end - 1
	}
	return best
}

func isProgram(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, rules := m["rules"]
	_, wrapped := m["program"]
	return rules || wrapped
}

func programItems(v any) ([]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if ps, ok := t["programs"]; ok {
			if list, ok := ps.([]any); ok {
				return list, true
			}
			return []any{ps}, true
		}
		if isProgram(t) {
			return []any{t}, true
		}
	case []any:
		for _, item := range t {
			if isProgram(item) {
				return t, true
			}
		}
	}
	return nil, false
}

// parseProgramItem decodes one program, dropping fields the program's
// decoder does not know (with a note) and refusing what else it refuses.
func parseProgramItem(item any, prog *strategies.Program) (strategies.Genome, []string, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("it is %s, not a program object", describeJSON(item))
	}
	if inner, ok := m["program"]; ok {
		if m, ok = inner.(map[string]any); !ok {
			return nil, nil, fmt.Errorf(`"program" is %s, not a program object`, describeJSON(inner))
		}
	}
	var notes []string
	for attempt := 0; attempt < 16; attempt++ {
		data, err := json.Marshal(m)
		if err != nil {
			return nil, notes, err
		}
		g, err := prog.Decode(data)
		if err == nil {
			return g, notes, nil
		}
		sub := unknownField.FindStringSubmatch(err.Error())
		if sub == nil || !dropField(m, sub[1]) {
			return nil, notes, err
		}
		notes = append(notes, fmt.Sprintf("field %q is not part of a program: ignored", sub[1]))
	}
	return nil, notes, errors.New("too many fields that are not part of a program")
}

// dropField removes key from m and from the objects of m's lists (a
// rule's extra field), reporting whether it found it.
func dropField(m map[string]any, key string) bool {
	found := false
	if _, ok := m[key]; ok {
		delete(m, key)
		found = true
	}
	for _, v := range m {
		if list, ok := v.([]any); ok {
			for _, x := range list {
				if o, ok := x.(map[string]any); ok {
					if _, ok := o[key]; ok {
						delete(o, key)
						found = true
					}
				}
			}
		}
	}
	return found
}
