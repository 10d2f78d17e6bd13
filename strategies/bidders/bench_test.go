package bidders

import (
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// benchMatches plays whole 8-turn matches of the named bidders (one seat
// each) at their defaults through Game.Play, building the players for each
// match as the arena does.
func benchMatches(b *testing.B, names ...string) {
	list := make([]strategies.Strategy, len(names))
	genomes := make([]strategies.Genome, len(names))
	for i, n := range names {
		list[i] = mustLookup(b, n)
		genomes[i] = list[i].Schema.Defaults()
	}
	seats := make([]engine.Seat, len(names))
	ctx := context.Background()
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		for i, s := range list {
			seats[i] = engine.Seat{Name: s.Name, Player: s.New(genomes[i], engine.SeatSeed(seed, i), i)}
		}
		if _, err := (kindling.Game{}).Play(ctx, engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchCheap: four of the cheap bidders.
func BenchmarkMatchCheap(b *testing.B) { benchMatches(b, "even", "greedy", "contrarian", "sniper") }

// BenchmarkMatchRandom: four random bidders (a generator each).
func BenchmarkMatchRandom(b *testing.B) { benchMatches(b, "random", "random", "easy", "easy") }

// BenchmarkMatchNormal: four of the house bot normal, the costliest bidder.
func BenchmarkMatchNormal(b *testing.B) { benchMatches(b, "normal", "normal", "normal", "normal") }

// BenchmarkMatchMixed: one of each kind of reader.
func BenchmarkMatchMixed(b *testing.B) { benchMatches(b, "bestresp", "farmer", "growth", "normal") }

// BenchmarkMatchLotto: four lotto bidders (table lookups and a small
// dynamic programme per turn).
func BenchmarkMatchLotto(b *testing.B) { benchMatches(b, "lotto", "lotto", "lotto", "lotto") }

// BenchmarkMatchModeller: four modellers (rival models and a best response
// per turn).
func BenchmarkMatchModeller(b *testing.B) {
	benchMatches(b, "modeller", "modeller", "modeller", "modeller")
}

// BenchmarkMatchCFR: cfr, the costliest bidder (a stage game solved by
// CFR+ every turn), against three cheap ones.
func BenchmarkMatchCFR(b *testing.B) { benchMatches(b, "cfr", "even", "greedy", "contrarian") }

// BenchmarkMatchCFRHeadsUp: two cfr bidders, two seats.
func BenchmarkMatchCFRHeadsUp(b *testing.B) { benchMatches(b, "cfr", "cfr") }
