package acb

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	acbe "crucible/engine/acb"
)

func TestExp(t *testing.T) {
	spec := os.Getenv("EXP")
	if spec == "" {
		t.Skip()
	}
	names := strings.Split(spec, ",")
	cfg := acbe.DefaultConfig()
	wins := map[string]int{}
	for s := uint64(1); s <= 10; s++ {
		ns := names
		if s%2 == 0 {
			ns = []string{names[1], names[0]}
		}
		m := play(t, cfg, ns, s, measureOpts{})
		line := ""
		for p, st := range m.stats {
			if m.ranks[p] == 1 && m.ranks[1-p] != 1 {
				wins[ns[p]]++
			}
			line += " | " + ns[p] + " " + strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(strings.Trim(fmtStats(st), "{}"), "Lost", "L"), "Energy", "E"), "")
		}
		t.Logf("seed %d turns %d ranks %v%s", s, m.turns, m.ranks, line)
	}
	t.Logf("wins %v", wins)
}

func TestExpSweep(t *testing.T) {
	opp := os.Getenv("SWEEP")
	if opp == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	n := 10
	for _, s := range All() {
		if s.Name == opp {
			continue
		}
		wins, losses := 0, 0
		turns := 0
		var col, kill, lost [2]int
		for k := 0; k < n; k++ {
			seed := uint64(100 + k)
			ns := []string{s.Name, opp}
			me := 0
			if k%2 == 1 {
				ns = []string{opp, s.Name}
				me = 1
			}
			m := play(t, cfg, ns, seed, measureOpts{})
			if m.ranks[me] == 1 && m.ranks[1-me] != 1 {
				wins++
			} else if m.ranks[me] != 1 {
				losses++
			}
			turns += m.turns
			col[0] += m.stats[me].EnergyCollected
			col[1] += m.stats[1-me].EnergyCollected
			kill[0] += m.stats[me].Kills
			lost[0] += m.stats[me].LostCombat
		}
		t.Logf("%-16s vs %s: won %2d lost %2d of %d, mean turns %4d, collected %4d vs %4d, kills %3d lost %3d",
			s.Name, opp, wins, losses, n, turns/n, col[0]/n, col[1]/n, kill[0]/n, lost[0]/n)
	}
}

func TestExpSig(t *testing.T) {
	opp := os.Getenv("SIG")
	if opp == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	n := 8
	for _, s := range All() {
		var col, raze, lost, seen float64
		var pair, core float64
		for k := 0; k < n; k++ {
			seed := uint64(500 + k/2)
			ns := []string{s.Name, opp}
			me := 0
			if k%2 == 1 {
				ns = []string{opp, s.Name}
				me = 1
			}
			m := play(t, cfg, ns, seed, measureOpts{seen: true, spacing: true})
			st := m.stats[me]
			col += float64(st.EnergyCollected)
			fr := st.FirstRazeTurn
			if fr == 0 {
				fr = cfg.MaxTurns + 1
			}
			raze += float64(fr)
			lost += float64(st.LostCombat)
			seen += float64(m.seen[me])
			pair += m.pairDist[me]
			core += m.coreDist[me]
		}
		f := float64(n)
		t.Logf("%-16s collected %6.1f firstRaze %6.1f lostCombat %5.1f seen %6.1f pairDist %5.2f coreDist %5.2f",
			s.Name, col/f, raze/f, lost/f, seen/f, pair/f, core/f)
	}
}

func TestExpTrace(t *testing.T) {
	spec := os.Getenv("TRACE")
	if spec == "" {
		t.Skip()
	}
	names := strings.Split(spec, ",")
	cfg := acbe.DefaultConfig()
	players := make([]acbe.MatchPlayer, len(names))
	for i, n := range names {
		s := byName(t, n)
		players[i] = acbe.MatchPlayer{Name: n, Controller: s.New(s.Schema.Defaults(), uint64(i+7), i).(acbe.Controller)}
	}
	m, err := acbe.NewMatchWith(acbe.MatchOptions{Config: cfg, Seed: 500, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for {
		done, _ := m.Step()
		if m.Turn()%20 == 0 || done {
			line := ""
			for p := range names {
				st := m.Stats(p)
				line += fmt.Sprintf(" | %s u%d e%d col%d sc%d lost%d cores%d", names[p], st.Units, st.Energy, st.EnergyCollected, st.Score, st.LostCombat, st.Cores)
			}
			t.Logf("turn %3d%s", m.Turn(), line)
		}
		if done {
			break
		}
	}
}

func TestExpZone(t *testing.T) {
	if os.Getenv("ZONE") == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	cfg.ZoneEnabled = true
	for _, name := range []string{"zone-driver", "gatherer", "rusher", "nomad"} {
		storm, units, wins := 0, 0, 0
		for k := 0; k < 8; k++ {
			ns := []string{name, "gatherer"}
			me := 0
			if k%2 == 1 {
				ns = []string{"gatherer", name}
				me = 1
			}
			m := play(t, cfg, ns, uint64(600+k/2), measureOpts{})
			storm += m.stats[me].LostStorm
			units += m.stats[me].UnitsSpawned
			if m.ranks[me] == 1 {
				wins++
			}
		}
		t.Logf("%-12s storm losses %d spawned %d wins %d/8", name, storm, units, wins)
	}
}

func TestExpLeader(t *testing.T) {
	if os.Getenv("LEADER") == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	panel := []string{"gatherer", "rusher", "opportunist", "hunter", "economist", "siege"}
	for _, name := range []string{"leader-targeter", "opportunist", "hunter", "gatherer", "siege"} {
		credit, lead, eng, engL := 0, 0, 0, 0
		for k := 0; k < 30; k++ {
			np := 3 + k%2
			ns := []string{name}
			for j := 0; len(ns) < np; j++ {
				o := panel[(k+j)%len(panel)]
				if o != name {
					ns = append(ns, o)
				}
			}
			me := k % np
			ns[0], ns[me] = ns[me], ns[0]
			m := play(t, cfg, ns, uint64(700+k), measureOpts{leader: true})
			credit += m.credit[me]
			lead += m.leaderCredit[me]
			eng += m.engaged[me]
			engL += m.engagedLeader[me]
		}
		t.Logf("%-16s kills credited %4d of which on the leader %4d (%.2f); engaged %5d with the leader %5d (%.2f)", name, credit, lead, float64(lead)/float64(max(credit, 1)),
			eng, engL, float64(engL)/float64(max(eng, 1)))
	}
}

func TestExpLeaderAcc(t *testing.T) {
	if os.Getenv("LEADACC") == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	panel := []string{"gatherer", "rusher", "opportunist", "hunter", "economist", "siege"}
	right, total := 0, 0
	for k := 0; k < 12; k++ {
		np := 3 + k%2
		ns := []string{"leader-targeter"}
		for j := 0; len(ns) < np; j++ {
			ns = append(ns, panel[(k+j)%len(panel)])
		}
		var ctrls []acbe.MatchPlayer
		var lt *leaderP
		for i, n := range ns {
			s := byName(t, n)
			c := s.New(s.Schema.Defaults(), uint64(k*10+i), i).(acbe.Controller)
			if i == 0 {
				lt = c.(*controller).p.(*leaderP)
			}
			ctrls = append(ctrls, acbe.MatchPlayer{Name: n, Controller: c})
		}
		m, _ := acbe.NewMatchWith(acbe.MatchOptions{Config: cfg, Seed: uint64(900 + k), Players: ctrls})
		for {
			done, _ := m.Step()
			best, who, tied := -1, -1, false
			for q := 1; q < np; q++ {
				s := m.Score(q)
				if s > best {
					best, who, tied = s, q, false
				} else if s == best {
					tied = true
				}
			}
			if !tied && m.Turn()%5 == 0 && !m.Eliminated(0) {
				total++
				if lt.leader == who {
					right++
				}
			}
			if done {
				break
			}
		}
	}
	t.Logf("leader estimate right %d of %d (%.2f)", right, total, float64(right)/float64(total))
}

func TestExpZoneTrace(t *testing.T) {
	if os.Getenv("ZTRACE") == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	cfg.ZoneEnabled = true
	s := byName(t, "zone-driver")
	g := byName(t, "gatherer")
	players := []acbe.MatchPlayer{
		{Name: "z", Controller: s.New(s.Schema.Defaults(), 1, 0).(acbe.Controller)},
		{Name: "g", Controller: g.New(g.Schema.Defaults(), 2, 1).(acbe.Controller)},
	}
	seed := uint64(600)
	if v := os.Getenv("ZSEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
	m, _ := acbe.NewMatchWith(acbe.MatchOptions{Config: cfg, Seed: seed, Players: players})
	gr := newGrid(m.Config().Rows, m.Config().Cols)
	c := gr.idx(m.ZoneCenter())
	for m.Turn() < 40 {
		m.Step()
		line := fmt.Sprintf("turn %d r=%d:", m.Turn(), m.ZoneRadiusNow())
		for _, u := range m.Units() {
			if u.Owner == 0 {
				line += fmt.Sprintf(" (%d,%d d=%.1f)", u.Pos.Row, u.Pos.Col, sqrt(float64(gr.dist2(gr.idx(u.Pos), c))))
			}
		}
		for _, e := range m.Events() {
			if e.Type == acbe.EventDied && e.Owner == 0 {
				line += " DIED " + e.Cause + fmt.Sprint(e.Pos)
			}
		}
		t.Log(line)
	}
}

type timed struct {
	c     acbe.Controller
	ns    int64
	turns int
}

func (t *timed) Turn(v *acbe.View, buf []acbe.Move) ([]acbe.Move, error) {
	st := nowNS()
	mv, err := t.c.Turn(v, buf)
	t.ns += nowNS() - st
	t.turns++
	return mv, err
}

func TestExpCost(t *testing.T) {
	if os.Getenv("COST") == "" {
		t.Skip()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cfg := acbe.DefaultConfig()
	for _, s := range All() {
		g := byName(t, "gatherer")
		var subj, opp, eng int64
		turns, oturns, mturns := 0, 0, 0
		for k := 0; k < 6; k++ {
			seed := uint64(1000 + k)
			a := &timed{c: s.New(s.Schema.Defaults(), seed, 0).(acbe.Controller)}
			o := &timed{c: g.New(g.Schema.Defaults(), seed+1, 1).(acbe.Controller)}
			m, _ := acbe.NewMatch(cfg, nil, seed, []acbe.Controller{a, o})
			st := nowNS()
			for {
				done, _ := m.Step()
				if done {
					break
				}
			}
			eng += nowNS() - st - a.ns - o.ns
			subj += a.ns
			opp += o.ns
			turns += a.turns
			oturns += o.turns
			mturns += m.Turn()
		}
		t.Logf("%-16s %5.1f us/turn (opp gatherer %5.1f us/turn, engine %5.1f us/turn) %4d turns/match => %.0f matches/s",
			s.Name, float64(subj)/float64(turns)/1e3, float64(opp)/float64(oturns)/1e3, float64(eng)/float64(mturns)/1e3, mturns/6, 6e9/float64(subj+opp+eng))
	}
}

// nowNS is the calling thread's CPU time (the test locks its thread), so
// figures are not inflated by other processes on a shared machine.
func nowNS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return ru.Utime.Nano() + ru.Stime.Nano()
}

var _ = time.Now
