package acbstrat

// Assignment: matching units to targets (energy tiles, cores, sectors) by
// the step distances of the targets' cached fields.

// assignment matches units to targets one to one, cheapest pairs first.
// The cost of a pair is the step distance read from the target's cached
// field, or the turns until the target is ready when that is longer (an
// energy tile still refilling). unitTarget[k] is the index into targets of
// the k-th unit given, or -1; unitCost[k] its cost.
type assignment struct {
	unitTarget []int32
	unitCost   []int32
	bestUnit   []int32
	bestCost   []int32
	taken      []bool
	done       []bool
	fields     []field
	targets    []int32
	// cost[j*len(units)+k] is the cost of the pair of target j and unit k,
	// during assign (the bot's scratch, b.pairCost).
	cost []int32
}

// assign fills a for the units idx (indices into b.own) and targets, with
// per-target ready offsets (nil: all ready now); pairs costing more than
// maxCost are not made.
func (b *bot) assign(a *assignment, idx []int32, targets []int32, ready []int32, maxCost int) {
	nu, nt := len(idx), len(targets)
	a.unitTarget = resizeI32(a.unitTarget, nu)
	a.unitCost = resizeI32(a.unitCost, nu)
	a.taken = resizeBool(a.taken, nu)
	a.bestUnit = resizeI32(a.bestUnit, nt)
	a.bestCost = resizeI32(a.bestCost, nt)
	a.done = resizeBool(a.done, nt)
	a.fields = a.fields[:0]
	a.targets = append(a.targets[:0], targets...)
	b.pairCost = resizeI32(b.pairCost, nt*nu)
	a.cost = b.pairCost
	for k := range idx {
		a.unitTarget[k] = -1
		a.unitCost[k] = far
		a.taken[k] = false
	}
	for j, t := range targets {
		f := b.fieldTo(t)
		a.fields = append(a.fields, f)
		a.done[j] = false
		r := int32(0)
		if ready != nil {
			r = ready[j]
		}
		// No unit is taken yet: the cheapest pair is found as the row is
		// filled (as cheapestFree would).
		row := a.cost[j*nu : j*nu+nu]
		best, bc := int32(-1), int32(maxCost+1)
		for k, i := range idx {
			c := int32(f.at(b.own[i]))
			if c < r {
				c = r
			}
			row[k] = c
			if c < bc {
				best, bc = int32(k), c
			}
		}
		a.bestUnit[j], a.bestCost[j] = best, bc
	}
	// The targets still open (not matched, with a unit within maxCost),
	// in order: a pass over them recounts those whose cheapest unit was
	// just taken, drops those left without one, and picks the cheapest
	// pair (the first on a tie) to make next.
	open := b.pairOpen[:0]
	for j := 0; j < nt; j++ {
		if a.bestUnit[j] >= 0 {
			open = append(open, int32(j))
		}
	}
	u := int32(-1)
	for {
		j, n := int32(-1), 0
		for _, k := range open {
			if a.done[k] {
				continue
			}
			if a.bestUnit[k] == u {
				a.bestUnit[k], a.bestCost[k] = a.cheapestFree(int(k), maxCost)
			}
			if a.bestUnit[k] < 0 {
				continue
			}
			open[n] = k
			n++
			if j < 0 || a.bestCost[k] < a.bestCost[j] {
				j = k
			}
		}
		open = open[:n]
		if j < 0 {
			b.pairOpen = open
			return
		}
		u = a.bestUnit[j]
		a.done[j] = true
		a.taken[u] = true
		a.unitTarget[u] = j
		a.unitCost[u] = a.bestCost[j]
	}
}

// assignMany marks in a (unitTarget 0) the n units of idx nearest to tile
// t by steps; the others get -1.
func (b *bot) assignMany(a *assignment, idx []int32, t int32, n int) {
	b.assignManyField(a, idx, b.fieldTo(t), n)
}

// assignManyField is assignMany down field f.
func (b *bot) assignManyField(a *assignment, idx []int32, f field, n int) {
	a.unitTarget = resizeI32(a.unitTarget, len(idx))
	a.unitCost = resizeI32(a.unitCost, len(idx))
	for k := range idx {
		a.unitTarget[k] = -1
	}
	for c := 0; c < n; c++ {
		best, bd := -1, far+1
		for k, i := range idx {
			if a.unitTarget[k] < 0 {
				if d := f.at(b.own[i]); d < bd {
					best, bd = k, d
				}
			}
		}
		if best < 0 {
			return
		}
		a.unitTarget[best] = 0
		a.unitCost[best] = int32(bd)
	}
}

// cheapestFree returns the unit not yet taken of the cheapest pair with
// target j (the first such unit on a tie) and its cost, or -1 when every
// pair costs more than maxCost.
func (a *assignment) cheapestFree(j int, maxCost int) (int32, int32) {
	nu := len(a.taken)
	row := a.cost[j*nu : j*nu+nu]
	best, bc := int32(-1), int32(maxCost+1)
	for k, c := range row {
		if c < bc && !a.taken[k] {
			best, bc = int32(k), c
		}
	}
	return best, bc
}

func resizeI32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, 2*n)
	}
	return s[:n]
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, 2*n)
	}
	return s[:n]
}
