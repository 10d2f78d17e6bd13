package evolver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/evolver/behave"
	"crucible/evolver/qd"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
	"crucible/strategies/bidders"
)

// descriptorsOf measures the descriptors of strategy name at its defaults
// against the pool on seeds, through the evolver's arena evaluator.
func descriptorsOf(t *testing.T, g engine.Game, beh *behave.Behaviour, reg *strategies.Registry, name string, pool []string, seeds []uint64) []float64 {
	t.Helper()
	s, err := reg.Lookup(g.Name(), name)
	if err != nil {
		t.Fatal(err)
	}
	opp, err := referencePool(reg, g.Name(), pool)
	if err != nil {
		t.Fatal(err)
	}
	log := &behaviourLog{}
	ev := &arenaEvaluator{Game: g, Base: s, Pool: opp, Workers: 2}
	ev.MeasureBehaviour(beh, log)
	if _, err := ev.Evaluate(context.Background(), matchBatch{Seeds: seeds, Candidates: []strategies.Genome{s.Schema.Defaults()}, IDs: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	c, ok := log.Counts("x")
	if !ok {
		t.Fatalf("%s: no behaviour measured", name)
	}
	return beh.Values(c)
}

// Rule: Kindling's descriptors tell bidders apart as their rules say:
// greedy concentrates its bid more than even; saver and dump, which bank
// sparks for a strike, save well more than even, which spends its sparks
// every turn (normal is no reference since its seat thrift keeps some
// sparks too); every value lies in [0, 1].
func TestKindlingDescriptors(t *testing.T) {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	pool := []string{"even", "greedy", "normal"}
	seeds := []uint64{1, 2, 3, 4}
	got := map[string][]float64{}
	for _, n := range reg.Names("kindling") {
		got[n] = descriptorsOf(t, kindling.Game{}, bidders.Behaviour(), reg, n, pool, seeds)
		t.Logf("%-12s concentration %.3f saving %.3f ember-use %.3f", n, got[n][0], got[n][1], got[n][2])
		for i, d := range bidders.Behaviour().Descriptors {
			if v := got[n][i]; v < 0 || v > 1 || (i == 0 && v < 0.2) {
				t.Errorf("%s: %s = %v outside [%v, %v]", n, d.Name, v, d.Lo, d.Hi)
			}
		}
	}
	if !(got["greedy"][0] > got["even"][0]) {
		t.Errorf("greedy's concentration %.3f not above even's %.3f", got["greedy"][0], got["even"][0])
	}
	for _, banker := range []string{"saver", "dump"} {
		if !(got[banker][1] > got["even"][1]+0.15) {
			t.Errorf("%s's saving %.3f not well above even's %.3f", banker, got[banker][1], got["even"][1])
		}
	}
}

// Rule: AI Code Battle's descriptors tell strategies apart: pacifist
// kills and razes less than rusher and hunter; gatherer collects more
// energy than kamikaze; defender keeps its units nearer its cores than
// rusher.
func TestACBDescriptors(t *testing.T) {
	if testing.Short() {
		t.Skip("plays AI Code Battle matches")
	}
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		t.Fatal(err)
	}
	pool := []string{"gatherer", "rusher"}
	seeds := []uint64{1, 2}
	got := map[string][]float64{}
	for _, n := range []string{"pacifist", "rusher", "hunter", "gatherer", "kamikaze", "defender", "swarm"} {
		got[n] = descriptorsOf(t, acb.Game{}, acbstrat.Behaviour(), reg, n, pool, seeds)
		t.Logf("%-10s aggression %.2f spread %.2f economy %.2f", n, got[n][0], got[n][1], got[n][2])
	}
	if !(got["pacifist"][0] < got["rusher"][0] && got["pacifist"][0] < got["hunter"][0]) {
		t.Errorf("pacifist's aggression %.2f not below rusher's %.2f and hunter's %.2f", got["pacifist"][0], got["rusher"][0], got["hunter"][0])
	}
	if !(got["gatherer"][2] > got["kamikaze"][2]) {
		t.Errorf("gatherer's economy %.2f not above kamikaze's %.2f", got["gatherer"][2], got["kamikaze"][2])
	}
	if !(got["defender"][1] < got["rusher"][1]) {
		t.Errorf("defender's spread %.2f not below rusher's %.2f", got["defender"][1], got["rusher"][1])
	}
}

// Rule: an evolution by MAP-Elites over Kindling's descriptors keeps its
// archive in the run directory, and a run stopped after 2 generations and
// resumed to 4 ends with the same archive and generation lines as an
// uninterrupted one.
func TestMapElitesRunResumes(t *testing.T) {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(out string, gens int, resume bool) Config {
		return Config{
			Game: kindling.Game{}, Registry: reg, Base: "easy", Algorithm: "map-elites", Behaviour: bidders.Behaviour(),
			Options: &MapElitesOptions{Descriptors: []string{"saving", "concentration"}, Bins: 6},
			Pool:    []string{"easy", "even", "greedy"}, Population: 8, Seeds: 3, Seed: 5, Generations: gens,
			Workers: 2, Top: 2, TournamentSeeds: 2, Out: out, Resume: resume,
		}
	}
	whole, parts := t.TempDir()+"/whole", t.TempDir()+"/parts"
	if _, err := Evolve(context.Background(), cfg(whole, 4, false)); err != nil {
		t.Fatal(err)
	}
	if _, err := Evolve(context.Background(), cfg(parts, 2, false)); err != nil {
		t.Fatal(err)
	}
	if _, err := Evolve(context.Background(), cfg(parts, 4, true)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{qd.ArchiveFile, GenerationsFile} {
		a, b := untimed(t, filepath.Join(whole, f)), untimed(t, filepath.Join(parts, f))
		if len(a) == 0 || a != b {
			t.Fatalf("%s differs between the uninterrupted and the resumed run:\n%s\n%s", f, a, b)
		}
	}
	arch, err := qd.Read(whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(arch.History) != 4 || arch.History[3].Filled == 0 || arch.Descriptors[0].Name != "saving" {
		t.Fatalf("archive history %+v over %v", arch.History, arch.Descriptors)
	}
	// Resuming with other descriptors is refused, naming the option.
	bad := cfg(parts, 5, true)
	bad.Options = &MapElitesOptions{Descriptors: []string{"ember-use", "concentration"}, Bins: 6}
	var fe *FieldError
	if _, err := Evolve(context.Background(), bad); !errors.As(err, &fe) || fe.Field != "descriptors" {
		t.Fatalf("resuming with other descriptors: %v", err)
	}
}

// untimed reads a run file without its wall-clock fields.
func untimed(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`"(wall|elapsed)_ms":[0-9.e+-]+`).ReplaceAllString(string(data), "")
}
