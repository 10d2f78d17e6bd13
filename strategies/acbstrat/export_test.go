package acbstrat

// template returns the search template (see grid.bfs) that blocks the
// given tiles: -1 on them, 0 elsewhere. Only the tests build templates
// from a mask; the bots keep theirs up to date in place.
func template(blocked []bool) field {
	t := make(field, len(blocked))
	for i, b := range blocked {
		if b {
			t[i] = -1
		}
	}
	return t
}
