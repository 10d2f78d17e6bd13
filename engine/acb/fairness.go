package acb

// Fair maps (shared/specs/acb.md, "Maps"): what a generated map guarantees,
// checked on maps from files.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// CheckFair reports why a valid map (see Validate) is unfair, or nil. A
// fair map, like every generated one:
//
//   - makes every seat equivalent: for every seat some symmetry of the map
//     (see Symmetries: a rotation by 90 or 180 degrees followed by a
//     translation, or a translation alone, mapping walls onto walls, energy
//     onto energy and each seat's cores onto one seat's cores) carries seat
//     0's cores onto that seat's;
//   - has at least one energy tile (without energy no unit is ever spawned;
//     generated maps have at least 4 per player, but a hand-made duel map
//     with one central tile is fair, so files need only one);
//   - has no open tile that the cores cannot reach (every open tile is
//     reachable from every core).
//
// Every reason found is reported, one per line.
func (m *Map) CheckFair() error {
	if err := m.Validate(); err != nil {
		return err
	}
	var errs []error
	if len(m.Energy) == 0 {
		errs = append(errs, errors.New("map: has no energy tile; a fair map needs at least one (units are spawned from energy)"))
	}
	blocked := make([]bool, m.Rows*m.Cols)
	for _, p := range m.Walls {
		blocked[p.Row*m.Cols+p.Col] = true
	}
	seen := reachable(m.Rows, m.Cols, blocked, m.Cores[0].Row*m.Cols+m.Cores[0].Col)
	pocket, first := 0, -1
	for t := range seen {
		if !seen[t] && !blocked[t] {
			if first < 0 {
				first = t
			}
			pocket++
		}
	}
	if pocket > 0 {
		errs = append(errs, fmt.Errorf("map: %d open tile(s) cannot be reached from the cores, the first at (%d,%d); wall them in or open a way", pocket, first/m.Cols, first%m.Cols))
	}
	reached := make([]bool, m.Players())
	for _, s := range m.Symmetries() {
		reached[s.Seats[0]] = true
	}
	var unequal []string
	for p, ok := range reached {
		if !ok {
			unequal = append(unequal, strconv.Itoa(p))
		}
	}
	for _, s := range m.Symmetries() {
		for _, c := range m.ZoneCenters {
			if q := s.Apply(c, m.Rows, m.Cols); !slices.Contains(m.ZoneCenters, q) {
				errs = append(errs, fmt.Errorf("map: the zone centres are not symmetric like the seats: a symmetry of the map carries the centre (%d,%d) to (%d,%d), which is not a centre; list the orbit of the centre under the map's symmetries, or leave zone_centers out", c.Row, c.Col, q.Row, q.Col))
				break
			}
		}
	}
	if len(unequal) > 0 {
		errs = append(errs, fmt.Errorf("map: seat(s) %s not equivalent to seat 0: no symmetry of the grid (a rotation by 90 or 180 degrees followed by a translation, or a translation alone) carries seat 0's cores onto theirs while mapping the walls, the energy tiles and the other cores onto their own kind", strings.Join(unequal, ", ")))
	}
	return errors.Join(errs...)
}
