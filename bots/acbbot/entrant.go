// Package acbbot plays an outside AI Code Battle bot in the arena: an
// arena.Entrant whose every match leases a process of the bot's variant
// from a botproc.Manager and plays it over the platform's HTTP protocol
// (protocol/acbhttp), giving the process back when the match is over.
package acbbot

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/protocol/acbhttp"
)

// Game is the game this package plays.
const Game = "acb"

// Entrant makes an arena entrant named name of variant v (a manifest of
// game acb): each match's player leases a process of v from m (starting
// one, and waiting for its /health, when every process of v is serving
// its concurrency), sends its turns signed with that process's secret,
// follows the process when it is restarted on another port, and releases
// the lease when the arena closes it at the end of the match. The
// entrant's Strategy is the bot's name, its VariantID the variant's id,
// its Params the variant's values.
func Entrant(m *botproc.Manager, v bots.Variant, name string) (arena.Entrant, error) {
	if g := v.Manifest.Game; g != Game {
		return arena.Entrant{}, fmt.Errorf("bot %s plays %s, not %s", v.Label(), g, Game)
	}
	spec := v.Spec()
	// One client per entrant: its keep-alive connections are reused from
	// turn to turn and from match to match.
	client := acbhttp.NewClient()
	// Each match a process serves gets a match id of its own: the arena's
	// id with a per-entrant count, since the arena's ids may repeat across
	// runs (the evolver's probe matches of many genomes share them), and
	// a bot keeps per-match state by id.
	var served atomic.Uint64
	return arena.Entrant{
		Name:      name,
		Strategy:  v.Manifest.Name,
		VariantID: v.ID,
		Params:    v.Values(),
		New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			l, err := m.Lease(ctx, spec)
			if err != nil {
				return nil, err
			}
			return &Player{lease: l, client: client, botID: fmt.Sprintf("seat%d", seat), suffix: fmt.Sprintf("-l%d", served.Add(1))}, nil
		},
	}, nil
}

// Player is one match's seat played by a leased bot process: an
// acb.Controller and acb.Remote (its failures are failed turns, ten in a
// row make it inactive, as the seed says) and an io.Closer that gives the
// lease back.
type Player struct {
	lease  *botproc.Lease
	client *http.Client
	botID  string
	suffix string // makes the arena's match id unique per match served
	url    string
	secret string
	http   *acbhttp.Player
}

var (
	_ acb.Remote = (*Player)(nil)
	_ io.Closer  = (*Player)(nil)
)

// Remote reports true: the engine treats this player's errors as failed
// turns.
func (p *Player) Remote() bool { return true }

// Turn sends the view to the process the lease holds now and returns its
// moves; a process restarted since the last turn is reached at its new
// address with its new secret.
func (p *Player) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	url, secret := p.lease.Endpoint()
	if p.http == nil || url != p.url || secret != p.secret {
		h, err := acbhttp.NewPlayer(acbhttp.PlayerConfig{URL: url, Secret: secret, BotID: p.botID, Client: p.client})
		if err != nil {
			return buf, err
		}
		p.http, p.url, p.secret = h, url, secret
	}
	id := v.MatchID
	v.MatchID = id + p.suffix
	moves, err := p.http.Turn(ctx, v, buf)
	v.MatchID = id
	return moves, err
}

// Close releases the lease; the process stays up for other matches.
func (p *Player) Close() error {
	p.lease.Release()
	return nil
}
