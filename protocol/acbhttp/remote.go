package acbhttp

import (
	"context"
	"fmt"
	"net/http"
	"os"
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

// RemoteBot builds HTTP players for one bot URL, one per match, all sharing
// one HTTP client so that its keep-alive connections are reused across
// turns and matches.
type RemoteBot struct {
	url          string
	secret       string
	startTimeout time.Duration
	client       *http.Client
}

// NewRemoteBot checks url and secret and returns a RemoteBot. startTimeout
// bounds the health check before each match (DefaultStartTimeout when 0).
func NewRemoteBot(url, secret string, startTimeout time.Duration) (*RemoteBot, error) {
	if _, err := NewPlayer(PlayerConfig{URL: url, Secret: secret, BotID: "check"}); err != nil {
		return nil, err
	}
	return &RemoteBot{url: url, secret: secret, startTimeout: startTimeout, client: NewClient()}, nil
}

// NewPlayer returns a player for seat of a new match once the bot answers
// GET /health with 200; a bot that does not within the start timeout is an
// error naming it (the match does not start). X-ACB-Bot-Id is "seat{seat}".
func (b *RemoteBot) NewPlayer(ctx context.Context, seat int) (*Player, error) {
	p, err := NewPlayer(PlayerConfig{URL: b.url, Secret: b.secret, BotID: fmt.Sprintf("seat%d", seat), Client: b.client})
	if err != nil {
		return nil, err
	}
	if err := p.WaitHealthy(ctx, b.startTimeout); err != nil {
		return nil, err
	}
	return p, nil
}
