package acb

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"crucible/engine"
	"crucible/internal/atomicfile"
)

// Core is one core of a map: its id, the seat that owns it and its tile.
// JSON: {"id": 0, "owner": 0, "row": r, "col": c}, as in the replay's map.
type Core struct {
	ID    int `json:"id"`
	Owner int `json:"owner"`
	Row   int `json:"row"`
	Col   int `json:"col"`
}

// Pos returns the core's tile.
func (c Core) Pos() Pos { return Pos{Row: c.Row, Col: c.Col} }

// Map is the terrain of a match: the grid size, the walls, the energy tiles
// and the cores with their owners. Its JSON form is the replay's "map"
// object: {"rows", "cols", "walls": [[r, c], ...], "energy": [[r, c], ...],
// "cores": [{"id", "owner", "row", "col"}, ...]}. The number of players is
// the number of distinct core owners (seats 0..n-1).
//
// Maps made by GenerateMap or read by ParseMap keep walls and energy sorted
// by (row, col) and cores sorted by id.
type Map struct {
	Rows   int
	Cols   int
	Walls  []Pos
	Energy []Pos
	Cores  []Core
	// ZoneCenters are the storm's centres: the orbit of the map centre
	// (rows/2, cols/2) under the map's symmetries, sorted (see the zone
	// rule, phase 3). Generated maps list them; a map file may leave them
	// out, and then the centre alone is used (see Centers).
	ZoneCenters []Pos
}

// mapJSON is the wire form of a Map.
type mapJSON struct {
	Rows   int      `json:"rows"`
	Cols   int      `json:"cols"`
	Walls  [][2]int `json:"walls"`
	Energy [][2]int `json:"energy"`
	Cores  []Core   `json:"cores"`
	// ZoneCenters is written when the map has them (every generated map).
	ZoneCenters []Pos `json:"zone_centers,omitempty"`
}

func pairsOf(ps []Pos) [][2]int {
	out := make([][2]int, len(ps))
	for i, p := range ps {
		out[i] = [2]int{p.Row, p.Col}
	}
	return out
}

func posOf(pairs [][2]int) []Pos {
	out := make([]Pos, len(pairs))
	for i, p := range pairs {
		out[i] = Pos{Row: p[0], Col: p[1]}
	}
	return out
}

// MarshalJSON writes the map in the replay's "map" shape.
func (m Map) MarshalJSON() ([]byte, error) {
	cores := m.Cores
	if cores == nil {
		cores = []Core{}
	}
	return json.Marshal(mapJSON{Rows: m.Rows, Cols: m.Cols, Walls: pairsOf(m.Walls), Energy: pairsOf(m.Energy), Cores: cores, ZoneCenters: m.ZoneCenters})
}

// UnmarshalJSON reads the replay's "map" shape, strictly like ParseMap
// (exact keys, positions of exactly two numbers). It does not validate;
// use ParseMap (or Validate) for input from outside.
func (m *Map) UnmarshalJSON(data []byte) error {
	var w mapJSON
	if err := engine.DecodeStrict(data, &w); err != nil {
		return err
	}
	*m = Map{Rows: w.Rows, Cols: w.Cols, Walls: posOf(w.Walls), Energy: posOf(w.Energy), Cores: w.Cores, ZoneCenters: w.ZoneCenters}
	return nil
}

// ParseMap decodes a JSON map file and validates it (see Validate). It is
// strict (see engine.DecodeStrict): unknown fields, keys in another case,
// null, data after the map, and positions that are not exactly [row, col]
// are errors naming the field and the value. It does not check that the
// map is fair (see CheckFair). The returned map has its lists sorted.
func ParseMap(data []byte) (*Map, error) {
	var w mapJSON
	if err := engine.DecodeStrict(data, &w); err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	m := &Map{Rows: w.Rows, Cols: w.Cols, Walls: posOf(w.Walls), Energy: posOf(w.Energy), Cores: w.Cores, ZoneCenters: w.ZoneCenters}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m.normalize()
	return m, nil
}

// LoadMap reads and validates a JSON map file.
func LoadMap(path string) (*Map, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := ParseMap(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Save writes the map as a JSON map file readable by everyone (0644),
// atomically (see atomicfile.WriteFile): a failure never leaves a partial
// file behind.
func (m *Map) Save(path string) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'))
}

// normalize sorts walls and energy by (row, col) and cores by id.
func (m *Map) normalize() {
	slices.SortFunc(m.Walls, cmpPos)
	slices.SortFunc(m.Energy, cmpPos)
	slices.SortFunc(m.Cores, func(a, b Core) int { return a.ID - b.ID })
	slices.SortFunc(m.ZoneCenters, cmpPos)
}

// Centers returns the storm's centres: ZoneCenters, or the map centre
// (rows/2, cols/2) alone when the map lists none (a map file written
// without them).
func (m *Map) Centers() []Pos {
	if len(m.ZoneCenters) > 0 {
		return m.ZoneCenters
	}
	return []Pos{MapCenter(m.Rows, m.Cols)}
}

// Players returns the number of seats of the map: the number of distinct
// core owners.
func (m *Map) Players() int {
	n := 0
	for _, c := range m.Cores {
		if c.Owner+1 > n {
			n = c.Owner + 1
		}
	}
	return n
}

// CoresPerPlayer returns the number of cores of seat 0 (Validate makes
// every seat have the same number).
func (m *Map) CoresPerPlayer() int {
	n := 0
	for _, c := range m.Cores {
		if c.Owner == 0 {
			n++
		}
	}
	return n
}

// Validate checks a map from outside: the size within 16..200 like the
// config; every wall, energy tile and core on the grid and on a tile of its
// own; core ids 0..n-1 each once; owners 0..p-1 for 2..6 players with the
// same number (1..8) of cores each; and every core and energy tile
// reachable from core 0 on the wrapping grid. The error names the problem
// and the offending value.
func (m *Map) Validate() error {
	if m.Rows < 16 || m.Rows > 200 {
		return fmt.Errorf("map: rows = %d is outside its allowed range 16..200", m.Rows)
	}
	if m.Cols < 16 || m.Cols > 200 {
		return fmt.Errorf("map: cols = %d is outside its allowed range 16..200", m.Cols)
	}
	const (
		open = iota
		wall
		energy
		core
	)
	kind := make([]uint8, m.Rows*m.Cols)
	names := [...]string{"open", "a wall", "an energy tile", "a core"}
	place := func(what string, i int, p Pos, k uint8) error {
		if p.Row < 0 || p.Row >= m.Rows || p.Col < 0 || p.Col >= m.Cols {
			return fmt.Errorf("map: %s %d at (%d,%d) is outside the %dx%d grid", what, i, p.Row, p.Col, m.Rows, m.Cols)
		}
		t := p.Row*m.Cols + p.Col
		if kind[t] != open {
			return fmt.Errorf("map: %s %d at (%d,%d) is on %s", what, i, p.Row, p.Col, names[kind[t]])
		}
		kind[t] = k
		return nil
	}
	for i, p := range m.Walls {
		if err := place("wall", i, p, wall); err != nil {
			return err
		}
	}
	for i, p := range m.Energy {
		if err := place("energy tile", i, p, energy); err != nil {
			return err
		}
	}
	if len(m.Cores) == 0 {
		return fmt.Errorf("map: has no cores; a match needs 2..6 players with cores")
	}
	seenID := make([]bool, len(m.Cores))
	for _, c := range m.Cores {
		if c.ID < 0 || c.ID >= len(m.Cores) || seenID[c.ID] {
			return fmt.Errorf("map: core id %d is invalid: the %d cores must have the ids 0..%d, each once", c.ID, len(m.Cores), len(m.Cores)-1)
		}
		seenID[c.ID] = true
		if c.Owner < 0 || c.Owner > 5 {
			return fmt.Errorf("map: core %d has owner %d; owners are seats 0..5", c.ID, c.Owner)
		}
		if err := place("core", c.ID, c.Pos(), core); err != nil {
			return err
		}
	}
	players := m.Players()
	if players < 2 {
		return fmt.Errorf("map: has cores of %d player(s); a match needs 2..6", players)
	}
	per := make([]int, players)
	for _, c := range m.Cores {
		per[c.Owner]++
	}
	for p, n := range per {
		if n == 0 {
			return fmt.Errorf("map: player %d has no core (owners must be 0..%d)", p, players-1)
		}
		if n != per[0] {
			return fmt.Errorf("map: player %d has %d cores but player 0 has %d; every player needs the same number", p, n, per[0])
		}
	}
	if per[0] > 8 {
		return fmt.Errorf("map: %d cores per player is outside the allowed range 1..8", per[0])
	}
	for i, p := range m.ZoneCenters {
		if p.Row < 0 || p.Row >= m.Rows || p.Col < 0 || p.Col >= m.Cols {
			return fmt.Errorf("map: zone_centers[%d] at (%d,%d) is outside the %dx%d grid", i, p.Row, p.Col, m.Rows, m.Cols)
		}
		for j, q := range m.ZoneCenters[:i] {
			if p == q {
				return fmt.Errorf("map: zone_centers[%d] at (%d,%d) repeats zone_centers[%d]", i, p.Row, p.Col, j)
			}
		}
	}
	// Reachability from core 0 over non-wall tiles on the wrapping grid.
	blocked := make([]bool, len(kind))
	for t, k := range kind {
		blocked[t] = k == wall
	}
	seen := reachable(m.Rows, m.Cols, blocked, m.Cores[0].Row*m.Cols+m.Cores[0].Col)
	for _, c := range m.Cores {
		if !seen[c.Row*m.Cols+c.Col] {
			return fmt.Errorf("map: core %d at (%d,%d) cannot be reached from core %d", c.ID, c.Row, c.Col, m.Cores[0].ID)
		}
	}
	for i, p := range m.Energy {
		if !seen[p.Row*m.Cols+p.Col] {
			return fmt.Errorf("map: energy tile %d at (%d,%d) cannot be reached from the cores", i, p.Row, p.Col)
		}
	}
	return nil
}

// reachable marks the tiles reachable from start by steps N, E, S, W on the
// wrapping grid without entering a tile for which blocked is true.
func reachable(rows, cols int, blocked []bool, start int) []bool {
	seen := make([]bool, rows*cols)
	queue := make([]int32, 0, rows*cols)
	seen[start] = true
	queue = append(queue, int32(start))
	for head := 0; head < len(queue); head++ {
		t := int(queue[head])
		r, c := t/cols, t%cols
		up, down, left, right := t-cols, t+cols, t-1, t+1
		if r == 0 {
			up += rows * cols
		}
		if r == rows-1 {
			down -= rows * cols
		}
		if c == 0 {
			left += cols
		}
		if c == cols-1 {
			right -= cols
		}
		for _, nb := range [4]int{up, right, down, left} {
			if !seen[nb] && !blocked[nb] {
				seen[nb] = true
				queue = append(queue, int32(nb))
			}
		}
	}
	return seen
}

// ASCII draws the map one text line per row: '.' open, '#' wall, '*'
// energy, 'C' core.
func (m *Map) ASCII() string {
	grid := make([]byte, m.Rows*(m.Cols+1))
	for r := 0; r < m.Rows; r++ {
		for c := 0; c < m.Cols; c++ {
			grid[r*(m.Cols+1)+c] = '.'
		}
		grid[r*(m.Cols+1)+m.Cols] = '\n'
	}
	set := func(p Pos, ch byte) {
		if p.Row >= 0 && p.Row < m.Rows && p.Col >= 0 && p.Col < m.Cols {
			grid[p.Row*(m.Cols+1)+p.Col] = ch
		}
	}
	for _, p := range m.Walls {
		set(p, '#')
	}
	for _, p := range m.Energy {
		set(p, '*')
	}
	for _, c := range m.Cores {
		set(c.Pos(), 'C')
	}
	return string(grid)
}

// Legend lists the cores of the map, one line per player, for a text
// preview: "player 0: core 0 (5,7), core 1 (8,9)".
func (m *Map) Legend() string {
	var b strings.Builder
	for p := 0; p < m.Players(); p++ {
		fmt.Fprintf(&b, "player %d:", p)
		sep := " "
		for _, c := range m.Cores {
			if c.Owner == p {
				fmt.Fprintf(&b, "%score %d (%d,%d)", sep, c.ID, c.Row, c.Col)
				sep = ", "
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Clone returns a deep copy of m.
func (m *Map) Clone() *Map {
	return &Map{
		Rows: m.Rows, Cols: m.Cols,
		Walls:  slices.Clone(m.Walls),
		Energy: slices.Clone(m.Energy),
		Cores:  slices.Clone(m.Cores),

		ZoneCenters: slices.Clone(m.ZoneCenters),
	}
}
