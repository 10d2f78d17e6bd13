package stats

import (
	"errors"
	"fmt"
	"math"
)

// ErrFewClusters says that units shared clusters across pairs but too few
// clusters were seen to estimate how they move together (Clustered).
var ErrFewClusters = errors.New("fewer than 2 seeds shared by several pairs: how their units move together cannot be estimated")

// BalancedUnit is one unit of a pair (the pair's games on one seed) with
// the cluster it belongs to: units of different pairs in one cluster may
// move together. In a round robin every pair of a round plays the round's
// seed, so in AI Code Battle every pair of the round plays one map, and a
// map that suits a player lifts all its results of that round at once.
type BalancedUnit struct {
	A, B int
	// Score is A's mean score over the unit's games, in [0, 1].
	Score float64
	// Cluster identifies the units that may be correlated (the seed).
	Cluster uint64
}

// Clustered re-estimates the fit's covariance for units that are
// correlated within clusters but independent across them: the sandwich's
// meat becomes the cluster-robust C/(C-1) Σ_c g_c g_cᵀ over the C
// clusters, g_c summing the residuals (x_u - m̄_ij)/(units_ij + 1) of the
// cluster's units on each player (+ for A, - for B), so a player's
// results that move together on one seed count as one observation, not
// one per opponent (the working-independence sandwich of a GEE, Liang and
// Zeger 1986; the C/(C-1) factor is the usual small-sample correction).
// Each pair's own part is kept at least at its pooled variance
// v_ij/(units_ij + 1) of FitBalanced, so few units are still not taken as
// certain. The ratings do not change. units must be the units the fit was
// made from (same pairs and counts); when no cluster holds units of two
// different pairs the fit is left as it is, and with fewer than 2 clusters
// shared by several pairs the between-cluster spread cannot be estimated,
// which is an error.
//
// The units matter because they are not independent in a round robin of
// AI Code Battle: measured over 200 rounds of the 21 strategies, the
// variance of a player's round total was 1.7 to 6.1 times the sum of its
// pairs' unit variances, so intervals that take every pair-round as
// independent are too narrow by up to 2.5x.
func (b *BalancedFit) Clustered(units []BalancedUnit) error {
	n := len(b.r)
	counts := make([]int, len(b.pairs))
	type side struct {
		k    int
		flip bool
	}
	sides := make([]side, len(units))
	pairsOf := map[uint64]int{} // cluster -> the first pair seen in it, or -1 once a second one is
	for u, x := range units {
		key := [2]int{min(x.A, x.B), max(x.A, x.B)}
		k, ok := b.byPair[key]
		if !ok || x.A == x.B || !(x.Score >= 0 && x.Score <= 1) {
			return fmt.Errorf("unit %d: pair %d-%d score %v is not a unit of the fit", u, x.A, x.B, x.Score)
		}
		sides[u] = side{k, x.A > x.B}
		counts[k]++
		if first, seen := pairsOf[x.Cluster]; !seen {
			pairsOf[x.Cluster] = k
		} else if first != k {
			pairsOf[x.Cluster] = -1
		}
	}
	shared := 0
	for _, first := range pairsOf {
		if first < 0 {
			shared++
		}
	}
	for k, p := range b.pairs {
		if counts[k] != p.Units {
			return fmt.Errorf("pair %d-%d: %d units given, the fit has %d", p.A, p.B, counts[k], p.Units)
		}
	}
	if shared == 0 {
		return nil
	}
	c := len(pairsOf)
	if shared < 2 {
		return ErrFewClusters
	}
	// g_c per cluster, in first-appearance order of the clusters.
	at := make(map[uint64]int, c)
	g := make([][]float64, 0, c)
	own := make([]float64, len(b.pairs)) // Σ r_u² per pair
	for u, x := range units {
		s := sides[u]
		p := b.pairs[s.k]
		score := x.Score
		if s.flip {
			score = 1 - score
		}
		res := (score - p.Sum/float64(p.Units)) / float64(p.Units+1)
		i, ok := at[x.Cluster]
		if !ok {
			i = len(g)
			at[x.Cluster] = i
			g = append(g, make([]float64, n))
		}
		g[i][p.A] += res
		g[i][p.B] -= res
		own[s.k] += res * res
	}
	scale := float64(c) / float64(c-1)
	meat := newSquare(n)
	for _, gc := range g {
		for a, va := range gc {
			if va == 0 {
				continue
			}
			for bb, vb := range gc {
				meat[a][bb] += scale * va * vb
			}
		}
	}
	for k, p := range b.pairs {
		top := b.unitV[k]/float64(p.Units+1) - scale*own[k]
		if top <= 0 || math.IsNaN(top) {
			continue
		}
		meat[p.A][p.A] += top
		meat[p.B][p.B] += top
		meat[p.A][p.B] -= top
		meat[p.B][p.A] -= top
	}
	b.setCov(&b.Fit, meat)
	b.Fit.setIntervals()
	return nil
}
