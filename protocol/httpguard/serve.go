package httpguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ServeConfig configures Serve.
type ServeConfig struct {
	// Name names the server in the error of a failed shutdown.
	Name string
	// HeaderTimeout bounds how long a request's headers may take once its
	// first byte has arrived.
	HeaderTimeout time.Duration
	// Every, when positive, runs Tick at that interval while serving.
	Every time.Duration
	Tick  func()
}

// ShutdownGrace is how long Serve lets requests in flight finish once its
// context ends.
const ShutdownGrace = 10 * time.Second

// Serve answers requests on ln with h until ctx is cancelled, then shuts
// down gracefully: it stops accepting, lets requests in flight finish (at
// most ShutdownGrace) and returns nil. Idle keep-alive connections are
// closed after 2 minutes.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, cfg ServeConfig) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: cfg.HeaderTimeout, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var tick <-chan time.Time
	if cfg.Every > 0 && cfg.Tick != nil {
		t := time.NewTicker(cfg.Every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case err := <-errc:
			return err
		case <-tick:
			cfg.Tick()
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
			defer cancel()
			if err := hs.Shutdown(sctx); err != nil {
				return fmt.Errorf("%s shutdown: %w", cfg.Name, err)
			}
			<-errc
			return nil
		}
	}
}
