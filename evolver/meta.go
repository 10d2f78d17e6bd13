package evolver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Meta records a run's configuration in its checkpoint. Its identity
// fields (game to seats, the identity options of the algorithm and the game
// configuration) must be the same in a resumed run; its settings (stopping
// rules, final stages, the other options) are what a resumed run uses
// unless told otherwise.
type Meta struct {
	Game          string   `json:"game"`
	Base          string   `json:"base"`
	Algorithm     string   `json:"algorithm"`
	Pool          []string `json:"pool"`
	Population    int      `json:"population"`
	Seeds         int      `json:"seeds"`
	Seed          uint64   `json:"seed"`
	Hall          int      `json:"hall"`
	HallOpponents int      `json:"hall_opponents"`
	Seats         int      `json:"seats,omitempty"`
	// Options are the algorithm's options by flag name (see
	// Options.Flags), its defaults filled in.
	Options    map[string]string `json:"options,omitempty"`
	GameConfig json.RawMessage   `json:"game_config,omitempty"`

	// Generations is the generation limit and BudgetS the budget in
	// seconds over every session so far (the earlier sessions' time and
	// the latest session's budget).
	Generations     int     `json:"generations,omitempty"`
	BudgetS         float64 `json:"budget_s,omitempty"`
	Top             int     `json:"top"`
	TournamentSeeds int     `json:"tournament_seeds"`
	Holdout         int     `json:"holdout"`
	// SelectRace is Config.SelectRace.
	SelectRace bool `json:"select_race,omitempty"`

	// Elapsed is the wall time of the run's sessions so far, from the
	// checkpoint (ReadMeta fills it; it is not part of the record).
	Elapsed time.Duration `json:"-"`
}

// meta returns the record of the run: prior is the time of its earlier
// sessions and opt its algorithm's options, resolved.
func (c Config) meta(pool []opponent, opt Options, prior time.Duration) Meta {
	m := Meta{Game: c.Game.Name(), Base: c.Base, Algorithm: c.Algorithm, Population: c.Population, Seeds: c.Seeds,
		Seed: c.Seed, Hall: c.Hall, HallOpponents: c.HallOpponents, GameConfig: c.GameConfigJSON,
		Generations: c.Generations, Top: c.Top, TournamentSeeds: c.TournamentSeeds, Holdout: c.Holdout,
		SelectRace: c.SelectRace, Options: optionValues(opt)}
	if c.Budget > 0 {
		m.BudgetS = (prior + c.Budget).Seconds()
	}
	for _, o := range pool {
		m.Pool = append(m.Pool, o.Name)
	}
	if c.Seats > 2 {
		m.Seats = c.Seats
	}
	return m
}

// AlgorithmText names the run's algorithm with the options that differ
// from its defaults: "ga (islands 2)".
func (m Meta) AlgorithmText() string {
	spec, err := LookupAlgorithm(m.Algorithm)
	if err != nil {
		return m.Algorithm
	}
	def := optionValues(spec.Options())
	var parts []string
	for name, v := range m.Options {
		if v != def[name] && v != "" {
			parts = append(parts, name+" "+v)
		}
	}
	if len(parts) == 0 {
		return m.Algorithm
	}
	sort.Strings(parts)
	return m.Algorithm + " (" + strings.Join(parts, ", ") + ")"
}

// sameRun reports the first identity field in which a resumed run differs
// from its checkpoint, as a FieldError (an option's by its flag name).
func sameRun(old, now Meta) error {
	diff := func(field string, a, b any) error {
		return &FieldError{Field: field, Value: b, Reason: fmt.Sprintf("differs from the run's %v", a)}
	}
	switch {
	case old.Game != now.Game:
		return diff("Game", old.Game, now.Game)
	case old.Base != now.Base:
		return diff("Base", old.Base, now.Base)
	case old.Algorithm != now.Algorithm:
		return diff("Algorithm", old.Algorithm, now.Algorithm)
	case !reflect.DeepEqual(old.Pool, now.Pool):
		return diff("Pool", strings.Join(old.Pool, ","), strings.Join(now.Pool, ","))
	case old.Population != now.Population:
		return diff("Population", old.Population, now.Population)
	case old.Seeds != now.Seeds:
		return diff("Seeds", old.Seeds, now.Seeds)
	case old.Seed != now.Seed:
		return diff("Seed", old.Seed, now.Seed)
	case old.Hall != now.Hall:
		return diff("Hall", old.Hall, now.Hall)
	case old.HallOpponents != now.HallOpponents:
		return diff("HallOpponents", old.HallOpponents, now.HallOpponents)
	case max(2, old.Seats) != max(2, now.Seats):
		return diff("Seats", max(2, old.Seats), max(2, now.Seats))
	case !bytes.Equal(compactJSON(old.GameConfig), compactJSON(now.GameConfig)):
		return diff("GameConfigJSON", orDefaults(old.GameConfig), orDefaults(now.GameConfig))
	}
	// A checkpoint written before the options were recorded has none to
	// compare.
	if spec, err := LookupAlgorithm(now.Algorithm); err == nil && old.Options != nil {
		for _, name := range spec.Options().Identity() {
			if a, b := old.Options[name], now.Options[name]; a != b {
				return diff(name, orNone(a), orNone(b))
			}
		}
	}
	return nil
}

func orNone(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// compactJSON removes insignificant space so configurations compare by
// content.
func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if len(raw) == 0 || json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

func orDefaults(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(the game's defaults)"
	}
	return string(compactJSON(raw))
}
