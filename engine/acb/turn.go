package acb

import (
	"context"
	"errors"
	"sync"

	"crucible/engine"
)

// The turn loop: Run and Step ask the players for their moves and walk the
// phases of a turn in the order of shared/specs/acb.md, "One turn, in order".
// Each phase lives in the file named after its rule (orders.go, move.go,
// combat.go, zone.go, capture.go, collect.go, spawn.go, energy.go,
// endgame.go); fog.go builds the views the players answer.

// phase is one step of a turn: it changes the match state as its rule says
// for turn t (the turn being played, 1 for the first), appending what it
// does to m.events and what dies to m.deaths. Every phase has this
// signature so that Step is a walk over a list and a test can call any
// phase on a state of its making.
type phase func(m *Match, t int)

// turnPhases are the phases of a turn in order.
var turnPhases = [...]phase{
	(*Match).phaseOrders,     // failed remote turns; the moves that count (orders.go)
	(*Match).phaseMove,       // 1. move, then self-collision (move.go)
	(*Match).phaseCombat,     // 2. focus fire (combat.go)
	(*Match).phaseZone,       // 3. the storm (zone.go)
	(*Match).phaseRemoveDead, // the dead of 1-3 leave the board (match.go)
	(*Match).phaseCapture,    // 4. razing cores (capture.go)
	(*Match).phaseCollect,    // 5. energy tiles (collect.go)
	(*Match).phaseSpawn,      // 6. new units (spawn.go)
	(*Match).phaseEnergy,     // 7. energy refill (energy.go)
	(*Match).phaseEndgame,    // 8. elimination, the end and the ranks (endgame.go)
	(*Match).adjudicate,      // the end when nothing can change any more (adjudicate.go)
}

// Run plays the match to its end, checking ctx every 32 turns and after
// every turn of a remote player; it returns ctx.Err() when cancelled and the
// error that ended the match otherwise. Every controller's Turn receives
// ctx, so a remote bot's request in flight is abandoned when ctx ends.
func (m *Match) Run(ctx context.Context) error {
	m.ctx = ctx
	defer func() { m.ctx = nil }()
	for {
		if m.turn&31 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		done, err := m.Step()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// Step plays one turn. It returns done once the match is over (further
// calls do nothing). An error from a non-remote controller, or a panic in
// any controller, ends the match with an *engine.PlayerError.
func (m *Match) Step() (done bool, err error) {
	if m.done {
		return true, m.err
	}
	if err := m.askPlayers(); err != nil {
		m.done, m.err = true, err
		return true, err
	}
	t := m.turn + 1
	m.deaths = m.deaths[:0]
	m.events = m.events[:0]
	for _, run := range turnPhases {
		run(m, t)
	}
	m.turn = t
	m.sortDeaths()
	if m.rec != nil {
		m.rec.turn()
		if m.done {
			m.rec.finish()
		}
	}
	return m.done, nil
}

// askPlayers collects every active player's moves for the next turn from
// its view of the current state: in-process controllers in seat order, then
// the remote ones together. An error from an in-process controller, a panic
// in any, or the end of the Run context aborts the match; a remote
// controller's error is kept in its player's err (a failed turn).
func (m *Match) askPlayers() error {
	var remotes []int
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated || ps.inactive {
			continue
		}
		if ps.remote {
			remotes = append(remotes, p)
			continue
		}
		moves, err := m.call(p, m.buildView(p, false))
		if err != nil {
			var pe *engine.PlayerError
			if !errors.As(err, &pe) {
				err = &engine.PlayerError{Seat: p, Name: ps.name, Err: err}
			}
			return err
		}
		ps.moves, ps.err = moves, nil
	}
	if len(remotes) == 0 {
		return nil
	}
	if err := m.callRemotes(remotes); err != nil {
		return err
	}
	// A cancelled run abandons the remote requests in flight: their
	// failures are the caller's doing, not the bots', so the turn is not
	// played and the match ends with the context's error.
	if m.ctx != nil {
		return m.ctx.Err()
	}
	return nil
}

// callRemotes asks the remote players, concurrently when there are several;
// their errors are kept as failed turns, their panics abort the match.
func (m *Match) callRemotes(remotes []int) error {
	views := make([]*View, len(remotes))
	for i, p := range remotes {
		views[i] = m.buildView(p, true)
	}
	panics := make([]error, len(remotes))
	var wg sync.WaitGroup
	for i, p := range remotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			moves, err := m.call(p, views[i])
			var pe *engine.PlayerError
			if errors.As(err, &pe) && errors.Is(err, engine.ErrPanic) {
				panics[i] = err
				return
			}
			m.players[p].moves, m.players[p].err = moves, err
		}()
	}
	wg.Wait()
	return errors.Join(panics...)
}

// call asks player p for its moves; a panic becomes a PlayerError.
func (m *Match) call(p int, v *View) (moves []Move, err error) {
	ps := &m.players[p]
	defer func() {
		if r := recover(); r != nil {
			moves, err = nil, engine.Recovered(p, ps.name, r)
		}
	}()
	ctx := m.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return ps.ctrl.Turn(ctx, v, ps.moves[:0])
}
