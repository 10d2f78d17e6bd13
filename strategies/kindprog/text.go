package kindprog

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"crucible/strategies"
	"crucible/strategies/proglang"
)

// programJSON is a program's JSON form, as the variant file holds it:
//
//	{"jitter": 15, "spend": 60, "targets": 2,
//	 "rules": [{"when": "turn >= 8", "then": "spend 100"},
//	           {"when": "rival_bid >= 4", "then": "favour embers 0.5"},
//	           {"when": "value < 2", "then": "skip"}]}
//
// jitter (percent, default 0), spend (percent, default 0) and targets
// (default 2) may be left out.
type programJSON struct {
	Jitter  *int       `json:"jitter,omitempty"`
	Spend   *int       `json:"spend,omitempty"`
	Targets *int       `json:"targets,omitempty"`
	Rules   []ruleJSON `json:"rules"`
}

type ruleJSON struct {
	When *string `json:"when"`
	Then *string `json:"then"`
}

func encodeJSON(g strategies.Genome) (json.RawMessage, error) {
	p := decode(schema().Clamp(g))
	out := programJSON{Jitter: &p.jitter, Spend: &p.spend, Targets: &p.targets, Rules: []ruleJSON{}}
	for _, ru := range p.rules {
		when, then := ru.whenText(), ru.thenText()
		out.Rules = append(out.Rules, ruleJSON{When: &when, Then: &then})
	}
	return json.Marshal(out)
}

func bounded(name string, v *int, lo, hi int, dst *int) error {
	if v == nil {
		return nil
	}
	if *v < lo || *v > hi {
		return fmt.Errorf("%s = %d is outside [%d, %d]", name, *v, lo, hi)
	}
	*dst = *v
	return nil
}

// parseJSON reads a program strictly; errors name the rule and the field.
func parseJSON(data []byte) (program, error) {
	var in programJSON
	if err := proglang.DecodeStrict(data, &in, "fields jitter, spend, targets, rules; a rule has when and then"); err != nil {
		return program{}, err
	}
	p := program{targets: 2}
	for _, b := range []struct {
		name   string
		v      *int
		lo, hi int
		dst    *int
	}{{"jitter", in.Jitter, 0, 100, &p.jitter}, {"spend", in.Spend, 0, 100, &p.spend}, {"targets", in.Targets, 1, 5, &p.targets}} {
		if err := bounded(b.name, b.v, b.lo, b.hi, b.dst); err != nil {
			return p, err
		}
	}
	var err error
	p.rules, err = proglang.ParseRules(in.Rules, Slots, parseRule)
	return p, err
}

func parseRule(r ruleJSON) (rule, error) {
	var ru rule
	if r.Then == nil {
		return ru, errors.New("then: missing; want an action (" + actionNames() + ")")
	}
	if err := ru.parseThen(*r.Then); err != nil {
		return ru, fmt.Errorf("then %q: %w", *r.Then, err)
	}
	if r.When == nil {
		return ru, errors.New(`when: missing; want a condition such as "value >= 4 and rival_bid < 3" or "always"`)
	}
	if err := ru.parseWhen(*r.When); err != nil {
		return ru, fmt.Errorf("when %q: %w", *r.When, err)
	}
	return ru.canonical(), nil
}

func (ru *rule) parseThen(s string) error {
	w := strings.Fields(s)
	if len(w) == 0 {
		return errors.New("empty; want an action (" + actionNames() + ")")
	}
	ru.action = -1
	for i, a := range actions {
		if a.name == w[0] {
			ru.action = i
		}
	}
	a := ru.action
	want := map[int]int{aSpend: 2, aSave: 2, aTargets: 2, aFavour: 3, aSkip: 1}
	switch {
	case a < 0:
		return fmt.Errorf("unknown action %q (actions: %s)", w[0], actionNames())
	case len(w) != want[a]:
		return fmt.Errorf("%s takes %d argument(s): %s", w[0], want[a]-1, actions[a].desc)
	}
	switch a {
	case aSpend, aSave, aTargets:
		n, err := strconv.Atoi(w[1])
		if err != nil {
			return fmt.Errorf("%s: %q is not a whole number", w[0], w[1])
		}
		if n < actions[a].lo || n > actions[a].hi {
			return fmt.Errorf("%s %d is outside [%d, %d]", w[0], n, actions[a].lo, actions[a].hi)
		}
		ru.amount = n
	case aFavour:
		f := features.Index(w[1])
		if f <= fAlways {
			return fmt.Errorf("favour: unknown feature %q (features: %s)", w[1], features.Names())
		}
		x, err := strconv.ParseFloat(w[2], 64)
		k := int(math.Round(x * 10))
		if err != nil || math.Abs(float64(k)-x*10) > 1e-6 || k < -50 || k > 50 {
			return fmt.Errorf("favour %s: weight %q is not a number in -5..5 in steps of 0.1", w[1], w[2])
		}
		ru.weigh, ru.amount = f, k
	}
	return nil
}

func (ru *rule) parseWhen(s string) error {
	parts, join, err := proglang.Split(s)
	if err != nil {
		return err
	}
	ru.join = join
	for k, c := range parts {
		cd, err := parseCond(c)
		if err != nil {
			return err
		}
		ru.cond[k] = cd
	}
	return nil
}

func parseCond(w []string) (cond, error) {
	switch {
	case len(w) == 1 && w[0] == "always":
		return cond{}, nil
	case len(w) != 3:
		return cond{}, errors.New(`want "always", "FEATURE OP NUMBER" or two such comparisons joined by and/or`)
	}
	return features.ParseComparison(w)
}

func actionNames() string {
	var out []string
	for _, a := range actions {
		out = append(out, a.name)
	}
	return strings.Join(out, ", ")
}

func (ru rule) whenText() string { return features.WhenText(ru.cond, ru.join) }

func (ru rule) thenText() string {
	switch ru.action {
	case aFavour:
		return fmt.Sprintf("favour %s %s", features[ru.weigh].Name, proglang.FmtNum(float64(ru.amount)/10))
	case aSkip:
		return "skip"
	}
	return fmt.Sprintf("%s %d", actions[ru.action].name, ru.amount)
}

// text prints the program of g, one rule a line.
func text(g strategies.Genome) string {
	p := decode(schema().Clamp(g))
	var b strings.Builder
	fmt.Fprintf(&b, "base: spend %d%% on the %d most appealing beacons (appeal: value), jitter %d%%\n", p.spend, p.targets, p.jitter)
	for i, ru := range p.rules {
		fmt.Fprintf(&b, "%d. when %s then %s\n", i+1, ru.whenText(), ru.thenText())
	}
	return b.String()
}

// grammar describes the language for people and LLM prompts.
func grammar() string {
	var b strings.Builder
	b.WriteString(`A Kindling program lists at most 8 rules "when CONDITION then ACTION", read every turn. A beacon's appeal starts at its value; "jitter" (percent) perturbs it at random each turn. The sparks spent (never fewer than the cap would waste; all of them on the last turn unless a save rule holds) are split over the "targets" most appealing beacons with positive appeal, in proportion to appeal.
A condition is "always", "FEATURE OP NUMBER" with OP < or >=, or two comparisons joined by "and" or "or"; NUMBER on the feature's grid. Per-beacon features are read at each beacon for favour and skip, at the beacon of highest value for spend, save and targets.
JSON form: {"jitter": 15, "spend": 60, "targets": 2, "rules": [{"when": "turn >= 8", "then": "spend 100"}, {"when": "rival_bid >= 4", "then": "favour embers 0.5"}, {"when": "value < 2", "then": "skip"}]}
Features:
`)
	for _, f := range features[1:] {
		fmt.Fprintf(&b, "  %s (%s): %s\n", f.Name, f.Grid(), f.Desc)
	}
	b.WriteString("Actions:\n")
	for _, a := range actions {
		fmt.Fprintf(&b, "  %s: %s\n", a.name, a.desc)
	}
	return b.String()
}
