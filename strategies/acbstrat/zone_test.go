package acbstrat

import (
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
)

// stormBot returns a bot that has read view v with the zone on at the
// seed's example settings (start 10, shrink 1 a turn, minimum 2).
func stormBot(v *acb.View) *bot {
	v.Config.ZoneEnabled = true
	b := newBot(1)
	b.begin(v)
	return b
}

// TestStormDeadlinesOnOpenGround: on a 40x40 map without walls the last
// safe turn of a tile at distance d from the centre (20,20) is the last
// turn the radius 30-turn is at least ceil(d), tiles within the minimum
// radius are safe for ever, and a tile's deadline (the last turn a unit
// may stand there and still walk to safety) follows from walking straight
// in along the row.
func TestStormDeadlinesOnOpenGround(t *testing.T) {
	b := stormBot(sketch(make40(), 0))
	tests := []struct {
		rule           string
		at             acb.Pos
		safe, deadline int32
	}{
		{"the centre is never stormed", acb.Pos{Row: 20, Col: 20}, never, never},
		{"inside the minimum radius is never stormed", acb.Pos{Row: 20, Col: 22}, never, never},
		{"distance 3: radius 3 holds until turn 27", acb.Pos{Row: 20, Col: 23}, 27, 27},
		{"distance 10: radius 10 until turn 20", acb.Pos{Row: 20, Col: 30}, 20, 20},
		{"distance sqrt(101): radius 11 until turn 19", acb.Pos{Row: 19, Col: 30}, 19, 19},
	}
	for _, tc := range tests {
		x := b.g.idx(tc.at)
		if got := b.storm.safeTill[x]; got != tc.safe {
			t.Errorf("%s: last safe turn of %v = %d, want %d", tc.rule, tc.at, got, tc.safe)
		}
		if got := b.storm.deadline[x]; got != tc.deadline {
			t.Errorf("%s: deadline of %v = %d, want %d", tc.rule, tc.at, got, tc.deadline)
		}
	}
	// A corner, 28 tiles out, is stormed from the start turn on, and no
	// walk from it, even from the first turn, keeps up with the storm.
	x := b.g.idx(acb.Pos{Row: 0, Col: 0})
	if got := b.storm.safeTill[x]; got != 9 {
		t.Errorf("last safe turn of the corner = %d, want 9", got)
	}
	if got := b.storm.deadline[x]; got >= 0 {
		t.Errorf("deadline of the corner = %d, want before the first turn", got)
	}
}

// TestStormDeadlineCountsTheDetour: a wall across the straight way in
// makes a unit behind it leave sooner: its deadline is earlier than its
// last safe turn by the extra steps, and a unit that waits past its
// deadline has negative slack and the storm term marks it doomed.
func TestStormDeadlineCountsTheDetour(t *testing.T) {
	rows := make40()
	// A wall along column 25 from row 12 to row 28 blocks the way west.
	for r := 12; r <= 28; r++ {
		rows[r] = rows[r][:25] + "#" + rows[r][26:]
	}
	b := stormBot(sketch(rows, 0))
	x := b.g.idx(acb.Pos{Row: 20, Col: 27}) // distance 7: safe until turn 23
	if got := b.storm.safeTill[x]; got != 23 {
		t.Fatalf("last safe turn behind the wall = %d, want 23", got)
	}
	d := b.storm.deadline[x]
	if d >= 23 {
		t.Errorf("deadline behind the wall = %d, not earlier than the open-ground 23", d)
	}
	// In the open the same distance keeps its deadline.
	if got := b.storm.deadline[b.g.idx(acb.Pos{Row: 20, Col: 13})]; got != 23 {
		t.Errorf("deadline at the mirror tile in the open = %d, want 23", got)
	}
	// A unit standing there at its deadline turn has no slack; a turn
	// later it cannot make it.
	v := sketch(rows, int(d)-1)
	v.Bots = []acb.Unit{{Position: acb.Pos{Row: 20, Col: 27}}}
	b = stormBot(v)
	if got := b.slack(x); got != 0 {
		t.Errorf("slack at the deadline = %d, want 0", got)
	}
	v.Turn++
	b.begin(v)
	if got := b.slack(x); got >= 0 {
		t.Errorf("slack a turn past the deadline = %d, want negative", got)
	}
	if got := b.stormTerm(x); got > -300 {
		t.Errorf("storm term of a doomed tile = %v, want at most -300", got)
	}
}

// TestStormMarginGrowsWithShrinkRate: the slack a unit keeps is larger
// under a storm that shrinks a tile a turn than under one that shrinks a
// tile every ten turns, and it grows with the steps to the safe tiles.
func TestStormMarginGrowsWithShrinkRate(t *testing.T) {
	fast := acb.DefaultConfig()
	slow := fast
	slow.ZoneShrinkInterval = 10
	if stormMargin(fast) <= stormMargin(slow) {
		t.Errorf("margin at 1 tile a turn %d, at 1 tile in 10 turns %d: want the fast storm's larger", stormMargin(fast), stormMargin(slow))
	}
	b := stormBot(sketch(make40(), 0))
	near, farT := b.g.idx(acb.Pos{Row: 20, Col: 24}), b.g.idx(acb.Pos{Row: 20, Col: 36})
	if b.stormNeed(near) >= b.stormNeed(farT) {
		t.Errorf("slack kept 2 steps from safety %d, 14 steps %d: want more far out", b.stormNeed(near), b.stormNeed(farT))
	}
}

// TestStormPullsUnitsIn: a gatherer's unit far out at turn 12, with an
// energy tile farther out, ranks the step towards the centre first: no
// strategy needs a storm rule of its own.
func TestStormPullsUnitsIn(t *testing.T) {
	rows := make40()
	rows[20] = rows[20][:33] + "a" + rows[20][34:38] + "*" + rows[20][39:]
	v := sketch(rows, 12)
	v.Config.ZoneEnabled = true
	s := byName(t, "gatherer")
	c := s.New(s.Schema.Defaults(), 1, 0).(*controller)
	moves, err := c.Turn(t.Context(), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].Direction != acb.West {
		t.Errorf("moves %v, want the unit at (20,33) to step West towards the centre", moves)
	}
	// With the zone off the same unit goes for the energy.
	v.Config.ZoneEnabled = false
	c = s.New(s.Schema.Defaults(), 1, 0).(*controller)
	moves, _ = c.Turn(t.Context(), v, nil)
	if len(moves) != 1 || moves[0].Direction != acb.East {
		t.Errorf("zone off: moves %v, want the unit to step East to the energy", moves)
	}
}

// TestZoneAtExampleSettingsIsPlayable: with the zone on at the seed's
// example settings (radius 20 at turn 10, down to 2 by turn 28), the
// matches of zone-driver and of gatherer against a panel, seats swapped,
// on the arena's first six round seeds (engine.Mix(1, k)), are mostly
// decided by score: fewer than a quarter end 0-0 (before the
// storm was read, every one did), and zone-driver, which masses at the
// centre and hunts the units the storm drives in, wins more matches than
// it loses and more than gatherer does.
func TestZoneAtExampleSettingsIsPlayable(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.ZoneEnabled = true
	panel := []string{"hunter", "rusher", "economist", "kamikaze", "siege", "swarm"}
	type job struct {
		subject, opp string
		seed         uint64
		seat         int
	}
	var jobs []job
	for _, subj := range []string{"zone-driver", "gatherer"} {
		for _, opp := range panel {
			for k := uint64(0); k < 6; k++ {
				for seat := 0; seat < 2; seat++ {
					jobs = append(jobs, job{subj, opp, engine.Mix(1, k), seat})
				}
			}
		}
	}
	type out struct{ zero, won, lost bool }
	res := make([]out, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		d, r := duel(t, cfg, j.subject, j.opp, j.seed, j.seat)
		res[i] = out{
			zero: r.Scores[0] == 0 && r.Scores[1] == 0,
			won:  d.Winner == j.seat,
			lost: d.Winner == 1-j.seat,
		}
	})
	zero := 0
	won, lost := map[string]int{}, map[string]int{}
	for i, j := range jobs {
		if res[i].zero {
			zero++
		}
		if res[i].won {
			won[j.subject]++
		}
		if res[i].lost {
			lost[j.subject]++
		}
	}
	t.Logf("%d of %d matches 0-0; won-lost: zone-driver %d-%d, gatherer %d-%d", zero, len(jobs),
		won["zone-driver"], lost["zone-driver"], won["gatherer"], lost["gatherer"])
	if 4*zero >= len(jobs) {
		t.Errorf("%d of %d matches ended 0-0, want fewer than a quarter", zero, len(jobs))
	}
	if won["zone-driver"] <= lost["zone-driver"] || won["zone-driver"] <= won["gatherer"] {
		t.Errorf("zone-driver won %d and lost %d (gatherer won %d): want more wins than losses, and more wins than gatherer",
			won["zone-driver"], lost["zone-driver"], won["gatherer"])
	}
}
