package kindling

import (
	"encoding/json"
	"strings"
	"testing"
)

const workedCaseJSON = `{"turn":1,"values":[1,2,4,3,2],"bids":[[0,0,5,0,0],[0,1,4,0,0]],` +
	`"strength":[[0,0,5,0,0],[0,1,4,0,0]],"winners":[null,1,0,null,null],"points":[4,2],` +
	`"scores":[4,2],"embers":[[0,0,0,0,0],[0,0,2,0,0]],"missed":[]}`

func TestTurnRecordJSONIsTheSeedShape(t *testing.T) {
	s := mustState(t, 2)
	rec, err := Resolve(&s, bidsOf(Bid{0, 0, 5, 0, 0}, Bid{0, 1, 4, 0, 0}), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != workedCaseJSON {
		t.Fatalf("worked case record:\n got %s\nwant %s", got, workedCaseJSON)
	}
	var back TurnRecord
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if back != rec {
		t.Fatalf("round trip changed the record:\n got %+v\nwant %+v", back, rec)
	}
}

func TestTurnRecordMissedListsSeats(t *testing.T) {
	s := mustState(t, 3)
	missed := [MaxSeats]bool{true, false, true}
	rec, err := Resolve(&s, bidsOf(Bid{}, Bid{1, 0, 0, 0, 0}, Bid{}), &missed)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(rec)
	if !strings.HasSuffix(string(got), `"missed":[0,2]}`) {
		t.Fatalf("missed should list seats 0 and 2: %s", got)
	}
}

func TestTurnRecordUnmarshalErrors(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		wantErr string
	}{
		{"one seat is too few", func(s string) string {
			return strings.NewReplacer(`"bids":[[0,0,5,0,0],[0,1,4,0,0]]`, `"bids":[[0,0,5,0,0]]`).Replace(s)
		}, "bids has 1 seats"},
		{"a beacon array must have 5 entries", func(s string) string {
			return strings.Replace(s, `"embers":[[0,0,0,0,0],`, `"embers":[[0,0,0,0],`, 1)
		}, "embers[0] has 4 entries"},
		{"seat arrays must match the seats", func(s string) string {
			return strings.Replace(s, `"points":[4,2]`, `"points":[4,2,0]`, 1)
		}, "points has 3 seats"},
		{"a winner must be a seat", func(s string) string {
			return strings.Replace(s, `"winners":[null,1,0,null,null]`, `"winners":[null,7,0,null,null]`, 1)
		}, "winners[1] = 7"},
		{"missed must list seats", func(s string) string {
			return strings.Replace(s, `"missed":[]`, `"missed":[-1]`, 1)
		}, "missed lists -1"},
		{"turn is required", func(s string) string {
			return strings.Replace(s, `"turn":1,`, ``, 1)
		}, "turn is missing"},
		{"values must have 5 entries", func(s string) string {
			return strings.Replace(s, `"values":[1,2,4,3,2]`, `"values":[1,2]`, 1)
		}, "values has 2 entries"},
		{"a string where a number belongs", func(s string) string {
			return strings.Replace(s, `"scores":[4,2]`, `"scores":["4",2]`, 1)
		}, "turn record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r TurnRecord
			err := json.Unmarshal([]byte(tt.edit(workedCaseJSON)), &r)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// A server may send null as the bids of a seat that did not move; the
// agent reads it as the [0,0,0,0,0] the rules make it bid. Other grids
// (strength, embers) have no such reading and stay strict.
func TestTurnRecordNullBidsRowIsZeros(t *testing.T) {
	doc := strings.Replace(workedCaseJSON, `"bids":[[0,0,5,0,0],[0,1,4,0,0]]`, `"bids":[[0,0,5,0,0],null]`, 1)
	var r TurnRecord
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		t.Fatalf("a null bids row: %v", err)
	}
	if r.Seats != 2 || r.Bids[1] != (Bid{}) || r.Bids[0] != (Bid{0, 0, 5, 0, 0}) {
		t.Fatalf("bids %v for %d seats, want seat 1 at zeros", r.Bids, r.Seats)
	}
	doc = strings.Replace(workedCaseJSON, `"strength":[[0,0,5,0,0],`, `"strength":[null,`, 1)
	if err := json.Unmarshal([]byte(doc), &r); err == nil || !strings.Contains(err.Error(), "strength[0]") {
		t.Fatalf("a null strength row: error %v, want one naming strength[0]", err)
	}
}

func TestParseBid(t *testing.T) {
	tests := []struct {
		in      string
		want    Bid
		wantErr string
	}{
		{`[0,1,3,1,0]`, Bid{0, 1, 3, 1, 0}, ""},
		{` [0, 0, 0, 0, 0] `, Bid{}, ""},
		{`[2.0,0,0,0,1e1]`, Bid{2, 0, 0, 0, 10}, ""},
		{`[0,1,3,1]`, Bid{}, "4 entries, want 5"},
		{`[0,1,3,1,0,0]`, Bid{}, "6 entries, want 5"},
		{`[0,-1,3,1,0]`, Bid{}, "bids[1] = -1 is negative"},
		{`[0,1.5,3,1,0]`, Bid{}, "bids[1] = 1.5 is not a whole number"},
		{`[0,"1",3,1,0]`, Bid{}, `bids[1] = "1" is not a whole number`},
		{`[0,null,3,1,0]`, Bid{}, "bids[1] = null is not a whole number"},
		{`[0,1e400,3,1,0]`, Bid{}, "bids[1] = 1e400 is not a whole number"},
		{`[0,99999999999,3,1,0]`, Bid{}, "far more than any seat's sparks"},
		{`null`, Bid{}, "not null"},
		{`{"bids":[0,0,0,0,0]}`, Bid{}, "array of 5 whole numbers"},
		{`[0,0,0,0,0] [1]`, Bid{}, "unexpected data after"},
		{``, Bid{}, "array of 5 whole numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBid([]byte(tt.in))
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseBid(%s) = %v, %v; want %v", tt.in, got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("ParseBid(%s) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestMatchCode(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		c := MatchCode(seed)
		if c != MatchCode(seed) || len(c) != 5 || strings.ContainsAny(c, "IO01") {
			t.Fatalf("MatchCode(%d) = %q: want a repeatable 5-character code without I, O, 0, 1", seed, c)
		}
		seen[c] = true
	}
	if len(seen) < 195 {
		t.Fatalf("only %d distinct codes for 200 seeds", len(seen))
	}
}

// TestViewFromStateJSON builds a View from a state document in the seed's
// shape, as the HTTP agent will, and checks it equals what the engine shows
// the same seat.
func TestViewFromStateJSON(t *testing.T) {
	s := mustState(t, 2)
	rec, err := Resolve(&s, bidsOf(Bid{0, 0, 5, 0, 0}, Bid{0, 1, 4, 0, 0}), nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"code":"K7QF2","version":12,"phase":"playing","turn":2,"turns":8,"secondsLeft":38,
	"beacons":[{"id":0,"name":"Fen","base":1,"value":2},{"id":1,"name":"Cairn","base":2,"value":2},
	  {"id":2,"name":"Crown","base":4,"value":4},{"id":3,"name":"Tor","base":3,"value":4},{"id":4,"name":"Mill","base":2,"value":3}],
	"players":[{"seat":0,"name":"A","kind":"agent","score":4,"sparks":5,"embers":[0,0,0,0,0],"lockedIn":false},
	  {"seat":1,"name":"B","kind":"bot","score":2,"sparks":5,"embers":[0,0,2,0,0],"lockedIn":true}],
	"you":{"seat":1,"sparks":5,"embers":[0,0,2,0,0],"lockedIn":false,"bids":null,"canMove":true},
	"lastTurn":` + workedCaseJSON + `,"winners":[],"standings":[0,1]}`
	var api struct {
		Turn    int `json:"turn"`
		Turns   int `json:"turns"`
		Beacons []struct {
			Value int `json:"value"`
		} `json:"beacons"`
		Players []struct {
			Score  int   `json:"score"`
			Sparks int   `json:"sparks"`
			Embers []int `json:"embers"`
		} `json:"players"`
		You struct {
			Seat int `json:"seat"`
		} `json:"you"`
		LastTurn *TurnRecord `json:"lastTurn"`
	}
	if err := json.Unmarshal([]byte(doc), &api); err != nil {
		t.Fatal(err)
	}
	var fromJSON View
	fromJSON.Turn, fromJSON.Turns, fromJSON.Seats, fromJSON.You = api.Turn, api.Turns, len(api.Players), api.You.Seat
	for i, b := range api.Beacons {
		fromJSON.Values[i] = b.Value
	}
	for p, pl := range api.Players {
		fromJSON.Scores[p], fromJSON.Sparks[p] = pl.Score, pl.Sparks
		copy(fromJSON.Embers[p][:], pl.Embers)
	}
	fromJSON.Last = *api.LastTurn

	var fromEngine View
	fromEngine.Fill(&s, 1, &rec)
	if fromJSON != fromEngine {
		t.Fatalf("view from the state JSON differs from the engine's:\n json %+v\n engine %+v", fromJSON, fromEngine)
	}
	if fromEngine.Budget() != 5 {
		t.Fatalf("Budget() = %d, want 5", fromEngine.Budget())
	}
}
