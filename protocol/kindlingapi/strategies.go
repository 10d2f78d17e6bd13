package kindlingapi

import (
	"fmt"
	"hash/fnv"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// BidderFactory returns a constructor of s's Bidder with genome g for one
// seat of a served match. The bidder's seed is derived from the match code
// and the seat, so a replay of the same match decides the same way.
func BidderFactory(s strategies.Strategy, g strategies.Genome) func(code string, seat int) (kindling.Bidder, error) {
	return func(code string, seat int) (kindling.Bidder, error) {
		h := fnv.New64a()
		h.Write([]byte(code))
		p := s.New(append(strategies.Genome(nil), g...), engine.SeatSeed(h.Sum64(), seat), seat)
		b, ok := p.(kindling.Bidder)
		if !ok {
			return nil, fmt.Errorf("strategy %s/%s does not build a kindling.Bidder (got %T)", s.Game, s.Name, p)
		}
		return b, nil
	}
}

// houseLevels lists the house bot levels a match may ask for, in the
// order the API and the browser offer them, and the kindling strategy
// that plays each: easy and normal are strategies of those names; hard is
// crowd, the bidder built for crowded tables (strategies/bidders).
var houseLevels = []struct{ level, strategy string }{
	{"normal", "normal"},
	{"easy", "easy"},
	{"hard", "crowd"},
}

// BotLevelNames is the list of house bot levels as the API's messages
// name them ("normal, easy or hard").
const BotLevelNames = "normal, easy or hard"

// BotLevels returns the house bot levels a match may ask for (botLevel).
func BotLevels() []string {
	out := make([]string, len(houseLevels))
	for i, h := range houseLevels {
		out[i] = h.level
	}
	return out
}

// IsBotLevel reports whether level is a house bot level.
func IsBotLevel(level string) bool {
	for _, h := range houseLevels {
		if h.level == level {
			return true
		}
	}
	return false
}

// HouseBots returns the server's house bots: at every level of BotLevels
// the registry's kindling strategy that plays it, at its defaults. It
// fails when one is missing.
func HouseBots(reg *strategies.Registry) (HouseBotFunc, error) {
	levels := map[string]strategies.Strategy{}
	for _, h := range houseLevels {
		s, err := reg.Lookup("kindling", h.strategy)
		if err != nil {
			return nil, fmt.Errorf("house bot %s: %w", h.level, err)
		}
		levels[h.level] = s
	}
	return func(level string, seed uint64, seat int) (kindling.Bidder, error) {
		s, ok := levels[level]
		if !ok {
			return nil, fmt.Errorf("botLevel %q is not %s", level, BotLevelNames)
		}
		p := s.New(s.Schema.Defaults(), seed, seat)
		b, ok := p.(kindling.Bidder)
		if !ok {
			return nil, fmt.Errorf("house bot %s does not build a kindling.Bidder (got %T)", level, p)
		}
		return b, nil
	}, nil
}

// WithVariant returns house bots that play strategy s with genome g (an
// evolved variant, say) at level, and those of house at every other level.
// Each bot gets its own seed, as house's do.
func WithVariant(house HouseBotFunc, level string, s strategies.Strategy, g strategies.Genome) HouseBotFunc {
	return func(l string, seed uint64, seat int) (kindling.Bidder, error) {
		if l != level {
			return house(l, seed, seat)
		}
		p := s.New(append(strategies.Genome(nil), g...), seed, seat)
		b, ok := p.(kindling.Bidder)
		if !ok {
			return nil, fmt.Errorf("house bot %s: strategy %s/%s does not build a kindling.Bidder (got %T)", level, s.Game, s.Name, p)
		}
		return b, nil
	}
}
