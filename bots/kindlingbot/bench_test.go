package kindlingbot_test

import (
	"path/filepath"
	"testing"
	"time"

	"crucible/bots"
)

// BenchmarkAgentMatch measures one Kindling match of a Python agent
// started by the lab against the built-in normal bidder, process start
// included: the example agent (long poll) and the seed-style poller at
// one poll a second. Run:
//
//	go test -run '^$' -bench AgentMatch -benchtime 2x ./bots/kindlingbot/
func BenchmarkAgentMatch(b *testing.B) {
	example, err := bots.Load(filepath.Join(here(), "..", "..", "examples", "kindling-python", "bot.json"), []string{"kindling"})
	if err != nil {
		b.Fatal(err)
	}
	poller, err := bots.Parse([]byte(`{"kind": "crucible-bot/1", "game": "kindling", "name": "poller",
		"command": ["python3", "poller.py"], "env": {"POLL": "1"}}`), filepath.Join(here(), "testdata"), "poller", []string{"kindling"})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *bots.Manifest
	}{{"long-poll", example}, {"poll-1s", poller}} {
		b.Run(tc.name, func(b *testing.B) {
			start := time.Now()
			for range b.N {
				playAgent(b, tc.m)
			}
			b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/match")
		})
	}
}
