package kindling

// View is what one seat may know when it bids: exactly what the public API
// state (GET /api/matches/{code}) shows that seat, and nothing of the other
// seats' bids for the current turn. Every field can be filled from the
// state JSON: Turn and Turns from "turn" and "turns", Values from
// "beacons[i].value", Seats from len("players"), Scores, Sparks and Embers
// from "players[s]", You from "you.seat" and Last from "lastTurn"
// (TurnRecord reads that shape).
type View struct {
	// Turn is the turn being bid for, 1..Turns; Turns is the match length.
	Turn, Turns int
	// Seats is the number of seats.
	Seats int
	// You is the bidding seat.
	You int
	// Values is what each beacon is worth this turn.
	Values [Beacons]int
	// Scores, Sparks and Embers are every seat's public figures at the start
	// of this turn (income added). Sparks[You] is the bidding budget.
	Scores [MaxSeats]int
	Sparks [MaxSeats]int
	Embers [MaxSeats][Beacons]int
	// Last is the previous turn as revealed, with every seat's bids and
	// strengths; Last.Turn == 0 on turn 1.
	Last TurnRecord
}

// Fill sets v to what seat you sees of s, with last as the previous turn's
// record (nil or a zero record on turn 1). It allocates nothing.
func (v *View) Fill(s *State, you int, last *TurnRecord) {
	v.Turn, v.Turns, v.Seats, v.You = s.Turn, Turns, s.Seats, you
	v.Values, v.Scores, v.Sparks, v.Embers = s.Values, s.Scores, s.Sparks, s.Embers
	if last != nil {
		v.Last = *last
	} else {
		v.Last = TurnRecord{}
	}
}

// Budget returns the sparks the bidding seat may spend this turn.
func (v *View) Budget() int { return v.Sparks[v.You] }

// Bidder is an in-process Kindling player. Bid is called once per turn with
// the seat's view and writes its move to out, which arrives zeroed. The
// move must be legal (see CheckBid): Game.Play ends the match with an error
// naming the seat otherwise. Bid must not modify v: the same View, with
// only You changed, is shown to every seat in turn. v and out are valid
// only during the call and are reused between turns. A Bidder may keep
// state between the turns of one match.
type Bidder interface {
	Bid(v *View, out *Bid)
}
