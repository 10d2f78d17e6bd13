package acb

import (
	"context"
	"testing"
)

// byteMover orders moves read from a byte string: for each turn a count,
// then per move a target (an own unit, another player's unit, or any tile)
// and a direction byte (values 5 and 6 are not directions).
type byteMover struct {
	data []byte
	pos  int
}

func (b *byteMover) next() int {
	if len(b.data) == 0 {
		return 0
	}
	v := b.data[b.pos%len(b.data)]
	b.pos++
	return int(v)
}

func (b *byteMover) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	n := b.next() % 12
	for range n {
		var p Pos
		sel := b.next()
		switch {
		case sel%3 != 2 && len(v.Bots) > 0:
			p = v.Bots[b.next()%len(v.Bots)].Position // own or enemy
		default:
			p = Pos{Row: b.next() - 8, Col: b.next() - 8} // anywhere, off the grid too
		}
		buf = append(buf, Move{Position: p, Direction: Dir(b.next() % 7)})
		if sel%5 == 0 {
			buf = append(buf, buf[len(buf)-1]) // a duplicate
		}
	}
	return buf, nil
}

func FuzzMatchMoves(f *testing.F) {
	f.Add([]byte{3, 0, 0, 1, 1, 2, 2, 3, 4}, uint64(1), uint8(0), false)
	f.Add([]byte{11, 5, 9, 200, 17, 3, 3, 3}, uint64(7), uint8(1), true)
	f.Add([]byte{7, 1, 2, 3, 4, 5, 6, 0, 255, 128}, uint64(3), uint8(2), true)
	f.Add([]byte{}, uint64(9), uint8(3), false)
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, np uint8, zone bool) {
		players := []int{2, 3, 4, 6}[np%4]
		cfg := DefaultConfig()
		cfg.Rows, cfg.Cols = 24, 24
		cfg.MaxTurns = 60
		cfg.SpawnCost = 1
		cfg.EnergyInterval = 2
		cfg.ZoneEnabled = zone
		cfg.ZoneStartTurn = 20
		ctrls := make([]Controller, players)
		for i := range ctrls {
			ctrls[i] = &byteMover{data: data, pos: i * 7}
		}
		m, err := NewMatch(cfg, nil, seed, ctrls)
		if err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			if done, err = m.Step(); err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, m)
		}
		if m.Reason() == "" {
			t.Fatal("match over without a reason")
		}
	})
}

// checkInvariants checks what must hold after every turn.
func checkInvariants(t *testing.T, m *Match) {
	t.Helper()
	wall := map[Pos]bool{}
	for _, p := range m.Map().Walls {
		wall[p] = true
	}
	type key struct {
		owner int
		pos   Pos
	}
	seen := map[key]bool{}
	lastID := -1
	for _, u := range m.Units() {
		if wall[u.Pos] {
			t.Fatalf("turn %d: unit %d on the wall %v", m.Turn(), u.ID, u.Pos)
		}
		if seen[key{u.Owner, u.Pos}] {
			t.Fatalf("turn %d: two units of player %d on %v", m.Turn(), u.Owner, u.Pos)
		}
		seen[key{u.Owner, u.Pos}] = true
		if u.ID <= lastID {
			t.Fatalf("turn %d: unit ids not increasing: %d after %d", m.Turn(), u.ID, lastID)
		}
		lastID = u.ID
		if m.Eliminated(u.Owner) {
			t.Fatalf("turn %d: unit %d of eliminated player %d", m.Turn(), u.ID, u.Owner)
		}
	}
	for p := 0; p < m.Players(); p++ {
		if m.Energy(p) < 0 {
			t.Fatalf("turn %d: player %d has energy %d", m.Turn(), p, m.Energy(p))
		}
	}
}
