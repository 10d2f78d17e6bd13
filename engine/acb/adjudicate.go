package acb

// Adjudication: ending a match whose remaining turns provably cannot
// change its result, with the result the turn limit would give.
//
// The condition, checked at the end of every turn t < max_turns of a match
// still running (after phase 8, Endgame):
//
//	(A) no unit is alive;
//	(B) every player not eliminated holds less energy than spawn_cost;
//	(C) no player is a remote bot still active.
//
// Proof, by induction over the turns t+1 .. max_turns, that every one of
// them leaves the state as it is, but for the energy tiles' refills (not
// part of a result), using the rules of shared/specs/acb.md, "One turn, in
// order": suppose that at the start of turn t' no unit is alive and every
// player left holds less than spawn_cost. Then 1. Move, 2. Combat and 3.
// Zone act on units only: nothing moves, fights or dies, nobody scores
// kill_score. 4. Capture needs an enemy unit on a core: no core is razed.
// 5. Collect needs units on an energy tile: nobody's energy changes. 6.
// Spawn needs "the player's energy covers spawn_cost": nobody spawns, so
// still no unit is alive and energy is unchanged. 7. The energy tick only
// refills tiles. 8. Endgame: no core was razed, so nobody is eliminated;
// the players left are the same two or more (with fewer the match has
// already ended), so the match goes on until max_turns and ends there
// (reason turns). The hypothesis holds at the start of turn t'+1, and
// every figure of the result and of the players' statistics (score,
// energy, units 0, cores, kills, losses, spawns, elimination turns) is
// the same at max_turns as at t. The ranks order the players left by
// score, energy and units, and put the eliminated ones after them by
// elimination turn, whether the match ends at t or at max_turns.
//
// (C) is needed because a remote bot's failed requests count even when
// it has no units: ten in a row make it inactive and crashed in the
// result. In-process controllers are asked nothing that matters (they
// have no unit to order); one that would return an error or panic in a
// later turn ends the full match with an error instead of a result, which
// adjudication does not model: controllers are expected not to fail.
//
// The replay of an adjudicated match ends with turn t and its result says
// "adjudicated": true; the result lists turns = max_turns, as the full
// match would. Re-simulating the replay adjudicates at the same turn, since
// the condition reads only the state.

// adjudicable reports whether the match, at the end of a turn, meets the
// condition above.
func (m *Match) adjudicable() bool {
	if len(m.units) > 0 {
		return false // (A)
	}
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated {
			continue
		}
		if ps.energy >= m.cfg.SpawnCost || ps.remote && !ps.inactive {
			return false // (B), (C)
		}
	}
	return true
}

// adjudicate ends the match when the rest of it cannot change the result
// (see adjudicable), with the result of max_turns.
func (m *Match) adjudicate(t int) {
	if m.done || m.noAdjudication || t >= m.cfg.MaxTurns || !m.adjudicable() {
		return
	}
	m.end(ReasonTurns, m.cfg.MaxTurns, winnerByRanks)
	m.adjudicated = true
}
