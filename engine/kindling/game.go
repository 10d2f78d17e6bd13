package kindling

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"crucible/engine"
)

// Config is a headless match's configuration. Kindling's rules have no
// options (the constants are the spec's), so it is empty; it exists so that
// configs are checked like every game's ({} and null are accepted, any
// field is unknown).
type Config struct{}

// DefaultConfig returns the only configuration.
func DefaultConfig() Config { return Config{} }

// ParseConfig decodes a JSON configuration: empty input, null and {} give
// the defaults; an unknown field is an error naming it.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("kindling config (it has no fields; use {}): %w", err)
	}
	return c, nil
}

// Detail is the game-specific part of a headless Result: the final scores,
// sparks left, standings and winners (the log's "final").
type Detail = Final

// Game implements engine.Game.
var _ engine.Game = Game{}

// Game is Kindling behind engine.Game: every turn each seat's Bidder sees
// its View and bids, then Resolve plays the turn, with no clock.
type Game struct{}

// Name returns "kindling".
func (Game) Name() string { return "kindling" }

// SeatRange returns MinSeats, MaxSeats.
func (Game) SeatRange() (min, max int) { return MinSeats, MaxSeats }

// DefaultConfig returns Config{}.
func (Game) DefaultConfig() any { return DefaultConfig() }

// ParseConfig decodes a Config (see the package function).
func (Game) ParseConfig(data []byte) (any, error) { return ParseConfig(data) }

// seatName is the name a seat goes by in errors and the log.
func seatName(s engine.Seat, seat int) string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Strategy != "":
		return s.Strategy
	}
	return fmt.Sprintf("seat %d", seat)
}

// Play runs one match of len(spec.Seats) seats: Turns calls of Resolve,
// each after asking every seat's Bidder for its move. Every player must be a
// Bidder. A bidder that panics, or makes an illegal move, ends the match
// with an *engine.PlayerError naming the seat (and the bid). ctx is checked
// between turns. The Result ranks seats by score then sparks left (a shared
// win shares rank 1) and carries a Detail. When spec.Replay is set the
// match's Log is written to it as one line of JSON, the same bytes for the
// same seed and players.
func (Game) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	switch c := spec.Config.(type) {
	case nil, Config, *Config:
	default:
		return engine.Result{}, fmt.Errorf("kindling: config of type %T is not a kindling.Config", c)
	}
	n := len(spec.Seats)
	st, err := NewState(n)
	if err != nil {
		return engine.Result{}, fmt.Errorf("kindling: %w", err)
	}
	var bidders [MaxSeats]Bidder
	for p, seat := range spec.Seats {
		b, ok := seat.Player.(Bidder)
		if !ok {
			return engine.Result{}, fmt.Errorf("kindling: seat %d (%s): player of type %T is not a kindling.Bidder", p, seatName(seat, p), seat.Player)
		}
		bidders[p] = b
	}

	var turns []TurnRecord
	if spec.Replay != nil {
		turns = make([]TurnRecord, 0, Turns)
	}
	// The view and the bids escape through the Bidder interface; they come
	// from a pool so that a match allocates only its result.
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	var last TurnRecord
	view, bids := &sc.view, &sc.bids
	for !st.Finished {
		if err := ctx.Err(); err != nil {
			return engine.Result{}, err
		}
		view.Fill(&st, 0, &last)
		for p := 0; p < n; p++ {
			view.You = p
			bids[p] = Bid{}
			if err := askBid(bidders[p], view, &bids[p], p, spec.Seats[p]); err != nil {
				return engine.Result{}, err
			}
			if err := checkAgainst(bids[p], st.Sparks[p]); err != nil {
				return engine.Result{}, &engine.PlayerError{Seat: p, Name: seatName(spec.Seats[p], p),
					Err: fmt.Errorf("illegal move on turn %d: %w", st.Turn, err)}
			}
		}
		last, err = Resolve(&st, bids, nil)
		if err != nil { // unreachable: every bid was checked above
			return engine.Result{}, fmt.Errorf("kindling: turn %d: %w", st.Turn, err)
		}
		if turns != nil {
			turns = append(turns, last)
		}
	}

	res := resultOf(&st)
	if spec.Replay != nil {
		code := spec.MatchID
		if code == "" {
			code = MatchCode(spec.Seed)
		}
		lg := Log{Code: code, Players: make([]LogPlayer, n), Turns: turns, Final: res.Detail.(*Detail)}
		for p, seat := range spec.Seats {
			lg.Players[p] = LogPlayer{Seat: p, Name: seatName(seat, p), Kind: "bot"}
		}
		data, err := lg.AppendJSON(make([]byte, 0, 1024*n))
		if err != nil {
			return engine.Result{}, fmt.Errorf("kindling: encoding the log: %w", err)
		}
		if _, err := spec.Replay.Write(append(data, '\n')); err != nil {
			return engine.Result{}, fmt.Errorf("kindling: writing the log: %w", err)
		}
	}
	return res, nil
}

// askBid calls one bidder, turning a panic into an *engine.PlayerError.
func askBid(b Bidder, v *View, out *Bid, seat int, s engine.Seat) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = engine.Recovered(seat, seatName(s, seat), r)
		}
	}()
	b.Bid(v, out)
	return nil
}

// resultOf builds the Result of a finished state with few allocations.
func resultOf(st *State) engine.Result {
	n := st.Seats
	order, top := Order(st)
	ints := make([]int, 5*n)
	d := &Detail{
		Scores:    ints[0:n:n],
		Sparks:    ints[n : 2*n : 2*n],
		Standings: ints[2*n : 3*n : 3*n],
		Winners:   ints[3*n : 3*n+top : 3*n+top],
	}
	ranks := ints[4*n : 5*n : 5*n]
	scores := make([]float64, n)
	copy(d.Scores, st.Scores[:n])
	copy(d.Sparks, st.Sparks[:n])
	copy(d.Standings, order[:n])
	copy(d.Winners, order[:top])
	// Competition ranking over the standings order: a seat equal to the one
	// before it on both keys shares its place.
	for k := 0; k < n; k++ {
		p := order[k]
		if k > 0 && !better(st, order[k-1], p) {
			ranks[p] = ranks[order[k-1]]
		} else {
			ranks[p] = k + 1
		}
		scores[p] = float64(st.Scores[p])
	}
	return engine.Result{Scores: scores, Ranks: ranks, Turns: Turns, Reason: "turns", Detail: d}
}

// scratch is the per-match working memory of Play that players see.
type scratch struct {
	view View
	bids [MaxSeats]Bid
}

// scratchPool recycles scratch between matches (and goroutines): a cache,
// not state — every field is overwritten before it is read.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}
