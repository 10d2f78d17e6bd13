package arena_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
)

// runAll plays jobs and returns the records in emission order.
func runAll(t *testing.T, ctx context.Context, g engine.Game, es []arena.Entrant, jobs []arena.Job, opt arena.Options) ([]arena.Record, error) {
	t.Helper()
	var recs []arena.Record
	err := arena.Run(ctx, g, es, jobs, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// lines returns the records as sorted JSON lines without their wall-clock
// duration, the one field allowed to vary.
func lines(t *testing.T, recs []arena.Record) []string {
	t.Helper()
	out := make([]string, len(recs))
	for i, r := range recs {
		r.DurationMS = 0
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	slices.Sort(out)
	return out
}

// TestRunDeterministicAcrossWorkers checks that the same schedule gives
// the same set of result lines with 1, 2 and 4 workers.
func TestRunDeterministicAcrossWorkers(t *testing.T) {
	es := toyEntrants(5)
	jobs := arena.RoundRobin(len(es), arena.Seeds(7, 4))
	var want []string
	for _, w := range []int{1, 2, 4} {
		recs, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(jobs) {
			t.Fatalf("%d workers: %d records for %d jobs", w, len(recs), len(jobs))
		}
		got := lines(t, recs)
		if want == nil {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d workers gave different results than 1 worker", w)
		}
	}
}

// TestRunSeatSeeds checks that every seat's player is built with
// engine.SeatSeed(match seed, seat) and its seat index.
func TestRunSeatSeeds(t *testing.T) {
	type call struct {
		seed uint64
		seat int
	}
	calls := make(chan call, 100)
	es := toyEntrants(3)
	for i := range es {
		inner := es[i].New
		es[i].New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			calls <- call{seed, seat}
			return inner(ctx, seed, seat)
		}
	}
	jobs := arena.RoundRobin(3, arena.Seeds(1, 2))
	if _, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	close(calls)
	got := map[call]int{}
	for c := range calls {
		got[c]++
	}
	want := map[call]int{}
	for _, j := range jobs {
		for s := range j.Seats {
			want[call{engine.SeatSeed(j.Seed, s), s}]++
		}
	}
	if len(got) != len(want) {
		t.Fatalf("constructor saw %d distinct (seed, seat), want %d", len(got), len(want))
	}
	for c, n := range want {
		if got[c] != n {
			t.Fatalf("constructor called %d times with %+v, want %d", got[c], c, n)
		}
	}
}

// TestRunIsolatesFailures checks that a player that panics, one that
// returns an error, a constructor that panics and a constructor that fails
// each end only their own matches, as error records naming the strategy
// and the seed, while the other matches finish.
func TestRunIsolatesFailures(t *testing.T) {
	es := toyEntrants(5)
	es[1].Name, es[1].Strategy = "crasher", "crashy"
	es[1].New = func(_ context.Context, seed uint64, seat int) (engine.Player, error) {
		return &toyPlayer{panics: "index out of range"}, nil
	}
	es[2].Name, es[2].Strategy = "failer", "faily"
	es[2].New = func(_ context.Context, seed uint64, seat int) (engine.Player, error) {
		return &toyPlayer{fail: errBoom}, nil
	}
	es[3].Name, es[3].Strategy = "badctor", "ctorpanic"
	es[3].New = func(_ context.Context, seed uint64, seat int) (engine.Player, error) { panic("no genome") }
	es[4].Name, es[4].Strategy = "noctor", "ctorerr"
	es[4].New = func(_ context.Context, seed uint64, seat int) (engine.Player, error) { return nil, errBoom }
	extra := toyEntrants(7)[5:] // two healthy players
	es = append(es, extra...)

	jobs := arena.RoundRobin(len(es), arena.Seeds(5, 1))
	recs, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: 2})
	if err != nil {
		t.Fatalf("a failing player stopped the run: %v", err)
	}
	if len(recs) != len(jobs) {
		t.Fatalf("%d records for %d jobs", len(recs), len(jobs))
	}
	wantErr := map[string]string{
		"crasher": "player crasher (strategy crashy) in seat",
		"failer":  "player failer (strategy faily) in seat",
		"badctor": "building player badctor (strategy ctorpanic)",
		"noctor":  "building player noctor (strategy ctorerr)",
	}
	healthy := 0
	for _, r := range recs {
		names := []string{r.Players[0].Name, r.Players[1].Name}
		// Every record names every seat, even when a constructor failed
		// before the later seats were built (rate, report and --resume
		// refuse records with a nameless player).
		if names[0] == "" || names[1] == "" {
			t.Fatalf("match %s does not name both players: %+v", r.Job, r.Players)
		}
		bad := ""
		for _, n := range names {
			if _, ok := wantErr[n]; ok && bad == "" {
				bad = n
			}
		}
		if bad == "" {
			if r.Error != "" {
				t.Fatalf("healthy match %s failed: %s", r.Job, r.Error)
			}
			healthy++
			continue
		}
		if r.Error == "" || len(r.Scores) != 0 {
			t.Fatalf("match %s with %v should have failed, got %+v", r.Job, names, r)
		}
		if !strings.Contains(r.Error, "seed "+strconv.FormatUint(r.Seed, 10)) {
			t.Fatalf("error %q does not name seed %d", r.Error, r.Seed)
		}
		// Players are built before play, so a failing constructor is
		// reported first; otherwise the first failing seat.
		first := ""
		for _, n := range names {
			if n == "badctor" || n == "noctor" {
				first = n
				break
			}
		}
		for _, n := range names {
			if _, ok := wantErr[n]; ok && first == "" {
				first = n
			}
		}
		if !strings.Contains(r.Error, wantErr[first]) {
			t.Fatalf("match %s error %q, want it to contain %q", r.Job, r.Error, wantErr[first])
		}
	}
	if healthy != 6 {
		t.Fatalf("%d healthy matches, want the 6 among the healthy p0, p5, p6", healthy)
	}
	// Failed matches are counted but left out of the ratings.
	var c arena.Collector
	for _, r := range recs {
		c.Add(r)
	}
	if c.Matches != len(recs) || c.Failed != len(recs)-healthy || c.FirstError == "" {
		t.Fatalf("collector counted %d matches, %d failed (%q); want %d, %d", c.Matches, c.Failed, c.FirstError, len(recs), len(recs)-healthy)
	}
	for _, st := range c.Summary(rating.Default(), arena.Names(es), nil).Standings {
		if want := map[string]int{"p0": 2, "p5": 2, "p6": 2}[st.Name] * 2; st.Games != want {
			t.Fatalf("%s counted %d games, want %d (failed matches do not count)", st.Name, st.Games, want)
		}
	}
}

// panicGame panics outside any player, as a bug in the rules would.
type panicGame struct{ toyGame }

func (panicGame) Play(context.Context, engine.MatchSpec) (engine.Result, error) {
	panic("rules bug")
}

// TestRunSurvivesGamePanic checks that a panic escaping Game.Play ends that
// match as an error record and not the process.
func TestRunSurvivesGamePanic(t *testing.T) {
	recs, err := runAll(t, context.Background(), panicGame{}, toyEntrants(2), arena.RoundRobin(2, arena.Seeds(1, 1)), arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if !strings.Contains(r.Error, "toy panicked: rules bug") {
			t.Fatalf("record error %q", r.Error)
		}
	}
}

// TestRunCancelKeepsFinished checks (with matches of about a millisecond,
// so that a 10 ms hand-over window holds only a few) that cancelling the
// context mid-run returns context.Canceled after emitting only whole
// matches, fewer than the schedule.
func TestRunCancelKeepsFinished(t *testing.T) {
	es := toyEntrants(6)
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, 10))
	ctx, cancel := context.WithCancel(context.Background())
	var recs []arena.Record
	err := arena.Run(ctx, toyGame{work: 400000}, es, jobs, arena.Options{Workers: 2}, func(r arena.Record) error {
		recs = append(recs, r)
		if len(recs) == 20 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
	if len(recs) < 20 || len(recs) >= len(jobs) {
		t.Fatalf("%d records after cancelling at 20 of %d", len(recs), len(jobs))
	}
	for _, r := range recs {
		if r.Error != "" || len(r.Scores) != 2 {
			t.Fatalf("a cancelled run emitted an unfinished match: %+v", r)
		}
	}
}

// TestRunEmitErrorStops checks that an error from emit stops the run and
// is returned.
func TestRunEmitErrorStops(t *testing.T) {
	es := toyEntrants(4)
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, 20))
	n := 0
	err := arena.Run(context.Background(), toyGame{}, es, jobs, arena.Options{Workers: 2}, func(arena.Record) error {
		n++
		if n == 3 {
			return errBoom
		}
		return nil
	})
	if !errors.Is(err, errBoom) || n != 3 {
		t.Fatalf("Run returned %v after %d emits, want errBoom after 3", err, n)
	}
}

// TestRunProgress checks that Progress counts every emitted match.
func TestRunProgress(t *testing.T) {
	es := toyEntrants(3)
	jobs := arena.RoundRobin(3, arena.Seeds(1, 3))
	var last, calls atomic.Int64
	_, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: 2, Progress: func(done, total int) {
		calls.Add(1)
		last.Store(int64(done))
		if total != len(jobs) {
			t.Errorf("total %d, want %d", total, len(jobs))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != int64(len(jobs)) || last.Load() != int64(len(jobs)) {
		t.Fatalf("progress called %d times, last %d; want %d", calls.Load(), last.Load(), len(jobs))
	}
}

// TestRunReplays checks that ReplayDir receives one file per match named
// after its job, holding the game's replay.
func TestRunReplays(t *testing.T) {
	dir := t.TempDir()
	es := toyEntrants(3)
	jobs := arena.RoundRobin(3, arena.Seeds(1, 1))
	if _, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{ReplayDir: dir}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(jobs) {
		t.Fatalf("%d files in the replay dir, want %d", len(entries), len(jobs))
	}
	for _, j := range jobs {
		data, err := os.ReadFile(filepath.Join(dir, j.ID+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Match string
			Seed  uint64
		}
		if err := json.Unmarshal(data, &rep); err != nil || !strings.HasPrefix(rep.Match, j.ID+"-") || rep.Seed != j.Seed {
			t.Fatalf("replay of %s: %s (%v)", j.ID, data, err)
		}
		if info, _ := os.Stat(filepath.Join(dir, j.ID+".json")); info.Mode().Perm() != 0o644 {
			t.Fatalf("replay of %s has mode %v, want 0644", j.ID, info.Mode().Perm())
		}
	}
	// A replay directory that does not exist is a run error.
	_, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{ReplayDir: filepath.Join(dir, "missing")})
	if err == nil || !strings.Contains(err.Error(), "keeping the replay of job") {
		t.Fatalf("missing replay dir gave %v", err)
	}
}

// TestValidate checks the errors for malformed schedules.
func TestValidate(t *testing.T) {
	es := toyEntrants(3)
	dup := append(toyEntrants(2), toyEntrants(1)...)
	tests := []struct {
		name string
		es   []arena.Entrant
		jobs []arena.Job
		want string
	}{
		{"too few seats", es, []arena.Job{{ID: "a", Seats: []int{0}}}, "job a has 1 seats; toy allows [2, 4]"},
		{"too many seats", es, []arena.Job{{ID: "a", Seats: []int{0, 1, 2, 0, 1}}}, "job a has 5 seats"},
		{"unknown entrant", es, []arena.Job{{ID: "a", Seats: []int{0, 3}}}, "job a seats entrant 3, outside [0, 2]"},
		{"repeated id", es, []arena.Job{{ID: "a", Seats: []int{0, 1}}, {ID: "a", Seats: []int{1, 0}}}, `job id "a" appears twice`},
		{"repeated name", dup, nil, `entrant name "p0" appears twice`},
		{"no name", []arena.Entrant{{Strategy: "toy", New: es[0].New}}, nil, `entrant 0 (strategy "toy") has no name`},
		{"no constructor", []arena.Entrant{{Name: "p0"}}, nil, `entrant 0 ("p0") has no constructor (New)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := arena.Validate(toyGame{}, tt.es, tt.jobs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestTournamentRanksStrength checks the whole pipeline on the toy game:
// stronger toy players (higher index) end higher on the leaderboard.
func TestTournamentRanksStrength(t *testing.T) {
	es := toyEntrants(4)
	for i := range es {
		s := float64(i) * 4 // far apart, so the order is clear
		es[i].New = func(_ context.Context, seed uint64, seat int) (engine.Player, error) {
			return &toyPlayer{strength: s, seed: seed}, nil
		}
	}
	jobs := arena.RoundRobin(4, arena.Seeds(1, 20))
	recs, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := arena.Tournament(rating.Default(), arena.Names(es), nil, recs)
	var order []string
	for _, s := range sum.Standings {
		order = append(order, s.Name)
	}
	if want := []string{"p3", "p2", "p1", "p0"}; !slices.Equal(order, want) {
		t.Fatalf("leaderboard %v, want %v", order, want)
	}
	if g := sum.Standings[0].Games; g != 3*2*20 {
		t.Fatalf("top player has %d games, want 120", g)
	}
}

// PlaySequential plays a whole schedule, and its first failure stops it
// with an error naming the job and the entrant.
func TestPlaySequential(t *testing.T) {
	es := toyEntrants(3)
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, 2))
	if err := arena.PlaySequential(context.Background(), toyGame{}, es, jobs); err != nil {
		t.Fatal(err)
	}
	es[1].New = func(context.Context, uint64, int) (engine.Player, error) { return nil, errors.New("no memory") }
	err := arena.PlaySequential(context.Background(), toyGame{}, es, jobs)
	if err == nil || !strings.Contains(err.Error(), "job r0-0v1: building p1: no memory") {
		t.Fatalf("PlaySequential with a failing constructor = %v", err)
	}
}

// TestRunMatchIDs checks defect 10 of issue 10: the id a match is played
// under (here read back from the toy game's replay) is unique to the run:
// it differs between runs on other seeds or with other entrants, where the
// job ids repeat, and it is the same for the same run at another worker
// count and for the matches of a resumed run.
func TestRunMatchIDs(t *testing.T) {
	ids := func(es []arena.Entrant, jobs []arena.Job, workers int) map[string]string {
		t.Helper()
		dir := t.TempDir()
		if _, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: workers, ReplayDir: dir}); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, j := range jobs {
			data, err := os.ReadFile(filepath.Join(dir, j.ID+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Match string `json:"match"`
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			out[j.ID] = rep.Match
		}
		return out
	}
	es := toyEntrants(3)
	jobs := arena.RoundRobin(3, arena.Seeds(1, 2))
	a := ids(es, jobs, 1)
	seen := map[string]bool{}
	for job, id := range a {
		if !strings.HasPrefix(id, job+"-") || len(id) != len(job)+13 || seen[id] {
			t.Fatalf("job %s played as %q: want %s-<12 hex digits>, unique in the run", job, id, job)
		}
		seen[id] = true
	}
	if b := ids(es, jobs, 3); !maps.Equal(a, b) {
		t.Fatal("3 workers played under other match ids than 1 worker")
	}
	// The resumed half of a run plays under the ids of the whole run.
	if rest := ids(es, jobs[5:], 2); rest[jobs[7].ID] != a[jobs[7].ID] {
		t.Fatalf("a resumed run played job %s as %s, the whole run as %s", jobs[7].ID, rest[jobs[7].ID], a[jobs[7].ID])
	}
	otherSeeds := ids(es, arena.RoundRobin(3, arena.Seeds(2, 2)), 1)
	renamed := toyEntrants(3)
	renamed[2].Name = "q2"
	otherPlayers := ids(renamed, jobs, 1)
	for job, id := range a {
		if otherSeeds[job] == id || otherPlayers[job] == id {
			t.Fatalf("job %s played as %s in runs on other seeds (%s) or with other players (%s): the ids must differ", job, id, otherSeeds[job], otherPlayers[job])
		}
	}
}
