package acbstrat

import (
	"context"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/evolver/behave"
)

// The counters of the AI Code Battle behaviour.
const (
	acbUnitTurns = iota // own units summed over the turns watched
	acbDistance         // their distances from the nearest own core, summed
	acbKills            // enemy units killed (from the match's figures)
	acbRazes            // enemy cores razed
	acbEnergy           // energy collected
)

// Behaviour is AI Code Battle's behaviour descriptors (the evolver's
// MAP-Elites axes): aggression (enemy units killed and
// cores razed per 100 turns), spread (mean distance, in steps on the
// wrapped grid, of the player's units from its nearest own core, over the
// turns of its matches) and economy (energy collected per 100 turns). The
// default grid is aggression × spread: economy grows with the army as
// aggression does (the two lie near a diagonal across the reference
// strategies and a swarm archive), spread less so. The grid's ranges are
// those the reference strategies span, with a margin.
func Behaviour() *behave.Behaviour {
	return &behave.Behaviour{
		Game: "acb",
		Descriptors: []behave.Descriptor{
			{Name: "aggression", Doc: "enemy units killed and cores razed per 100 turns", Lo: 0, Hi: 16},
			{Name: "spread", Doc: "mean distance of own units from the nearest own core, in steps", Lo: 0, Hi: 16},
			{Name: "economy", Doc: "energy collected per 100 turns", Lo: 0, Hi: 64},
		},
		Watch: func(p engine.Player, c *behave.Counter) engine.Player {
			ctl, ok := p.(acb.Controller)
			if !ok {
				return p
			}
			return &acbWatcher{inner: ctl, c: c}
		},
		Record: func(detail any, seat int, c *behave.Counter) {
			var d *acb.Detail
			switch v := detail.(type) {
			case acb.Detail:
				d = &v
			case *acb.Detail:
				d = v
			}
			if d == nil || seat >= len(d.Players) {
				return
			}
			ps := d.Players[seat]
			c.Add(acbKills, int64(ps.Kills))
			c.Add(acbRazes, int64(ps.CoresRazed))
			c.Add(acbEnergy, int64(ps.EnergyCollected))
		},
		Values: func(n behave.Counts) []float64 {
			return []float64{
				100 * behave.Ratio(n.N[acbKills]+n.N[acbRazes], n.Turns),
				behave.Ratio(n.N[acbDistance], n.N[acbUnitTurns]),
				100 * behave.Ratio(n.N[acbEnergy], n.Turns),
			}
		},
	}
}

// acbWatcher plays as its inner controller and adds, every turn, its
// units and their distances from its nearest core to the counter.
type acbWatcher struct {
	inner acb.Controller
	c     *behave.Counter
	cores []acb.Pos // own cores seen so far (cores never move)
}

// RemembersWalls forwards the inner controller's acb.WallMemory, so a
// watched strategy is shown each wall once, as it is unwatched.
func (w *acbWatcher) RemembersWalls() bool {
	m, ok := w.inner.(acb.WallMemory)
	return ok && m.RemembersWalls()
}

func (w *acbWatcher) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	me := v.You.ID
	for _, cv := range v.Cores {
		if cv.Owner == me && !containsPos(w.cores, cv.Position) {
			w.cores = append(w.cores, cv.Position)
		}
	}
	if len(w.cores) > 0 {
		var units, dist int64
		for _, u := range v.Bots {
			if u.Owner != me {
				continue
			}
			best := -1
			for _, c := range w.cores {
				if d := wrapDist(u.Position, c, v.Config.Rows, v.Config.Cols); best < 0 || d < best {
					best = d
				}
			}
			units++
			dist += int64(best)
		}
		w.c.Add(acbUnitTurns, units)
		w.c.Add(acbDistance, dist)
	}
	return w.inner.Turn(ctx, v, buf)
}

func containsPos(ps []acb.Pos, p acb.Pos) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// wrapDist is the number of steps from a to b on a grid that wraps at its
// edges (rows × cols; a size of 0 does not wrap).
func wrapDist(a, b acb.Pos, rows, cols int) int {
	return wrapAxis(a.Row-b.Row, rows) + wrapAxis(a.Col-b.Col, cols)
}

func wrapAxis(d, n int) int {
	if d < 0 {
		d = -d
	}
	if n > 0 && n-d < d {
		return n - d
	}
	return d
}
