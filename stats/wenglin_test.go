package stats

import (
	"math"
	"strings"
	"testing"
)

// TestWengLinFourWayFFA reproduces openskill's worked four-player
// free-for-all at the default model (openskill.js's parity test "matches
// Python for a four-way free-for-all at default hyperparameters").
func TestWengLinFourWayFFA(t *testing.T) {
	in := []Skill{{29.182, 4.782}, {27.174, 4.922}, {16.672, 6.217}, {25, 25.0 / 3}}
	got, err := DefaultWengLin().RateFFA(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Skill{
		{30.210227447000438, 4.765617924939384},
		{27.644725221915632, 4.883479590134575},
		{17.4036218889969, 6.101259408259549},
		{19.21460876538932, 7.854669920480409},
	}
	for i := range want {
		if !skillNear(got[i], want[i]) {
			t.Fatalf("player %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// The same game given as ranks in another order.
	got2, err := DefaultWengLin().RateFFA([]Skill{in[3], in[0], in[2], in[1]}, []float64{4, 1, 3, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !skillNear(got2[0], want[3]) || !skillNear(got2[1], want[0]) || !skillNear(got2[3], want[1]) {
		t.Fatalf("reordered: %+v", got2)
	}
}

// TestWengLinWithoutTau reproduces openskill.js's older Plackett–Luce
// tests (src/models/__tests__/plackett-luce.test.js), written before the
// tau dynamics were on by default: 3 and 4 new players, ranked in order.
func TestWengLinWithoutTau(t *testing.T) {
	w := DefaultWengLin()
	w.Tau = 0
	tests := [][]Skill{
		{{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583874}, {21.413904309067206, 8.057829747583874}},
		{{27.795084971874736, 8.263160757613477}, {26.552824984374855, 8.179213704945203}, {24.68943500312503, 8.083731307186588}, {20.96265504062538, 8.083731307186588}},
	}
	for _, want := range tests {
		in := make([]Skill, len(want))
		for i := range in {
			in[i] = w.Initial()
		}
		got, err := w.RateFFA(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !skillNear(got[i], want[i]) {
				t.Fatalf("%d players, place %d: %+v, want %+v", len(want), i+1, got[i], want[i])
			}
		}
	}
}

// TestWengLinOpenskillFixtures reproduces openskill.py 6.2.0's fixtures
// (tests/models/data/plackettluce.json and bradleyterryfull.json) for
// teams that all start at the fixture's rating: normal (1 v 2 players),
// ranks (four teams finishing 2, 1, 4, 3), ties (ranks 1, 2, 1) and
// limit_sigma (ranks 2, 1, 3).
func TestWengLinOpenskillFixtures(t *testing.T) {
	type team struct {
		size int
		want Skill
	}
	pl := Skill{20.35125162611535, 8.33148112355601}
	bt := Skill{16.03354781649136, 12.429396412128556}
	tests := []struct {
		name  string
		model WengLinModel
		start Skill
		ranks []float64
		limit bool
		teams []team
	}{
		{"PL normal", PlackettLuce, pl, nil, false, []team{
			{1, Skill{23.855123082692877, 8.22447878583752}},
			{2, Skill{16.84738016953782, 8.179571171464575}}}},
		{"PL ranks", PlackettLuce, pl, []float64{2, 1, 4, 3}, false, []team{
			{1, Skill{22.35555943890167, 8.265434830225024}},
			{2, Skill{22.373451456616035, 8.258479912445537}},
			{1, Skill{18.311159777900297, 8.219170401234347}},
			{2, Skill{18.364835831043397, 8.112716571808326}}}},
		{"PL ties", PlackettLuce, pl, []float64{1, 2, 1}, false, []team{
			{1, Skill{21.63766806988004, 8.310709773172306}},
			{2, Skill{19.53956360838512, 8.268148437657915}},
			{3, Skill{19.87652320008089, 8.237522411103104}}}},
		{"PL limit_sigma", PlackettLuce, pl, []float64{2, 1, 3}, true, []team{
			{1, Skill{22.81664991565251, 8.28331609373364}},
			{2, Skill{22.74645120129216, 8.268148437657915}},
			{3, Skill{15.49065376140138, 8.18959307104567}}}},
		{"BT normal", BradleyTerryFull, bt, nil, false, []team{
			{1, Skill{20.686574848684717, 12.190916868103495}},
			{2, Skill{11.380520784298003, 12.090638819927161}}}},
		{"BT ranks", BradleyTerryFull, bt, []float64{2, 1, 4, 3}, false, []team{
			{1, Skill{22.58458782319289, 11.44990951618401}},
			{2, Skill{23.594511753367236, 11.47082891120956}},
			{1, Skill{7.329544012760081, 11.44990951618401}},
			{2, Skill{10.625547676645233, 11.47082891120956}}}},
		{"BT ties", BradleyTerryFull, bt, []float64{1, 2, 1}, false, []team{
			{1, Skill{22.368878389960223, 12.064304058091345}},
			{2, Skill{9.40905558180175, 11.91450441624131}},
			{3, Skill{16.32270947771211, 11.999970481449761}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := DefaultWengLin()
			w.Model, w.LimitSigma = tc.model, tc.limit
			var teams [][]Skill
			for _, tm := range tc.teams {
				var players []Skill
				for range tm.size {
					players = append(players, tc.start)
				}
				teams = append(teams, players)
			}
			got, err := w.Rate(teams, tc.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i, tm := range tc.teams {
				for _, p := range got[i] {
					if !skillNear(p, tm.want) {
						t.Fatalf("team %d: %+v, want %+v", i, p, tm.want)
					}
				}
			}
		})
	}
}

// TestWengLinBadInput checks the errors name the field.
func TestWengLinBadInput(t *testing.T) {
	w := DefaultWengLin()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"one team", func() error { _, err := w.RateFFA([]Skill{w.Initial()}, nil); return err }, "1 teams, want at least 2"},
		{"ranks", func() error { _, err := w.RateFFA([]Skill{w.Initial(), w.Initial()}, []float64{1}); return err }, "1 ranks for 2 teams"},
		{"sigma", func() error { _, err := w.RateFFA([]Skill{w.Initial(), {25, 0}}, nil); return err }, "team 1 player 0: mu 25 sigma 0"},
		{"empty team", func() error { _, err := w.Rate([][]Skill{{w.Initial()}, {}}, nil); return err }, "team 1 has no player"},
		{"zero model", func() error { _, err := WengLin{}.RateFFA([]Skill{w.Initial(), w.Initial()}, nil); return err }, "beta 0"},
	}
	for _, tc := range tests {
		if err := tc.run(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if o := (Skill{Mu: 25, Sigma: 25.0 / 3}).Ordinal(); math.Abs(o) > 1e-12 {
		t.Errorf("ordinal of a new player %v, want 0", o)
	}
}

// skillNear compares ratings to 1e-9 (the fixtures are Python doubles).
func skillNear(a, b Skill) bool {
	return math.Abs(a.Mu-b.Mu) <= 1e-9 && math.Abs(a.Sigma-b.Sigma) <= 1e-9
}
