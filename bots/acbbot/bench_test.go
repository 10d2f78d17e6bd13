package acbbot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/examples/acb-go/strategy"
	"crucible/strategies"
)

// BenchmarkOutsideBots measures the overhead of an outside bot in one run,
// like for like: the Go example's own strategy (examples/acb-go/strategy,
// gather 0.9, wave 3) played in-process, and the same strategy served by
// the example's binary over HTTP (started by the manager); then the Python
// example (the same moves, in Python) over HTTP. Each plays the built-in
// gatherer, one match at a time (Workers 1), on the default 500-turn
// configuration. The in-process player hands the strategy the view as the
// bot's JSON body and reads its moves back from JSON, so that the HTTP
// cases add exactly the transport: the request and its HMAC signatures,
// the loopback connection and the bot's own process. Metrics:
// matches/wall-s; matches/cpu-s, over the CPU time of this process and
// its children (the bots' processes: the lab's and the bot's work
// together); ms/start, the bot's process start and /health wait averaged
// over its starts. Run:
//
//	go test -run '^$' -bench OutsideBots -benchtime 4x ./bots/acbbot/
func BenchmarkOutsideBots(b *testing.B) {
	needPython(b)
	opponent := builtin(b, "gatherer")
	cases := []struct {
		name string
		bot  func(*botproc.Manager) arena.Entrant
	}{
		{"acb-go-in-process", func(*botproc.Manager) arena.Entrant { return inProcessGoExample(strategy.Params{Gather: 0.9, Wave: 3}) }},
		{"acb-go-http", func(m *botproc.Manager) arena.Entrant { return botEntrant(b, m, goBot(b), nil) }},
		{"acb-python-http", func(m *botproc.Manager) arena.Entrant { return botEntrant(b, m, loadExample(b, "acb-python"), nil) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			mgr := newManager(b)
			es := []arena.Entrant{tc.bot(mgr), opponent}
			// The first match starts the bot's process; the timed ones
			// reuse it.
			warm := []arena.Job{{ID: "warm", Seats: []int{0, 1}, Seed: 1}}
			play(b, es, warm, arena.Options{Workers: 1})
			jobs := make([]arena.Job, b.N)
			for i := range jobs {
				jobs[i] = arena.Job{ID: fmt.Sprint("m", i), Seats: []int{i % 2, 1 - i%2}, Seed: uint64(100 + i)}
			}
			cpu0 := cpuTime(b)
			b.ResetTimer()
			recs := play(b, es, jobs, arena.Options{Workers: 1})
			b.StopTimer()
			cpu := cpuTime(b) - cpu0
			turns := 0
			for _, r := range recs {
				if r.Error != "" {
					b.Fatal(r.Error)
				}
				if r.Crashed != nil && (r.Crashed[0] || r.Crashed[1]) {
					b.Fatalf("match %s: a seat went inactive (its turns failed), so the match is not like the others: %+v", r.Job, r)
				}
				turns += r.Turns
			}
			b.ReportMetric(float64(turns)/float64(b.N), "turns/match")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/wall-s")
			b.ReportMetric(float64(b.N)/cpu.Seconds(), "matches/cpu-s")
			if st := mgr.Stats(); len(st) == 1 && st[0].Starts > 0 {
				b.ReportMetric(float64(st[0].ReadyTotal.Milliseconds())/float64(st[0].Starts), "ms/start")
			}
		})
	}
}

// cpuTime is the user and system time of this process and of its
// children: the bots' processes are reaped, and counted, only once they
// exit, so it also reads each running child's /proc/PID/stat (Linux).
func cpuTime(t testing.TB) time.Duration {
	t.Helper()
	var self, kids syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids); err != nil {
		t.Fatal(err)
	}
	tv := func(v syscall.Timeval) time.Duration { return time.Duration(v.Nano()) }
	d := tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
	return d + runningChildrenCPU()
}

// runningChildrenCPU sums utime and stime (fields 14 and 15 of
// /proc/PID/stat, in clock ticks of 1/100 s on Linux) of this process's
// running children; 0 where /proc is missing.
func runningChildrenCPU() time.Duration {
	me := os.Getpid()
	dirs, _ := os.ReadDir("/proc")
	var d time.Duration
	for _, e := range dirs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The command may hold spaces: the fields start after its ")".
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) < 13 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != me {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		d += time.Duration(ut+st) * 10 * time.Millisecond
	}
	return d
}

// inProcessGoExample is the entrant of the Go example's strategy played in
// this process, each match a strategy.Bot of its own.
func inProcessGoExample(p strategy.Params) arena.Entrant {
	return arena.Entrant{
		Name: "acb-go-in-process", Strategy: "acb-go",
		Params: map[string]float64{"gather": p.Gather, "wave": float64(p.Wave)},
		New: func(context.Context, uint64, int) (engine.Player, error) {
			return &goExamplePlayer{bot: strategy.New(p)}, nil
		},
	}
}

// goExamplePlayer adapts strategy.Bot to acb.Controller: the view goes in
// as the JSON body the bot's server would read, the moves come back as the
// JSON it would send.
type goExamplePlayer struct{ bot *strategy.Bot }

func (g *goExamplePlayer) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return buf, err
	}
	var s strategy.State
	if err := json.Unmarshal(body, &s); err != nil {
		return buf, err
	}
	out, err := json.Marshal(g.bot.Turn(&s))
	if err != nil {
		return buf, err
	}
	var moves []acb.Move
	if err := json.Unmarshal(out, &moves); err != nil {
		return buf, err
	}
	return append(buf, moves...), nil
}

// BenchmarkVariantStart measures what a new variant costs before its first
// match (an evolver's candidate): starting its process and waiting for
// GET /health to answer 200, per variant. Run:
//
//	go test -run '^$' -bench VariantStart -benchtime 5x ./bots/acbbot/
func BenchmarkVariantStart(b *testing.B) {
	needPython(b)
	for _, tc := range []struct {
		name string
		m    func() *bots.Manifest
	}{{"acb-go", func() *bots.Manifest { return goBot(b) }}, {"acb-python", func() *bots.Manifest { return loadExample(b, "acb-python") }}} {
		b.Run(tc.name, func(b *testing.B) {
			m := tc.m()
			mgr := newManager(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Each iteration is another variant: its own process.
				v := m.Variant(strategies.Genome{float64(i%1000) / 1000, 3})
				l, err := mgr.Lease(context.Background(), v.Spec())
				if err != nil {
					b.Fatal(err)
				}
				l.Release()
			}
			b.StopTimer()
			var ready time.Duration
			starts := 0
			for _, s := range mgr.Stats() {
				ready += s.ReadyTotal
				starts += s.Starts
			}
			b.ReportMetric(float64(ready.Microseconds())/1000/float64(starts), "ms/start")
		})
	}
}

// BenchmarkGatherSweep measures the example bots' gather parameter
// against the built-in guardian: for each value (wave 3) the Go example
// (the same moves as the Python one, faster) plays 30 seeds in both seat
// orders over 500 turns, and the share of its wins (draws half) is
// reported as win@VALUE. It is how the best value that the examples'
// documentation states was measured. Run (a few minutes on 2 cores):
//
//	go test -run '^$' -bench GatherSweep -benchtime 1x -timeout 30m ./bots/acbbot/
func BenchmarkGatherSweep(b *testing.B) {
	mgr := newManager(b)
	m := goBot(b)
	opponent := builtin(b, "guardian")
	for i := 0; i < b.N; i++ {
		for _, g := range []float64{0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9} {
			es := []arena.Entrant{botEntrant(b, mgr, m, strategies.Genome{g, 3}), opponent}
			recs := play(b, es, arena.Gauntlet([]int{0}, []int{1}, arena.Seeds(200, 30)), arena.Options{Workers: 2})
			wins := 0.0
			for _, r := range recs {
				if r.Error != "" {
					b.Fatal(r.Error)
				}
				seat := 0
				if r.Players[1].Name == es[0].Name {
					seat = 1
				}
				switch {
				case r.Ranks[seat] == 1 && r.Ranks[1-seat] == 1:
					wins += 0.5
				case r.Ranks[seat] == 1:
					wins++
				}
			}
			b.ReportMetric(wins/float64(len(recs)), fmt.Sprintf("win@%.2f", g))
		}
	}
}
