package kindling

import (
	"encoding/json"
	"testing"
)

// stateFromBytes builds an arbitrary but reachable-looking position and
// bids from fuzz input: 2..4 seats, turn 1..8, values base..9, sparks
// 0..12, embers 0..11, bids 0..15 (so some are illegal), missed seats.
func stateFromBytes(data []byte) (State, [MaxSeats]Bid, [MaxSeats]bool) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	s, _ := NewState(MinSeats + next()%(MaxSeats-MinSeats+1))
	s.Turn = 1 + next()%Turns
	base := BaseValues()
	for i := range s.Values {
		s.Values[i] = base[i] + next()%(ValueCap-base[i]+1)
	}
	var bids [MaxSeats]Bid
	var missed [MaxSeats]bool
	for p := 0; p < s.Seats; p++ {
		s.Sparks[p] = next() % (SparkCap + 1)
		s.Scores[p] = next()
		for i := 0; i < Beacons; i++ {
			s.Embers[p][i] = next() % 12
			bids[p][i] = next() % 16
			if next()%3 != 0 { // mostly plausible bids: scale into the budget
				bids[p][i] = bids[p][i] * s.Sparks[p] / (16 * Beacons)
			}
		}
		missed[p] = next()%7 == 0
	}
	return s, bids, missed
}

// FuzzResolve checks CheckBid against Resolve and the invariants of a turn
// on arbitrary positions.
func FuzzResolve(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 15, 15})
	f.Add([]byte{2, 7, 8, 7, 5, 6, 7, 12, 3, 11, 9, 11, 15, 1, 1, 0, 0, 0, 0, 12, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5})
	f.Add([]byte("a longer seed of fuzz input that covers four seats and many embers"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, bids, missed := stateFromBytes(data)
		before := s
		wantErr := false
		for p := 0; p < s.Seats; p++ {
			if !missed[p] && CheckBid(&s, p, bids[p]) != nil {
				wantErr = true
			}
		}
		rec, err := Resolve(&s, &bids, &missed)
		if (err != nil) != wantErr {
			t.Fatalf("Resolve error %v, but CheckBid says illegal=%v", err, wantErr)
		}
		if err != nil {
			if s != before {
				t.Fatal("a refused Resolve changed the state")
			}
			return
		}
		base := BaseValues()
		for i := 0; i < Beacons; i++ {
			best, count := 0, 0
			for p := 0; p < s.Seats; p++ {
				bid := bids[p][i]
				if missed[p] {
					bid = 0
				}
				if rec.Strength[p][i] != bid+before.Embers[p][i] || rec.Bids[p][i] != bid {
					t.Fatalf("seat %d beacon %d: strength %d bid %d, want bid %d + embers %d", p, i, rec.Strength[p][i], rec.Bids[p][i], bid, before.Embers[p][i])
				}
				switch st := rec.Strength[p][i]; {
				case st > best:
					best, count = st, 1
				case st == best:
					count++
				}
			}
			w := rec.Winners[i]
			lit := best > 0 && count == 1
			if lit != (w != NoWinner) || (lit && rec.Strength[w][i] != best) {
				t.Fatalf("beacon %d: winner %d with strengths %v", i, w, rec.Strength)
			}
			for p := 0; p < s.Seats; p++ {
				want := rec.Strength[p][i] / 2
				if p == w {
					want = 0
				}
				if s.Embers[p][i] != want {
					t.Fatalf("seat %d beacon %d: embers %d, want %d", p, i, s.Embers[p][i], want)
				}
			}
			wantValue := min(ValueCap, before.Values[i]+1)
			if lit {
				wantValue = base[i]
			}
			if s.Values[i] != wantValue {
				t.Fatalf("beacon %d: next value %d, want %d", i, s.Values[i], wantValue)
			}
		}
		for p := 0; p < s.Seats; p++ {
			spent, points := 0, 0
			for i := 0; i < Beacons; i++ {
				spent += rec.Bids[p][i]
				if rec.Winners[i] == p {
					points += before.Values[i]
				}
			}
			want := before.Sparks[p] - spent
			if !s.Finished {
				want = min(SparkCap, want+Income)
			}
			if s.Sparks[p] != want || s.Sparks[p] < 0 || s.Sparks[p] > SparkCap {
				t.Fatalf("seat %d: sparks %d, want %d", p, s.Sparks[p], want)
			}
			if rec.Points[p] != points || s.Scores[p] != before.Scores[p]+points {
				t.Fatalf("seat %d: points %d score %d, want %d and %d", p, rec.Points[p], s.Scores[p], points, before.Scores[p]+points)
			}
			if rec.Missed[p] != missed[p] {
				t.Fatalf("seat %d: missed %v, want %v", p, rec.Missed[p], missed[p])
			}
		}
		if s.Finished != (before.Turn == Turns) {
			t.Fatalf("finished %v after turn %d", s.Finished, before.Turn)
		}
		// The record survives its JSON form.
		data, err = json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back TurnRecord
		if err := json.Unmarshal(data, &back); err != nil || back != rec {
			t.Fatalf("record JSON round trip: %v\n%s", err, data)
		}
	})
}

// FuzzParseBid feeds arbitrary bodies to the move parser: it must never
// panic, and whatever it accepts is five entries >= 0 that survive a round
// trip.
func FuzzParseBid(f *testing.F) {
	for _, s := range []string{`[0,1,3,1,0]`, `[1.0,2,3,4,5e0]`, `[0,-1,0,0,0]`, `[1,2]`, `null`, `"x"`, `[0,0,0,0,1.5]`, `[9e99,0,0,0,0]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		bid, err := ParseBid(data)
		if err != nil {
			return
		}
		for i, b := range bid {
			if b < 0 {
				t.Fatalf("ParseBid(%q) accepted bids[%d] = %d", data, i, b)
			}
		}
		text, _ := json.Marshal(bid)
		back, err := ParseBid(text)
		if err != nil || back != bid {
			t.Fatalf("round trip of %v: %v, %v", bid, back, err)
		}
	})
}

// FuzzTurnRecordJSON feeds arbitrary documents to the lastTurn parser an
// agent uses: no panic, and an accepted record re-encodes to itself.
func FuzzTurnRecordJSON(f *testing.F) {
	f.Add([]byte(workedCaseJSON))
	f.Add([]byte(`{"turn":8,"values":[9,9,9,9,9],"bids":[[0,0,0,0,0],[0,0,0,0,0],[1,1,1,1,1]],"strength":[[0,0,0,0,0],[0,0,0,0,0],[1,1,1,1,1]],"winners":[2,2,2,2,2],"points":[0,0,45],"scores":[1,2,3],"embers":[[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]],"missed":[0,1]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r TurnRecord
		if err := json.Unmarshal(data, &r); err != nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("accepted record does not encode: %v", err)
		}
		var back TurnRecord
		if err := json.Unmarshal(out, &back); err != nil || back != r {
			t.Fatalf("re-encoding changed the record: %v\n%s", err, out)
		}
	})
}
