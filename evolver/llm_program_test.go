package evolver

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"crucible/engine/kindling"
	"crucible/strategies/kindprog"
)

// Rule: a search of a program strategy asks the model for programs: the
// prompt states the language and, once measured, the best programs as
// JSON with their results against each opponent; the model's programs
// (prose and fences around them, extra fields dropped) are played, and
// what the parser refuses is named in the run's notes.
func TestLLMProposesPrograms(t *testing.T) {
	reg := kindlingRegistry(t)
	base := kindprog.Program()
	pool, err := referencePool(reg, "kindling", []string{"even", "greedy", "sniper"})
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeModel{}
	fake.reply = func(call int) (int, string, time.Duration) {
		return 200, "Spending on the last turn matters.\n```json\n" + `{"programs": [
 {"program": {"spend": 60, "rules": [{"when": "turn >= 8", "then": "spend 100"}]}, "why": "use it all"},
 {"spend": 50, "targets": 3, "mood": "calm", "rules": []},
 {"rules": [{"when": "heat >= 2", "then": "skip"}]}]}` + "\n```", 0
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	var log bytes.Buffer
	space := paramSpace{Base: base}
	l, err := newLLM(llmSetup(space, 4, 5, pool, noteLog(&log)), LLMOptions{BaseURL: srv.URL + "/v1", Model: "fake", Attempts: 1, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := &search{Space: space, Algorithm: l, Seed: 5, Seeds: 2, Generations: 2, Dir: t.TempDir(),
		Evaluator: &arenaEvaluator{Game: kindling.Game{}, Base: base, Pool: pool, Workers: 2}}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, prompts := fake.seen()
	if len(prompts) != 2 {
		t.Fatalf("%d requests, want one a generation", len(prompts))
	}
	for _, want := range []string{"## The language", "rival_bid (0..10 step 0.1)", `"programs": [{"jitter":0`} {
		if !strings.Contains(prompts[0], want) {
			t.Errorf("first prompt lacks %q", want)
		}
	}
	for _, want := range []string{"Best programs so far", `{"program": {"jitter":0,"spend":60,"targets":2,"rules":[{"when":"turn \u003e= 8","then":"spend 100"}]}`, "| greedy |"} {
		if !strings.Contains(prompts[1], want) {
			t.Errorf("second prompt lacks %q:\n%s", want, prompts[1])
		}
	}
	for _, want := range []string{`field "mood" is not part of a program: ignored`, `program 3 rejected: rule 1: when "heat >= 2": unknown feature "heat"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, log.String())
		}
	}
	found := false
	for _, e := range res.Hall {
		if g := space.Genome(e.X); strings.Contains(base.Program.Text(g), "1. when turn >= 8 then spend 100") && e.Games > 0 {
			found = true
		}
	}
	if !found {
		t.Error("the model's first program is not in the hall of fame")
	}
}
