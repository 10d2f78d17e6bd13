package acbstrat

import "sync"

// The immutable tables of a grid size are the same for every bot of the
// process: the grid itself, and per attack radius the neighbourhoods the
// combat counts use. They are built once and shared (read only), so a
// match's set-up does not rebuild them for each of its bots.
var tables struct {
	sync.Mutex
	grids   map[[2]int]*grid
	threats map[threatKey]*threatTables
}

type threatKey struct {
	rows, cols, r2 int
}

// threatTables are the offsets and neighbourhoods of one attack radius on
// one grid.
type threatTables struct {
	atk, reach         []offset
	atkHood, reachHood *hood
}

// sharedGrid returns the process's grid of rows x cols.
func sharedGrid(rows, cols int) *grid {
	tables.Lock()
	defer tables.Unlock()
	k := [2]int{rows, cols}
	if g, ok := tables.grids[k]; ok {
		return g
	}
	if tables.grids == nil {
		tables.grids = map[[2]int]*grid{}
	}
	g := newGrid(rows, cols)
	tables.grids[k] = g
	return g
}

// sharedThreat returns the process's tables of attack radius r2 on g (a
// grid of sharedGrid or one of the same size: the tables depend only on
// the size).
func sharedThreat(g *grid, r2 int) *threatTables {
	tables.Lock()
	defer tables.Unlock()
	k := threatKey{g.rows, g.cols, r2}
	if t, ok := tables.threats[k]; ok && t.atkHood.g == g {
		return t
	}
	if tables.threats == nil {
		tables.threats = map[threatKey]*threatTables{}
	}
	t := &threatTables{atk: g.disc(r2), reach: g.reachDisc(r2)}
	t.atkHood, t.reachHood = newHood(g, t.atk), newHood(g, t.reach)
	if tables.grids[[2]int{g.rows, g.cols}] == g {
		tables.threats[k] = t // keep only the tables of the shared grid
	}
	return t
}
