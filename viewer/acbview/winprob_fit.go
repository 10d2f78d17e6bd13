package acbview

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// choiceData is the data a conditional logit is fitted on: observations,
// each a set of alternatives (the players alive at one turn of one match)
// with a feature vector each, one of which was chosen (the winner).
type choiceData struct {
	// K is the length of a feature vector.
	K int
	// X holds every alternative's features back to back.
	X []float64
	// Start[o] is observation o's first alternative (an index into rows of
	// X); Start has one extra entry closing the last observation.
	Start []int
	// Chosen[o] is the chosen alternative of observation o, counted from
	// Start[o].
	Chosen []int
	// Weight[o] is observation o's weight.
	Weight []float64
}

// add appends an observation of len(xs)/K alternatives with chosen one.
func (d *choiceData) add(xs []float64, chosen int, w float64) {
	if len(d.Start) == 0 {
		d.Start = append(d.Start, 0)
	}
	d.X = append(d.X, xs...)
	d.Start = append(d.Start, len(d.X)/d.K)
	d.Chosen = append(d.Chosen, chosen)
	d.Weight = append(d.Weight, w)
}

// len is the number of observations.
func (d *choiceData) len() int { return len(d.Chosen) }

// logitFit is the outcome of fitConditionalLogit.
type logitFit struct {
	// Coef are the fitted coefficients.
	Coef []float64
	// LogLik is the weighted log-likelihood at Coef (without the ridge).
	LogLik float64
	// Iterations is the number of Newton steps taken.
	Iterations int
}

// logLik returns the weighted log-likelihood of d at beta and, when grad
// and hess are not nil, adds its gradient and the negated Hessian
// (the Fisher information) into them.
func logLik(d *choiceData, beta []float64, grad []float64, info *mat.SymDense) float64 {
	k := d.K
	ll := 0.0
	u := make([]float64, 0, 8)
	mean := make([]float64, k)
	for o := 0; o < d.len(); o++ {
		lo, hi := d.Start[o], d.Start[o+1]
		u = u[:0]
		maxU := math.Inf(-1)
		for a := lo; a < hi; a++ {
			x := d.X[a*k : (a+1)*k]
			s := 0.0
			for j, b := range beta {
				s += b * x[j]
			}
			u = append(u, s)
			maxU = max(maxU, s)
		}
		sum := 0.0
		for i := range u {
			u[i] = math.Exp(u[i] - maxU)
			sum += u[i]
		}
		w := d.Weight[o]
		chosen := lo + d.Chosen[o]
		ll += w * (math.Log(u[d.Chosen[o]] / sum))
		if grad == nil {
			continue
		}
		for j := range mean {
			mean[j] = 0
		}
		for a := lo; a < hi; a++ {
			p := u[a-lo] / sum
			x := d.X[a*k : (a+1)*k]
			for j := range mean {
				mean[j] += p * x[j]
			}
		}
		xc := d.X[chosen*k : (chosen+1)*k]
		for j := range grad {
			grad[j] += w * (xc[j] - mean[j])
		}
		// Information: Σ_a p_a (x_a - mean)(x_a - mean)ᵀ.
		for a := lo; a < hi; a++ {
			p := w * u[a-lo] / sum
			x := d.X[a*k : (a+1)*k]
			for i := 0; i < k; i++ {
				di := x[i] - mean[i]
				if di == 0 {
					continue
				}
				for j := i; j < k; j++ {
					info.SetSym(i, j, info.At(i, j)+p*di*(x[j]-mean[j]))
				}
			}
		}
	}
	return ll
}

// fitConditionalLogit maximises the weighted log-likelihood of a
// conditional (McFadden) logit minus ridge/2·|β|² by Newton's method
// (iteratively reweighted least squares for this model), halving a step
// that does not improve the objective. It stops when no coefficient moves
// by more than 1e-9 or after 200 steps (an error then).
func fitConditionalLogit(d *choiceData, ridge float64) (logitFit, error) {
	k := d.K
	if d.len() == 0 {
		return logitFit{}, errors.New("fit: no observations")
	}
	beta := make([]float64, k)
	objective := func(b []float64) float64 {
		pen := 0.0
		for _, v := range b {
			pen += v * v
		}
		return logLik(d, b, nil, nil) - ridge/2*pen
	}
	cur := objective(beta)
	grad := make([]float64, k)
	info := mat.NewSymDense(k, nil)
	next := make([]float64, k)
	for it := 1; it <= 200; it++ {
		for j := range grad {
			grad[j] = -ridge * beta[j]
		}
		info.Zero()
		logLik(d, beta, grad, info)
		for j := 0; j < k; j++ {
			info.SetSym(j, j, info.At(j, j)+ridge+1e-12)
		}
		var chol mat.Cholesky
		if !chol.Factorize(info) {
			return logitFit{}, fmt.Errorf("fit: the information matrix is not positive definite at step %d (a feature without variation? add a ridge)", it)
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, mat.NewVecDense(k, grad)); err != nil {
			return logitFit{}, fmt.Errorf("fit: step %d: %w", it, err)
		}
		scale := 1.0
		var obj float64
		for range 40 {
			for j := range next {
				next[j] = beta[j] + scale*step.AtVec(j)
			}
			obj = objective(next)
			if obj >= cur-1e-12*math.Abs(cur) {
				break
			}
			scale /= 2
		}
		moved := 0.0
		for j := range beta {
			moved = max(moved, math.Abs(next[j]-beta[j]))
		}
		copy(beta, next)
		cur = obj
		if moved < 1e-9 {
			return logitFit{Coef: beta, LogLik: logLik(d, beta, nil, nil), Iterations: it}, nil
		}
	}
	return logitFit{}, errors.New("fit: Newton's method did not converge in 200 steps")
}
