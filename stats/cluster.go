package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Method names how an Interval was computed.
type Method string

const (
	// ClusteredT is the mean over independent units with the
	// cluster-robust standard error and a Student t quantile with
	// units - 1 degrees of freedom.
	ClusteredT Method = "clustered-t"
	// WilsonDistinct is the fallback when every unit gave the same
	// result (or there is one unit): the Wilson interval over the number
	// of distinct results (1), so repeating a deterministic outcome never
	// narrows the interval.
	WilsonDistinct Method = "wilson-distinct"
	// NormalPairs is the SPRT estimate's interval: the mean over game
	// pairs (or games) with its standard error and a normal quantile, as
	// fishtest and fastchess print it.
	NormalPairs Method = "normal"
)

// Interval is an estimate with its confidence interval computed over
// independent units (seeds, game pairs), with how many units there were
// and how many distinct results they gave.
type Interval struct {
	// Mean is the estimate: a score rate in [0, 1], or a difference of
	// score rates in [-1, 1] for PairedDifference.
	Mean float64 `json:"mean"`
	// Lo and Hi bound the interval, clamped to the range of Mean.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// SE is the standard error behind the interval; for the Wilson
	// fallback, the half-width divided by the normal quantile.
	SE float64 `json:"se"`
	// Units counts the independent units, Distinct the distinct per-unit
	// results among them.
	Units    int    `json:"units"`
	Distinct int    `json:"distinct"`
	Method   Method `json:"method"`
}

// Unit is one independent unit of games of a player (a seed, a game
// pair): the points it scored (1 a win, 0.5 a draw) in its games.
type Unit struct {
	Points float64 `json:"points"`
	Games  float64 `json:"games"`
}

// ClusteredRate is a player's score rate over independent units, with
// its confidence interval at level (0.95 for 95%):
//
//   - the rate is total points over total games (the mean of the per-unit
//     rates when every unit has as many games);
//   - its variance is the cluster-robust one, n/(n-1) * sum_c (P_c - rate
//     G_c)^2 / (sum_c G_c)^2 over the n units c, so games inside a unit
//     are not taken as independent evidence;
//   - the interval is rate ± t SE, t the Student quantile with n-1 degrees
//     of freedom, clamped to [0, 1].
//
// When every unit gave the same rate (Distinct is 1), that variance is 0
// however many units there are, and the interval falls back to the Wilson
// interval of the rate over one trial: repeats of one outcome count as one
// observation. Units without games are skipped; none at all is an error.
func ClusteredRate(units []Unit, level float64) (Interval, error) {
	kept, pts, games, err := unitsWithGames(units, level)
	if err != nil {
		return Interval{}, err
	}
	rates := make([]float64, len(kept))
	for i, u := range kept {
		rates[i] = u.Points / u.Games
	}
	iv := Interval{Mean: pts / games, Units: len(kept), Distinct: distinct(rates)}
	if iv.Distinct < 2 {
		return wilsonFallback(iv, 0, 1, level), nil
	}
	return clusteredT(iv, kept, games, level), nil
}

// unitsWithGames checks level and units (games a finite count >= 0,
// points within [0, games]) and returns the units with games, their
// points and games summed; none is an error.
func unitsWithGames(units []Unit, level float64) (kept []Unit, pts, games float64, err error) {
	if err := checkLevel(level); err != nil {
		return nil, 0, 0, err
	}
	for i, u := range units {
		switch {
		case !(u.Games >= 0) || math.IsInf(u.Games, 0):
			return nil, 0, 0, fmt.Errorf("unit %d: games %v is not a count >= 0", i, u.Games)
		case !(u.Points >= 0 && u.Points <= u.Games):
			return nil, 0, 0, fmt.Errorf("unit %d: points %v is not in [0, games %v]", i, u.Points, u.Games)
		case u.Games == 0:
			continue
		}
		pts += u.Points
		games += u.Games
		kept = append(kept, u)
	}
	if len(kept) == 0 {
		return nil, 0, 0, errors.New("no unit with a game")
	}
	return kept, pts, games, nil
}

// clusteredT completes iv (its Mean the rate over kept, whose games sum
// to games) with the cluster-robust standard error over the units and the
// Student t interval on len(kept)-1 degrees of freedom, clipped to [0, 1].
func clusteredT(iv Interval, kept []Unit, games, level float64) Interval {
	n := len(kept)
	ss := 0.0
	for _, u := range kept {
		e := u.Points - iv.Mean*u.Games
		ss += e * e
	}
	iv.SE = math.Sqrt(float64(n)/float64(n-1)*ss) / games
	t := studentQuantile(level, n-1)
	iv.Lo, iv.Hi = math.Max(0, iv.Mean-t*iv.SE), math.Min(1, iv.Mean+t*iv.SE)
	iv.Method = ClusteredT
	return iv
}

// ClusteredRateDistinct is ClusteredRate for units the caller has made
// distinct: exact repeats of one outcome (the same games with the same
// results on another seed, say) merged into one unit, their points and
// games summed, so that no two units repeat each other even when their
// rates agree. The estimate and the cluster-robust interval are
// ClusteredRate's, and so is the Wilson fallback when every unit gave the
// same rate, but over the number of units (each a distinct outcome)
// rather than over one: twenty different games that were all won are
// twenty observations, twenty copies of one game are one. Distinct is the
// number of units.
func ClusteredRateDistinct(units []Unit, level float64) (Interval, error) {
	kept, pts, games, err := unitsWithGames(units, level)
	if err != nil {
		return Interval{}, err
	}
	iv := Interval{Mean: pts / games, Units: len(kept), Distinct: len(kept)}
	first := kept[0].Points / kept[0].Games
	for _, u := range kept[1:] {
		if math.Abs(u.Points/u.Games-first) > 1e-9 {
			return clusteredT(iv, kept, games, level), nil
		}
	}
	return wilsonFallback(iv, 0, 1, level), nil
}

// ClusteredMean is ClusteredRate over units of one game each whose
// scores (in [0, 1]) are x: the mean of x with its t interval, or the
// Wilson fallback when every x is the same.
func ClusteredMean(x []float64, level float64) (Interval, error) {
	units := make([]Unit, len(x))
	for i, v := range x {
		units[i] = Unit{Points: v, Games: 1}
	}
	return ClusteredRate(units, level)
}

// PairedDifference compares two players on common units (the same seeds,
// say, with the candidate and the incumbent each playing the same
// opponents): a[c] and b[c] are their score rates in unit c, in [0, 1].
// The estimate is the mean of a[c] - b[c] with its t interval (n-1
// degrees of freedom) over the n units, clamped to [-1, 1]. Pairing
// removes the variation the units share (a hard seed is hard for both).
// When every unit gave the same difference, the interval is the Wilson
// interval of (d+1)/2 over one trial mapped back to [-1, 1].
func PairedDifference(a, b []float64, level float64) (Interval, error) {
	if err := checkLevel(level); err != nil {
		return Interval{}, err
	}
	if len(a) != len(b) {
		return Interval{}, fmt.Errorf("paired difference: %d scores for a, %d for b; want one each per unit", len(a), len(b))
	}
	if len(a) == 0 {
		return Interval{}, errors.New("paired difference: no unit")
	}
	d := make([]float64, len(a))
	mean := 0.0
	for i := range a {
		for _, v := range []float64{a[i], b[i]} {
			if !(v >= 0 && v <= 1) {
				return Interval{}, fmt.Errorf("paired difference: unit %d score %v is not in [0, 1]", i, v)
			}
		}
		d[i] = a[i] - b[i]
		mean += d[i]
	}
	n := len(d)
	mean /= float64(n)
	iv := Interval{Mean: mean, Units: n, Distinct: distinct(d)}
	if iv.Distinct < 2 {
		return wilsonFallback(iv, -1, 1, level), nil
	}
	ss := 0.0
	for _, v := range d {
		ss += (v - mean) * (v - mean)
	}
	iv.SE = math.Sqrt(ss / float64(n-1) / float64(n))
	t := studentQuantile(level, n-1)
	iv.Lo, iv.Hi = math.Max(-1, mean-t*iv.SE), math.Min(1, mean+t*iv.SE)
	iv.Method = ClusteredT
	return iv, nil
}

// Wilson is the Wilson score interval of a success rate at the given
// two-sided level: successes (a draw is half a success) out of n trials.
// With no trial the interval is [0, 1].
func Wilson(successes float64, n float64, level float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z := normalQuantile(level)
	p := successes / n
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if successes <= 0 {
		lo = 0
	}
	if successes >= n {
		hi = 1
	}
	return lo, hi
}

// wilsonFallback fills iv's interval with the Wilson interval of its mean,
// rescaled from [min, max] to [0, 1], over its number of distinct results.
func wilsonFallback(iv Interval, min, max, level float64) Interval {
	w := max - min
	n := float64(iv.Distinct)
	lo, hi := Wilson((iv.Mean-min)/w*n, n, level)
	iv.Lo, iv.Hi = min+w*lo, min+w*hi
	iv.SE = (iv.Hi - iv.Lo) / 2 / normalQuantile(level)
	iv.Method = WilsonDistinct
	return iv
}

// distinct counts the distinct values of x, equal within 1e-9.
func distinct(x []float64) int {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	n := 1
	for i := 1; i < len(s); i++ {
		if s[i]-s[i-1] > 1e-9 {
			n++
		}
	}
	return n
}

// checkLevel refuses a confidence level outside (0, 1).
func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("confidence level %v is not in (0, 1)", level)
	}
	return nil
}

// normalQuantile is the two-sided normal quantile of a level: 1.96 for
// 0.95.
func normalQuantile(level float64) float64 {
	return distuv.UnitNormal.Quantile(1 - (1-level)/2)
}

// StudentQuantile is the two-sided Student t quantile of a level with df
// degrees of freedom: 2.262 for 0.95 and 9.
func StudentQuantile(level float64, df int) float64 {
	return studentQuantile(level, df)
}

// studentQuantile is StudentQuantile.
func studentQuantile(level float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - (1-level)/2)
}

// PairIntervals is the table of head-to-head score rates of n players
// over independent units: cell [i][j] is ClusteredRate of i's points
// against j, each unit in which they met counting once (for a 2-seat
// game, a unit is a seed's seat-swapped pair). Cell [j][i] mirrors it (1 -
// rate, the interval flipped). Pairs that never met, and the diagonal,
// are the empty interval: Units 0, Mean 1/2, [0, 1]. Lows(table) is
// Cycles3's input.
func PairIntervals(n int, games []PairGame, level float64) ([][]Interval, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	type key struct {
		i, j int
		unit int64
	}
	index := map[key]int{}
	var acc []Unit
	var keys []key
	for k, g := range games {
		switch {
		case g.A < 0 || g.A >= n || g.B < 0 || g.B >= n:
			return nil, fmt.Errorf("game %d: players %d and %d, want indices below %d", k, g.A, g.B, n)
		case g.A == g.B:
			return nil, fmt.Errorf("game %d: player %d against itself", k, g.A)
		case !(g.Score >= 0 && g.Score <= 1):
			return nil, fmt.Errorf("game %d: score %v is not in [0, 1]", k, g.Score)
		}
		i, j, s := g.A, g.B, g.Score
		if i > j {
			i, j, s = j, i, 1-s
		}
		kk := key{i, j, g.Unit}
		at, ok := index[kk]
		if !ok {
			at = len(acc)
			index[kk] = at
			acc = append(acc, Unit{})
			keys = append(keys, kk)
		}
		acc[at].Points += s
		acc[at].Games++
	}
	perPair := make(map[[2]int][]Unit)
	for at, kk := range keys {
		p := [2]int{kk.i, kk.j}
		perPair[p] = append(perPair[p], acc[at])
	}
	out := make([][]Interval, n)
	for i := range out {
		out[i] = make([]Interval, n)
		for j := range out[i] {
			out[i][j] = Interval{Mean: 0.5, Lo: 0, Hi: 1}
		}
	}
	for p, units := range perPair {
		iv, err := ClusteredRate(units, level)
		if err != nil {
			return nil, err
		}
		out[p[0]][p[1]] = iv
		mirror := iv
		mirror.Mean, mirror.Lo, mirror.Hi = 1-iv.Mean, 1-iv.Hi, 1-iv.Lo
		out[p[1]][p[0]] = mirror
	}
	return out, nil
}

// Lows is the matrix of the intervals' lower ends, Cycles3's input.
func Lows(table [][]Interval) [][]float64 {
	lo := make([][]float64, len(table))
	for i, row := range table {
		lo[i] = make([]float64, len(row))
		for j, iv := range row {
			lo[i][j] = iv.Lo
		}
	}
	return lo
}
