package acbstrat

import (
	"fmt"
	"math"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies"
)

// byName returns the registered strategy called name. An unknown name is
// a bug in the test and panics (the helpers run on worker goroutines,
// where t.Fatal must not be called).
func byName(tb testing.TB, name string) strategies.Strategy {
	for _, s := range All() {
		if s.Name == name {
			return s
		}
	}
	panic(fmt.Sprintf("no strategy %q", name))
}

// metrics are what the behaviour checks measure in one match, per seat.
type metrics struct {
	stats []acb.PlayerStats
	ranks []int
	turns int
	// seen counts distinct tiles each seat saw during the match.
	seen []int
	// pairDist is the mean over sampled turns of the mean wrapped
	// Euclidean distance between a seat's units.
	pairDist []float64
	// coreDist is the mean over sampled turns and units of the distance
	// from a unit to its owner's nearest active core.
	coreDist []float64
	// credit counts, per seat, the combat deaths of enemy units it had a
	// unit in range of while one opponent alone had the highest score;
	// leaderCredit counts those whose victim belonged to that opponent.
	credit, leaderCredit []int
}

// measureOpts selects the costly measurements.
type measureOpts struct {
	seen, spacing, leader bool
	every                 int // sample spacing every this many turns
}

// play runs one match of the named strategies (default parameters) in seat
// order and measures it. A failing match is reported with tb.Errorf (safe
// from any goroutine) and measured as far as it went.
func play(tb testing.TB, cfg acb.Config, names []string, seed uint64, mo measureOpts) metrics {
	players := make([]acb.MatchPlayer, len(names))
	for i, n := range names {
		s := byName(tb, n)
		ctrl := s.New(s.Schema.Defaults(), engine.SeatSeed(seed, i), i).(acb.Controller)
		players[i] = acb.MatchPlayer{Name: fmt.Sprintf("%s@%d", n, i), Strategy: n, Controller: ctrl}
	}
	m, err := acb.NewMatchWith(acb.MatchOptions{Config: cfg, Seed: seed, Players: players})
	if err != nil {
		panic(fmt.Sprintf("building a match of %v: %v", names, err)) // a bad test config
	}
	np := len(names)
	out := metrics{seen: make([]int, np), pairDist: make([]float64, np), coreDist: make([]float64, np),
		credit: make([]int, np), leaderCredit: make([]int, np)}
	var seenMask [][]bool
	if mo.seen {
		seenMask = make([][]bool, np)
		for p := range seenMask {
			seenMask[p] = make([]bool, m.Config().Rows*m.Config().Cols)
		}
	}
	every := mo.every
	if every <= 0 {
		every = 5
	}
	g := newGrid(m.Config().Rows, m.Config().Cols)
	pairN := make([]int, np)
	coreN := make([]int, np)
	for {
		var scores []int
		if mo.leader {
			for p := 0; p < np; p++ {
				scores = append(scores, m.Score(p))
			}
		}
		done, err := m.Step()
		if err != nil {
			tb.Errorf("match %v on seed %d: %v", names, seed, err)
			done = true
		}
		turn := m.Turn()
		if mo.leader {
			leaderCredits(m, g, scores, out.credit, out.leaderCredit)
		}
		if mo.seen {
			for p := 0; p < np; p++ {
				for _, pos := range m.VisibleTiles(p) {
					seenMask[p][pos.Row*g.cols+pos.Col] = true
				}
			}
		}
		if mo.spacing && turn%every == 0 {
			spacing(m, g, out.pairDist, pairN, out.coreDist, coreN)
		}
		if done {
			break
		}
	}
	for p := 0; p < np; p++ {
		if mo.seen {
			for _, s := range seenMask[p] {
				if s {
					out.seen[p]++
				}
			}
		}
		if pairN[p] > 0 {
			out.pairDist[p] /= float64(pairN[p])
		}
		if coreN[p] > 0 {
			out.coreDist[p] /= float64(coreN[p])
		}
	}
	res := m.Result()
	out.stats = res.Detail.(acb.Detail).Players
	out.ranks = res.Ranks
	out.turns = res.Turns
	return out
}

func spacing(m *acb.Match, g *grid, pair []float64, pairN []int, core []float64, coreN []int) {
	units := m.Units()
	cores := m.Cores()
	for p := range pair {
		var tiles []int32
		for _, u := range units {
			if u.Owner == p {
				tiles = append(tiles, g.idx(u.Pos))
			}
		}
		if len(tiles) >= 2 {
			sum, n := 0.0, 0
			for a := range tiles {
				for c := a + 1; c < len(tiles); c++ {
					sum += math.Sqrt(float64(g.dist2(tiles[a], tiles[c])))
					n++
				}
			}
			pair[p] += sum / float64(n)
			pairN[p]++
		}
		for _, t := range tiles {
			best := -1
			for _, c := range cores {
				if c.Owner == p && c.Active {
					if d := g.dist2(t, g.idx(c.Pos)); best < 0 || d < best {
						best = d
					}
				}
			}
			if best >= 0 {
				core[p] += math.Sqrt(float64(best))
				coreN[p]++
			}
		}
	}
}

// leaderCredits credits, for each combat death of the last turn, every
// other player with a unit within attack range of it when combat began
// (survivors' end-of-turn tiles and the dead units' tiles: nothing moves
// after combat), and counts whether the victim's owner led the scores
// among the crediting player's opponents before the turn.
func leaderCredits(m *acb.Match, g *grid, scores []int, credit, leader []int) {
	r2 := m.Config().AttackRadius2
	type at struct {
		owner int
		t     int32
	}
	var all []at
	for _, u := range m.Units() {
		all = append(all, at{u.Owner, g.idx(u.Pos)})
	}
	var deaths []at
	for _, e := range m.Events() {
		if e.Type == acb.EventDied && e.Cause != acb.CauseEliminated && e.Cause != acb.CauseStorm {
			all = append(all, at{e.Owner, g.idx(e.Pos)})
			if e.Cause == acb.CauseCombat {
				deaths = append(deaths, at{e.Owner, g.idx(e.Pos)})
			}
		}
	}
	for _, d := range deaths {
		for p := range credit {
			if p == d.owner {
				continue
			}
			in := false
			for _, x := range all {
				if x.owner == p && g.dist2(x.t, d.t) <= r2 {
					in = true
					break
				}
			}
			if !in {
				continue
			}
			// The leader among p's opponents; deaths while several share
			// the lead are not counted.
			best, who, tied := -1, -1, false
			for q, s := range scores {
				if q == p {
					continue
				}
				switch {
				case s > best:
					best, who, tied = s, q, false
				case s == best:
					tied = true
				}
			}
			if tied {
				continue
			}
			credit[p]++
			if d.owner == who {
				leader[p]++
			}
		}
	}
}
