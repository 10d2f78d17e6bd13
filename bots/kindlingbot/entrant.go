// Package kindlingbot plays an outside Kindling agent in the arena
// (../../../shared/specs/bots.md): an arena.Entrant whose every match runs
// one process of the agent's variant (botproc.Manager.Run) with
// KINDLING_URL naming the lab's Kindling server on loopback (Host) and the
// match code as its last argument, as the seed's sample bots take them.
// The agent joins, polls the state and bids over the seed's JSON API; the
// arena's engine waits for each of its bids. The server answers the lab's
// long poll (?wait=S&version=V) as soon as the turn changes, so a match of
// an agent that sends it takes a fraction of a second; an agent that polls
// once a second, as the seed's loop does, still plays (about eight seconds
// a match) and the host says so once.
package kindlingbot

import (
	"context"
	"fmt"
	"io"
	"time"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/engine"
	"crucible/engine/kindling"
)

// Game is the game this package plays.
const Game = "kindling"

// URLEnv is the variable that names the Kindling server to the agent.
const URLEnv = "KINDLING_URL"

// DefaultTurn is how long the arena waits for the agent's bid on one turn
// (the seed's shortest turn) before it bids nothing for it.
const DefaultTurn = 10 * time.Second

// DefaultFinishGrace is how long an agent has to exit once its match is
// over before its process group is stopped.
const DefaultFinishGrace = 5 * time.Second

// Entrant makes an arena entrant named name of variant v (a manifest of
// game kindling): each match starts a process of v from m, with
// KINDLING_URL set to host's server and the match code as the last
// argument, and its seat bids what the agent locks in (nothing on a turn
// it misses for DefaultTurn, or once the process has ended). The entrant's
// Strategy is the bot's name, its VariantID the variant's id, its Params
// the variant's values.
func Entrant(m *botproc.Manager, host *Host, v bots.Variant, name string) (arena.Entrant, error) {
	if g := v.Manifest.Game; g != Game {
		return arena.Entrant{}, fmt.Errorf("bot %s plays %s, not %s", v.Label(), g, Game)
	}
	spec := v.Spec()
	return arena.Entrant{
		Name:      name,
		Strategy:  v.Manifest.Name,
		VariantID: v.ID,
		Params:    v.Values(),
		New: func(ctx context.Context, seed uint64, seatNo int) (engine.Player, error) {
			url, err := host.start()
			if err != nil {
				return nil, err
			}
			s, err := host.open(v.Manifest.Name, seatNo, DefaultTurn)
			if err != nil {
				return nil, err
			}
			runCtx, cancel := context.WithCancel(ctx)
			p := &Player{host: host, seat: s, cancel: cancel, done: make(chan struct{})}
			go func() {
				defer close(p.done)
				_, p.err = m.Run(runCtx, spec, []string{URLEnv + "=" + url}, s.code)
			}()
			return p, nil
		},
	}, nil
}

// Player is one match's seat played by an agent's process: a
// kindling.Bidder and an io.Closer that ends the agent's match and its
// process.
type Player struct {
	host   *Host
	seat   *seat
	cancel context.CancelFunc
	done   chan struct{}
	err    error // the process's end, once done is closed
	missed int
}

var (
	_ kindling.Bidder = (*Player)(nil)
	_ io.Closer       = (*Player)(nil)
)

// Bid shows the agent the turn and waits for its bid: nothing when it has
// not bid within the turn, or its process has ended.
func (p *Player) Bid(v *kindling.View, out *kindling.Bid) {
	p.seat.open(v)
	t := time.NewTimer(p.seat.turn)
	defer t.Stop()
	select {
	case b := <-p.seat.bids:
		*out = b
	case <-t.C:
		p.missed++
	case <-p.done:
		p.missed++
	}
}

// Close shows the agent the match finished, gives it DefaultFinishGrace
// to exit, then stops its process.
func (p *Player) Close() error {
	p.seat.finish()
	t := time.NewTimer(DefaultFinishGrace)
	select {
	case <-p.done:
	case <-t.C:
	}
	t.Stop()
	p.cancel()
	<-p.done
	p.host.drop(p.seat)
	if p.err != nil && p.err != context.Canceled {
		p.host.notice(fmt.Sprintf("match %s: %v (%d turns bid nothing)", p.seat.code, p.err, p.missed))
	} else if p.missed > 0 {
		p.host.notice(fmt.Sprintf("match %s: the agent missed %d turns (nothing bid)", p.seat.code, p.missed))
	}
	return nil
}
