package acb

import (
	"math"
	"strconv"
)

// recorder writes the replay document (see Replay) as the match goes: the
// header when the match is built and the result at the end with
// encoding/json (Replay's types), and each turn by hand, in the field order
// of ReplayTurn, because encoding/json makes a recorded match 2.4 times
// slower (BenchmarkReplay: 3.7 against 8.8 µs a turn, 136 against 7,538
// allocations a match). TestReplayEncodeRoundTrip checks that the turns
// written here are byte for byte what encoding/json writes for ReplayTurn.
type recorder struct {
	m     *Match
	buf   []byte
	turns int
}

func newRecorder(m *Match) *recorder {
	r := &recorder{m: m}
	h := ReplayHeader{
		Format: ReplayFormat, RulesVersion: m.cfg.RulesVersion, MatchID: m.matchID, Seed: m.seed,
		Config: m.cfg, Map: *m.mp, Initial: ReplayInitial{Units: make([]ReplayUnit, 0, len(m.units))},
	}
	for _, u := range m.units {
		h.Initial.Units = append(h.Initial.Units, ReplayUnit{ID: int(u.id), Owner: int(u.owner), Row: int(u.row), Col: int(u.col)})
	}
	for p := range m.players {
		ps := &m.players[p]
		params := ps.params
		if params == nil || !finite(params) {
			params = map[string]float64{} // JSON has no NaN or infinity
		}
		h.Players = append(h.Players, ReplayPlayer{ID: p, Name: ps.name, Strategy: ps.strategy, Params: params})
	}
	// A config, strings and finite numbers: encoding cannot fail.
	r.buf, _ = appendReplayHeader(make([]byte, 0, 1<<16), &h)
	return r
}

// finite reports whether every parameter is a finite number.
func finite(params map[string]float64) bool {
	for _, v := range params {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// orders opens turn t's object with the validated moves other than stay,
// by unit id.
func (r *recorder) orders(t int) {
	b := r.buf
	if r.turns > 0 {
		b = append(b, ",\n"...)
	}
	r.turns++
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `,"orders":[`...)
	first := true
	for _, u := range r.m.units {
		if u.ordered != int32(t) || u.dir == Stay {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendReplayOrder(b, int(u.id), u.dir)
	}
	r.buf = append(b, ']')
}

// turn closes the turn object with the state at its end.
func (r *recorder) turn() {
	m := r.m
	b := append(r.buf, `,"units":[`...)
	for i, u := range m.units {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendReplayUnit(b, int(u.id), int(u.owner), int(u.row), int(u.col))
	}
	b = append(b, `],"cores_razed":[`...)
	first := true
	for _, c := range m.cores {
		if c.active {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendInt(b, int64(c.id), 10)
	}
	b = append(b, `],"energy":[`...)
	first = true
	for ei, t := range m.energyTiles {
		if !m.energyFull[ei] {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendPair(b, int(t)/m.cols, int(t)%m.cols)
	}
	b = append(b, `],"players":[`...)
	for p := range m.players {
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"score":`...)
		b = strconv.AppendInt(b, int64(m.players[p].score), 10)
		b = append(b, `,"energy":`...)
		b = strconv.AppendInt(b, int64(m.players[p].energy), 10)
		b = append(b, '}')
	}
	b = append(b, `],"events":[`...)
	for i, e := range m.events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendReplayEvent(b, replayEventOf(e))
	}
	r.buf = append(b, "]}"...)
}

// finish closes the document with the result.
func (r *recorder) finish() {
	m := r.m
	res := ReplayResult{Reason: m.reason, Turns: m.resultTurns(), Adjudicated: m.adjudicated}
	if m.winner != NoWinner {
		w := m.winner
		res.Winner = &w
	}
	for p := range m.players {
		st := m.players[p].stats
		res.Players = append(res.Players, ReplayFinal{Score: st.Score, Energy: st.Energy, Units: st.Units, Cores: st.Cores, Crashed: st.Crashed})
	}
	r.buf, _ = appendReplayResult(r.buf, &res)
}

// appendReplayEvent appends one event in the shape of its type (see
// ReplayEvent).
func appendReplayEvent(b []byte, e ReplayEvent) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, e.Type...)
	b = append(b, '"')
	num := func(name string, v int) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	switch e.Type {
	case EventDied:
		num("unit", e.Unit)
		b = append(b, `,"cause":"`...)
		b = append(b, e.Cause...)
		b = append(b, '"')
	case EventSpawned:
		num("unit", e.Unit)
		num("owner", e.Owner)
		num("core", e.Core)
	case EventCollected:
		num("player", e.Player)
		num("row", e.Row)
		num("col", e.Col)
	case EventCaptured:
		num("core", e.Core)
		num("owner", e.Owner)
		num("player", e.Player)
	case EventBotInactive:
		num("player", e.Player)
	}
	return append(b, '}')
}
