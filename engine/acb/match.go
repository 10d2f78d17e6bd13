package acb

// The state of a match and its set-up: the units, cores and players, the
// grids the phases read, and the initial state of shared/specs/acb.md,
// "Maps": "Each player starts with cores_per_player cores and one unit on
// each core, energy 0, score 0. Energy tiles start full."

import (
	"context"
	"errors"
	"fmt"
)

// MatchPlayer is one seat of a match built by NewMatchWith.
type MatchPlayer struct {
	// Name is the display name; Strategy and Params are recorded in the
	// replay.
	Name     string
	Strategy string
	Params   map[string]float64
	// Controller decides the seat's moves.
	Controller Controller
}

// MatchOptions configures NewMatchWith.
type MatchOptions struct {
	// Config is the match configuration; a zero Rows means DefaultConfig.
	Config Config
	// Map is the terrain; nil generates one from Seed. A supplied map sets
	// the config's rows, cols and cores_per_player.
	Map *Map
	// Seed is the match seed (map generation, match id).
	Seed uint64
	// MatchID names the match; empty derives "m_<seed in hex>".
	MatchID string
	// Players are the seats in order.
	Players []MatchPlayer
	// Record keeps the replay; read it with Replay when the match is over.
	Record bool
	// NoAdjudication plays every turn to the end even when the rest of
	// the match cannot change its result (see adjudicate.go); the result
	// is the same either way.
	NoAdjudication bool
}

// unit is a living unit (or one that died this turn, until
// phaseRemoveDead).
type unit struct {
	id      int32
	owner   int32
	row     int32
	col     int32
	ordered int32 // turn whose order this unit holds (duplicate detection)
	dir     Dir
	cause   string // set when the unit died this turn
	enemies int32  // combat: |enemies(u)|
	minEnem int32  // combat: min |enemies(e)| over e in enemies(u)
	killers uint8  // combat: bit p set when player p had a unit in range
}

// coreState is a core: its tile, whether it is active, and the turn it
// last spawned (0 for the initial units).
type coreState struct {
	id, owner int
	row, col  int
	tile      int
	active    bool
	lastSpawn int
}

// death is a unit that died this turn, for the views' dead lists.
type death struct {
	id, owner int32
	tile      int32
	cause     string
}

// playerState is one seat: its controller, its figures and its moves.
type playerState struct {
	name, strategy string
	params         map[string]float64
	ctrl           Controller
	remote         bool
	wallMemory     bool // the controller remembers walls (WallMemory)
	inactive       bool
	fails          int
	eliminated     bool
	score, energy  int
	moves          []Move
	err            error
	cores          []int // indices into Match.cores owned by this player
	stats          PlayerStats
}

// Match is one AI Code Battle match: the full state and the turn loop.
// Build it with NewMatch or NewMatchWith, advance it with Step until done,
// and read it with the accessors. A Match is not safe for concurrent use.
type Match struct {
	cfg     Config
	mp      *Map
	seed    uint64
	matchID string

	rows, cols, words int
	np                int

	wall        []bool
	wallBits    []uint64
	energyBits  []uint64
	occBits     []uint64
	occWords    []int32    // the words of occBits set since the last rebuildOcc
	occOwner    [][]uint64 // per owner: the tiles its units stand on (as occBits)
	energyTiles []int32
	energyFull  []bool
	energyEmpty []int   // turn each energy tile was last emptied
	empty       []int32 // the energy tiles not full, in no particular order
	energyIdx   []int32
	collectBuf  []int32 // collect: the full energy tiles units stand on

	cores     []coreState
	coreOrder []int // cores sorted by (row, col)

	units  []unit
	nextID int32

	occGen   uint32
	occStamp [][]uint32
	occUnit  [][]int32

	players []playerState

	// ctx is the context of Run, passed to every controller's Turn (nil
	// outside Run: context.Background).
	ctx context.Context

	turn int
	done bool
	// adjudicated is set when the match ended before max_turns because
	// the rest of it could not change the result (adjudicate.go);
	// noAdjudication turns that off.
	adjudicated, noAdjudication bool
	err                         error
	reason                      string
	winner                      int
	ranks                       []int

	pairs   []int32
	rowHead []int32 // combat: first unit index of each (owner, row), -1 when none
	rowNext []int32 // combat: next unit index of the same owner and row
	deaths  []death
	events  []Event
	zoneR   int // radius applied in the last turn (0 when off or not started)

	spans     []rowSpan
	masks     []uint64 // [mask][col][word]
	maskAt    []int32  // [mask*cols+col]: the first of its non-zero words in maskWord
	maskWord  []int32  // the index of a non-zero mask word in its row
	maskBits  []uint64 // that word
	visWords  int      // words of a bitset over the words of a visibility bitset
	wordRow   []uint16 // several words a row: the row of each word of a visibility bitset
	rowCover  []uint64 // one word a row: [row][visWords], the rows a disc centred on row covers
	vis       [][]uint64
	visUsed   [][]uint64 // per player: the words of vis that may be non-zero
	visTurn   []int
	coreVis   [][]uint64 // per player: the vision of its active cores
	coreUsed  [][]uint64 // the words of coreVis that may be non-zero
	coreVisOf []uint64   // the active cores (bit j: the player's j-th) coreVis is for
	seenWalls [][]uint64 // per player remembering walls: the walls its views have listed
	views     []View
	zones     []Zone

	rec *recorder
}

// NewMatch builds a match of players on mp (nil: generated from seed) with
// cfg. Players are named "p0", "p1", ... in the replay. See NewMatchWith.
func NewMatch(cfg Config, mp *Map, seed uint64, players []Controller) (*Match, error) {
	ps := make([]MatchPlayer, len(players))
	for i, c := range players {
		ps[i] = MatchPlayer{Name: fmt.Sprintf("p%d", i), Controller: c}
	}
	return NewMatchWith(MatchOptions{Config: cfg, Map: mp, Seed: seed, Players: ps})
}

// NewMatchWith builds a match ready for its first Step: the map (given or
// generated), one unit on every core, energy 0 and score 0 for everyone.
func NewMatchWith(o MatchOptions) (*Match, error) {
	cfg := o.Config
	if cfg.Rows == 0 {
		cfg = DefaultConfig()
	}
	if cfg.RulesVersion == "" {
		cfg.RulesVersion = RulesVersion
	}
	np := len(o.Players)
	if np < 2 || np > 6 {
		return nil, fmt.Errorf("acb: a match needs 2..6 players, not %d", np)
	}
	for i, p := range o.Players {
		if p.Controller == nil {
			return nil, fmt.Errorf("acb: seat %d (%s) has no controller", i, p.Name)
		}
	}
	mp := o.Map
	if mp != nil {
		if err := mp.Validate(); err != nil {
			return nil, err
		}
		if mp.Players() != np {
			return nil, fmt.Errorf("acb: the map has cores for %d players but the match has %d", mp.Players(), np)
		}
		mp = mp.Clone()
		mp.normalize()
		cfg.Rows, cfg.Cols, cfg.CoresPerPlayer = mp.Rows, mp.Cols, mp.CoresPerPlayer()
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	} else {
		if np == 5 {
			return nil, errors.New("acb: 5 players is not supported: generated maps exist for 2, 3, 4 or 6 players (supply a map for 5)")
		}
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		var err error
		if mp, err = generatedMap(cfg, np, o.Seed); err != nil {
			return nil, err
		}
		cfg.Rows, cfg.Cols = mp.Rows, mp.Cols
	}
	m := &Match{cfg: cfg, mp: mp, seed: o.Seed, matchID: o.MatchID, np: np, winner: NoWinner, noAdjudication: o.NoAdjudication}
	if m.matchID == "" {
		m.matchID = fmt.Sprintf("m_%016x", o.Seed)
	}
	m.setup(o.Players)
	if o.Record {
		m.rec = newRecorder(m)
	}
	return m, nil
}

func (m *Match) setup(seats []MatchPlayer) {
	R, C := m.mp.Rows, m.mp.Cols
	m.rows, m.cols = R, C
	m.words = (C + 63) / 64
	n := R * C
	bitsLen := R * m.words
	m.wall = make([]bool, n)
	m.wallBits = make([]uint64, bitsLen)
	m.energyBits = make([]uint64, bitsLen)
	m.occBits = make([]uint64, bitsLen)
	for _, p := range m.mp.Walls {
		m.wall[p.Row*C+p.Col] = true
		m.wallBits[p.Row*m.words+p.Col>>6] |= 1 << (p.Col & 63)
	}
	m.energyIdx = make([]int32, n)
	for i := range m.energyIdx {
		m.energyIdx[i] = -1
	}
	for i, p := range m.mp.Energy {
		m.energyTiles = append(m.energyTiles, int32(p.Row*C+p.Col))
		m.energyIdx[p.Row*C+p.Col] = int32(i)
		m.energyBits[p.Row*m.words+p.Col>>6] |= 1 << (p.Col & 63)
	}
	m.energyFull = make([]bool, len(m.energyTiles))
	m.energyEmpty = make([]int, len(m.energyTiles))
	for i := range m.energyFull {
		m.energyFull[i] = true
	}
	m.players = make([]playerState, m.np)
	for i, s := range seats {
		p := &m.players[i]
		p.name, p.strategy, p.params, p.ctrl = s.Name, s.Strategy, s.Params, s.Controller
		if r, ok := s.Controller.(Remote); ok && r.Remote() {
			p.remote = true
		}
		if w, ok := s.Controller.(WallMemory); ok && !p.remote && w.RemembersWalls() {
			p.wallMemory = true
		}
	}
	for _, c := range m.mp.Cores {
		m.cores = append(m.cores, coreState{id: c.ID, owner: c.Owner, row: c.Row, col: c.Col, tile: c.Row*C + c.Col, active: true})
		m.players[c.Owner].cores = append(m.players[c.Owner].cores, len(m.cores)-1)
	}
	for i := range m.cores {
		m.coreOrder = append(m.coreOrder, i)
	}
	for i := 1; i < len(m.coreOrder); i++ {
		for j := i; j > 0 && m.cores[m.coreOrder[j]].tile < m.cores[m.coreOrder[j-1]].tile; j-- {
			m.coreOrder[j], m.coreOrder[j-1] = m.coreOrder[j-1], m.coreOrder[j]
		}
	}
	m.occStamp = make([][]uint32, m.np)
	m.occOwner = make([][]uint64, m.np)
	for p := range m.occOwner {
		m.occOwner[p] = make([]uint64, bitsLen)
	}
	m.occUnit = make([][]int32, m.np)
	for p := range m.occStamp {
		m.occStamp[p] = make([]uint32, n)
		m.occUnit[p] = make([]int32, n)
	}
	// One unit on every core, ids in core-id order.
	m.units = make([]unit, 0, 64)
	for _, c := range m.cores {
		m.units = append(m.units, unit{id: m.nextID, owner: int32(c.owner), row: int32(c.row), col: int32(c.col), ordered: -1})
		m.nextID++
	}
	m.rebuildOcc()
	m.setupVision()
	m.views = make([]View, m.np)
	m.zones = make([]Zone, m.np)
	for p := range m.views {
		v := &m.views[p]
		v.MatchID = m.matchID
		v.Config = m.cfg
		v.You.ID = p
		v.Bots = make([]Unit, 0, 32)
		v.Energy = make([]Pos, 0, len(m.energyTiles))
		v.Cores = make([]CoreView, 0, len(m.cores))
		v.Walls = make([]Pos, 0, 64)
		v.Dead = make([]Unit, 0, 8)
		m.players[p].moves = make([]Move, 0, 32)
	}
	m.pairs = make([]int32, 0, 64)
	m.rowHead = make([]int32, m.np*R)
	for k := range m.rowHead {
		m.rowHead[k] = -1 // combat leaves it so
	}
	m.rowNext = make([]int32, 0, 128)
	m.deaths = make([]death, 0, 16)
	m.events = make([]Event, 0, 16)
}

// rebuildOcc records every living unit in the per-owner occupancy grids and
// the occupied-tile bitset (a new generation; nothing is cleared but the
// bitset).
func (m *Match) rebuildOcc() {
	m.occGen++
	for _, w := range m.occWords {
		m.occBits[w] = 0
		for o := range m.occOwner {
			m.occOwner[o][w] = 0
		}
	}
	m.occWords = m.occWords[:0]
	for i := range m.units {
		u := &m.units[i]
		t := int(u.row)*m.cols + int(u.col)
		m.occStamp[u.owner][t] = m.occGen
		m.occUnit[u.owner][t] = int32(i)
		m.setOcc(int(u.owner), int(u.row), int(u.col))
	}
}

// setOcc marks tile (r, c) occupied by owner in the occupied-tile bitsets
// and notes its word for the next rebuildOcc, which clears only the words
// set.
func (m *Match) setOcc(owner, r, c int) {
	w := r*m.words + c>>6
	m.occBits[w] |= 1 << (c & 63)
	m.occOwner[owner][w] |= 1 << (c & 63)
	m.occWords = append(m.occWords, int32(w))
}

// unitAt returns the index of owner's unit on tile t, or -1.
func (m *Match) unitAt(owner, t int) int {
	if m.occStamp[owner][t] == m.occGen {
		return int(m.occUnit[owner][t])
	}
	return -1
}

// died records unit i's death (it is removed by compact).
func (m *Match) died(i int, cause string) {
	u := &m.units[i]
	u.cause = cause
	tile := u.row*int32(m.cols) + u.col
	m.deaths = append(m.deaths, death{id: u.id, owner: u.owner, tile: tile, cause: cause})
	m.events = append(m.events, Event{Type: EventDied, Unit: int(u.id), Owner: int(u.owner), Player: -1, Core: -1, Pos: Pos{Row: int(u.row), Col: int(u.col)}, Cause: cause})
	st := &m.players[u.owner].stats
	switch cause {
	case CauseCollision:
		st.LostCollision++
	case CauseCombat:
		st.LostCombat++
	case CauseStorm:
		st.LostStorm++
	case CauseEliminated:
		st.LostEliminated++
	}
}

// phaseRemoveDead takes the units that died in the move, combat and zone
// phases off the board before capture: deaths in those phases are
// simultaneous, and the later phases see only the living.
func (m *Match) phaseRemoveDead(int) { m.compact() }

// compact removes the units that died, keeping id order, and rebuilds the
// occupancy.
func (m *Match) compact() {
	if len(m.deaths) > 0 {
		k := 0
		for i := range m.units {
			if m.units[i].cause == "" {
				m.units[k] = m.units[i]
				k++
			}
		}
		m.units = m.units[:k]
	}
	m.rebuildOcc()
}
