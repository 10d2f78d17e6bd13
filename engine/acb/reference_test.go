package acb

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// refMatch is a plain reading of the turn rules of shared/specs/acb.md,
// written for clarity and nothing else: maps and sorts where the engine
// uses bitsets and stamps. TestEngineMatchesTheReference re-plays recorded
// matches through it and compares every turn.
type refMatch struct {
	cfg        Config
	rows, cols int
	np         int
	wall       map[Pos]bool
	energy     []Pos // energy tiles, sorted
	full       map[Pos]bool
	emptied    map[Pos]int // turn a tile was last emptied
	cores      []refCore   // by id
	units      []refUnit   // living, by id
	nextID     int
	score      []int
	stock      []int // energy held
	eliminated []bool
	events     []ReplayEvent
}

type refCore struct {
	id, owner, lastSpawn int
	pos                  Pos
	active               bool
}

type refUnit struct {
	id, owner int
	pos       Pos
}

func newRefMatch(cfg Config, mp *Map, np int) *refMatch {
	r := &refMatch{cfg: cfg, rows: mp.Rows, cols: mp.Cols, np: np,
		wall: map[Pos]bool{}, full: map[Pos]bool{}, emptied: map[Pos]int{},
		score: make([]int, np), stock: make([]int, np), eliminated: make([]bool, np)}
	for _, w := range mp.Walls {
		r.wall[w] = true
	}
	r.energy = slices.Clone(mp.Energy)
	slices.SortFunc(r.energy, cmpPos)
	for _, e := range r.energy {
		r.full[e] = true
	}
	cores := slices.Clone(mp.Cores)
	slices.SortFunc(cores, func(a, b Core) int { return a.ID - b.ID })
	for _, c := range cores {
		r.cores = append(r.cores, refCore{id: c.ID, owner: c.Owner, pos: c.Pos(), active: true})
		r.units = append(r.units, refUnit{id: r.nextID, owner: c.Owner, pos: c.Pos()})
		r.nextID++
	}
	return r
}

// noEvent is an event of type typ with no fields set (-1, as ParseReplay
// reads the fields an event type does not have).
func noEvent(typ string) ReplayEvent {
	return ReplayEvent{Type: typ, Unit: -1, Owner: -1, Player: -1, Core: -1, Row: -1, Col: -1}
}

func (r *refMatch) died(u refUnit, cause string) {
	e := noEvent(EventDied)
	e.Unit, e.Cause = u.id, cause
	r.events = append(r.events, e)
}

// turn plays turn t with the given orders (unit id -> direction) and
// reports whether the match is over, with the winner (-1: draw) and reason.
func (r *refMatch) turn(t int, orders map[int]Dir) (over bool, winner int, reason string) {
	r.events = nil
	// 1. Move; a move into a wall stays. Then self-collision.
	for i := range r.units {
		d, ok := orders[r.units[i].id]
		if !ok {
			continue
		}
		to := Step(r.units[i].pos, d, r.rows, r.cols)
		if !r.wall[to] {
			r.units[i].pos = to
		}
	}
	type key struct {
		owner int
		pos   Pos
	}
	count := map[key]int{}
	for _, u := range r.units {
		count[key{u.owner, u.pos}]++
	}
	var alive []refUnit
	for _, u := range r.units {
		if count[key{u.owner, u.pos}] >= 2 {
			r.died(u, CauseCollision)
		} else {
			alive = append(alive, u)
		}
	}
	// 2. Combat, counted before anyone dies.
	enemies := func(u refUnit) []refUnit {
		var out []refUnit
		for _, e := range alive {
			if e.owner != u.owner && Dist2(u.pos, e.pos, r.rows, r.cols) <= r.cfg.AttackRadius2 {
				out = append(out, e)
			}
		}
		return out
	}
	var survivors []refUnit
	for _, u := range alive {
		eu := enemies(u)
		dies := false
		for _, e := range eu {
			if len(enemies(e)) <= len(eu) {
				dies = true
			}
		}
		if !dies {
			survivors = append(survivors, u)
			continue
		}
		r.died(u, CauseCombat)
		scored := map[int]bool{}
		for _, e := range eu {
			scored[e.owner] = true
		}
		for p := range scored {
			r.score[p] += r.cfg.KillScore
		}
	}
	alive = survivors
	// 3. Zone.
	if r.cfg.ZoneEnabled && t >= r.cfg.ZoneStartTurn {
		r0 := max(r.rows, r.cols) / 2
		rad := max(r.cfg.ZoneMinRadius, r0-r.cfg.ZoneShrinkStep*((t-r.cfg.ZoneStartTurn)/r.cfg.ZoneShrinkInterval))
		centre := Pos{Row: r.rows / 2, Col: r.cols / 2}
		survivors = nil
		for _, u := range alive {
			if Dist2(u.pos, centre, r.rows, r.cols) > rad*rad {
				r.died(u, CauseStorm)
			} else {
				survivors = append(survivors, u)
			}
		}
		alive = survivors
	}
	r.units = alive
	on := func(p Pos) map[int]bool {
		owners := map[int]bool{}
		for _, u := range r.units {
			if u.pos == p {
				owners[u.owner] = true
			}
		}
		return owners
	}
	// 4. Capture.
	for i := range r.cores {
		c := &r.cores[i]
		owners := on(c.pos)
		if !c.active || owners[c.owner] || len(owners) == 0 {
			continue
		}
		capturer := r.np
		for p := range owners {
			capturer = min(capturer, p)
		}
		c.active = false
		r.score[capturer] += 2
		e := noEvent(EventCaptured)
		e.Core, e.Owner, e.Player = c.id, c.owner, capturer
		r.events = append(r.events, e)
	}
	// 5. Collect.
	for _, e := range r.energy {
		owners := on(e)
		if !r.full[e] || len(owners) == 0 {
			continue
		}
		r.full[e] = false
		r.emptied[e] = t
		if len(owners) == 1 {
			for p := range owners {
				r.stock[p]++
				ev := noEvent(EventCollected)
				ev.Player, ev.Row, ev.Col = p, e.Row, e.Col
				r.events = append(r.events, ev)
			}
		}
	}
	// 6. Spawn: players in id order, each one's cores by longest since
	// spawning, then lowest id.
	for p := 0; p < r.np; p++ {
		var mine []*refCore
		for i := range r.cores {
			if c := &r.cores[i]; c.owner == p && c.active {
				mine = append(mine, c)
			}
		}
		slices.SortStableFunc(mine, func(a, b *refCore) int {
			if a.lastSpawn != b.lastSpawn {
				return a.lastSpawn - b.lastSpawn
			}
			return a.id - b.id
		})
		for _, c := range mine {
			if r.stock[p] < r.cfg.SpawnCost || len(on(c.pos)) > 0 {
				continue
			}
			r.stock[p] -= r.cfg.SpawnCost
			c.lastSpawn = t
			r.units = append(r.units, refUnit{id: r.nextID, owner: p, pos: c.pos})
			e := noEvent(EventSpawned)
			e.Unit, e.Owner, e.Core = r.nextID, p, c.id
			r.events = append(r.events, e)
			r.nextID++
		}
	}
	// 7. Energy tick.
	for _, e := range r.energy {
		if !r.full[e] && r.emptied[e]+r.cfg.EnergyInterval <= t {
			r.full[e] = true
		}
	}
	// 8. Endgame.
	for p := 0; p < r.np; p++ {
		if r.eliminated[p] {
			continue
		}
		hasCore := false
		for _, c := range r.cores {
			hasCore = hasCore || (c.owner == p && c.active)
		}
		if hasCore {
			continue
		}
		r.eliminated[p] = true
		var keep []refUnit
		for _, u := range r.units {
			if u.owner == p {
				r.died(u, CauseEliminated)
			} else {
				keep = append(keep, u)
			}
		}
		r.units = keep
	}
	var left []int
	for p := 0; p < r.np; p++ {
		if !r.eliminated[p] {
			left = append(left, p)
		}
	}
	switch {
	case len(left) == 1:
		return true, left[0], ReasonElimination
	case len(left) == 0:
		return true, -1, ReasonAnnihilation
	case t >= r.cfg.MaxTurns:
		// Highest score, then energy held, then living units; still tied
		// is a draw.
		keyOf := func(p int) [3]int {
			n := 0
			for _, u := range r.units {
				if u.owner == p {
					n++
				}
			}
			return [3]int{r.score[p], r.stock[p], n}
		}
		best, tied := left[0], false
		for _, p := range left[1:] {
			a, b := keyOf(p), keyOf(best)
			switch {
			case slices.Compare(a[:], b[:]) > 0:
				best, tied = p, false
			case a == b:
				tied = true
			}
		}
		if tied {
			return true, -1, ReasonTurns
		}
		return true, best, ReasonTurns
	}
	return false, 0, ""
}

// TestEngineMatchesTheReference plays crowded random matches (small and
// non-square maps, 2 to 6 players, cheap spawns, fast energy, the zone on
// and off) and checks every recorded turn — living units, razed cores,
// full energy tiles, scores, energy held, events — and the result against
// refMatch fed the same orders.
func TestEngineMatchesTheReference(t *testing.T) {
	type tc struct {
		seed       uint64
		players    int
		rows, cols int
		zone       bool
		ar2, cost  int
		turns      int
		cores      int // cores per player; 0: the default
	}
	cases := []tc{
		{1, 2, 16, 16, false, 25, 1, 400, 0}, {2, 2, 16, 40, true, 5, 0, 150, 0}, {3, 3, 18, 24, false, 25, 0, 150, 0},
		{4, 4, 20, 20, true, 10, 1, 400, 0}, {5, 4, 20, 30, false, 50, 1, 400, 0}, {6, 6, 24, 24, true, 25, 0, 150, 0},
		{7, 6, 24, 36, false, 2, 1, 400, 0}, {8, 3, 30, 18, true, 130, 0, 150, 0}, {9, 2, 40, 70, false, 25, 0, 150, 0},
		{10, 2, 20, 20, true, 25, 0, 150, 0}, {11, 4, 70, 70, true, 25, 0, 150, 0},
		{12, 3, 24, 24, false, 25, 1, 400, 0}, {13, 4, 24, 24, false, 25, 1, 400, 0}, {14, 6, 30, 30, false, 25, 1, 400, 0},
		{28, 3, 24, 24, false, 25, 1, 400, 1}, {51, 6, 30, 30, false, 25, 1, 400, 1},
	}
	counts := map[string]int{}
	for _, c := range cases {
		t.Run(fmt.Sprintf("seed %d, %d players, %dx%d", c.seed, c.players, c.rows, c.cols), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = c.rows, c.cols
			cfg.MaxTurns = c.turns
			if c.cores > 0 {
				cfg.CoresPerPlayer = c.cores
			}
			cfg.SpawnCost = c.cost
			cfg.EnergyInterval = 2
			cfg.AttackRadius2 = c.ar2
			cfg.ZoneEnabled = c.zone
			cfg.ZoneStartTurn = 60
			cfg.ZoneShrinkInterval = 3
			data := playCrowd(t, c.seed, c.players, cfg)
			doc, err := ParseReplay(data)
			if err != nil {
				t.Fatal(err)
			}
			ref := newRefMatch(doc.Config, &doc.Map, len(doc.Players))
			var over bool
			var winner int
			var reason string
			for _, tr := range doc.Turns {
				if over {
					t.Fatalf("the reference ended the match before turn %d", tr.Turn)
				}
				orders := map[int]Dir{}
				for _, o := range tr.Orders {
					orders[o.Unit] = o.Direction
				}
				over, winner, reason = ref.turn(tr.Turn, orders)
				units := []ReplayUnit{}
				for _, u := range ref.units {
					units = append(units, ReplayUnit{ID: u.id, Owner: u.owner, Row: u.pos.Row, Col: u.pos.Col})
				}
				slices.SortFunc(units, func(a, b ReplayUnit) int { return a.ID - b.ID })
				if !reflect.DeepEqual(units, tr.Units) {
					t.Fatalf("turn %d: units\n got %v\nwant %v (reference)", tr.Turn, tr.Units, units)
				}
				razed := []int{}
				for _, rc := range ref.cores {
					if !rc.active {
						razed = append(razed, rc.id)
					}
				}
				if !reflect.DeepEqual(razed, tr.CoresRazed) {
					t.Fatalf("turn %d: cores razed %v, want %v", tr.Turn, tr.CoresRazed, razed)
				}
				energy := TileList{}
				for _, e := range ref.energy {
					if ref.full[e] {
						energy = append(energy, e)
					}
				}
				if !reflect.DeepEqual(energy, tr.Energy) {
					t.Fatalf("turn %d: full energy %v, want %v", tr.Turn, tr.Energy, energy)
				}
				for p, ps := range tr.Players {
					if ps.Score != ref.score[p] || ps.Energy != ref.stock[p] {
						t.Fatalf("turn %d: player %d score %d energy %d, want %d %d", tr.Turn, p, ps.Score, ps.Energy, ref.score[p], ref.stock[p])
					}
				}
				want := ref.events
				if want == nil {
					want = []ReplayEvent{}
				}
				if !reflect.DeepEqual(tr.Events, want) {
					t.Fatalf("turn %d: events\n got %+v\nwant %+v", tr.Turn, tr.Events, want)
				}
				for _, e := range want {
					counts[e.Type+e.Cause]++
				}
			}
			if !over {
				t.Fatalf("the replay ends at turn %d but the reference match goes on", doc.Result.Turns)
			}
			gotWinner := -1
			if doc.Result.Winner != nil {
				gotWinner = *doc.Result.Winner
			}
			if gotWinner != winner || doc.Result.Reason != reason {
				t.Fatalf("result winner %d reason %s, want %d %s", gotWinner, doc.Result.Reason, winner, reason)
			}
			t.Logf("%d turns, %s", len(doc.Turns), reason)
		})
	}
	t.Logf("events checked: %v", counts)
	for _, k := range []string{EventDied + CauseCollision, EventDied + CauseCombat, EventDied + CauseStorm, EventDied + CauseEliminated,
		EventCaptured, EventCollected, EventSpawned} {
		if counts[k] == 0 {
			t.Errorf("no %s event in any case: the test checks too little", k)
		}
	}
}
