package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"crucible/engine/acb"
)

// MaxReplyBody caps the /turn reply the HTTP player reads (4 MiB).
const MaxReplyBody = 4 << 20

// DefaultStartTimeout is how long WaitHealthy polls GET /health by default.
const DefaultStartTimeout = 30 * time.Second

// NewClient returns an HTTP client for talking to bots: its own transport
// with keep-alive connections (reused from turn to turn), a short dial
// timeout, no overall timeout (each turn sets its deadline), and redirects
// not followed (a 3xx reply is a failed turn).
// Share one client among the players of one bot to share its connections.
func NewClient() *http.Client {
	return &http.Client{
		// A redirect is a failed turn, not a second signed request.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        64,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     90 * time.Second,
		},
	}
}

// PlayerConfig configures an HTTP player.
type PlayerConfig struct {
	// URL is the bot's base URL, e.g. "http://127.0.0.1:8080"; /health and
	// /turn are appended.
	URL string
	// Secret is the shared HMAC key (required).
	Secret string
	// BotID is sent as X-ACB-Bot-Id (required).
	BotID string
	// Client carries the requests; nil means a new NewClient().
	Client *http.Client
	// Now is the clock for X-ACB-Timestamp and deadlines; nil means time.Now.
	Now func() time.Time
}

// Player is a remote bot as an engine player: an acb.Controller that is
// also an acb.Remote. Each Turn marshals the View as the /turn body, signs
// it, POSTs it within config.turn_timeout, verifies the reply's signature
// and parses it strictly. Any failure comes back as an error (the engine
// makes it a no-op turn and counts it); Turn never panics.
type Player struct {
	cfg     PlayerConfig
	turnURL string
	health  string
	body    bytes.Buffer
}

// NewPlayer checks cfg and returns a player.
func NewPlayer(cfg PlayerConfig) (*Player, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bot URL %q is not an http:// or https:// URL with a host", cfg.URL)
	}
	if cfg.Secret == "" {
		return nil, fmt.Errorf("bot %s: the shared secret is empty (use --secret or ACB_SECRET)", cfg.URL)
	}
	if cfg.BotID == "" {
		return nil, fmt.Errorf("bot %s: the bot id is empty", cfg.URL)
	}
	if cfg.Client == nil {
		cfg.Client = NewClient()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	base := strings.TrimSuffix(u.String(), "/")
	return &Player{cfg: cfg, turnURL: base + "/turn", health: base + "/health"}, nil
}

// Remote reports true: the engine treats this player's errors as no-op
// turns rather than fatal.
func (p *Player) Remote() bool { return true }

// URL returns the bot's base URL.
func (p *Player) URL() string { return strings.TrimSuffix(p.turnURL, "/turn") }

// WaitHealthy polls GET /health until it answers 200, giving up after
// timeout (DefaultStartTimeout when 0) or when ctx ends. The error names the
// bot and the last failure.
func (p *Player) WaitHealthy(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	delay := 50 * time.Millisecond
	var last error
	for {
		last = p.healthOnce(ctx)
		if last == nil {
			return nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("bot %s did not answer 200 on GET /health within %v: %v", p.URL(), timeout, last)
		case <-t.C:
		}
		if delay < time.Second {
			delay *= 2
		}
	}
}

func (p *Player) healthOnce(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.health, nil)
	if err != nil {
		return err
	}
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// Turn sends v to the bot and returns its moves appended to buf. The
// budget is v.Config.TurnTimeout (3 s when 0), counted from the call; a
// reply that arrives later is discarded with an error. The request is
// abandoned as soon as ctx ends.
func (p *Player) Turn(ctx context.Context, v *acb.View, buf []acb.Move) (moves []acb.Move, err error) {
	if v == nil {
		return buf, fmt.Errorf("bot %s: no state to send", p.URL())
	}
	defer func() {
		if r := recover(); r != nil {
			moves, err = buf, fmt.Errorf("bot %s: internal error: %v", p.URL(), r)
		}
	}()
	budget := time.Duration(v.Config.TurnTimeout)
	if budget <= 0 {
		budget = acb.DefaultTurnTimeout
	}
	start := p.cfg.Now()
	deadline := start.Add(budget)
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	moves, err = p.exchange(ctx, v, buf, start, budget)
	if err == nil && p.cfg.Now().After(deadline) {
		moves, err = buf, fmt.Errorf("reply arrived after the %v budget; discarded", budget)
	}
	if err != nil {
		return buf, fmt.Errorf("bot %s: turn %d: %w", p.URL(), v.Turn, err)
	}
	return moves, nil
}

// exchange does one signed request and reply.
func (p *Player) exchange(ctx context.Context, v *acb.View, buf []acb.Move, now time.Time, budget time.Duration) ([]acb.Move, error) {
	p.body.Reset()
	enc := json.NewEncoder(&p.body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(wireView(v)); err != nil {
		return buf, fmt.Errorf("encoding the state: %w", err)
	}
	body := bytes.TrimSuffix(p.body.Bytes(), []byte{'\n'})
	turn := strconv.Itoa(v.Turn)
	ts := strconv.FormatInt(now.Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.turnURL, bytes.NewReader(body))
	if err != nil {
		return buf, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set(HeaderMatchID, v.MatchID)
	h.Set(HeaderTurn, turn)
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderBotID, p.cfg.BotID)
	h.Set(HeaderSignature, SignRequest(p.cfg.Secret, v.MatchID, turn, ts, body))
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return buf, fmt.Errorf("no reply within the %v budget", budget)
		}
		return buf, err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, MaxReplyBody+1))
	if err != nil {
		return buf, fmt.Errorf("reading the reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return buf, fmt.Errorf("reply status %d: %s", resp.StatusCode, clip(bytes.TrimSpace(reply)))
	}
	if len(reply) > MaxReplyBody {
		return buf, fmt.Errorf("reply is over %d bytes", MaxReplyBody)
	}
	sig := resp.Header.Get(HeaderSignature)
	if sig == "" {
		return buf, fmt.Errorf("reply has no %s header", HeaderSignature)
	}
	if err := VerifySignature(p.cfg.Secret, ResponsePayload(v.MatchID, turn, reply), sig); err != nil {
		return buf, fmt.Errorf("reply signature: %w", err)
	}
	moves, _, err := ParseOrders(reply, buf)
	return moves, err
}

// wireView returns v with nil lists replaced by empty ones, so that the
// body always carries arrays ("bots": []) as the platform sends them, never
// null, which bots written for the platform may not expect.
func wireView(v *acb.View) *acb.View {
	if v.Bots != nil && v.Energy != nil && v.Cores != nil && v.Walls != nil && v.Dead != nil {
		return v
	}
	c := *v
	if c.Bots == nil {
		c.Bots = []acb.Unit{}
	}
	if c.Energy == nil {
		c.Energy = []acb.Pos{}
	}
	if c.Cores == nil {
		c.Cores = []acb.CoreView{}
	}
	if c.Walls == nil {
		c.Walls = []acb.Pos{}
	}
	if c.Dead == nil {
		c.Dead = []acb.Unit{}
	}
	return &c
}
