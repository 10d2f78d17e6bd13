package acbhttp

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// SecretEnv lists the environment variables a remote bot's shared secret
// is read from on the engine side, in order: ACB_SECRET, then SHARED_SECRET
// (the name the bot side uses).
var SecretEnv = [...]string{"ACB_SECRET", "SHARED_SECRET"}

// SecretFromEnv returns the first non-empty of SecretEnv, or "".
func SecretFromEnv() string {
	for _, k := range SecretEnv {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// MaxProbeTimeout bounds the single health probe a RemoteBot found down
// makes before a match, to learn whether it is back.
const MaxProbeTimeout = 2 * time.Second

// RemoteBot builds HTTP players for one bot URL, one per match, all sharing
// one HTTP client so that its keep-alive connections are reused across
// turns and matches. It remembers a bot that did not become healthy: once
// one health wait has run out, later matches make one short probe instead
// of waiting the whole start timeout again, and fail at once while the bot
// stays down (a run finds out once, not once per match). Health waits
// that overlap are one wait.
type RemoteBot struct {
	url          string
	secret       string
	startTimeout time.Duration
	client       *http.Client

	mu   sync.Mutex
	down error       // why the last health wait failed; nil while healthy
	wait *healthWait // the health wait in flight, shared by its callers
}

// healthWait is one health wait; err is set before done is closed.
type healthWait struct {
	done chan struct{}
	err  error
}

// NewRemoteBot checks url and secret and returns a RemoteBot. startTimeout
// bounds the health check before each match (DefaultStartTimeout when 0).
func NewRemoteBot(url, secret string, startTimeout time.Duration) (*RemoteBot, error) {
	if _, err := NewPlayer(PlayerConfig{URL: url, Secret: secret, BotID: "check"}); err != nil {
		return nil, err
	}
	if startTimeout <= 0 {
		startTimeout = DefaultStartTimeout
	}
	return &RemoteBot{url: url, secret: secret, startTimeout: startTimeout, client: NewClient()}, nil
}

// NewPlayer returns a player for seat of a new match once the bot answers
// GET /health with 200; a bot that does not within the start timeout is an
// error naming it (the match does not start). A bot found down before
// gets one probe of at most MaxProbeTimeout: if it fails, so does the
// match, at once. X-ACB-Bot-Id is "seat{seat}".
func (b *RemoteBot) NewPlayer(ctx context.Context, seat int) (*Player, error) {
	p, err := NewPlayer(PlayerConfig{URL: b.url, Secret: b.secret, BotID: fmt.Sprintf("seat%d", seat), Client: b.client})
	if err != nil {
		return nil, err
	}
	if err := b.healthy(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// healthy waits until the bot is healthy, as NewPlayer describes.
func (b *RemoteBot) healthy(ctx context.Context, p *Player) error {
	b.mu.Lock()
	if down := b.down; down != nil {
		b.mu.Unlock()
		pctx, cancel := context.WithTimeout(ctx, min(b.startTimeout, MaxProbeTimeout))
		err := p.healthOnce(pctx)
		cancel()
		if err != nil {
			return fmt.Errorf("%w; it was found down earlier in this run, so this match does not wait again (a probe now: %v)", down, err)
		}
		b.mu.Lock()
		b.down = nil
		b.mu.Unlock()
		return nil
	}
	if w := b.wait; w != nil {
		b.mu.Unlock()
		select {
		case <-w.done:
			return w.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	w := &healthWait{done: make(chan struct{})}
	b.wait = w
	b.mu.Unlock()
	w.err = p.WaitHealthy(ctx, b.startTimeout)
	b.mu.Lock()
	b.wait = nil
	if w.err != nil && ctx.Err() == nil { // a cancelled run says nothing of the bot
		b.down = w.err
	}
	b.mu.Unlock()
	close(w.done)
	return w.err
}
