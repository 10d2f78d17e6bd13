package stats

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// neloPerT converts a t-value (score excess over 1/2 divided by the
// per-game standard deviation) to normalized Elo: 800 / ln 10.
const neloPerT = 800 / math.Ln10

// regularizer is the count that stands in for an empty outcome class in
// the LLR, as fishtest's LLRcalc and fastchess do, so that the maximum
// likelihood distributions stay inside the simplex.
const regularizer = 1e-3

// Model is the Elo model the hypotheses of an SPRT are stated in.
type Model int

const (
	// Logistic Elo: a difference of E points means an expected score of
	// 1 / (1 + 10^(-E/400)) per game. The hypotheses are about the
	// expected score.
	Logistic Model = iota
	// Normalized Elo: E = 800/ln10 * (mu - 1/2) / sigma, with mu the
	// expected score and sigma the standard deviation of one game's score
	// (for pentanomial counts, of a pair's score divided by sqrt 2). It
	// does not depend on the draw rate, so bounds carry across games and
	// time controls. The hypotheses are about that t-value.
	Normalized
)

// ModelNames lists the names ParseModel accepts, for help texts.
var ModelNames = []string{"logistic", "normalized"}

// String is the model's name: "logistic" or "normalized".
func (m Model) String() string {
	switch m {
	case Logistic:
		return "logistic"
	case Normalized:
		return "normalized"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

// MarshalText writes the model's name.
func (m Model) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// ParseModel reads a model name: "logistic" or "normalized".
func ParseModel(s string) (Model, error) {
	switch s {
	case "logistic":
		return Logistic, nil
	case "normalized":
		return Normalized, nil
	}
	return 0, fmt.Errorf("model %q is not one of %s", s, strings.Join(ModelNames, ", "))
}

// Verdict is the state of a sequential test.
type Verdict int

const (
	// Continue: the LLR is between the bounds; play more.
	Continue Verdict = iota
	// AcceptH0: the LLR reached the lower bound; the difference is at most
	// Elo0 (within the test's error rates).
	AcceptH0
	// AcceptH1: the LLR reached the upper bound; the difference is at least
	// Elo1.
	AcceptH1
)

// String is "continue", "H0" or "H1".
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "continue"
}

// MarshalText writes the verdict's String.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Pentanomial counts seat-swapped game pairs by the pair's total score of
// the tested player B, in its order: [0] LL (0 of 2), [1] LD (0.5),
// [2] WL or DD (1), [3] WD (1.5), [4] WW (2). PairBucket gives a pair's
// index.
type Pentanomial [5]int

// Pentanomial class indices.
const (
	LL   = 0
	LD   = 1
	WLDD = 2
	WD   = 3
	WW   = 4
)

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Add counts one pair from B's scores in its two games (each 1, 0.5 or 0).
func (p *Pentanomial) Add(first, second float64) error {
	b, err := PairBucket(first, second)
	if err != nil {
		return err
	}
	p[b]++
	return nil
}

// validate refuses negative counts.
func (p Pentanomial) validate() error {
	names := [5]string{"LL", "LD", "WL+DD", "WD", "WW"}
	for i, c := range p {
		if c < 0 {
			return fmt.Errorf("pentanomial count %s is %d, want >= 0", names[i], c)
		}
	}
	return nil
}

// Trinomial counts single games by B's result.
type Trinomial struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of games counted.
func (t Trinomial) Games() int { return t.Wins + t.Draws + t.Losses }

// validate refuses negative counts.
func (t Trinomial) validate() error {
	for _, f := range []struct {
		name string
		n    int
	}{{"wins", t.Wins}, {"draws", t.Draws}, {"losses", t.Losses}} {
		if f.n < 0 {
			return fmt.Errorf("trinomial %s is %d, want >= 0", f.name, f.n)
		}
	}
	return nil
}

// Counts is what an SPRT is computed from: Pentanomial or Trinomial.
type Counts interface {
	// outcomes returns the score of each class (ascending, from 0 to 1
	// per game), the raw counts and the number of games per unit (2 for a
	// pair, 1 for a game).
	outcomes() (scores []float64, counts []float64, gamesPerUnit int)
	validate() error
}

var (
	_ Counts = Pentanomial{}
	_ Counts = Trinomial{}
)

func (p Pentanomial) outcomes() ([]float64, []float64, int) {
	c := make([]float64, 5)
	for i, n := range p {
		c[i] = float64(n)
	}
	return []float64{0, 0.25, 0.5, 0.75, 1}, c, 2
}

func (t Trinomial) outcomes() ([]float64, []float64, int) {
	return []float64{0, 0.5, 1}, []float64{float64(t.Losses), float64(t.Draws), float64(t.Wins)}, 1
}

// SPRT is a generalized sequential probability ratio test of H0: the Elo
// difference of B over A is Elo0, against H1: it is Elo1, in the given
// model, with error rates Alpha (accepting H1 when H0 holds) and Beta
// (accepting H0 when H1 holds). The LLR is fishtest's (LLRcalc.py) and
// fastchess's: the log-likelihood ratio of the maximum-likelihood outcome
// distributions under each hypothesis, given the observed frequencies.
type SPRT struct {
	// Elo0 and Elo1 are B's Elo difference over A under H0 and H1, in
	// Model's units; Elo0 < Elo1.
	Elo0 float64 `json:"elo0"`
	Elo1 float64 `json:"elo1"`
	// Alpha is the probability of accepting H1 when H0 holds, Beta of
	// accepting H0 when H1 holds (fishtest uses 0.05 and 0.05).
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model Model   `json:"model"`
}

// Validate checks the test's parameters: Elo0 < Elo1, Alpha and Beta in
// (0, 1) with Alpha + Beta < 1, and a known model.
func (s SPRT) Validate() error {
	switch {
	case math.IsNaN(s.Elo0) || math.IsInf(s.Elo0, 0):
		return fmt.Errorf("elo0 %v is not a finite number", s.Elo0)
	case math.IsNaN(s.Elo1) || math.IsInf(s.Elo1, 0):
		return fmt.Errorf("elo1 %v is not a finite number", s.Elo1)
	case s.Elo0 >= s.Elo1:
		return fmt.Errorf("elo0 %v must be below elo1 %v", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("alpha %v is not in (0, 1)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("beta %v is not in (0, 1)", s.Beta)
	case s.Alpha+s.Beta >= 1:
		return fmt.Errorf("alpha %v + beta %v must be below 1", s.Alpha, s.Beta)
	case s.Model != Logistic && s.Model != Normalized:
		return fmt.Errorf("model %v is not one of %s", s.Model, strings.Join(ModelNames, ", "))
	}
	return nil
}

// Bounds are the LLR's stopping bounds: ln(Beta/(1-Alpha)) below which H0
// is accepted and ln((1-Beta)/Alpha) above which H1 is accepted.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR is the generalized log-likelihood ratio of H1 against H0 for the
// counts. Empty classes count 0.001 (LLRcalc's regularisation), so the
// LLR of no games at all is 0.
func (s SPRT) LLR(c Counts) (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if err := c.validate(); err != nil {
		return 0, err
	}
	scores, raw, perUnit := c.outcomes()
	n, p := regularized(raw)
	var p0, p1 []float64
	var err error
	switch s.Model {
	case Logistic:
		if p0, err = mleMean(scores, p, logisticScore(s.Elo0)); err != nil {
			return 0, err
		}
		if p1, err = mleMean(scores, p, logisticScore(s.Elo1)); err != nil {
			return 0, err
		}
	case Normalized:
		// The t-value of a pair's score is sqrt 2 times a game's: the
		// pair's deviation is about a game's over sqrt 2 when the seats
		// are balanced.
		k := math.Sqrt(float64(perUnit))
		if p0, err = mleTValue(scores, p, 0.5, k*s.Elo0/neloPerT); err != nil {
			return 0, err
		}
		if p1, err = mleTValue(scores, p, 0.5, k*s.Elo1/neloPerT); err != nil {
			return 0, err
		}
	}
	llr := 0.0
	for i := range p {
		llr += p[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr, nil
}

// Decide turns an LLR into the test's verdict.
func (s SPRT) Decide(llr float64) Verdict {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// Result is the state of an SPRT on some counts.
type Result struct {
	// LLR is the log-likelihood ratio of H1 over H0.
	LLR float64 `json:"llr"`
	// Lower and Upper are the bounds at which H0 and H1 are accepted.
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict Verdict `json:"verdict"`
	// Elo is B's measured strength over A.
	Elo Estimate `json:"elo"`
}

// Test computes the LLR, the bounds, the verdict and the Elo estimate at
// the given confidence level (0.95 for 95%).
func (s SPRT) Test(c Counts, level float64) (Result, error) {
	llr, err := s.LLR(c)
	if err != nil {
		return Result{}, err
	}
	est, err := EstimateElo(c, level)
	if err != nil {
		return Result{}, err
	}
	lo, hi := s.Bounds()
	return Result{LLR: llr, Lower: lo, Upper: hi, Verdict: s.Decide(llr), Elo: est}, nil
}

// logisticScore is the expected score of an Elo difference.
func logisticScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// LogisticElo is the Elo difference that predicts an expected score s:
// -400 log10(1/s - 1), infinite at 0 and 1.
func LogisticElo(s float64) float64 { return -400 * math.Log10(1/s-1) }

// regularized replaces empty classes by the regularizer and returns the
// total and the frequencies.
func regularized(counts []float64) (float64, []float64) {
	p := make([]float64, len(counts))
	n := 0.0
	for i, c := range counts {
		if c == 0 {
			c = regularizer
		}
		p[i] = c
		n += c
	}
	for i := range p {
		p[i] /= n
	}
	return n, p
}

// meanVar is the mean and variance of a discrete distribution.
func meanVar(scores, p []float64) (mu, v float64) {
	for i := range p {
		mu += p[i] * scores[i]
	}
	for i := range p {
		d := scores[i] - mu
		v += p[i] * d * d
	}
	return mu, v
}

// secular solves sum_i p_i a_i / (1 + x a_i) = 0 for x in the interval
// where every 1 + x a_i is positive, starting from x (the midpoint of the
// interval when x is outside it); the a_i must take both signs. The left
// side decreases strictly in x, so a Newton step safeguarded by bisection
// finds the root.
func secular(a, p []float64, x float64) (float64, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, ai := range a {
		switch {
		case ai > 0:
			lo = math.Max(lo, -1/ai)
		case ai < 0:
			hi = math.Min(hi, -1/ai)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, errors.New("the constrained score is outside the range of the outcomes")
	}
	// Keep a margin from the poles, where the left side is infinite.
	w := hi - lo
	a0, b0 := lo+1e-12*w, hi-1e-12*w
	if !(x > a0 && x < b0) {
		x = (a0 + b0) / 2
	}
	for range 200 {
		v, d := 0.0, 0.0
		for i, ai := range a {
			q := 1 + x*ai
			v += p[i] * ai / q
			d -= p[i] * ai * ai / (q * q)
		}
		if v == 0 {
			return x, nil
		}
		if v > 0 {
			a0 = x
		} else {
			b0 = x
		}
		nx := x - v/d
		if !(nx > a0 && nx < b0) {
			nx = (a0 + b0) / 2
		}
		if math.Abs(nx-x) <= 1e-15*math.Max(1, math.Abs(x)) || b0-a0 <= 1e-15*math.Max(1, math.Abs(x)) {
			return nx, nil
		}
		x = nx
	}
	return x, nil
}

// mleMean is the distribution over the scores, closest to the observed
// frequencies phat in likelihood, whose mean is s (Van den Bergh, "Comments
// on normalized Elo", proposition 1.1): p_i = phat_i / (1 + x (a_i - s))
// with x the root of the secular equation.
func mleMean(scores, phat []float64, s float64) ([]float64, error) {
	a := make([]float64, len(scores))
	for i, v := range scores {
		a[i] = v - s
	}
	x, err := secular(a, phat, 0)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(phat))
	for i := range p {
		p[i] = phat[i] / (1 + x*a[i])
	}
	return p, nil
}

// mleTValue is the distribution over the scores, closest to the observed
// frequencies in likelihood, whose t-value (mu - ref)/sigma is t (same
// note, section 4.1): a fixed point of the secular solution with
// a_i = s_i - ref - t sigma (1 + ((mu - s_i)/sigma)^2) / 2, started from the
// uniform distribution.
func mleTValue(scores, phat []float64, ref, t float64) ([]float64, error) {
	n := len(scores)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	a := make([]float64, n)
	for range 100 {
		mu, v := meanVar(scores, p)
		sigma := math.Sqrt(v)
		for i, s := range scores {
			z := (mu - s) / sigma
			a[i] = s - ref - t*sigma*(1+z*z)/2
		}
		x, err := secular(a, phat, 0)
		if err != nil {
			return nil, err
		}
		diff := 0.0
		for i := range p {
			q := phat[i] / (1 + x*a[i])
			diff = math.Max(diff, math.Abs(q-p[i]))
			p[i] = q
		}
		if diff < 1e-12 {
			break
		}
	}
	return p, nil
}
