package kindling

import (
	"reflect"
	"strings"
	"testing"
)

// mustState starts a match or fails the test.
func mustState(t *testing.T, seats int) State {
	t.Helper()
	s, err := NewState(seats)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bidsOf packs per-seat bids into Resolve's array.
func bidsOf(b ...Bid) *[MaxSeats]Bid {
	var out [MaxSeats]Bid
	copy(out[:], b)
	return &out
}

func TestNewState(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		s, err := NewState(seats)
		if err != nil {
			t.Fatalf("NewState(%d): %v", seats, err)
		}
		if s.Turn != 1 || s.Values != [Beacons]int{1, 2, 4, 3, 2} || s.Finished {
			t.Fatalf("NewState(%d) = turn %d values %v finished %v; want turn 1, base values", seats, s.Turn, s.Values, s.Finished)
		}
		for p := 0; p < MaxSeats; p++ {
			want := 0
			if p < seats {
				want = StartSparks
			}
			if s.Sparks[p] != want || s.Scores[p] != 0 || s.Embers[p] != (Bid{}) {
				t.Fatalf("NewState(%d) seat %d: sparks %d score %d embers %v", seats, p, s.Sparks[p], s.Scores[p], s.Embers[p])
			}
		}
	}
	for _, seats := range []int{-1, 0, 1, 5} {
		_, err := NewState(seats)
		if err == nil || !strings.Contains(err.Error(), "2..4") {
			t.Fatalf("NewState(%d) error = %v, want one naming the range 2..4", seats, err)
		}
	}
}

func TestBeaconsInIdOrder(t *testing.T) {
	if got := BeaconNames(); got != [Beacons]string{"Fen", "Cairn", "Crown", "Tor", "Mill"} {
		t.Fatalf("BeaconNames() = %v", got)
	}
	if got := BaseValues(); got != [Beacons]int{1, 2, 4, 3, 2} {
		t.Fatalf("BaseValues() = %v", got)
	}
}

// TestWorkedCase is the spec's worked case, as written.
func TestWorkedCase(t *testing.T) {
	s := mustState(t, 2)
	rec, err := Resolve(&s, bidsOf(Bid{0, 0, 5, 0, 0}, Bid{0, 1, 4, 0, 0}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Winners != [Beacons]int{NoWinner, 1, 0, NoWinner, NoWinner} {
		t.Errorf("winners = %v, want A on Crown, B on Cairn", rec.Winners)
	}
	if rec.Points[0] != 4 || rec.Points[1] != 2 || s.Scores[0] != 4 || s.Scores[1] != 2 {
		t.Errorf("points %v scores %v, want A 4 and B 2", rec.Points[:2], s.Scores[:2])
	}
	if s.Embers[0] != (Bid{0, 0, 0, 0, 0}) || s.Embers[1] != (Bid{0, 0, 2, 0, 0}) {
		t.Errorf("embers after = A %v B %v, want A [0 0 0 0 0] B [0 0 2 0 0]", s.Embers[0], s.Embers[1])
	}
	if s.Values != [Beacons]int{2, 2, 4, 4, 3} {
		t.Errorf("next values = %v, want [2 2 4 4 3]", s.Values)
	}
	if s.Turn != 2 || s.Sparks[0] != 5 || s.Sparks[1] != 5 {
		t.Errorf("turn %d sparks A %d B %d, want turn 2 with A 5, B 5", s.Turn, s.Sparks[0], s.Sparks[1])
	}
	if rec.Values != [Beacons]int{1, 2, 4, 3, 2} || rec.Turn != 1 {
		t.Errorf("record turn %d values %v, want turn 1 at the base values", rec.Turn, rec.Values)
	}
}

// TestResolveRules checks each rule of "One turn, in order" on a crafted
// position: the bids of two or three seats over one turn.
func TestResolveRules(t *testing.T) {
	type seatSetup struct {
		sparks int
		embers Bid
	}
	tests := []struct {
		rule   string
		turn   int
		values [Beacons]int
		seats  []seatSetup
		bids   []Bid
		missed []int
		// expectations; nil slices are not checked
		winners    *[Beacons]int
		strength   []Bid
		embers     []Bid
		sparks     []int // after the turn, income for the next included
		nextValues *[Beacons]int
		points     []int
		recMissed  []int
		recBids    []Bid
		finished   bool
		nextTurnIs int
	}{
		{
			rule:   "income: sparks = min(12, sparks+5) before the next turn (spark cap 12)",
			turn:   3,
			values: BaseValues(),
			seats:  []seatSetup{{12, Bid{}}, {9, Bid{}}, {2, Bid{}}},
			bids:   []Bid{{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 2}},
			sparks: []int{12, 12, 5},
		},
		{
			rule:   "spend: bid sparks are always spent, won or lost",
			turn:   2,
			values: BaseValues(),
			seats:  []seatSetup{{10, Bid{}}, {10, Bid{}}},
			bids:   []Bid{{0, 0, 6, 0, 0}, {0, 0, 7, 0, 0}},
			sparks: []int{9, 8}, // 4+5 and 3+5
		},
		{
			rule:     "strength: bids plus the embers held before the turn",
			turn:     2,
			values:   BaseValues(),
			seats:    []seatSetup{{5, Bid{1, 0, 3, 0, 0}}, {5, Bid{0, 0, 0, 2, 0}}},
			bids:     []Bid{{0, 0, 1, 2, 0}, {0, 0, 3, 1, 0}},
			strength: []Bid{{1, 0, 4, 2, 0}, {0, 0, 3, 3, 0}},
			winners:  &[Beacons]int{0, NoWinner, 0, 1, NoWinner},
		},
		{
			rule:       "tie: nobody lights, value grows, both keep half as embers",
			turn:       2,
			values:     BaseValues(),
			seats:      []seatSetup{{5, Bid{}}, {5, Bid{}}},
			bids:       []Bid{{0, 0, 5, 0, 0}, {0, 0, 5, 0, 0}},
			winners:    &[Beacons]int{NoWinner, NoWinner, NoWinner, NoWinner, NoWinner},
			embers:     []Bid{{0, 0, 2, 0, 0}, {0, 0, 2, 0, 0}},
			nextValues: &[Beacons]int{2, 3, 5, 4, 3},
			points:     []int{0, 0},
			sparks:     []int{5, 5},
			strength:   []Bid{{0, 0, 5, 0, 0}, {0, 0, 5, 0, 0}},
		},
		{
			rule:    "tie at the top among three: the weaker third does not light it",
			turn:    2,
			values:  BaseValues(),
			seats:   []seatSetup{{5, Bid{}}, {5, Bid{}}, {5, Bid{}}},
			bids:    []Bid{{0, 0, 4, 0, 0}, {0, 0, 4, 0, 0}, {0, 0, 3, 0, 0}},
			winners: &[Beacons]int{NoWinner, NoWinner, NoWinner, NoWinner, NoWinner},
			embers:  []Bid{{0, 0, 2, 0, 0}, {0, 0, 2, 0, 0}, {0, 0, 1, 0, 0}},
		},
		{
			rule:    "the single strictly strongest lights the beacon even when others tie below",
			turn:    2,
			values:  BaseValues(),
			seats:   []seatSetup{{5, Bid{}}, {5, Bid{}}, {5, Bid{}}},
			bids:    []Bid{{0, 0, 2, 0, 0}, {0, 0, 2, 0, 0}, {0, 0, 3, 0, 0}},
			winners: &[Beacons]int{NoWinner, NoWinner, 2, NoWinner, NoWinner},
			embers:  []Bid{{0, 0, 1, 0, 0}, {0, 0, 1, 0, 0}, {0, 0, 0, 0, 0}},
			points:  []int{0, 0, 4},
		},
		{
			rule:       "no bids: nobody lights and every value grows by 1",
			turn:       2,
			values:     [Beacons]int{1, 2, 4, 3, 2},
			seats:      []seatSetup{{5, Bid{}}, {5, Bid{}}},
			bids:       []Bid{{}, {}},
			winners:    &[Beacons]int{NoWinner, NoWinner, NoWinner, NoWinner, NoWinner},
			nextValues: &[Beacons]int{2, 3, 5, 4, 3},
			sparks:     []int{10, 10},
		},
		{
			rule:       "embers alone light a beacon",
			turn:       4,
			values:     [Beacons]int{1, 2, 6, 3, 2},
			seats:      []seatSetup{{3, Bid{0, 0, 3, 0, 0}}, {5, Bid{0, 0, 1, 0, 0}}},
			bids:       []Bid{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
			winners:    &[Beacons]int{NoWinner, NoWinner, 0, NoWinner, NoWinner},
			points:     []int{6, 0},
			embers:     []Bid{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
			nextValues: &[Beacons]int{2, 3, 4, 4, 3},
			strength:   []Bid{{0, 0, 3, 0, 0}, {0, 0, 1, 0, 0}},
		},
		{
			rule:    "embers: the winner keeps 0, a loser keeps floor(strength/2)",
			turn:    2,
			values:  BaseValues(),
			seats:   []seatSetup{{12, Bid{0, 0, 0, 4, 0}}, {12, Bid{}}},
			bids:    []Bid{{0, 0, 0, 5, 0}, {0, 0, 0, 10, 0}},
			winners: &[Beacons]int{NoWinner, NoWinner, NoWinner, 1, NoWinner},
			embers:  []Bid{{0, 0, 0, 4, 0}, {0, 0, 0, 0, 0}}, // strength 9 keeps 4; the winner's 10 keeps 0
		},
		{
			rule:    "decay: outbid embers halve (5 becomes 2), and embers alone light Fen",
			turn:    2,
			values:  BaseValues(),
			seats:   []seatSetup{{5, Bid{1, 5, 0, 0, 0}}, {5, Bid{0, 9, 0, 0, 0}}},
			bids:    []Bid{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
			winners: &[Beacons]int{0, 1, NoWinner, NoWinner, NoWinner},
			embers:  []Bid{{0, 2, 0, 0, 0}, {0, 0, 0, 0, 0}},
		},
		{
			rule:    "decay: an unbid 1 that does not win becomes 0",
			turn:    2,
			values:  BaseValues(),
			seats:   []seatSetup{{5, Bid{1, 0, 0, 0, 0}}, {5, Bid{}}},
			bids:    []Bid{{0, 0, 0, 0, 0}, {2, 0, 0, 0, 0}},
			winners: &[Beacons]int{1, NoWinner, NoWinner, NoWinner, NoWinner},
			embers:  []Bid{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}},
		},
		{
			rule:       "values: a lit beacon returns to its base, an unlit one grows, capped at 9",
			turn:       5,
			values:     [Beacons]int{9, 8, 9, 3, 2},
			seats:      []seatSetup{{5, Bid{}}, {5, Bid{}}},
			bids:       []Bid{{0, 0, 1, 0, 0}, {0, 0, 0, 0, 0}},
			winners:    &[Beacons]int{NoWinner, NoWinner, 0, NoWinner, NoWinner},
			points:     []int{9, 0},
			nextValues: &[Beacons]int{9, 9, 4, 4, 3},
		},
		{
			rule:      "missed turn: bids zero whatever was sent, listed in missed, sparks carry over, embers still count",
			turn:      2,
			values:    BaseValues(),
			seats:     []seatSetup{{7, Bid{0, 0, 0, 3, 0}}, {5, Bid{}}},
			bids:      []Bid{{0, 0, 7, 0, 0}, {0, 0, 0, 2, 0}},
			missed:    []int{0},
			recMissed: []int{0},
			recBids:   []Bid{{0, 0, 0, 0, 0}, {0, 0, 0, 2, 0}},
			strength:  []Bid{{0, 0, 0, 3, 0}, {0, 0, 0, 2, 0}},
			winners:   &[Beacons]int{NoWinner, NoWinner, NoWinner, 0, NoWinner},
			sparks:    []int{12, 8},
		},
		{
			rule:       "after turn 8 the match is finished and no income is added",
			turn:       8,
			values:     BaseValues(),
			seats:      []seatSetup{{12, Bid{}}, {7, Bid{}}},
			bids:       []Bid{{0, 0, 2, 0, 0}, {0, 0, 0, 0, 0}},
			sparks:     []int{10, 7},
			finished:   true,
			nextTurnIs: 8,
		},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s := mustState(t, len(tt.seats))
			s.Turn = tt.turn
			s.Values = tt.values
			for p, ss := range tt.seats {
				s.Sparks[p] = ss.sparks
				s.Embers[p] = ss.embers
			}
			var missed [MaxSeats]bool
			for _, p := range tt.missed {
				missed[p] = true
			}
			before := s
			rec, err := Resolve(&s, bidsOf(tt.bids...), &missed)
			if err != nil {
				t.Fatal(err)
			}
			n := len(tt.seats)
			if tt.winners != nil && rec.Winners != *tt.winners {
				t.Errorf("winners = %v, want %v", rec.Winners, *tt.winners)
			}
			if tt.strength != nil && !reflect.DeepEqual(rec.Strength[:n], tt.strength) {
				t.Errorf("strength = %v, want %v", rec.Strength[:n], tt.strength)
			}
			if tt.embers != nil {
				if !reflect.DeepEqual(s.Embers[:n], tt.embers) {
					t.Errorf("embers = %v, want %v", s.Embers[:n], tt.embers)
				}
				if rec.Embers != s.Embers {
					t.Errorf("record embers %v differ from the state's %v", rec.Embers, s.Embers)
				}
			}
			if tt.sparks != nil && !reflect.DeepEqual(s.Sparks[:n], tt.sparks) {
				t.Errorf("sparks after = %v, want %v", s.Sparks[:n], tt.sparks)
			}
			if tt.nextValues != nil && s.Values != *tt.nextValues {
				t.Errorf("next values = %v, want %v", s.Values, *tt.nextValues)
			}
			if tt.points != nil {
				if !reflect.DeepEqual(rec.Points[:n], tt.points) {
					t.Errorf("points = %v, want %v", rec.Points[:n], tt.points)
				}
				for p := 0; p < n; p++ {
					if s.Scores[p] != before.Scores[p]+tt.points[p] || rec.Scores[p] != s.Scores[p] {
						t.Errorf("seat %d score %d (record %d), want %d", p, s.Scores[p], rec.Scores[p], before.Scores[p]+tt.points[p])
					}
				}
			}
			var gotMissed []int
			for p := 0; p < n; p++ {
				if rec.Missed[p] {
					gotMissed = append(gotMissed, p)
				}
			}
			if !reflect.DeepEqual(gotMissed, tt.recMissed) {
				t.Errorf("missed = %v, want %v", gotMissed, tt.recMissed)
			}
			if tt.recBids != nil && !reflect.DeepEqual(rec.Bids[:n], tt.recBids) {
				t.Errorf("revealed bids = %v, want %v", rec.Bids[:n], tt.recBids)
			}
			if rec.Turn != tt.turn || rec.Values != tt.values || rec.Seats != n {
				t.Errorf("record turn %d values %v seats %d, want %d %v %d", rec.Turn, rec.Values, rec.Seats, tt.turn, tt.values, n)
			}
			wantNext := tt.turn + 1
			if tt.nextTurnIs != 0 {
				wantNext = tt.nextTurnIs
			}
			if s.Finished != tt.finished || s.Turn != wantNext {
				t.Errorf("finished %v turn %d, want finished %v turn %d", s.Finished, s.Turn, tt.finished, wantNext)
			}
		})
	}
}
