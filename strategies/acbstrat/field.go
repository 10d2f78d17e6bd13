package acbstrat

// field is a distance field over the grid: the number of steps from each
// tile to the nearest source of a breadth-first search, walls blocking.
// Values are stored as distance+1 so that a cleared slice means "not
// reached", and blocked tiles hold -1; use at to read them.
type field []int16

// far is the distance reported for tiles a field did not reach.
const far = 1 << 20

// at returns the distance of tile i, or far when the search did not reach it.
func (f field) at(i int32) int {
	v := f[i]
	if v <= 0 {
		return far
	}
	return int(v) - 1
}

// bfs fills f with a multi-source breadth-first search on the torus from
// sources, never entering the tiles tmpl marks -1 (a search template: -1
// on blocked tiles, 0 elsewhere, as memory.wallT; sources are entered
// whatever tmpl says). The search stops after depth maxD (0 or
// less means no limit). q is a scratch queue of at least len(f) entries.
// Unknown tiles count as open: a bot only avoids the walls it has seen.
func (g *grid) bfs(f field, q []int32, sources []int32, tmpl field, maxD int) {
	copy(f, tmpl)
	head, tail := 0, 0
	for _, s := range sources {
		if f[s] <= 0 {
			f[s] = 1
			q[tail] = s
			tail++
		}
	}
	if maxD <= 0 || maxD > 30000 {
		maxD = 30000
	}
	expand(f, q, g.nbr, head, tail, int16(maxD+1), -1)
}

// expand continues a breadth-first search whose queue q holds the tiles
// head..tail-1 (labelled, their neighbours not yet): each tile's unlabelled
// neighbours (f 0) get its label plus one, up to label lim, until the
// queue is empty or tile stop is labelled (stop < 0: to the end). It
// returns the queue's new bounds; bfs and lazy both search with it.
func expand(f field, q, nbr []int32, head, tail int, lim int16, stop int32) (int, int) {
	for head < tail && (stop < 0 || f[stop] == 0) {
		cur := q[head]
		head++
		d := f[cur]
		if d >= lim {
			continue
		}
		d++
		nb := nbr[int(cur)*4 : int(cur)*4+4 : int(cur)*4+4]
		if x := nb[0]; f[x] == 0 {
			f[x] = d
			q[tail] = x
			tail++
		}
		if x := nb[1]; f[x] == 0 {
			f[x] = d
			q[tail] = x
			tail++
		}
		if x := nb[2]; f[x] == 0 {
			f[x] = d
			q[tail] = x
			tail++
		}
		if x := nb[3]; f[x] == 0 {
			f[x] = d
			q[tail] = x
			tail++
		}
	}
	return head, tail
}

// fieldCache keeps single-source distance fields for the fixed targets a
// bot walks to again and again (energy tiles, cores, sectors), so a
// target's field costs one search per match rather than one per turn.
// Walls found after a field was built can make it stale; it is rebuilt when
// it misleads a unit (bot.misleads: the only way down is a remembered
// wall), or at the latest refresh turns after walls changed. The cache
// holds at most cap fields and drops the least recently used.
type fieldCache struct {
	g       *grid
	slot    []int16 // tile -> entry index + 1
	entries []cacheEntry
	cap     int
	refresh int
	q       []int32
	mem     *memory // the wall memory whose searches go through the store (nil: none do)
	srcBuf  [1]int32
	builds  int // fields built so far, to tell a rebuilt field from the old
	bufs    *bufs
}

type cacheEntry struct {
	tile    int32
	f       field
	wallVer int
	built   int
	used    int
}

func newFieldCache(g *grid, q []int32, capacity int, p *bufs) *fieldCache {
	return &fieldCache{g: g, slot: p.int16s(g.n), cap: capacity, refresh: 400, q: q, bufs: p}
}

// get returns the distance field to tile t, computing or refreshing it
// when needed. walls is the bot's wall memory at version wallVer.
func (c *fieldCache) get(t int32, walls field, wallVer, turn int) field {
	if s := c.slot[t]; s != 0 {
		e := &c.entries[s-1]
		e.used = turn
		if e.wallVer != wallVer && turn-e.built >= c.refresh {
			c.build(e, walls, wallVer, turn)
		}
		return e.f
	}
	k := len(c.entries)
	if k < c.cap {
		c.entries = append(c.entries, cacheEntry{f: c.bufs.field(c.g.n)})
	} else {
		// Evict the least recently used entry.
		k = 0
		for i := range c.entries {
			if c.entries[i].used < c.entries[k].used {
				k = i
			}
		}
		c.slot[c.entries[k].tile] = 0
	}
	e := &c.entries[k]
	e.tile = t
	e.used = turn
	c.slot[t] = int16(k + 1)
	c.build(e, walls, wallVer, turn)
	return e.f
}

// rebuild recomputes the field of t now if it is cached.
func (c *fieldCache) rebuild(t int32, walls field, wallVer, turn int) {
	if s := c.slot[t]; s != 0 {
		c.build(&c.entries[s-1], walls, wallVer, turn)
	}
}

func (c *fieldCache) build(e *cacheEntry, walls field, wallVer, turn int) {
	c.srcBuf[0] = e.tile
	// In place: a field handed out before sees the rebuild.
	if c.mem != nil && &walls[0] == &c.mem.wallT[0] {
		search(c.g, c.mem, e.f, c.q, c.srcBuf[:], 0)
	} else {
		c.g.bfs(e.f, c.q, c.srcBuf[:], walls, 0)
	}
	c.builds++
	e.wallVer = wallVer
	e.built = turn
}
