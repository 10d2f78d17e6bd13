package acbstrat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"crucible/strategies"
	"crucible/strategies/proglang"
)

// programJSON is a program's JSON form, as the variant file holds it:
//
//	{"roles": [70, 30, 0], "regroup": 10,
//	 "finish": {"reach": 12, "strike": true},
//	 "rules": [{"role": 2, "when": "d_open_core < 6", "then": "raze", "boldness": 50},
//	           {"when": "always", "then": "gather", "boldness": 67}]}
//
// roles (percent of the units in roles 1, 2 and 3, summing to 100;
// default all in role 1), regroup (default 10), finish (default none) and
// a rule's role (default any) and boldness (default 50) may be left out.
type programJSON struct {
	Roles   []int        `json:"roles"`
	Regroup *int         `json:"regroup,omitempty"`
	Finish  *finishJSON  `json:"finish,omitempty"`
	Rules   []ruleJSONIn `json:"rules"`
}

type finishJSON struct {
	Reach  int  `json:"reach"`
	Strike bool `json:"strike"`
}

// ruleJSONIn is one rule as read; pointers tell a field left out.
type ruleJSONIn struct {
	Role     *int    `json:"role,omitempty"`
	When     *string `json:"when"`
	Then     *string `json:"then"`
	Boldness *int    `json:"boldness,omitempty"`
}

// encodeProgramJSON writes the program of g as JSON.
func encodeProgramJSON(g strategies.Genome) (json.RawMessage, error) {
	p := decodeProgram(programSchema().Clamp(g))
	out := programJSON{Roles: p.shares[:], Regroup: &p.regroup, Rules: []ruleJSONIn{}}
	if p.reach != 0 || p.strike {
		out.Finish = &finishJSON{Reach: p.reach, Strike: p.strike}
	}
	for _, ru := range p.rules {
		when, then, bold := ru.whenText(), progGoals[ru.goal].name, ru.bold
		r := ruleJSONIn{When: &when, Then: &then, Boldness: &bold}
		if ru.role != 0 {
			role := ru.role
			r.Role = &role
		}
		out.Rules = append(out.Rules, r)
	}
	return json.Marshal(out)
}

// parseProgramJSON reads a program's JSON strictly: unknown fields, a
// value of the wrong type or out of bounds, a feature, comparison or goal
// not in the language, or more than progSlots rules are errors naming the
// rule and the field.
func parseProgramJSON(data []byte) (acbProgram, error) {
	var in programJSON
	if err := proglang.DecodeStrict(data, &in, "fields roles, regroup, finish, rules; a rule has role, when, then, boldness"); err != nil {
		return acbProgram{}, err
	}
	p := acbProgram{shares: [progRoles]int{100, 0, 0}, regroup: 10}
	if in.Roles != nil {
		if len(in.Roles) < 1 || len(in.Roles) > progRoles {
			return p, fmt.Errorf("roles: want 1 to %d shares in percent, got %d", progRoles, len(in.Roles))
		}
		sum := 0
		p.shares = [progRoles]int{}
		for i, s := range in.Roles {
			if s < 0 || s > 100 {
				return p, fmt.Errorf("roles: share of role %d is %d, outside [0, 100]", i+1, s)
			}
			p.shares[i] = s
			sum += s
		}
		if sum != 100 {
			return p, fmt.Errorf("roles: shares %v sum to %d, not 100", in.Roles, sum)
		}
	}
	if in.Regroup != nil {
		if *in.Regroup < 1 || *in.Regroup > 100 {
			return p, fmt.Errorf("regroup = %d is outside [1, 100] turns", *in.Regroup)
		}
		p.regroup = *in.Regroup
	}
	if in.Finish != nil {
		if in.Finish.Reach < -1 || in.Finish.Reach > 20 {
			return p, fmt.Errorf("finish.reach = %d is outside [-1, 20] (-1: any distance)", in.Finish.Reach)
		}
		p.reach, p.strike = in.Finish.Reach, in.Finish.Strike
	}
	var err error
	p.rules, err = proglang.ParseRules(in.Rules, progSlots, parseRule)
	return p, err
}

func parseRule(r ruleJSONIn) (progRule, error) {
	ru := progRule{bold: 50}
	if r.Role != nil {
		if *r.Role < 0 || *r.Role > progRoles {
			return ru, fmt.Errorf("role = %d is outside [0, %d] (0: any)", *r.Role, progRoles)
		}
		ru.role = *r.Role
	}
	if r.Boldness != nil {
		if *r.Boldness < 0 || *r.Boldness > 100 {
			return ru, fmt.Errorf("boldness = %d is outside [0, 100]", *r.Boldness)
		}
		ru.bold = *r.Boldness
	}
	if r.Then == nil {
		return ru, errors.New("then: missing; want a goal (" + goalNames() + ")")
	}
	g := goalIndex(*r.Then)
	if g < 0 {
		return ru, fmt.Errorf("then: unknown goal %q (goals: %s)", *r.Then, goalNames())
	}
	ru.goal = g
	if r.When == nil {
		return ru, errors.New(`when: missing; want a condition such as "d_enemy < 5 and allies >= 2" or "always"`)
	}
	if err := ru.parseWhen(*r.When); err != nil {
		return ru, fmt.Errorf("when %q: %w", *r.When, err)
	}
	return ru.canonical(), nil
}

// parseWhen reads "always", "F OP K", or two of them joined by and/or.
func (ru *progRule) parseWhen(s string) error {
	parts, join, err := proglang.Split(s)
	if err != nil {
		return err
	}
	ru.join = join
	for k, c := range parts {
		if len(c) != 1 && len(c) != 3 {
			if len(c) == 5 || len(c) == 7 {
				return fmt.Errorf("joins with %q; want and or or", c[3])
			}
			return errors.New(`want "always", "FEATURE OP NUMBER" or two such comparisons joined by and/or`)
		}
		cond, err := parseCond(c)
		if err != nil {
			return err
		}
		ru.cond[k] = cond
	}
	return nil
}

func parseCond(w []string) (progCond, error) {
	if len(w) == 1 {
		if w[0] != "always" {
			return progCond{}, fmt.Errorf("%q alone is not a condition; want always or FEATURE OP NUMBER", w[0])
		}
		return progCond{}, nil
	}
	return progFeatures.ParseComparison(w)
}

func goalIndex(name string) int {
	for i, g := range progGoals {
		if g.name == name {
			return i
		}
	}
	return -1
}

func goalNames() string {
	var out []string
	for _, g := range progGoals {
		out = append(out, g.name)
	}
	return strings.Join(out, ", ")
}

// whenText prints the rule's condition.
func (ru progRule) whenText() string { return progFeatures.WhenText(ru.cond, ru.join) }

// programText prints the program of g, one rule a line.
func programText(g strategies.Genome) string {
	p := decodeProgram(programSchema().Clamp(g))
	var b strings.Builder
	if p.shares[0] == 100 {
		fmt.Fprintf(&b, "roles: all units in role 1\n")
	} else {
		fmt.Fprintf(&b, "roles: 1 %d%%, 2 %d%%, 3 %d%%; rebalanced every %d turns\n", p.shares[0], p.shares[1], p.shares[2], p.regroup)
	}
	switch {
	case p.reach == 0 && !p.strike:
		b.WriteString("finish: none\n")
	default:
		reach := "never"
		switch {
		case p.reach < 0:
			reach = "at any distance"
		case p.reach > 0:
			reach = fmt.Sprintf("within %d steps", p.reach)
		}
		fmt.Fprintf(&b, "finish: open enemy cores in sight taken %s; strike when dominant: %v\n", reach, p.strike)
	}
	for i, ru := range p.rules {
		role := ""
		if ru.role != 0 {
			role = fmt.Sprintf("[role %d] ", ru.role)
		}
		fmt.Fprintf(&b, "%d. %swhen %s then %s (boldness %d)\n", i+1, role, ru.whenText(), progGoals[ru.goal].name, ru.bold)
	}
	b.WriteString("otherwise hold\n")
	return b.String()
}

// programGrammar describes the language for people and LLM prompts.
func programGrammar() string {
	var b strings.Builder
	b.WriteString(`A program gives every unit a role (1 to 3; "roles" are the percent of units per role, summing to 100, rebalanced every "regroup" turns) and lists at most 8 rules, tried in order for each unit: the first rule of the unit's role (role 0 or left out: any role) whose condition holds and whose goal has a target this turn decides the unit; a unit no rule decides holds.
A condition is "always", "FEATURE OP NUMBER" with OP < or >=, or two comparisons joined by "and" or "or". NUMBER must lie on the feature's grid (shown as min..max step).
"boldness" 0..100 weighs fights: 0 avoids every fight it does not win, 100 walks into even trades.
"finish" (optional): {"reach": R, "strike": S} sends a unit onto an open enemy core in sight within R steps (-1 any, 0 never) and, with strike, half the units against the nearest enemy core once the player far outnumbers the enemy.
JSON form: {"roles": [70, 30, 0], "regroup": 10, "finish": {"reach": 12, "strike": true}, "rules": [{"role": 2, "when": "d_enemy < 6 and allies >= 2", "then": "hunt", "boldness": 60}, {"when": "always", "then": "gather", "boldness": 67}]}
Features:
`)
	for _, f := range progFeatures[1:] {
		fmt.Fprintf(&b, "  %s (%s): %s\n", f.Name, f.Grid(), f.Desc)
	}
	b.WriteString("Goals:\n")
	for _, g := range progGoals {
		fmt.Fprintf(&b, "  %s: %s\n", g.name, g.desc)
	}
	return b.String()
}
