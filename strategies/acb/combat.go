package acb

// Combat awareness. The rule (focus fire): enemies(u) are the enemy units
// within attack_radius2 of u; u dies if some e in enemies(u) has
// |enemies(e)| <= |enemies(u)|. So a unit that has more friends around its
// attackers than they have around it kills without dying, equal numbers
// trade, and fewer die without killing.

// pieces is a unit on the board for the exact focus-fire evaluation.
type piece struct {
	tile  int32
	owner int
}

// focusFire applies the combat rule to units and reports who dies, in the
// order of units. dead and cnt are scratch of len(units) (cnt is
// overwritten). It is quadratic and meant for small local battles.
func focusFire(g *grid, r2 int, units []piece, cnt []int, dead []bool) {
	for i := range units {
		cnt[i] = 0
		for j := range units {
			if units[j].owner != units[i].owner && g.dist2(units[i].tile, units[j].tile) <= r2 {
				cnt[i]++
			}
		}
	}
	for i := range units {
		dead[i] = false
		for j := range units {
			if units[j].owner != units[i].owner && g.dist2(units[i].tile, units[j].tile) <= r2 && cnt[j] <= cnt[i] {
				dead[i] = true
				break
			}
		}
	}
}

// threat holds per-tile counts of units around each tile for the current
// turn, built lazily by the bot: how many enemies are within attack range
// of a tile now, how many could be after their next step, and how many own
// units are within attack range now.
type threat struct {
	atk   []offset // offsets within attack_radius2
	reach []offset // offsets from which a unit can be within range after a step
	// enemyNow[t]: enemy units within attack_radius2 of t.
	enemyNow []uint16
	// enemyNext[t]: enemy units that can be within attack_radius2 of t after
	// one step of theirs.
	enemyNext []uint16
	// ally[t]: own units within attack_radius2 of t (at their current tiles).
	ally []uint16
}

func newThreat(g *grid, r2 int) *threat {
	return &threat{
		atk:       g.disc(r2),
		reach:     g.reachDisc(r2),
		enemyNow:  make([]uint16, g.n),
		enemyNext: make([]uint16, g.n),
		ally:      make([]uint16, g.n),
	}
}

// odds summarises a possible fight at a tile for one of our units.
type odds struct {
	enemies int // enemy units that may be within range after their move
	allies  int // own units within range (the unit itself included)
}

// outcome classes of a fight at a tile.
const (
	fightNone  = iota // no enemy can reach
	fightWin          // we outnumber: our unit survives, theirs die
	fightTrade        // equal: both sides lose units
	fightLose         // outnumbered: our unit dies
)

// class returns the expected outcome class of the odds.
func (o odds) class() int {
	switch {
	case o.enemies == 0:
		return fightNone
	case o.allies > o.enemies:
		return fightWin
	case o.allies == o.enemies:
		return fightTrade
	}
	return fightLose
}
