package acbhttp

import (
	"context"
	"net"
	"testing"
	"time"

	"crucible/protocol/httpguard/guardtest"
)

// openStalledTurn dials addr from ip and sends stalledTurnHeaders, then
// the first sent bytes of the body.
func openStalledTurn(ip, addr string, declared, sent int) (net.Conn, error) {
	c, err := guardtest.Dialer(ip).Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	if _, err := c.Write(append(stalledTurnHeaders(declared), spaces[:sent]...)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// attack keeps perIP connections from each of ips stalled as the report
// of the defect describes (1 byte of a declared 1 MB body, a wrong
// signature) until the returned stop is called.
func attack(addr string, ips []string, perIP int) (stop func()) {
	return guardtest.Attack(ips, perIP, func(ip string) (net.Conn, error) { return openStalledTurn(ip, addr, 1<<20, 1) })
}

// serveForAttack serves a bot at its defaults on a real listener.
func serveForAttack(t *testing.T, rec *recorder) (*Server, string) {
	t.Helper()
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: rec.factory})
	if err != nil {
		t.Fatal(err)
	}
	return srv, guardtest.Serve(t, srv.Serve)
}

// playTurns plays turns from..to-1 of match as the engine does (the HTTP
// player, whose Turn fails when the reply misses config.turn_timeout, 3 s)
// and fails the test on any turn that does not succeed.
func playTurns(t *testing.T, p *Player, match string, from, to int) {
	t.Helper()
	var slowest time.Duration
	for turn := from; turn < to; turn++ {
		v := sampleView(match, turn, 4)
		start := time.Now()
		if _, err := p.Turn(context.Background(), v, nil); err != nil {
			t.Fatalf("turn %d of %s under attack: %v", turn, match, err)
		}
		slowest = max(slowest, time.Since(start))
	}
	t.Logf("turns %d to %d of %s: the slowest answered in %v", from, to-1, match, slowest.Round(time.Millisecond))
}

// Strangers without the secret, from as many addresses as there are
// reading slots, stall their bodies (the report's attack: a wrong
// signature and 1 byte of a declared 1 MB body, dialling again whenever
// they are cut off). A match that has already sent a signed turn keeps its
// reserved slots: every further turn is answered within the turn budget
// as the engine measures it. Before the fix the attack held every slot and
// a signed turn waited 8 to 10 s.
func TestStrangersFromManyAddressesDoNotStarveARunningMatch(t *testing.T) {
	rec := &recorder{}
	srv, addr := serveForAttack(t, rec)
	p, err := NewPlayer(PlayerConfig{URL: "http://" + addr, Secret: testSecret, BotID: "seat0"})
	if err != nil {
		t.Fatal(err)
	}
	playTurns(t, p, "m_running", 0, 1) // the match proves itself
	stop := attack(addr, guardtest.Loopbacks(DefaultMaxBodies+8), 1)
	defer stop()
	guardtest.AwaitStrangers(t, srv.bodies.Slots, DefaultMaxBodies-DefaultProvenBodies)
	playTurns(t, p, "m_running", 1, 12)
}

// Strangers from one address can hold only BodiesPerAddr slots, so even a
// match's first turn, which has proven nothing yet, is read at once.
func TestStrangersFromOneAddressDoNotStarveANewMatch(t *testing.T) {
	rec := &recorder{}
	srv, addr := serveForAttack(t, rec)
	stop := attack(addr, []string{guardtest.Loopback(0)}, DefaultMaxBodies+16)
	defer stop()
	guardtest.AwaitStrangers(t, srv.bodies.Slots, DefaultBodiesPerAddr)
	p, err := NewPlayer(PlayerConfig{URL: "http://" + addr, Secret: testSecret, BotID: "seat0"})
	if err != nil {
		t.Fatal(err)
	}
	playTurns(t, p, "m_new", 0, 12)
	if created, _ := rec.snapshot(); created != 1 {
		t.Fatalf("%d strategy instances, want 1 (no stranger's body reached the strategy)", created)
	}
}

// A match id proves itself only from the address of its signed turns: a
// stranger who names a running match from elsewhere is still a stranger.
func TestAProvenMatchIsProvenOnlyFromItsAddress(t *testing.T) {
	rec := &recorder{}
	srv, _ := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	now := time.Now()
	if srv.matches.proven("m", "127.0.0.1", now) {
		t.Fatal("a match that sent nothing is proven")
	}
	srv.matches.prove("m", "127.0.0.1", now)
	if !srv.matches.proven("m", "127.0.0.1", now) || srv.matches.proven("m", "127.0.1.9", now) || srv.matches.proven("other", "127.0.0.1", now) {
		t.Fatal("proven must hold for the match id and the address of its signed turn only")
	}
	if srv.matches.proven("m", "127.0.0.1", now.Add(DefaultSessionIdle+time.Second)) {
		t.Fatal("a match idle past the session idle time is still proven")
	}
}
