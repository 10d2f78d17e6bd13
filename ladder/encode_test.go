package ladder

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"crucible/arena"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// appendRecord knows every field of arena.Record and arena.PlayerRef: a
// field added to either must be added to it (and to the cases below).
func TestAppendRecordKnowsTheFields(t *testing.T) {
	// Fields tagged json:"-" (Detail, the engine's in-memory match
	// detail) are never written.
	rt, n := reflect.TypeOf(arena.Record{}), 0
	for i := range rt.NumField() {
		if rt.Field(i).Tag.Get("json") != "-" {
			n++
		}
	}
	if n != 14 {
		t.Fatalf("arena.Record has %d written fields; appendRecord writes 14", n)
	}
	if n := reflect.TypeOf(arena.PlayerRef{}).NumField(); n != 3 {
		t.Fatalf("arena.PlayerRef has %d fields; appendRecord writes 3", n)
	}
}

// appendRecord writes json.Marshal's bytes: for the records of real
// Kindling matches and for every field's edge cases (nil and empty
// slices, fields left out when empty, numbers in and out of exponent
// form, negative zero, strings that need escaping).
func TestAppendRecordIsJSON(t *testing.T) {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var entrants []arena.Entrant
	for _, n := range []string{"normal", "sniper", "greedy", "easy"} {
		s, _ := reg.Lookup("kindling", n)
		entrants = append(entrants, arena.StrategyEntrant(s, n, "", s.Schema.Defaults()))
	}
	var recs []arena.Record
	jobs := arena.RoundRobin(len(entrants), arena.Seeds(5, 20))
	ffa, err := arena.FreeForAll(len(entrants), 4, arena.Seeds(6, 3))
	if err != nil {
		t.Fatal(err)
	}
	if err := arena.Run(context.Background(), kindling.Game{}, entrants, append(jobs, ffa...), arena.Options{Workers: 2}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	base := arena.Record{Job: "j", Game: "acb", Round: 3, Seed: math.MaxUint64, Players: []arena.PlayerRef{{Name: "a", Strategy: "s", VariantID: "v1"}, {Name: "b", Strategy: "t"}},
		Scores: []float64{1, 2}, Ranks: []int{2, 1}, Turns: 500, Reason: "turns", DurationMS: 1.5}
	edit := func(f func(r *arena.Record)) arena.Record {
		r := base
		r.Players = append([]arena.PlayerRef(nil), base.Players...)
		f(&r)
		return r
	}
	recs = append(recs, base,
		edit(func(r *arena.Record) { r.Config = "abc123def456" }),
		edit(func(r *arena.Record) { r.Players, r.Scores, r.Ranks = nil, nil, nil }),
		edit(func(r *arena.Record) {
			r.Players, r.Scores, r.Ranks, r.Crashed = []arena.PlayerRef{}, []float64{}, []int{}, []bool{}
		}),
		edit(func(r *arena.Record) { r.Crashed = []bool{false, true} }),
		edit(func(r *arena.Record) { r.Adjudicated = true }),
		edit(func(r *arena.Record) {
			r.Error, r.Scores, r.Ranks = "strategy x panicked on seed 9: <nil> & \"quotes\" \\ \n\t", nil, nil
		}),
		edit(func(r *arena.Record) {
			r.Scores = []float64{0, math.Copysign(0, -1), 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 1.2345e22, -3.25, 0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64}
		}),
		edit(func(r *arena.Record) { r.DurationMS = 0.012345678 }),
		edit(func(r *arena.Record) { r.DurationMS = 123456.789 }),
		edit(func(r *arena.Record) { r.Round, r.Turns, r.Ranks = -1, -7, []int{-1, 0} }),
		edit(func(r *arena.Record) { r.Players[0].Name = "ünïcode ✓ \u2028 \u2029 \x7f" }),
		edit(func(r *arena.Record) { r.Reason = "bad utf-8 \xff\xfe" }),
		edit(func(r *arena.Record) { r.Job = "" }),
	)
	for i := range recs {
		want, err := json.Marshal(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendRecord(nil, &recs[i])
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("record %d:\n got %s (%v)\nwant %s", i, got, ok, want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := edit(func(r *arena.Record) { r.DurationMS = bad })
		if _, ok := appendRecord(nil, &r); ok {
			t.Errorf("duration %v encoded; json.Marshal refuses it", bad)
		}
	}
}

// A disagreement with json.Marshal, once caught, sends every later line
// through json.Marshal: the lines stay the arena's.
func TestLineEncoderFallsBack(t *testing.T) {
	defer reflectOnly.Store(false)
	var buf bytes.Buffer
	e := lineEncoder{buf: &buf, checked: true}
	r := arena.Record{Job: "a", Game: "kindling", Scores: []float64{1}, DurationMS: 2}
	reflectOnly.Store(true)
	if err := e.encode(&r); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r)
	if buf.String() != string(want)+"\n" {
		t.Fatalf("line %q, want %q", buf.String(), want)
	}
	r.DurationMS = math.NaN()
	if err := e.encode(&r); err == nil {
		t.Fatal("a duration of NaN was encoded")
	}
}

// FuzzAppendRecord checks appendRecord against json.Marshal on any
// strings and numbers.
func FuzzAppendRecord(f *testing.F) {
	f.Add("n1-r0-1v2", "normal", "9a8b7c", "turns", "", 12.5, 0.25, uint64(7), 3)
	f.Add("<&>", "\u2028", "\xff", "\"\\", "boom\n", 1e-7, 1e21, uint64(0), -1)
	f.Fuzz(func(t *testing.T, job, name, variant, reason, errText string, score, dur float64, seed uint64, rank int) {
		r := arena.Record{Job: job, Game: "kindling", Config: variant, Round: rank, Seed: seed,
			Players: []arena.PlayerRef{{Name: name, Strategy: reason, VariantID: variant}},
			Scores:  []float64{score}, Ranks: []int{rank}, Reason: reason, Error: errText, DurationMS: dur}
		want, err := json.Marshal(r)
		got, ok := appendRecord(nil, &r)
		if err != nil {
			if ok {
				t.Fatalf("json.Marshal refuses %+v (%v) but appendRecord wrote %s", r, err, got)
			}
			return
		}
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v)\nwant %s", got, ok, want)
		}
	})
}
