package kindlingapi

import (
	"fmt"
	"sync"
	"time"

	"crucible/engine"
	"crucible/engine/kindling"
)

// seat is one taken seat of a match.
type seat struct {
	name   string
	kind   string
	token  string          // empty for house bots
	bidder kindling.Bidder // house bots only
}

// match is one hosted match. Every field is guarded by mu; handlers lock
// it, bring the match up to date with advance, act, and render.
type match struct {
	mu sync.Mutex

	code        string
	seats       int
	turnSeconds int
	botLevel    string
	botLabel    string // what the house bots play, in their names
	seed        uint64
	created     time.Time
	owner       string // the address that created it

	players  []seat
	phase    string
	st       kindling.State
	bids     [kindling.MaxSeats]kindling.Bid
	locked   [kindling.MaxSeats]bool
	deadline time.Time
	log      []kindling.TurnRecord
	version  int64
	changed  chan struct{} // closed by bump; nil until a long poll waits
	finished time.Time
	gone     bool // deleted from the table to make room

	view kindling.View // scratch for house bots
}

// unjoined reports whether nobody but the host holds a seat (house bots
// aside).
func (m *match) unjoined() bool {
	for _, p := range m.players[1:] {
		if p.token != "" {
			return false
		}
	}
	return true
}

// turnLength is the match's turn as a duration.
func (m *match) turnLength() time.Duration { return time.Duration(m.turnSeconds) * time.Second }

// last returns the last resolved turn, or nil.
func (m *match) last() *kindling.TurnRecord {
	if len(m.log) == 0 {
		return nil
	}
	return &m.log[len(m.log)-1]
}

// advance resolves every turn whose deadline has passed by now: seats that
// have not moved bid zeros and are listed as missed. Turns that expire
// while nobody is watching resolve at their own deadlines, one after the
// other, exactly as a timer would have resolved them.
func (m *match) advance(now time.Time) {
	for m.phase == PhasePlaying && !now.Before(m.deadline) {
		m.resolve(m.deadline)
	}
}

// start fills every open seat with a house bot and starts turn 1 at now.
func (m *match) start(now time.Time, house HouseBotFunc) error {
	for len(m.players) < m.seats {
		if err := m.addBot(house); err != nil {
			return err
		}
	}
	st, err := kindling.NewState(m.seats)
	if err != nil {
		return err
	}
	m.st = st
	m.phase = PhasePlaying
	m.deadline = now.Add(m.turnLength())
	m.bump()
	m.botsBid()
	return nil
}

// addBot seats a house bot of the match's level.
func (m *match) addBot(house HouseBotFunc) error {
	s := len(m.players)
	b, err := house(m.botLevel, engine.SeatSeed(m.seed, s), s)
	if err != nil {
		return fmt.Errorf("house bot %q for seat %d: %w", m.botLevel, s, err)
	}
	m.players = append(m.players, seat{name: fmt.Sprintf("Bot %d (%s)", s, m.botLabel), kind: KindBot, bidder: b})
	m.bump()
	return nil
}

// botsBid locks in the house bots' moves for the current turn. A bot that
// panics or bids illegally passes (zeros): the match goes on.
func (m *match) botsBid() {
	for s := range m.players {
		if m.players[s].bidder == nil || m.locked[s] {
			continue
		}
		m.view.Fill(&m.st, s, m.last())
		bid := m.botBid(s)
		if kindling.CheckBid(&m.st, s, bid) != nil {
			bid = kindling.Bid{}
		}
		m.lockIn(s, bid, m.deadline)
		if m.phase != PhasePlaying {
			return
		}
	}
}

// botBid asks seat s's house bot for its move, turning a panic into a pass.
func (m *match) botBid(s int) (bid kindling.Bid) {
	defer func() {
		if recover() != nil {
			bid = kindling.Bid{}
		}
	}()
	m.players[s].bidder.Bid(&m.view, &bid)
	return bid
}

// lockIn records seat s's move (replacing an earlier one this turn) and
// resolves the turn at time at when every seat has moved.
func (m *match) lockIn(s int, bid kindling.Bid, at time.Time) {
	m.bids[s] = bid
	m.locked[s] = true
	m.bump()
	for p := 0; p < m.seats; p++ {
		if !m.locked[p] {
			return
		}
	}
	m.resolve(at)
}

// resolve plays the current turn with engine/kindling's Resolve: seats not
// locked in missed it. Then it either finishes the match at time at or
// starts the next turn with its deadline and the house bots' moves.
func (m *match) resolve(at time.Time) {
	var missed [kindling.MaxSeats]bool
	for p := 0; p < m.seats; p++ {
		missed[p] = !m.locked[p]
	}
	rec, err := kindling.Resolve(&m.st, &m.bids, &missed)
	if err != nil {
		// Every locked bid was checked against the same state, so this is
		// unreachable; pass the offending seat rather than stall the match.
		if be, ok := err.(*kindling.BidError); ok {
			missed[be.Seat] = true
			rec, err = kindling.Resolve(&m.st, &m.bids, &missed)
		}
		if err != nil {
			m.phase, m.finished = PhaseFinished, at
			m.bump()
			return
		}
	}
	m.log = append(m.log, rec)
	m.bids = [kindling.MaxSeats]kindling.Bid{}
	m.locked = [kindling.MaxSeats]bool{}
	m.bump()
	if m.st.Finished {
		m.phase, m.finished = PhaseFinished, at
		return
	}
	m.deadline = at.Add(m.turnLength())
	m.botsBid()
}

// render returns the state as seat you sees it (-1 for a spectator).
func (m *match) render(now time.Time, you int) State {
	names, base := kindling.BeaconNames(), kindling.BaseValues()
	st := State{
		Code:        m.code,
		Version:     m.version,
		Phase:       m.phase,
		Turns:       kindling.Turns,
		Beacons:     make([]Beacon, kindling.Beacons),
		Players:     make([]Player, len(m.players)),
		Winners:     []int{},
		Standings:   []int{},
		Seats:       m.seats,
		TurnSeconds: m.turnSeconds,
		Host:        0,
	}
	values := base
	if m.phase != PhaseLobby {
		values = m.st.Values
		st.Turn = m.st.Turn
	}
	for i := range st.Beacons {
		st.Beacons[i] = Beacon{ID: i, Name: names[i], Base: base[i], Value: values[i]}
	}
	for s, p := range m.players {
		pl := Player{Seat: s, Name: p.name, Kind: p.kind, Sparks: kindling.StartSparks}
		if m.phase != PhaseLobby {
			pl.Score, pl.Sparks, pl.Embers = m.st.Scores[s], m.st.Sparks[s], m.st.Embers[s]
			pl.LockedIn = m.phase == PhasePlaying && m.locked[s]
		}
		st.Players[s] = pl
	}
	if m.phase == PhasePlaying {
		left := m.deadline.Sub(now)
		st.SecondsLeft = int((left + time.Second - 1) / time.Second)
		if st.SecondsLeft < 0 {
			st.SecondsLeft = 0
		}
	}
	if m.phase != PhaseLobby {
		st.Standings, st.Winners = kindling.Standings(&m.st)
		if m.phase != PhaseFinished {
			st.Winners = []int{}
		}
	}
	if you >= 0 && you < len(st.Players) {
		p := st.Players[you]
		y := &You{Seat: you, Sparks: p.Sparks, Embers: p.Embers, LockedIn: p.LockedIn}
		if p.LockedIn {
			b := m.bids[you]
			y.Bids = &b
		}
		y.CanMove = m.phase == PhasePlaying && !p.LockedIn
		st.You = y
	}
	if l := m.last(); l != nil {
		c := *l
		st.LastTurn = &c
	}
	return st
}

// logOf returns the match's full replay in engine/kindling's Log shape.
func (m *match) logOf() kindling.Log {
	lg := kindling.Log{Code: m.code, Players: make([]kindling.LogPlayer, len(m.players)), Turns: append([]kindling.TurnRecord{}, m.log...)}
	for s, p := range m.players {
		lg.Players[s] = kindling.LogPlayer{Seat: s, Name: p.name, Kind: p.kind}
	}
	if m.phase == PhaseFinished {
		f := kindling.FinalOf(&m.st)
		lg.Final = &f
	}
	return lg
}
