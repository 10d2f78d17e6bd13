package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mapRoundRobin simulates rounds of a round robin of players with
// strengths s (nats) on a game with maps: every round draws each player a
// bonus of sd maps (a map suits it against everyone), and each pair plays
// both seat orders with P(win) = σ(s_i + b_i - s_j - b_j). It returns the
// pairs' sums and the units clustered by round.
func mapRoundRobin(rng *rand.Rand, s []float64, maps float64, rounds int) ([]PairStat, []BalancedUnit) {
	n := len(s)
	var pairs []PairStat
	var units []BalancedUnit
	at := map[[2]int]int{}
	for a := range n {
		for b := a + 1; b < n; b++ {
			at[[2]int{a, b}] = len(pairs)
			pairs = append(pairs, PairStat{A: a, B: b})
		}
	}
	bonus := make([]float64, n)
	for r := range rounds {
		for i := range bonus {
			bonus[i] = maps * rng.NormFloat64()
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				p := sigmoid(s[a] + bonus[a] - s[b] - bonus[b])
				x := 0.0
				for range 2 {
					if rng.Float64() < p {
						x += 0.5
					}
				}
				ps := &pairs[at[[2]int{a, b}]]
				ps.Units++
				ps.Sum += x
				ps.SumSq += x * x
				units = append(units, BalancedUnit{A: a, B: b, Score: x, Cluster: uint64(r)})
			}
		}
	}
	return pairs, units
}

// TestClusteredCoversOnMaps checks the clustered covariance against the
// spread it claims: on a round robin whose rounds share a map per player,
// the 95% interval of the difference between the two strongest players
// covers the difference a very long round robin finds in about 95% of 300
// short ones when clustered by round, and visibly less often when every
// pair-round is taken as independent (as FitBalanced alone does).
func TestClusteredCoversOnMaps(t *testing.T) {
	s := []float64{0, 0.2, 0.4, 0.6, 0.8, 1.0}
	rng := rand.New(rand.NewPCG(7, 8))
	diff := func(f *BalancedFit) (d, se float64) {
		var ea, eb float64
		for _, r := range f.Fit.Ratings {
			switch r.Index {
			case 5:
				ea = r.Elo
			case 4:
				eb = r.Elo
			}
		}
		v := f.Fit.Cov[5][5] + f.Fit.Cov[4][4] - 2*f.Fit.Cov[5][4]
		return ea - eb, math.Sqrt(v)
	}
	names := []string{"a", "b", "c", "d", "e", "f"}
	pairs, _ := mapRoundRobin(rng, s, 1.5, 20000)
	long, err := FitBalanced(names, pairs)
	if err != nil {
		t.Fatal(err)
	}
	truth, _ := diff(long)
	const runs = 300
	coverC, coverI := 0, 0
	for range runs {
		pairs, units := mapRoundRobin(rng, s, 1.5, 20)
		f, err := FitBalanced(names, pairs)
		if err != nil {
			t.Fatal(err)
		}
		d, se := diff(f)
		if math.Abs(d-truth) <= 1.96*se {
			coverI++
		}
		if err := f.Clustered(units); err != nil {
			t.Fatal(err)
		}
		d, se = diff(f)
		if math.Abs(d-truth) <= 1.96*se {
			coverC++
		}
	}
	t.Logf("true difference %.1f Elo; 95%% intervals cover it in %d of %d clustered, %d independent", truth, coverC, runs, coverI)
	// 95% of 300 is 285 (sd 3.8); the clustered sandwich with 20
	// clusters runs a little narrow, so 270 is the bound.
	if coverC < 270 {
		t.Errorf("clustered intervals covered the truth in %d of %d, want about 95%%", coverC, runs)
	}
	if coverI >= coverC-20 {
		t.Errorf("independent intervals covered %d of %d, clustered %d: the maps should make the independent ones too narrow", coverI, runs, coverC)
	}
}

// TestClusteredLeavesIndependentUnits: units each on a seed of its own
// (the adaptive schedule's) leave the fit as FitBalanced made it, and
// units that do not match the fit are refused.
func TestClusteredLeavesIndependentUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pairs, units := mapRoundRobin(rng, []float64{0, 0.5, 1}, 1, 5)
	f, err := FitBalanced([]string{"a", "b", "c"}, pairs)
	if err != nil {
		t.Fatal(err)
	}
	before := f.Fit.Cov[0][0]
	own := make([]BalancedUnit, len(units))
	for k, u := range units {
		u.Cluster = uint64(k)
		own[k] = u
	}
	if err := f.Clustered(own); err != nil || f.Fit.Cov[0][0] != before {
		t.Fatalf("independent units: error %v, variance %v, want %v unchanged", err, f.Fit.Cov[0][0], before)
	}
	if err := f.Clustered(units[1:]); err == nil {
		t.Fatal("units missing one of the fit's were accepted")
	}
	one := make([]BalancedUnit, len(units))
	for k, u := range units {
		u.Cluster = 0
		one[k] = u
	}
	if err := f.Clustered(one); err != ErrFewClusters {
		t.Fatalf("one shared cluster: error %v, want ErrFewClusters", err)
	}
}
