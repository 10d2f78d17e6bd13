package arena_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

// TestRecordMatchFingerprint checks what makes two matches exact repeats:
// the same configuration, scores, ranks, turns, end and crashes, whatever
// the seed, job or duration; any of those differing makes another result.
func TestRecordMatchFingerprint(t *testing.T) {
	base := arena.Record{Job: "r0-0v1", Game: "toy", Config: "c1", Round: 0, Seed: 5, Players: []arena.PlayerRef{{Name: "a"}, {Name: "b"}},
		Scores: []float64{3, 1}, Ranks: []int{1, 2}, Turns: 40, Reason: "turns", DurationMS: 1}
	m := base.Match()
	if m.Result == 0 || m.Seed != 5 || m.Players[0] != "a" || m.Ranks[1] != 2 {
		t.Fatalf("match %+v", m)
	}
	same := base
	same.Job, same.Round, same.Seed, same.DurationMS = "r7-0v1", 7, 99, 12
	if same.Match().Result != m.Result {
		t.Fatal("another seed, job or duration changed the fingerprint")
	}
	for name, change := range map[string]func(*arena.Record){
		"score":  func(r *arena.Record) { r.Scores = []float64{3, 2} },
		"turns":  func(r *arena.Record) { r.Turns = 41 },
		"reason": func(r *arena.Record) { r.Reason = "elimination" },
		"config": func(r *arena.Record) { r.Config = "c2" },
		"crash":  func(r *arena.Record) { r.Crashed = []bool{false, true} },
	} {
		r := base
		change(&r)
		if r.Match().Result == m.Result {
			t.Errorf("another %s kept the fingerprint", name)
		}
	}
}

// TestCollectorLeaderboard checks that the collector's leaderboard is
// rating.Leaderboard's over the records' matches, whatever order they are
// added in, and that failed records are left out.
func TestCollectorLeaderboard(t *testing.T) {
	es := toyEntrants(4)
	recs, err := runAll(t, context.Background(), toyGame{}, es, arena.RoundRobin(4, arena.Seeds(3, 6)), arena.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ms []rating.Match
	for _, r := range recs {
		ms = append(ms, r.Match())
	}
	want, err := rating.Leaderboard(arena.Names(es), ms, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	recs = append(recs, arena.Record{Job: "r9-0v1", Game: "toy", Players: recs[0].Players, Error: "boom"})
	got, err := arena.Leaderboard(arena.Names(es), recs, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Standings {
		a, b := want.Standings[i], got.Standings[i]
		if a.Name != b.Name || *a.BT != *b.BT || a.Score != b.Score || a.ScoreLo != b.ScoreLo || a.Units != b.Units {
			t.Fatalf("standing %d: %+v, want %+v", i, b, a)
		}
	}
	if got.Standings[0].Name != "p3" || got.Units != 6*6 {
		t.Fatalf("leader %s over %d units; want p3 (the strongest) over 36", got.Standings[0].Name, got.Units)
	}
}
