package stats

import "math"

// MinUnits is the fewest independent units on which the large-sample
// intervals (Student t over the units with the cluster-robust standard
// error, the cluster-robust sandwich of a fit, Wilson's over the distinct
// outcomes) are used. On one unit the variance over units is not
// defined (a sandwich of one cluster is 0 at the maximum, whatever the
// data); on two it has a single degree of freedom and Wilson's interval
// covers far less than its level when both units agree (two wins: [34%,
// 100%], which a player scoring 30% reaches 9% of the time).
const MinUnits = 3

// The methods of SmallSampleRate below MinUnits.
const (
	// ExactExtreme is the interval of units that were all won (all lost):
	// [(α/2)^(1/n), 1] for n units at level 1-α. It holds for any unit
	// score in [0, 1] with mean μ: P(X = 1) <= μ, so n units all scoring 1
	// happen with probability at most μ^n, below α/2 for every μ under the
	// bound.
	ExactExtreme Method = "exact-extreme"
	// NotAvailable marks an interval no method valid at the sample size
	// gives (one unit that was not all won or all lost, two that agree
	// on such a score); Lo and Hi are then the whole range, [0, 1].
	NotAvailable Method = "none"
)

// SmallSampleRate is ClusteredRateDistinct (units made distinct by the
// caller) with honest intervals on fewer than MinUnits units:
//
//   - every unit won (rate 1) or every unit lost (rate 0): the exact
//     bound ExactExtreme;
//   - two units with different rates: Student t on one degree of
//     freedom (ClusteredT, the quantile 12.7 at 95%);
//   - otherwise: NotAvailable, the interval [0, 1].
//
// From MinUnits units on it is ClusteredRateDistinct.
func SmallSampleRate(units []Unit, level float64) (Interval, error) {
	iv, err := ClusteredRateDistinct(units, level)
	if err != nil || iv.Units >= MinUnits || iv.Method == ClusteredT {
		return iv, err
	}
	// Every unit gave the same rate (the Wilson fallback): iv.Mean.
	n := float64(iv.Units)
	bound := math.Pow((1-level)/2, 1/n)
	z := normalQuantile(level)
	switch {
	case iv.Mean >= 1-1e-12:
		iv.Lo, iv.Hi, iv.Method = bound, 1, ExactExtreme
	case iv.Mean <= 1e-12:
		iv.Lo, iv.Hi, iv.Method = 0, 1-bound, ExactExtreme
	default:
		iv.Lo, iv.Hi, iv.Method = 0, 1, NotAvailable
	}
	iv.SE = (iv.Hi - iv.Lo) / 2 / z
	return iv, nil
}
