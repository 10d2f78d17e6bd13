package kindlingapi

import (
	"context"
	"net/http"
	"net/url"

	"crucible/engine/kindling"
	"crucible/protocol/httpguard/guardtest"
)

// Bid sends the seat's move for turn and returns the reply's state (a
// zero State when the server replies with no body).
func (c *Client) Bid(ctx context.Context, code, token string, bid kindling.Bid, turn int) (State, error) {
	var out State
	err := c.do(ctx, http.MethodPost, "/api/matches/"+url.PathEscape(code)+"/bids", token, BidRequest{Bids: bid, Turn: &turn}, &out)
	return out, err
}

// takeSlots takes n reading slots and returns the function that gives
// them back.
func (s *Server) takeSlots(n int) func() { return guardtest.TakeSlots(s.bodies.Slots, n) }
