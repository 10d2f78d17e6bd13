package acb

// Phase 6, Spawn: "Each active core with no unit of any owner on it spawns
// one unit while the player's energy covers spawn_cost, deducted per unit;
// the core that spawned longest ago goes first, ties by lowest core id."
// New units take the next unused ids, players in id order.

// phaseSpawn spawns one unit on each free active core while the owner's
// energy covers spawn_cost, the core that spawned longest ago first (ties:
// lowest id), players in id order.
func (m *Match) phaseSpawn(t int) {
	cost := m.cfg.SpawnCost
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated || ps.energy < cost {
			continue
		}
		// Spawn priority: insertion sort of this player's few cores.
		cs := ps.cores
		for i := 1; i < len(cs); i++ {
			for j := i; j > 0 && m.spawnsBefore(cs[j], cs[j-1]); j-- {
				cs[j], cs[j-1] = cs[j-1], cs[j]
			}
		}
		for _, ci := range cs {
			if ps.energy < cost {
				break
			}
			c := &m.cores[ci]
			if !c.active || m.occBits[c.row*m.words+c.col>>6]&(1<<(c.col&63)) != 0 {
				continue
			}
			ps.energy -= cost
			c.lastSpawn = t
			id := m.nextID
			m.nextID++
			m.units = append(m.units, unit{id: id, owner: int32(p), row: int32(c.row), col: int32(c.col), ordered: -1})
			m.occStamp[p][c.tile] = m.occGen
			m.occUnit[p][c.tile] = int32(len(m.units) - 1)
			m.setOcc(p, c.row, c.col)
			ps.stats.UnitsSpawned++
			m.events = append(m.events, Event{Type: EventSpawned, Unit: int(id), Owner: p, Player: -1, Core: c.id, Pos: Pos{Row: c.row, Col: c.col}})
		}
	}
}

func (m *Match) spawnsBefore(a, b int) bool {
	ca, cb := &m.cores[a], &m.cores[b]
	if ca.lastSpawn != cb.lastSpawn {
		return ca.lastSpawn < cb.lastSpawn
	}
	return ca.id < cb.id
}
