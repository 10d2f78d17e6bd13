package kindlingapi

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"crucible/engine/kindling"
	"crucible/protocol/httpguard/guardtest"
)

// attack keeps perIP connections from each of ips sending the headers of
// a POST to path with no token and 1 byte of a declared 64 KiB body until
// the returned stop is called.
func attack(addr, path string, ips []string, perIP int) (stop func()) {
	return guardtest.Attack(ips, perIP, func(ip string) (net.Conn, error) {
		c, err := guardtest.Dialer(ip).Dial("tcp", addr)
		if err == nil {
			_, err = fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: k\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", path, MaxBody)
		}
		return c, err
	})
}

// victimMatch serves a Kindling server at its defaults on a real listener
// and creates a match of the shortest turns against a house bot there.
func victimMatch(t *testing.T) (*Server, string, *Client, Seated) {
	t.Helper()
	srv, err := NewServer(ServerConfig{HouseBot: testHouse})
	if err != nil {
		t.Fatal(err)
	}
	addr := guardtest.Serve(t, srv.Serve)
	c, err := NewClient("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Create(context.Background(), CreateRequest{Name: "victim", Seats: 2, Bots: 1, TurnSeconds: MinTurnSeconds})
	if err != nil {
		t.Fatal(err)
	}
	return srv, addr, c, s
}

// pause is how long playAll waits after each bid.
const pause = 250 * time.Millisecond

// playAll plays seat s of a match against a house bot to its end, bidding
// on every turn as an agent does (state, then bids for its turn), and
// fails the test if a bid is refused or the log lists the seat as missed.
func playAll(t *testing.T, c *Client, s Seated) {
	t.Helper()
	ctx := context.Background()
	var slowest time.Duration
	for turn := 1; turn <= kindling.Turns; turn++ {
		st, err := c.State(ctx, s.Code, s.Token)
		if err != nil {
			t.Fatal(err)
		}
		if st.Phase != PhasePlaying || st.Turn != turn {
			t.Fatalf("before bid %d the match is %s at turn %d (a turn went by unplayed)", turn, st.Phase, st.Turn)
		}
		start := time.Now()
		if _, err := c.Bid(ctx, s.Code, s.Token, kindling.Bid{1}, turn); err != nil {
			t.Fatalf("bid of turn %d under attack: %v", turn, err)
		}
		slowest = max(slowest, time.Since(start))
		time.Sleep(pause) // as an agent polls, so that the match lasts through the attack
	}
	t.Logf("the slowest of %d bids under attack took %v", kindling.Turns, slowest.Round(time.Millisecond))
	lg, err := c.Log(ctx, s.Code)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range lg.Turns {
		if rec.Missed[s.Seat] {
			t.Fatalf("turn %d lists seat %d as missed", rec.Turn, s.Seat)
		}
	}
}

// The report's attack from one address: 70 stalled bodies without a
// token. The address holds at most BodiesPerAddr reading slots, so a
// victim elsewhere creates its match and lands its bid on every turn
// (turns of the shortest length, 10 s). Before the fix the attack held
// every slot: the victim's bids took 9.9 s, got 409, and turns were
// missed.
func TestStalledBodiesFromOneAddressDoNotStarveAMatch(t *testing.T) {
	srv, addr, c, s := victimMatch(t)
	stop := attack(addr, "/api/matches", []string{guardtest.Loopback(0)}, 70)
	defer stop()
	guardtest.AwaitStrangers(t, srv.bodies.Slots, DefaultBodiesPerAddr)
	playAll(t, c, s)
	if _, err := c.Create(context.Background(), CreateRequest{Name: "next", Seats: 2, Bots: 1}); err != nil {
		t.Fatalf("create under attack: %v", err)
	}
}

// The same attack from as many addresses as there are reading slots: the
// half of them kept for requests carrying a seat's token stays free, so a
// match in play lands its bid on every turn.
func TestStalledBodiesFromManyAddressesDoNotStarveAMatch(t *testing.T) {
	srv, addr, c, s := victimMatch(t)
	stop := attack(addr, "/api/matches/"+s.Code+"/bids", guardtest.Loopbacks(DefaultMaxBodies+6), 1)
	defer stop()
	guardtest.AwaitStrangers(t, srv.bodies.Slots, DefaultMaxBodies/2)
	playAll(t, c, s)
}
