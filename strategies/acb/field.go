package acb

// field is a distance field over the grid: the number of steps from each
// tile to the nearest source of a breadth-first search, walls blocking.
// Values are stored as distance+1 so that a cleared slice means "not
// reached"; use at to read them.
type field []int16

// far is the distance reported for tiles a field did not reach.
const far = 1 << 20

// at returns the distance of tile i, or far when the search did not reach it.
func (f field) at(i int32) int {
	v := f[i]
	if v == 0 {
		return far
	}
	return int(v) - 1
}

// bfs fills f with a multi-source breadth-first search on the torus from
// sources, never entering tiles where blocked is true (sources are entered
// whatever blocked says). The search stops after depth maxD (0 or less means
// no limit). q is a scratch queue of at least len(f) entries. Unknown tiles
// count as open: a bot only avoids the walls it has seen.
func (g *grid) bfs(f field, q []int32, sources []int32, blocked []bool, maxD int) {
	clear(f)
	head, tail := 0, 0
	for _, s := range sources {
		if f[s] == 0 {
			f[s] = 1
			q[tail] = s
			tail++
		}
	}
	if maxD <= 0 || maxD > 30000 {
		maxD = 30000
	}
	nbr := g.nbr
	for head < tail {
		cur := q[head]
		head++
		d := f[cur]
		if int(d) > maxD {
			continue
		}
		base := int(cur) * 4
		for k := 0; k < 4; k++ {
			nb := nbr[base+k]
			if f[nb] != 0 || blocked[nb] {
				continue
			}
			f[nb] = d + 1
			q[tail] = nb
			tail++
		}
	}
}

// bfsLabel is bfs that also records, for each reached tile, the index (into
// sources) of the source that reached it first: a Voronoi partition by steps.
func (g *grid) bfsLabel(f field, label []int16, q []int32, sources []int32, blocked []bool, maxD int) {
	clear(f)
	head, tail := 0, 0
	for si, s := range sources {
		if f[s] == 0 {
			f[s] = 1
			label[s] = int16(si)
			q[tail] = s
			tail++
		}
	}
	if maxD <= 0 || maxD > 30000 {
		maxD = 30000
	}
	nbr := g.nbr
	for head < tail {
		cur := q[head]
		head++
		d := f[cur]
		if int(d) > maxD {
			continue
		}
		l := label[cur]
		base := int(cur) * 4
		for k := 0; k < 4; k++ {
			nb := nbr[base+k]
			if f[nb] != 0 || blocked[nb] {
				continue
			}
			f[nb] = d + 1
			label[nb] = l
			q[tail] = nb
			tail++
		}
	}
}

// fieldCache keeps single-source distance fields for the fixed targets a
// bot walks to again and again (energy tiles, cores, rally points), so a
// target's field costs one search per match rather than one per turn. A
// field is recomputed when walls discovered since it was built make it
// stale, at most once every refresh turns. The cache holds at most cap
// fields and drops the least recently used.
type fieldCache struct {
	g       *grid
	slot    []int16 // tile -> entry index + 1
	entries []cacheEntry
	cap     int
	refresh int
	q       []int32
	srcBuf  [1]int32
}

type cacheEntry struct {
	tile    int32
	f       field
	wallVer int
	built   int
	used    int
}

func newFieldCache(g *grid, q []int32, capacity int) *fieldCache {
	return &fieldCache{g: g, slot: make([]int16, g.n), cap: capacity, refresh: 3, q: q}
}

// get returns the distance field to tile t, computing or refreshing it
// when needed. walls is the bot's wall memory at version wallVer.
func (c *fieldCache) get(t int32, walls []bool, wallVer, turn int) field {
	if s := c.slot[t]; s != 0 {
		e := &c.entries[s-1]
		e.used = turn
		if e.wallVer != wallVer && turn-e.built >= c.refresh {
			c.build(e, walls, wallVer, turn)
		}
		return e.f
	}
	var e *cacheEntry
	if len(c.entries) < c.cap {
		c.entries = append(c.entries, cacheEntry{f: make(field, c.g.n)})
		e = &c.entries[len(c.entries)-1]
	} else {
		// Evict the least recently used entry.
		k := 0
		for i := range c.entries {
			if c.entries[i].used < c.entries[k].used {
				k = i
			}
		}
		e = &c.entries[k]
		c.slot[e.tile] = 0
	}
	e.tile = t
	e.used = turn
	c.slot[t] = int16(len(c.entries))
	for i := range c.entries {
		if &c.entries[i] == e {
			c.slot[t] = int16(i + 1)
			break
		}
	}
	c.build(e, walls, wallVer, turn)
	return e.f
}

func (c *fieldCache) build(e *cacheEntry, walls []bool, wallVer, turn int) {
	c.srcBuf[0] = e.tile
	c.g.bfs(e.f, c.q, c.srcBuf[:], walls, 0)
	e.wallVer = wallVer
	e.built = turn
}
