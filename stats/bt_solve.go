package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// btState is a solved fit: the ratings in nats (mean 0), the counts with
// the prior and the inverse information.
type btState struct {
	b           BradleyTerry
	names       []string
	r           []float64
	pts, games  [][]float64 // with the prior
	rawPts, raw [][]float64 // without
	hinv        [][]float64 // pseudo-inverse of the information (mean-zero)
	iters       int
	loglik      float64
}

// weight is the information of the pair (i, j) at the fit.
func (st *btState) weight(i, j int) float64 {
	p := sigmoid(st.r[i] - st.r[j])
	return st.games[i][j] * p * (1 - p)
}

// solve checks the counts and fits the ratings.
func (b BradleyTerry) solve(names []string, pts, games [][]float64) (*btState, error) {
	n := len(names)
	if n < 2 {
		return nil, fmt.Errorf("%d players, want at least 2", n)
	}
	if !(b.Prior >= 0) || math.IsInf(b.Prior, 0) {
		return nil, fmt.Errorf("prior %v is not a count >= 0", b.Prior)
	}
	if b.Level != 0 {
		if err := checkLevel(b.Level); err != nil {
			return nil, err
		}
	}
	if b.Anchor != "" && !slices.Contains(names, b.Anchor) {
		return nil, fmt.Errorf("anchor %q is not one of the players", b.Anchor)
	}
	st := &btState{b: b, names: names, rawPts: pts, raw: games, pts: newSquare(n), games: newSquare(n), r: make([]float64, n)}
	for i := range n {
		played := false
		for j := range n {
			switch {
			case i == j && (pts[i][j] != 0 || games[i][j] != 0):
				return nil, fmt.Errorf("player %s has games against itself", names[i])
			case !(pts[i][j] >= 0 && pts[i][j] <= games[i][j]) || math.IsInf(games[i][j], 0):
				return nil, fmt.Errorf("%s against %s: %v points in %v games, want points between 0 and the games", names[i], names[j], pts[i][j], games[i][j])
			}
			if games[i][j] > 0 {
				played = true
				st.pts[i][j] = pts[i][j] + b.Prior/2
				st.games[i][j] = games[i][j] + b.Prior
			}
		}
		if !played {
			return nil, fmt.Errorf("player %s has no game", names[i])
		}
	}
	if err := st.checkConnected(); err != nil {
		return nil, err
	}
	return st, st.newton()
}

// checkConnected refuses fields without a finite maximum: the graph with
// an edge i -> j when i scored against j must be strongly connected.
func (st *btState) checkConnected() error {
	n := len(st.names)
	comp := strongComponents(n, func(i, j int) bool { return st.pts[i][j] > 0 })
	count := slices.Max(comp) + 1
	if count == 1 {
		return nil
	}
	// A source component: nobody outside it scored against it.
	for c := range count {
		source := true
		for i := range n {
			for j := range n {
				if comp[j] == c && comp[i] != c && st.pts[i][j] > 0 {
					source = false
				}
			}
		}
		if !source {
			continue
		}
		var in, out []string
		for i, name := range st.names {
			if comp[i] == c {
				in = append(in, name)
			} else {
				out = append(out, name)
			}
		}
		return fmt.Errorf("%w: %s never dropped a point against %s (set a prior of virtual draws to rate such a field)", ErrNoFiniteRatings,
			strings.Join(in, ", "), strings.Join(out, ", "))
	}
	return fmt.Errorf("%w: the results split the players into groups", ErrNoFiniteRatings)
}

// strongComponents labels the strongly connected components of a graph
// on n vertices (Tarjan's algorithm).
func strongComponents(n int, edge func(i, j int) bool) []int {
	index := make([]int, n)
	low := make([]int, n)
	comp := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	next, count := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range n {
			if w == v || !edge(v, w) {
				continue
			}
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = count
				if w == v {
					break
				}
			}
			count++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// logLik is the log-likelihood of ratings r.
func (st *btState) logLik(r []float64) float64 {
	ll := 0.0
	for i := range r {
		for j := range r {
			if st.pts[i][j] > 0 {
				ll += st.pts[i][j] * logSigmoid(r[i]-r[j])
			}
		}
	}
	return ll
}

// newton maximises the log-likelihood. The information matrix H is a
// weighted graph Laplacian (singular along the all-ones vector); the step
// solves (H + J/n) d = gradient, whose solution has mean 0 because the
// gradient does.
func (st *btState) newton() error {
	n := len(st.r)
	grad := make([]float64, n)
	h := mat.NewSymDense(n, nil)
	var chol mat.Cholesky
	step := make([]float64, n)
	trial := make([]float64, n)
	ll := st.logLik(st.r)
	for st.iters = 1; st.iters <= 200; st.iters++ {
		st.system(h, grad)
		if ok := chol.Factorize(h); !ok {
			return errors.New("the information matrix is singular")
		}
		d := mat.NewVecDense(n, step)
		if err := chol.SolveVecTo(d, mat.NewVecDense(n, grad)); err != nil {
			return err
		}
		// Newton's step on a concave function; halve it until the
		// likelihood does not drop (it rarely needs to).
		t := 1.0
		for {
			for i := range trial {
				trial[i] = st.r[i] + t*step[i]
			}
			if nl := st.logLik(trial); nl >= ll-1e-12*math.Abs(ll) || t < 1e-10 {
				ll = nl
				break
			}
			t /= 2
		}
		copy(st.r, trial)
		move := 0.0
		for _, v := range step {
			move = math.Max(move, math.Abs(t*v))
		}
		if move*eloPerNat < 1e-10 {
			break
		}
	}
	if st.iters > 200 {
		return errors.New("the fit did not converge in 200 Newton steps")
	}
	st.loglik = ll
	st.system(h, grad)
	if ok := chol.Factorize(h); !ok {
		return errors.New("the information matrix is singular")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return err
	}
	st.hinv = newSquare(n)
	for i := range n {
		for j := range n {
			st.hinv[i][j] = inv.At(i, j) - 1/float64(n)
		}
	}
	return nil
}

// system fills h with H + J/n and grad with the gradient at st.r.
func (st *btState) system(h *mat.SymDense, grad []float64) {
	n := len(st.r)
	for i := range n {
		grad[i] = 0
		for j := i; j < n; j++ {
			h.SetSym(i, j, 1/float64(n))
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if st.games[i][j] == 0 {
				continue
			}
			p := sigmoid(st.r[i] - st.r[j])
			w := st.games[i][j] * p * (1 - p)
			h.SetSym(i, j, h.At(i, j)-w)
			h.SetSym(i, i, h.At(i, i)+w)
			h.SetSym(j, j, h.At(j, j)+w)
			e := st.pts[i][j] - st.games[i][j]*p
			grad[i] += e
			grad[j] -= e
		}
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logSigmoid is log(1 / (1 + e^-x)) without overflow.
func logSigmoid(x float64) float64 {
	if x < 0 {
		return x - math.Log1p(math.Exp(x))
	}
	return -math.Log1p(math.Exp(-x))
}
