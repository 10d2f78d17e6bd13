package evolver

import (
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// allInBidder bids a share of its sparks on one beacon; its "late" share
// applies only from turn `from` on, so when `from` lies beyond the match's
// last turn the late share is never consulted.
type allInBidder struct {
	beacon      int
	share, late float64
	from        int
}

func (b allInBidder) Bid(v *kindling.View, out *kindling.Bid) {
	s := b.share
	if v.Turn >= b.from {
		s = b.late
	}
	out[b.beacon] = int(s * float64(v.Budget()))
}

// lateStrategy is a Kindling strategy whose parameter "late" matters only
// from turn "from" on.
func lateStrategy() strategies.Strategy {
	return strategies.Strategy{
		Game: "kindling", Name: "late", Description: "one beacon, a share of the sparks, another share late",
		Schema: strategies.Schema{
			{Name: "beacon", Min: 0, Max: kindling.Beacons - 1, Default: 2, Integer: true},
			{Name: "share", Min: 0, Max: 1, Default: 0.5},
			{Name: "late", Min: 0, Max: 1, Default: 0.5},
			{Name: "from", Min: 1, Max: 100, Default: 100, Integer: true},
		},
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return allInBidder{beacon: int(g[0]), share: g[1], late: g[2], from: int(g[3])}
		},
	}
}

func kindlingPool(t *testing.T, names ...string) []opponent {
	t.Helper()
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := referencePool(reg, "kindling", names)
	if err != nil {
		t.Fatal(err)
	}
	return pool
}

func fingerprints(t *testing.T, fp fingerprinter, genomes ...strategies.Genome) []string {
	t.Helper()
	out, err := fp.Fingerprint(context.Background(), genomes)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(genomes) {
		t.Fatalf("%d fingerprints for %d genomes", len(out), len(genomes))
	}
	return out
}

// Rule: genomes that differ only in a parameter the strategy does not
// consult during the probe matches share a fingerprint; genomes that bid
// differently do not; the fingerprint does not depend on the workers.
func TestFingerprintIsBehaviour(t *testing.T) {
	base := lateStrategy()
	if kindling.Turns >= 100 {
		t.Fatalf("the test needs matches shorter than 100 turns, kindling has %d", kindling.Turns)
	}
	pool := kindlingPool(t, "easy", "greedy", "even", "normal")
	fp := newProbeFingerprinter(kindling.Game{}, nil, base, pool, 2)
	if got := fp.ProbeMatches(); got != 6 {
		t.Fatalf("probe matches %d, want 6 (base and two pool opponents, two seeds)", got)
	}
	g := func(beacon, share, late, from float64) strategies.Genome {
		return strategies.Genome{beacon, share, late, from}
	}
	got := fingerprints(t, fp,
		g(2, 0.5, 0.5, 100), // the defaults
		g(2, 0.5, 0.9, 100), // another late share, never reached
		g(2, 0.5, 0.1, 100), // likewise
		g(2, 0.5, 0.9, 2),   // the late share from turn 2: bids differently
		g(3, 0.5, 0.5, 100), // another beacon
		g(2, 0.8, 0.5, 100), // another share
	)
	if got[0] != got[1] || got[0] != got[2] {
		t.Errorf("genomes differing only in an unused parameter got fingerprints %v, %v, %v; want one", got[0], got[1], got[2])
	}
	seen := map[string]int{}
	for i, f := range got[2:] {
		if j, ok := seen[f]; ok {
			t.Errorf("genomes %d and %d behave differently but share fingerprint %s", j+2, i+2, f)
		}
		seen[f] = i
	}
	// Deterministic, at any worker count.
	fp1 := newProbeFingerprinter(kindling.Game{}, nil, base, pool, 1)
	again := fingerprints(t, fp1, g(2, 0.5, 0.5, 100), g(3, 0.5, 0.5, 100))
	if again[0] != got[0] || again[1] != got[4] {
		t.Errorf("fingerprints changed between runs: %v then %v", []string{got[0], got[4]}, again)
	}
}

// Rule: with a real bidder, every parameter that changes its bids changes
// the fingerprint, and the probe set is fixed (the base at its defaults and
// two opponents spread over the pool).
func TestFingerprintRealBidder(t *testing.T) {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	base, err := reg.Lookup("kindling", "contrarian")
	if err != nil {
		t.Fatal(err)
	}
	pool := kindlingPool(t, "easy", "contrarian", "greedy", "even", "normal")
	fp := newProbeFingerprinter(kindling.Game{}, nil, base, pool, 2)
	var names []string
	for _, o := range fp.Opponents {
		names = append(names, o.Name)
	}
	if want := []string{"contrarian", "greedy", "even"}; len(names) != 3 || names[0] != want[0] || names[1] != want[1] || names[2] != want[2] {
		t.Errorf("probe opponents %v, want %v", names, want)
	}
	def := base.Schema.Defaults()
	width := append(strategies.Genome(nil), def...)
	width[1] = 1 // bid on one beacon instead of three
	spend := append(strategies.Genome(nil), def...)
	spend[2] = 0.3
	got := fingerprints(t, fp, def, width, spend, def)
	if got[0] == got[1] || got[0] == got[2] || got[1] == got[2] {
		t.Errorf("different bidders share a fingerprint: %v", got)
	}
	if got[0] != got[3] {
		t.Errorf("the same genome got two fingerprints: %v and %v", got[0], got[3])
	}
}

// Rule: in a run, genomes that differ only in a parameter the strategy
// never reads are measured once: the cache reports the evaluations it
// saved, the archive holds one variant per fingerprint, and the finalists
// and hall files are distinct behaviours carrying their fingerprints.
func TestSearchMeasuresEachBehaviourOnce(t *testing.T) {
	reg, _, _ := duelSetup(t)
	out := t.TempDir() + "/run"
	rep, err := Evolve(context.Background(), Config{
		Game: duelGame{}, Registry: reg, Base: "duel", Algorithm: "ga",
		Pool: []string{"weak", "mid", "strong"}, Population: 12, Seeds: 4, Seed: 9, Generations: 8,
		Workers: 2, Top: 4, TournamentSeeds: 8, Holdout: 8, Out: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cache
	t.Logf("cache %+v over %d search matches", c, rep.Matches)
	if c.Saved == 0 || c.ByFingerprint == 0 || c.SavedMatches == 0 || c.ProbeMatches == 0 {
		t.Errorf("cache %+v: want evaluations saved, some by fingerprint, and the probes counted", c)
	}
	cp, err := readCheckpoint(out)
	if err != nil {
		t.Fatal(err)
	}
	byFP := map[string]string{}
	for _, e := range cp.Archive {
		if e.Fingerprint == "" {
			continue
		}
		if other, ok := byFP[e.Fingerprint]; ok {
			t.Errorf("variants %s and %s share fingerprint %s in the archive", other, e.ID, e.Fingerprint)
		}
		byFP[e.Fingerprint] = e.ID
	}
	run, err := OpenRun(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range run.Ranked {
		if v.Fingerprint == "" || seen[v.Fingerprint] {
			t.Errorf("finalist %s has fingerprint %q, empty or repeated", v.ID, v.Fingerprint)
		}
		seen[v.Fingerprint] = true
	}
	if run.HallChampion == nil || run.HallChampion.Fingerprint == "" {
		t.Errorf("the hall's champion file carries no fingerprint: %+v", run.HallChampion)
	}
}
