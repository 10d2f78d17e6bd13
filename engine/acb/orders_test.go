package acb

import (
	"errors"
	"reflect"
	"testing"
)

// TestPhaseOrders calls the orders phase on boards. Rules (shared/specs/acb.md,
// "Bot protocol (engine side)"): "A move for a position with no unit of
// that player is ignored; a second move for the same unit is ignored." "A
// late, failed ... reply is a no-op for that turn (units hold)." "10
// consecutive failed turns mark the bot inactive for the rest of the match:
// no more requests, its units hold, a bot_inactive event in the replay,
// crashed: true in the result."
func TestPhaseOrders(t *testing.T) {
	failing := func(fails int) func(m *Match) {
		return func(m *Match) {
			ps := &m.players[1]
			ps.remote, ps.err, ps.fails = true, errors.New("timeout"), fails
		}
	}
	tests := []struct {
		name   string
		before string
		moves  [2][]Move // player 0's and player 1's replies
		prep   func(m *Match)
		after  string // with the orders that count
		fails  int    // player 1's failures in a row after the phase
		events []Event
	}{
		{name: "a move counts when a unit of that player stands on its position",
			before: `0 . 1
			         . 0 .`,
			moves: [2][]Move{{mv(0, 0, East), mv(1, 1, North)}, {mv(0, 2, West)}},
			after: `0> . 1<
			        .  0^ .`},
		{name: "a stay order is an order (a later move for the unit is ignored)",
			before: `0 . 1`,
			moves:  [2][]Move{{mv(0, 0, Stay), mv(0, 0, South)}},
			after:  `0= . 1`},
		{name: "a move for a position with no unit of that player is ignored",
			before: `0 . 1`,
			moves:  [2][]Move{{mv(0, 1, East), mv(0, 2, West)}},
			after:  `0 . 1`},
		{name: "a move off the grid or with an unknown direction is ignored",
			before: `0 . 1`,
			moves:  [2][]Move{{mv(0, 3, East), mv(-1, 0, East), mv(0, 0, Dir(5))}},
			after:  `0 . 1`},
		{name: "a second move for the same unit is ignored",
			before: `0 . 1`,
			moves:  [2][]Move{{mv(0, 0, South), mv(0, 0, East)}},
			after:  `0v . 1`},
		{name: "moves of an eliminated player are ignored",
			before: `0 . 1`,
			moves:  [2][]Move{nil, {mv(0, 2, West)}},
			prep:   func(m *Match) { m.players[1].eliminated = true },
			after:  `0 . 1`},
		{name: "a remote bot's failed turn is a no-op and counts a failure",
			before: `0 . 1`,
			moves:  [2][]Move{nil, {mv(0, 2, West)}},
			prep:   failing(3),
			after:  `0 . 1`, fails: 4},
		{name: "a remote bot's good turn resets its failures",
			before: `0 . 1`,
			moves:  [2][]Move{nil, {mv(0, 2, West)}},
			prep:   func(m *Match) { failing(8)(m); m.players[1].err = nil },
			after:  `0 . 1<`, fails: 0},
		{name: "the 10th failure in a row makes the bot inactive",
			before: `0 . 1`,
			moves:  [2][]Move{nil, {mv(0, 2, West)}},
			prep:   failing(MaxFailures - 1),
			after:  `0 . 1`, fails: MaxFailures,
			events: []Event{{Type: EventBotInactive, Unit: -1, Owner: -1, Player: 1, Core: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := board(t, DefaultConfig(), 1, tt.before)
			for p, moves := range tt.moves {
				m.players[p].moves = append(m.players[p].moves[:0], moves...)
			}
			if tt.prep != nil {
				tt.prep(m)
			}
			m.phaseOrders(1)
			wantBoard(t, m, true, tt.after)
			if got := m.players[1].fails; got != tt.fails {
				t.Errorf("player 1 failures in a row %d, want %d", got, tt.fails)
			}
			inactive := tt.fails >= MaxFailures
			if m.players[1].inactive != inactive || m.players[1].stats.Crashed != inactive {
				t.Errorf("player 1 inactive %v crashed %v, want %v", m.players[1].inactive, m.players[1].stats.Crashed, inactive)
			}
			if len(m.events)+len(tt.events) > 0 && !reflect.DeepEqual(m.events, tt.events) {
				t.Errorf("events %+v, want %+v", m.events, tt.events)
			}
		})
	}
}
