// Package kindling holds the rules of Kindling (../../../shared/specs/kindling.md),
// a blind-bidding game for 2 to 4 seats over 8 turns, exactly once.
//
// The rules are plain functions over a State value, with no clock and no
// I/O: NewState starts a match, CheckBid says whether a seat's bid is legal,
// Resolve plays one turn from every seat's bid and Standings orders the
// seats once the match is finished. The headless Game (game.go), the HTTP
// server and the agents all call this same code.
//
// Everything is held in fixed-size arrays indexed [seat][beacon], so a turn
// allocates nothing; only the first State.Seats entries of a seat array are
// meaningful.
package kindling

import (
	"errors"
	"fmt"
)

// The game's constants (served by GET /api/rules).
const (
	// Turns is the number of turns of a match.
	Turns = 8
	// MinSeats and MaxSeats bound the number of seats of a match.
	MinSeats = 2
	MaxSeats = 4
	// Beacons is the number of beacons on the ridge.
	Beacons = 5
	// StartSparks is what every seat holds on turn 1.
	StartSparks = 5
	// Income is added to every seat's sparks before every turn after the first.
	Income = 5
	// SparkCap is the most sparks a seat can hold after income.
	SparkCap = 12
	// ValueCap is the most a beacon can be worth.
	ValueCap = 9
	// NoWinner marks a beacon nobody lit in TurnRecord.Winners.
	NoWinner = -1
)

// Bid is one seat's move: the sparks it puts on each beacon, in id order.
type Bid = [Beacons]int

// BaseValues returns the beacons' base values in id order: Fen 1, Cairn 2,
// Crown 4, Tor 3, Mill 2.
func BaseValues() [Beacons]int { return [Beacons]int{1, 2, 4, 3, 2} }

// BeaconNames returns the beacons' names in id order.
func BeaconNames() [Beacons]string {
	return [Beacons]string{"Fen", "Cairn", "Crown", "Tor", "Mill"}
}

// State is a match in progress between turns: what every seat holds at the
// start of turn Turn (income for that turn already added), or the final
// position when Finished. It is a plain value; copying it copies the match.
type State struct {
	// Seats is the number of seats, MinSeats..MaxSeats.
	Seats int
	// Turn is the turn to be played next, 1..Turns; once Finished it stays
	// at Turns, the last turn played.
	Turn int
	// Values is what each beacon is worth this turn.
	Values [Beacons]int
	// Sparks is what each seat may spend this turn (after income); once
	// Finished, the sparks each seat has left.
	Sparks [MaxSeats]int
	// Scores are the seats' cumulative scores.
	Scores [MaxSeats]int
	// Embers[s][i] is seat s's embers at beacon i.
	Embers [MaxSeats][Beacons]int
	// Finished is set once turn Turns has been resolved.
	Finished bool
}

// ErrFinished is returned by CheckBid and Resolve once the match is over.
var ErrFinished = errors.New("the match is finished")

// NewState starts a match of seats seats: turn 1, base values, StartSparks
// each, no scores, no embers.
func NewState(seats int) (State, error) {
	if seats < MinSeats || seats > MaxSeats {
		return State{}, fmt.Errorf("seats = %d is outside its range %d..%d", seats, MinSeats, MaxSeats)
	}
	s := State{Seats: seats, Turn: 1, Values: BaseValues()}
	for i := 0; i < seats; i++ {
		s.Sparks[i] = StartSparks
	}
	return s, nil
}

// CheckBid reports whether bid is a legal move for seat in s: every entry a
// whole number >= 0 and their sum no more than the seat's sparks. The error
// names the offending entry or the sum and the sparks held.
func CheckBid(s *State, seat int, bid Bid) error {
	if s.Finished {
		return ErrFinished
	}
	if seat < 0 || seat >= s.Seats {
		return fmt.Errorf("seat %d is outside 0..%d", seat, s.Seats-1)
	}
	return checkAgainst(bid, s.Sparks[seat])
}

// checkAgainst checks bid against a budget of sparks. Entries are compared
// with sparks one by one before summing, so huge values cannot overflow.
func checkAgainst(bid Bid, sparks int) error {
	for i, b := range bid {
		if b < 0 {
			return fmt.Errorf("bid %v: bids[%d] = %d is negative (each bid must be 0 or more)", bid, i, b)
		}
		if b > sparks {
			return fmt.Errorf("bid %v: bids[%d] = %d is more than the %d sparks held", bid, i, b, sparks)
		}
	}
	sum := 0
	for _, b := range bid {
		sum += b
	}
	if sum > sparks {
		return fmt.Errorf("bid %v sums to %d, more than the %d sparks held", bid, sum, sparks)
	}
	return nil
}

// BidError is returned by Resolve when a seat that did not miss the turn
// bid illegally; nothing has changed in the state.
type BidError struct {
	// Seat is the seat that bid.
	Seat int
	// Bid is the refused move.
	Bid Bid
	// Err says which rule it breaks (see CheckBid).
	Err error
}

// Error names the seat and the reason.
func (e *BidError) Error() string { return fmt.Sprintf("seat %d: %v", e.Seat, e.Err) }

// Unwrap returns the reason.
func (e *BidError) Unwrap() error { return e.Err }

// Resolve plays turn s.Turn. bids[s] is seat s's move; a seat with
// missed[s] set bids [0,0,0,0,0] whatever bids[s] holds and is listed in the
// record's Missed. Steps, in the spec's order: spend, strength (bids plus
// the embers held before the turn), one winner per beacon (the single
// strictly strongest seat with strength > 0) scoring this turn's value,
// embers (0 for the winner, floor(strength/2) for every other seat), values
// (a lit beacon back to its base, an unlit one +1 up to ValueCap), then
// either income for the next turn (sparks = min(SparkCap, sparks+Income)) or,
// after turn Turns, Finished.
//
// An illegal bid from a seat that did not miss is a *BidError and leaves s
// unchanged, as does a finished state (ErrFinished). Entries of seats at
// or beyond s.Seats are ignored. Resolve allocates nothing.
func Resolve(s *State, bids *[MaxSeats]Bid, missed *[MaxSeats]bool) (rec TurnRecord, err error) {
	if s.Finished {
		return TurnRecord{}, ErrFinished
	}
	n := s.Seats
	for p := 0; p < n; p++ {
		if missed != nil && missed[p] {
			rec.Missed[p] = true
			continue
		}
		if err := checkAgainst(bids[p], s.Sparks[p]); err != nil {
			return TurnRecord{}, &BidError{Seat: p, Bid: bids[p], Err: err}
		}
		rec.Bids[p] = bids[p]
	}
	rec.Seats = n
	rec.Turn = s.Turn
	rec.Values = s.Values

	// Spend, and strength from the embers held before this turn.
	for p := 0; p < n; p++ {
		for i := 0; i < Beacons; i++ {
			s.Sparks[p] -= rec.Bids[p][i]
			rec.Strength[p][i] = rec.Bids[p][i] + s.Embers[p][i]
		}
	}

	// One winner per beacon, embers, values.
	base := BaseValues()
	for i := 0; i < Beacons; i++ {
		best, winner := 0, NoWinner
		for p := 0; p < n; p++ {
			switch st := rec.Strength[p][i]; {
			case st > best:
				best, winner = st, p
			case st == best && st > 0:
				winner = NoWinner // a tie at the top lights nothing
			}
		}
		rec.Winners[i] = winner
		for p := 0; p < n; p++ {
			if p == winner {
				s.Embers[p][i] = 0
			} else {
				s.Embers[p][i] = rec.Strength[p][i] / 2
			}
		}
		if winner != NoWinner {
			rec.Points[winner] += s.Values[i]
			s.Values[i] = base[i]
		} else if s.Values[i] < ValueCap {
			s.Values[i]++
		}
	}
	for p := 0; p < n; p++ {
		s.Scores[p] += rec.Points[p]
	}
	rec.Scores = s.Scores
	rec.Embers = s.Embers

	if s.Turn >= Turns {
		s.Finished = true
		return rec, nil
	}
	s.Turn++
	for p := 0; p < n; p++ {
		s.Sparks[p] = min(SparkCap, s.Sparks[p]+Income)
	}
	return rec, nil
}

// better reports whether seat a is ahead of seat b on the standings key:
// score, then sparks left.
func better(s *State, a, b int) bool {
	if s.Scores[a] != s.Scores[b] {
		return s.Scores[a] > s.Scores[b]
	}
	return s.Sparks[a] > s.Sparks[b]
}

// Order returns the seats ordered by the standings key (score descending,
// then sparks left descending), ties in seat order, and how many seats share
// the top place. Only the first s.Seats entries are meaningful. It works on
// any state; the standings are final once s.Finished.
func Order(s *State) (order [MaxSeats]int, top int) {
	n := s.Seats
	for p := 0; p < n; p++ {
		order[p] = p
	}
	// Insertion sort: stable, so ties keep seat order.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && better(s, order[j], order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	top = 1
	for top < n && !better(s, order[0], order[top]) {
		top++
	}
	return order, top
}

// Standings returns all seats in standings order (score descending, then
// sparks left descending, ties by seat number) and the winners: every seat
// tied on both keys at the top, in seat order.
func Standings(s *State) (standings, winners []int) {
	order, top := Order(s)
	standings = append([]int(nil), order[:s.Seats]...)
	winners = append([]int(nil), order[:top]...)
	return standings, winners
}
