package acb

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"crucible/engine"
)

// Death causes and event types as they appear in replays and Events.
const (
	CauseCollision  = "collision"
	CauseCombat     = "combat"
	CauseStorm      = "storm"
	CauseEliminated = "eliminated"

	EventSpawned     = "spawned"
	EventDied        = "died"
	EventCollected   = "collected"
	EventCaptured    = "captured"
	EventBotInactive = "bot_inactive"
)

// Reasons a match ends.
const (
	ReasonElimination  = "elimination"
	ReasonAnnihilation = "annihilation"
	ReasonTurns        = "turns"
)

// MaxFailures is the number of consecutive failed turns after which a
// remote bot becomes inactive.
const MaxFailures = 10

// Event is something that happened in a turn, in phase order. Fields that
// do not apply to the event's type are -1 (ids) or empty.
type Event struct {
	// Type is one of EventSpawned, EventDied, EventCollected,
	// EventCaptured, EventBotInactive.
	Type string
	// Unit is the unit's id (spawned, died), else -1.
	Unit int
	// Owner is the unit's owner (spawned, died) or the razed core's owner
	// (captured), else -1.
	Owner int
	// Player is the acting player: the collector, the capturer, the bot
	// that went inactive; else -1.
	Player int
	// Core is the core's id (spawned: where the unit appeared; captured),
	// else -1.
	Core int
	// Pos is where it happened (the unit's tile, the energy tile, the core).
	Pos Pos
	// Cause is the cause of a death: CauseCollision, CauseCombat,
	// CauseStorm or CauseEliminated.
	Cause string
}

// UnitInfo is a living unit as the Match accessors report it.
type UnitInfo struct {
	ID    int
	Owner int
	Pos   Pos
}

// CoreInfo is a core as the Match accessors report it.
type CoreInfo struct {
	ID     int
	Owner  int
	Pos    Pos
	Active bool
	// LastSpawn is the turn the core last spawned a unit; the initial units
	// count as spawned in turn 0.
	LastSpawn int
}

// PlayerStats are one player's figures over a match: the final state the
// result lists, and counters for measuring strategies.
type PlayerStats struct {
	Score   int  `json:"score"`
	Energy  int  `json:"energy"`
	Units   int  `json:"units"`
	Cores   int  `json:"cores"`
	Crashed bool `json:"crashed"`
	// EnergyCollected is the energy gained from energy tiles.
	EnergyCollected int `json:"energy_collected"`
	// UnitsSpawned counts units spawned after the initial ones.
	UnitsSpawned int `json:"units_spawned"`
	// Units lost by cause.
	LostCollision  int `json:"lost_collision"`
	LostCombat     int `json:"lost_combat"`
	LostStorm      int `json:"lost_storm"`
	LostEliminated int `json:"lost_eliminated"`
	// Kills counts enemy units that died in combat with a unit of this
	// player in range (each scored kill_score).
	Kills int `json:"kills"`
	// CoresRazed counts enemy cores this player captured; FirstRazeTurn is
	// the turn of the first (0 when none).
	CoresRazed    int `json:"cores_razed"`
	FirstRazeTurn int `json:"first_raze_turn"`
	// CoresLost counts own cores razed by others.
	CoresLost int `json:"cores_lost"`
	// EliminatedTurn is the turn the player was eliminated (0 when not).
	EliminatedTurn int `json:"eliminated_turn"`
}

// Detail is the game-specific part of an ACB engine.Result.
type Detail struct {
	// Winner is the winning seat, -1 for a draw.
	Winner int `json:"winner"`
	// Players holds each seat's figures in seat order.
	Players []PlayerStats `json:"players"`
}

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
}

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

type coreState struct {
	id, owner int
	row, col  int
	tile      int
	active    bool
	lastSpawn int
}

type death struct {
	id, owner int32
	tile      int32
	cause     string
}

type playerState struct {
	name, strategy string
	params         map[string]float64
	ctrl           Controller
	remote         bool
	inactive       bool
	fails          int
	eliminated     bool
	score, energy  int
	moves          []Move
	err            error
	cores          []int // indices into Match.cores owned by this player
	stats          PlayerStats
}

// rowSpan is one row of the vision disc: the row offset and the index of
// its column mask set.
type rowSpan struct {
	dr   int
	mask int
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
	energyTiles []int32
	energyFull  []bool
	energyEmpty []int // turn each energy tile was last emptied
	energyIdx   []int32

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

	turn   int
	done   bool
	err    error
	reason string
	winner int
	ranks  []int

	pairs   []int32
	rowHead []int32 // combat: first unit index of each (owner, row), -1 when none
	rowNext []int32 // combat: next unit index of the same owner and row
	deaths  []death
	events  []Event
	zoneR   int // radius applied in the last turn (0 when off or not started)

	spans   []rowSpan
	masks   []uint64 // [mask][col][word]
	vis     [][]uint64
	visTurn []int
	views   []View
	zones   []Zone

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
		if mp, err = GenerateMap(cfg, np, o.Seed); err != nil {
			return nil, err
		}
		cfg.Rows, cfg.Cols = mp.Rows, mp.Cols
	}
	m := &Match{cfg: cfg, mp: mp, seed: o.Seed, matchID: o.MatchID, np: np, winner: -1}
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
	m.rowNext = make([]int32, 0, 128)
	m.deaths = make([]death, 0, 16)
	m.events = make([]Event, 0, 16)
}

// setupVision precomputes the vision disc as row spans and, for every
// half-width and column, the bit mask of the wrapped column span.
func (m *Match) setupVision() {
	r2 := m.cfg.VisionRadius2
	rad := isqrt(r2)
	W := m.words
	widthIdx := map[int]int{} // setup only
	for dr := -rad; dr <= rad; dr++ {
		w := isqrt(r2 - dr*dr)
		if 2*w+1 > m.cols {
			w = m.cols // full row
		}
		idx, ok := widthIdx[w]
		if !ok {
			idx = len(widthIdx)
			widthIdx[w] = idx
			base := len(m.masks)
			m.masks = append(m.masks, make([]uint64, m.cols*W)...)
			for c := 0; c < m.cols; c++ {
				row := m.masks[base+c*W : base+(c+1)*W]
				if w >= m.cols {
					for cc := 0; cc < m.cols; cc++ {
						row[cc>>6] |= 1 << (cc & 63)
					}
					continue
				}
				for d := -w; d <= w; d++ {
					cc := wrap(c+d, m.cols)
					row[cc>>6] |= 1 << (cc & 63)
				}
			}
		}
		m.spans = append(m.spans, rowSpan{dr: dr, mask: idx})
	}
	m.vis = make([][]uint64, m.np)
	m.visTurn = make([]int, m.np)
	for p := range m.vis {
		m.vis[p] = make([]uint64, m.rows*W)
		m.visTurn[p] = -1
	}
}

// rebuildOcc records every living unit in the per-owner occupancy grids and
// the occupied-tile bitset (a new generation; nothing is cleared but the
// bitset).
func (m *Match) rebuildOcc() {
	m.occGen++
	clear(m.occBits)
	for i := range m.units {
		u := &m.units[i]
		t := int(u.row)*m.cols + int(u.col)
		m.occStamp[u.owner][t] = m.occGen
		m.occUnit[u.owner][t] = int32(i)
		m.occBits[int(u.row)*m.words+int(u.col)>>6] |= 1 << (u.col & 63)
	}
}

// unitAt returns the index of owner's unit on tile t, or -1.
func (m *Match) unitAt(owner, t int) int {
	if m.occStamp[owner][t] == m.occGen {
		return int(m.occUnit[owner][t])
	}
	return -1
}

// computeVision fills player p's visibility bitset for the current state.
func (m *Match) computeVision(p int) []uint64 {
	vis := m.vis[p]
	if m.visTurn[p] == m.turn {
		return vis
	}
	m.visTurn[p] = m.turn
	clear(vis)
	for i := range m.units {
		u := &m.units[i]
		if int(u.owner) == p {
			m.stamp(vis, int(u.row), int(u.col))
		}
	}
	for _, ci := range m.players[p].cores {
		if c := &m.cores[ci]; c.active {
			m.stamp(vis, c.row, c.col)
		}
	}
	return vis
}

// stamp ORs the vision disc around (r, c) into vis.
func (m *Match) stamp(vis []uint64, r, c int) {
	W := m.words
	R := m.rows
	if W == 1 {
		for _, s := range m.spans {
			rr := r + s.dr
			if rr < 0 || rr >= R {
				rr = wrap(rr, R)
			}
			vis[rr] |= m.masks[s.mask*m.cols+c]
		}
		return
	}
	for _, s := range m.spans {
		rr := r + s.dr
		if rr < 0 || rr >= R {
			rr = wrap(rr, R)
		}
		mask := m.masks[(s.mask*m.cols+c)*W : (s.mask*m.cols+c+1)*W]
		row := vis[rr*W : (rr+1)*W]
		for k := range row {
			row[k] |= mask[k]
		}
	}
}

func (m *Match) visible(vis []uint64, r, c int) bool {
	return vis[r*m.words+c>>6]&(1<<(c&63)) != 0
}

// buildView fills player p's view of the current state.
func (m *Match) buildView(p int) *View {
	vis := m.computeVision(p)
	v := &m.views[p]
	ps := &m.players[p]
	v.Turn = m.turn
	v.You = PlayerInfo{ID: p, Energy: ps.energy, Score: ps.score}
	v.Bots, v.Energy, v.Walls = v.Bots[:0], v.Energy[:0], v.Walls[:0]
	v.Cores, v.Dead = v.Cores[:0], v.Dead[:0]
	W := m.words
	for r := 0; r < m.rows; r++ {
		for k := 0; k < W; k++ {
			i := r*W + k
			see := vis[i]
			if see == 0 {
				continue
			}
			for x := see & m.wallBits[i]; x != 0; x &= x - 1 {
				v.Walls = append(v.Walls, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.energyBits[i]; x != 0; x &= x - 1 {
				v.Energy = append(v.Energy, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.occBits[i]; x != 0; x &= x - 1 {
				c := k<<6 | bits.TrailingZeros64(x)
				t := r*m.cols + c
				for o := 0; o < m.np; o++ {
					if m.occStamp[o][t] == m.occGen {
						v.Bots = append(v.Bots, Unit{Position: Pos{Row: r, Col: c}, Owner: o})
					}
				}
			}
		}
	}
	for _, ci := range m.coreOrder {
		c := &m.cores[ci]
		if m.visible(vis, c.row, c.col) {
			v.Cores = append(v.Cores, CoreView{Position: Pos{Row: c.row, Col: c.col}, Owner: c.owner, Active: c.active})
		}
	}
	for _, d := range m.deaths {
		r, c := int(d.tile)/m.cols, int(d.tile)%m.cols
		if m.visible(vis, r, c) {
			v.Dead = append(v.Dead, Unit{Position: Pos{Row: r, Col: c}, Owner: int(d.owner)})
		}
	}
	if m.cfg.ZoneEnabled {
		z := &m.zones[p]
		z.Center = m.ZoneCenter()
		z.Radius = ZoneRadius(m.cfg, m.turn+1)
		v.Zone = z
	} else {
		v.Zone = nil
	}
	return v
}

// ZoneRadius is the safe radius of the storm in turn (a turn as executed,
// 1 for the first): from zone_start_turn on,
// max(zone_min_radius, R0 - zone_shrink_step*floor((turn-zone_start_turn)/zone_shrink_interval))
// with R0 = max(rows, cols)/2; before zone_start_turn it is R0 (and the
// storm does not strike).
func ZoneRadius(cfg Config, turn int) int {
	r0 := max(cfg.Rows, cfg.Cols) / 2
	if turn < cfg.ZoneStartTurn {
		return r0
	}
	interval := cfg.ZoneShrinkInterval
	if interval < 1 {
		interval = 1
	}
	return max(cfg.ZoneMinRadius, r0-cfg.ZoneShrinkStep*((turn-cfg.ZoneStartTurn)/interval))
}

// ZoneCenter is the centre of the storm: (rows/2, cols/2).
func (m *Match) ZoneCenter() Pos { return Pos{Row: m.rows / 2, Col: m.cols / 2} }

// call asks player p for its moves; a panic becomes a PlayerError.
func (m *Match) call(p int, v *View) (moves []Move, err error) {
	ps := &m.players[p]
	defer func() {
		if r := recover(); r != nil {
			moves, err = nil, engine.Recovered(p, ps.name, r)
		}
	}()
	ctx := m.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return ps.ctrl.Turn(ctx, v, ps.moves[:0])
}

// Run plays the match to its end, checking ctx every 32 turns and after
// every turn of a remote player; it returns ctx.Err() when cancelled and the
// error that ended the match otherwise. Every controller's Turn receives
// ctx, so a remote bot's request in flight is abandoned when ctx ends.
func (m *Match) Run(ctx context.Context) error {
	m.ctx = ctx
	defer func() { m.ctx = nil }()
	for {
		if m.turn&31 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		done, err := m.Step()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// Step plays one turn. It returns done once the match is over (further
// calls do nothing). An error from a non-remote controller, or a panic in
// any controller, ends the match with an *engine.PlayerError.
func (m *Match) Step() (done bool, err error) {
	if m.done {
		return true, m.err
	}
	t := m.turn + 1
	// Orders, from the views of the state after turn m.turn.
	var remotes []int
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated || ps.inactive {
			continue
		}
		if ps.remote {
			remotes = append(remotes, p)
			continue
		}
		moves, err := m.call(p, m.buildView(p))
		if err != nil {
			var pe *engine.PlayerError
			if !errors.As(err, &pe) {
				err = &engine.PlayerError{Seat: p, Name: ps.name, Err: err}
			}
			m.done, m.err = true, err
			return true, err
		}
		ps.moves, ps.err = moves, nil
	}
	if len(remotes) > 0 {
		if err := m.callRemotes(remotes); err != nil {
			m.done, m.err = true, err
			return true, err
		}
		// A cancelled run abandons the remote requests in flight: their
		// failures are the caller's doing, not the bots', so the turn is
		// not played and the match ends with the context's error.
		if m.ctx != nil {
			if err := m.ctx.Err(); err != nil {
				m.done, m.err = true, err
				return true, err
			}
		}
	}
	m.deaths = m.deaths[:0]
	m.events = m.events[:0]
	for _, p := range remotes {
		ps := &m.players[p]
		if ps.err != nil {
			ps.moves = ps.moves[:0]
			ps.fails++
			if ps.fails >= MaxFailures {
				ps.inactive = true
				ps.stats.Crashed = true
				m.events = append(m.events, Event{Type: EventBotInactive, Unit: -1, Owner: -1, Player: p, Core: -1})
			}
		} else {
			ps.fails = 0
		}
	}
	m.applyOrders(t)
	if m.rec != nil {
		m.rec.orders(t)
	}
	m.phaseMove(t)
	m.phaseCombat()
	m.phaseZone(t)
	m.compact()
	m.phaseCapture(t)
	m.phaseCollect(t)
	m.phaseSpawn(t)
	m.phaseEnergy(t)
	m.phaseEndgame(t)
	m.turn = t
	m.sortDeaths()
	if m.rec != nil {
		m.rec.turn()
		if m.done {
			m.rec.finish()
		}
	}
	return m.done, nil
}

// callRemotes asks the remote players, concurrently when there are several;
// their errors are kept as failed turns, their panics abort the match.
func (m *Match) callRemotes(remotes []int) error {
	views := make([]*View, len(remotes))
	for i, p := range remotes {
		views[i] = m.buildView(p)
	}
	panics := make([]error, len(remotes))
	var wg sync.WaitGroup
	for i, p := range remotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			moves, err := m.call(p, views[i])
			var pe *engine.PlayerError
			if errors.As(err, &pe) && errors.Is(err, engine.ErrPanic) {
				panics[i] = err
				return
			}
			m.players[p].moves, m.players[p].err = moves, err
		}()
	}
	wg.Wait()
	return errors.Join(panics...)
}

// applyOrders validates every player's moves: a move counts when a unit of
// that player stands on its position and has no order yet this turn, and
// its direction is one of the five.
func (m *Match) applyOrders(t int) {
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated || ps.inactive {
			continue
		}
		for _, mv := range ps.moves {
			r, c := mv.Position.Row, mv.Position.Col
			if r < 0 || r >= m.rows || c < 0 || c >= m.cols || mv.Direction > West {
				continue
			}
			i := m.unitAt(p, r*m.cols+c)
			if i < 0 || m.units[i].ordered == int32(t) {
				continue
			}
			m.units[i].ordered = int32(t)
			m.units[i].dir = mv.Direction
		}
	}
}

// phaseMove moves every unit with an order (a move into a wall stays), then
// kills every unit that shares its tile with a unit of the same owner.
func (m *Match) phaseMove(t int) {
	for i := range m.units {
		u := &m.units[i]
		if u.ordered != int32(t) || u.dir == Stay {
			continue
		}
		dr, dc := u.dir.Delta()
		r, c := int(u.row)+dr, int(u.col)+dc
		if r < 0 {
			r += m.rows
		} else if r >= m.rows {
			r -= m.rows
		}
		if c < 0 {
			c += m.cols
		} else if c >= m.cols {
			c -= m.cols
		}
		if !m.wall[r*m.cols+c] {
			u.row, u.col = int32(r), int32(c)
		}
	}
	m.occGen++
	gen := m.occGen
	collided := false
	for i := range m.units {
		u := &m.units[i]
		tile := int(u.row)*m.cols + int(u.col)
		st := m.occStamp[u.owner]
		if st[tile] == gen {
			u.cause = CauseCollision
			m.units[m.occUnit[u.owner][tile]].cause = CauseCollision
			collided = true
			continue
		}
		st[tile] = gen
		m.occUnit[u.owner][tile] = int32(i)
	}
	if collided {
		for i := range m.units {
			if m.units[i].cause == CauseCollision {
				m.died(i, CauseCollision)
			}
		}
	}
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

// phaseCombat applies focus fire: u dies when some enemy e within
// attack_radius2 has |enemies(e)| <= |enemies(u)|, all counted before any
// death; each other player with a unit in range of a unit that died scores
// kill_score for it.
func (m *Match) phaseCombat() {
	ar2 := int32(m.cfg.AttackRadius2)
	R, C := int32(m.rows), int32(m.cols)
	m.pairs = m.pairs[:0]
	for i := range m.units {
		u := &m.units[i]
		u.enemies, u.minEnem, u.killers = 0, 1<<30, 0
	}
	if rad := isqrt(int(ar2)); 2*rad+1 <= m.rows {
		m.combatPairsByRow(rad)
	} else {
		for i := range m.units {
			if m.units[i].cause != "" {
				continue
			}
			for j := i + 1; j < len(m.units); j++ {
				m.combatPair(i, j, ar2, R, C)
			}
		}
	}
	if len(m.pairs) == 0 {
		return
	}
	for k := 0; k < len(m.pairs); k += 2 {
		u, e := &m.units[m.pairs[k]], &m.units[m.pairs[k+1]]
		u.minEnem = min(u.minEnem, e.enemies)
		e.minEnem = min(e.minEnem, u.enemies)
		u.killers |= 1 << e.owner
		e.killers |= 1 << u.owner
	}
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" || u.enemies == 0 || u.minEnem > u.enemies {
			continue
		}
		m.died(i, CauseCombat)
		for p := 0; p < m.np; p++ {
			if u.killers&(1<<p) != 0 {
				m.players[p].score += m.cfg.KillScore
				m.players[p].stats.Kills++
			}
		}
	}
}

// combatPair records i and j as enemies in range of each other when they
// are of different owners, alive and within ar2.
func (m *Match) combatPair(i, j int, ar2, R, C int32) {
	u, e := &m.units[i], &m.units[j]
	if e.owner == u.owner || e.cause != "" {
		return
	}
	dr := u.row - e.row
	if dr < 0 {
		dr = -dr
	}
	if 2*dr > R {
		dr = R - dr
	}
	d2 := dr * dr
	if d2 > ar2 {
		return
	}
	dc := u.col - e.col
	if dc < 0 {
		dc = -dc
	}
	if 2*dc > C {
		dc = C - dc
	}
	if d2+dc*dc > ar2 {
		return
	}
	u.enemies++
	e.enemies++
	m.pairs = append(m.pairs, int32(i), int32(j))
}

// combatPairsByRow finds the pairs in range with per-owner, per-row unit
// lists: each unit looks at the rows within rad of its own in the lists of
// the players with a higher id than its owner's, so every pair of enemies
// within reach is seen exactly once when 2*rad+1 <= rows, and units never
// look at their own side.
func (m *Match) combatPairsByRow(rad int) {
	ar2, R, C := int32(m.cfg.AttackRadius2), int32(m.rows), int32(m.cols)
	for k := range m.rowHead {
		m.rowHead[k] = -1
	}
	if cap(m.rowNext) < len(m.units) {
		m.rowNext = make([]int32, len(m.units), 2*len(m.units))
	}
	m.rowNext = m.rowNext[:len(m.units)]
	for i := len(m.units) - 1; i >= 0; i-- {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		head := &m.rowHead[int(u.owner)*m.rows+int(u.row)]
		m.rowNext[i] = *head
		*head = int32(i)
	}
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		for q := int(u.owner) + 1; q < m.np; q++ {
			base := q * m.rows
			for dr := -rad; dr <= rad; dr++ {
				rr := int(u.row) + dr
				if rr < 0 {
					rr += m.rows
				} else if rr >= m.rows {
					rr -= m.rows
				}
				for j := m.rowHead[base+rr]; j >= 0; j = m.rowNext[j] {
					m.combatPair(i, int(j), ar2, R, C)
				}
			}
		}
	}
}

// phaseZone kills every unit outside the safe circle, from zone_start_turn
// on, when the zone is enabled.
func (m *Match) phaseZone(t int) {
	m.zoneR = 0
	if !m.cfg.ZoneEnabled || t < m.cfg.ZoneStartTurn {
		return
	}
	r := ZoneRadius(m.cfg, t)
	m.zoneR = r
	centre := m.ZoneCenter()
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		if Dist2(Pos{Row: int(u.row), Col: int(u.col)}, centre, m.rows, m.cols) > r*r {
			m.died(i, CauseStorm)
		}
	}
}

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

// phaseCapture razes every active core with an enemy unit on it and no unit
// of its owner; the lowest enemy player id on it scores 2.
func (m *Match) phaseCapture(t int) {
	for ci := range m.cores {
		c := &m.cores[ci]
		if !c.active || m.occStamp[c.owner][c.tile] == m.occGen {
			continue
		}
		for p := 0; p < m.np; p++ {
			if p != c.owner && m.occStamp[p][c.tile] == m.occGen {
				c.active = false
				ps := &m.players[p]
				ps.score += 2
				ps.stats.CoresRazed++
				if ps.stats.FirstRazeTurn == 0 {
					ps.stats.FirstRazeTurn = t
				}
				m.players[c.owner].stats.CoresLost++
				m.events = append(m.events, Event{Type: EventCaptured, Unit: -1, Owner: c.owner, Player: p, Core: c.id, Pos: Pos{Row: c.row, Col: c.col}})
				break
			}
		}
	}
}

// phaseCollect gives a full energy tile to the one player standing on it;
// with two or more players on it, it empties and nobody gains.
func (m *Match) phaseCollect(t int) {
	for ei, tile := range m.energyTiles {
		if !m.energyFull[ei] {
			continue
		}
		r, c := int(tile)/m.cols, int(tile)%m.cols
		if m.occBits[r*m.words+c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		who, n := -1, 0
		for p := 0; p < m.np; p++ {
			if m.occStamp[p][tile] == m.occGen {
				who = p
				n++
			}
		}
		m.energyFull[ei] = false
		m.energyEmpty[ei] = t
		m.energyBits[r*m.words+c>>6] &^= 1 << (c & 63)
		if n == 1 {
			ps := &m.players[who]
			ps.energy++
			ps.stats.EnergyCollected++
			m.events = append(m.events, Event{Type: EventCollected, Unit: -1, Owner: -1, Player: who, Core: -1, Pos: Pos{Row: r, Col: c}})
		}
	}
}

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
			m.occBits[c.row*m.words+c.col>>6] |= 1 << (c.col & 63)
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

// phaseEnergy refills each tile emptied in turn e at the end of turn
// e + energy_interval.
func (m *Match) phaseEnergy(t int) {
	for ei, tile := range m.energyTiles {
		if m.energyFull[ei] || m.energyEmpty[ei]+m.cfg.EnergyInterval > t {
			continue
		}
		m.energyFull[ei] = true
		r, c := int(tile)/m.cols, int(tile)%m.cols
		m.energyBits[r*m.words+c>>6] |= 1 << (c & 63)
	}
}

// phaseEndgame eliminates players without an active core and decides
// whether the match is over.
func (m *Match) phaseEndgame(t int) {
	eliminated := false
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated {
			continue
		}
		alive := false
		for _, ci := range ps.cores {
			if m.cores[ci].active {
				alive = true
				break
			}
		}
		if alive {
			continue
		}
		ps.eliminated = true
		ps.stats.EliminatedTurn = t
		eliminated = true
		for i := range m.units {
			if int(m.units[i].owner) == p {
				m.died(i, CauseEliminated)
			}
		}
	}
	if eliminated {
		m.compact()
	}
	left := 0
	last := -1
	for p := range m.players {
		if !m.players[p].eliminated {
			left++
			last = p
		}
	}
	switch {
	case left == 1:
		m.end(ReasonElimination, t, last)
	case left == 0:
		m.end(ReasonAnnihilation, t, -1)
	case t >= m.cfg.MaxTurns:
		m.end(ReasonTurns, t, -2)
	}
}

// end finishes the match. winner -2 means: decide by score, energy and
// living units among the players left.
func (m *Match) end(reason string, t, winner int) {
	m.done = true
	m.reason = reason
	units := make([]int, m.np)
	for i := range m.units {
		units[m.units[i].owner]++
	}
	for p := range m.players {
		ps := &m.players[p]
		st := &ps.stats
		st.Score, st.Energy, st.Units = ps.score, ps.energy, units[p]
		st.Cores = 0
		for _, ci := range ps.cores {
			if m.cores[ci].active {
				st.Cores++
			}
		}
	}
	// Rank key: how long a player survived, then score, energy, units.
	key := func(p int) [4]int {
		st := &m.players[p].stats
		surv := t + 1
		if m.players[p].eliminated {
			surv = st.EliminatedTurn
		}
		if reason == ReasonAnnihilation && surv == t {
			return [4]int{t, 0, 0, 0} // a draw among the last ones standing
		}
		return [4]int{surv, st.Score, st.Energy, st.Units}
	}
	better := func(a, b [4]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] > b[i]
			}
		}
		return false
	}
	m.ranks = make([]int, m.np)
	for p := range m.ranks {
		m.ranks[p] = 1
		for q := range m.ranks {
			if q != p && better(key(q), key(p)) {
				m.ranks[p]++
			}
		}
	}
	if winner == -2 {
		winner = -1
		firsts := 0
		for p, r := range m.ranks {
			if r == 1 {
				firsts++
				winner = p
			}
		}
		if firsts != 1 {
			winner = -1
		}
	}
	m.winner = winner
}

// sortDeaths orders this turn's deaths by (tile, owner) for the views.
func (m *Match) sortDeaths() {
	d := m.deaths
	for i := 1; i < len(d); i++ {
		for j := i; j > 0 && (d[j].tile < d[j-1].tile || d[j].tile == d[j-1].tile && d[j].owner < d[j-1].owner); j-- {
			d[j], d[j-1] = d[j-1], d[j]
		}
	}
}
