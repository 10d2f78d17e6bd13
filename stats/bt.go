package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ErrNoFiniteRatings is wrapped by the error of a fit whose maximum does
// not exist: some group of players never dropped a point against the
// rest (a player who won or lost every game, say). A Prior of virtual
// draws makes such a field finite.
var ErrNoFiniteRatings = errors.New("no finite ratings")

// eloPerNat converts a log-odds difference to Elo: 400 / ln 10.
const eloPerNat = 400 / math.Ln10

// BradleyTerry fits maximum-likelihood Elo ratings to a batch of pairwise
// results: P(i beats j) = 1 / (1 + 10^((E_j - E_i)/400)), a draw counting
// as half a win and half a loss (Ordo's convention, not Davidson's draw
// parameter). The fit is Newton's method on the log-likelihood, which is
// concave, from all ratings equal; it stops when no rating moves by more
// than 1e-10 Elo.
//
// The maximum exists only when the players cannot be split into two
// groups one of which never dropped a point to the other; Fit reports
// such a split. Prior adds virtual draws to keep such fields finite.
type BradleyTerry struct {
	// Prior is the number of virtual draws added to every pair of players
	// that met at least once (BayesElo's idea), pulling each pair's
	// difference towards 0 by about as much as Prior real draws would. The
	// default 0 is the pure maximum-likelihood fit.
	Prior float64
	// Anchor names the player rated 0. The default "" puts the mean
	// rating at 0.
	Anchor string
	// Level is the confidence level of the intervals; 0 means 0.95.
	Level float64
	// MergedRepeats tells FitGames that its units are distinct outcomes:
	// the caller merged exact repeats (the same games with the same
	// results on several seeds) into one unit. A pair whose units all
	// gave it the same score is then not deflated (see FitGames): its
	// units differ in something, so each is evidence. The default false
	// deflates such pairs, taking equal scores for repeats.
	MergedRepeats bool
}

// Rated is one player's line in a fitted ranking.
type Rated struct {
	Name string `json:"name"`
	// Index is the player's position in the names given to the fit.
	Index int `json:"index"`
	// Elo is the fitted rating; SE its standard error and Lo, Hi its
	// interval (Elo ± z SE, normal quantile), all relative to the anchor.
	Elo float64 `json:"elo"`
	SE  float64 `json:"se"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	// Games and Points are the player's pairwise games and points, without
	// the prior.
	Games  float64 `json:"games"`
	Points float64 `json:"points"`
}

// BTFit is the result of a Bradley–Terry fit.
type BTFit struct {
	// Ratings lists the players best first (ties by name).
	Ratings []Rated `json:"ratings"`
	// Cov is the covariance of the ratings in Elo², in the order of the
	// names given (anchored like the ratings).
	Cov [][]float64 `json:"cov"`
	// Method says where the covariance comes from: "fisher" (the observed
	// information, games taken as independent), "cluster-robust" (the
	// sandwich over units) or "fisher-distinct" (the information with a
	// pair whose units all agreed counted as one unit).
	Method string `json:"method"`
	// Units is the number of independent units (FitGames only).
	Units int `json:"units,omitempty"`
	// Iterations is the number of Newton steps taken.
	Iterations int `json:"iterations"`
	// LogLik is the log-likelihood at the fit (prior included).
	LogLik float64 `json:"loglik"`
}

// Diff is the rating difference of player i over player j (indices in
// the names given) and its standard error.
func (f BTFit) Diff(i, j int) (diff, se float64) {
	var ei, ej float64
	for _, r := range f.Ratings {
		switch r.Index {
		case i:
			ei = r.Elo
		case j:
			ej = r.Elo
		}
	}
	v := f.Cov[i][i] + f.Cov[j][j] - 2*f.Cov[i][j]
	return ei - ej, math.Sqrt(math.Max(0, v))
}

// Fit rates the players from their pairwise counts: wins[i][j] is the
// number of games i won against j, draws[i][j] (= draws[j][i]) the number
// they drew; draws may be nil. The intervals come from the observed
// Fisher information, which takes every game as independent evidence; use
// FitGames when games share seeds.
func (b BradleyTerry) Fit(names []string, wins, draws [][]float64) (BTFit, error) {
	n := len(names)
	if err := checkSquare("wins", wins, n); err != nil {
		return BTFit{}, err
	}
	if draws != nil {
		if err := checkSquare("draws", draws, n); err != nil {
			return BTFit{}, err
		}
	}
	s, g := newSquare(n), newSquare(n)
	for i := range n {
		for j := range n {
			if !(wins[i][j] >= 0) || math.IsInf(wins[i][j], 0) {
				return BTFit{}, fmt.Errorf("wins[%d][%d] = %v, want a count >= 0", i, j, wins[i][j])
			}
			if draws != nil && (!(draws[i][j] >= 0) || math.IsInf(draws[i][j], 0)) {
				return BTFit{}, fmt.Errorf("draws[%d][%d] = %v, want a count >= 0", i, j, draws[i][j])
			}
			d := 0.0
			if draws != nil {
				d = draws[i][j]
				if d != draws[j][i] {
					return BTFit{}, fmt.Errorf("draws[%d][%d] = %v but draws[%d][%d] = %v; draws between two players are one count", i, j, d, j, i, draws[j][i])
				}
			}
			s[i][j] = wins[i][j] + d/2
			g[i][j] = wins[i][j] + wins[j][i] + d
		}
	}
	st, err := b.solve(names, s, g)
	if err != nil {
		return BTFit{}, err
	}
	return st.result(st.hinv, "fisher", 0)
}

// FitGames rates the players from individual games grouped into units.
// The ratings are those of Fit on the same counts. The covariance is the
// cluster-robust sandwich H⁻¹ (C/(C-1) Σ_c g_c g_cᵀ) H⁻¹, with H the
// observed information, g_c the score (gradient) of unit c's games and C
// the number of units, so correlated games inside a unit are not counted
// as independent evidence.
//
// When some pair of players met in several units that all gave it the
// same result, the sandwich would still narrow with every repeat. Then
// the covariance is the larger (in total variance) of the sandwich and
// the observed information in which each such pair counts the games of
// one unit only ("fisher-distinct"), so repeating a deterministic outcome
// across seeds does not narrow the intervals. With MergedRepeats the
// caller has merged such repeats into one unit already, and the
// covariance is the sandwich.
func (b BradleyTerry) FitGames(names []string, games []PairGame) (BTFit, error) {
	n := len(names)
	s, g := newSquare(n), newSquare(n)
	for k, gm := range games {
		switch {
		case gm.A < 0 || gm.A >= n || gm.B < 0 || gm.B >= n:
			return BTFit{}, fmt.Errorf("game %d: players %d and %d, want indices below %d", k, gm.A, gm.B, n)
		case gm.A == gm.B:
			return BTFit{}, fmt.Errorf("game %d: player %d against itself", k, gm.A)
		case !(gm.Score >= 0 && gm.Score <= 1):
			return BTFit{}, fmt.Errorf("game %d: score %v is not in [0, 1]", k, gm.Score)
		}
		s[gm.A][gm.B] += gm.Score
		s[gm.B][gm.A] += 1 - gm.Score
		g[gm.A][gm.B]++
		g[gm.B][gm.A]++
	}
	st, err := b.solve(names, s, g)
	if err != nil {
		return BTFit{}, err
	}
	robust, units, deflate := st.clustered(games)
	deterministic := false
	for i := range n {
		if b.MergedRepeats {
			break
		}
		for j := i + 1; j < n; j++ {
			deterministic = deterministic || deflate[i][j] < 1
		}
	}
	if !deterministic {
		return st.result(robust, "cluster-robust", units)
	}
	// The deflated information: deterministic pairs keep 1/units of their
	// weight.
	h := newSquare(n)
	for i := range n {
		for j := range n {
			if i == j || st.games[i][j] == 0 {
				continue
			}
			w := st.weight(i, j) * deflate[i][j]
			h[i][j] -= w
			h[i][i] += w
		}
	}
	hinv, err := pseudoInverse(h)
	if err != nil {
		return BTFit{}, err
	}
	if trace(hinv) > trace(robust) {
		return st.result(hinv, "fisher-distinct", units)
	}
	return st.result(robust, "cluster-robust", units)
}

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

// clustered is the cluster-robust covariance (in nats², mean-zero) of
// the fit, the number of units, and for each pair of players the share of
// its weight that counts when every unit gave that pair the same result
// (1/units), else 1.
func (st *btState) clustered(games []PairGame) (cov [][]float64, units int, deflate [][]float64) {
	n := len(st.r)
	// Dense unit ids in order of first appearance, then games grouped by
	// unit with a counting sort.
	ids := make(map[int64]int32, len(games)/2+1)
	unitOf := make([]int32, len(games))
	for k, gm := range games {
		id, ok := ids[gm.Unit]
		if !ok {
			id = int32(len(ids))
			ids[gm.Unit] = id
		}
		unitOf[k] = id
	}
	units = len(ids)
	start := make([]int32, units+1)
	for _, u := range unitOf {
		start[u+1]++
	}
	for u := range units {
		start[u+1] += start[u]
	}
	order := make([]int32, len(games))
	fill := slices.Clone(start[:units])
	for k, u := range unitOf {
		order[fill[u]] = int32(k)
		fill[u]++
	}

	meat := newSquare(n)
	g := make([]float64, n)
	var touched []int
	// Per pair (i < j): the first unit's result and whether any differed.
	type pairRes struct {
		pts, games float64
		units      int
		varied     bool
	}
	first := make([][]pairRes, n)
	for i := range first {
		first[i] = make([]pairRes, n)
	}
	unitPts, unitGames := newSquare(n), newSquare(n)
	var pairs [][2]int
	for u := range units {
		touched, pairs = touched[:0], pairs[:0]
		for _, k := range order[start[u]:start[u+1]] {
			gm := games[k]
			p := sigmoid(st.r[gm.A] - st.r[gm.B])
			for _, v := range []int{gm.A, gm.B} {
				if !slices.Contains(touched, v) {
					touched = append(touched, v)
				}
			}
			g[gm.A] += gm.Score - p
			g[gm.B] -= gm.Score - p
			i, j, sc := gm.A, gm.B, gm.Score
			if i > j {
				i, j, sc = j, i, 1-sc
			}
			if unitGames[i][j] == 0 {
				pairs = append(pairs, [2]int{i, j})
			}
			unitPts[i][j] += sc
			unitGames[i][j]++
		}
		for _, a := range touched {
			for _, b := range touched {
				meat[a][b] += g[a] * g[b]
			}
		}
		for _, v := range touched {
			g[v] = 0
		}
		for _, pr := range pairs {
			i, j := pr[0], pr[1]
			f := &first[i][j]
			if f.units == 0 {
				f.pts, f.games = unitPts[i][j], unitGames[i][j]
			} else if math.Abs(f.pts-unitPts[i][j]) > 1e-9 || f.games != unitGames[i][j] {
				f.varied = true
			}
			f.units++
			unitPts[i][j], unitGames[i][j] = 0, 0
		}
	}
	deflate = newSquare(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			f := first[i][j]
			w := 1.0
			if f.units > 1 && !f.varied {
				w = 1 / float64(f.units)
			}
			deflate[i][j], deflate[j][i] = w, w
		}
	}
	scale := 1.0
	if units > 1 {
		scale = float64(units) / float64(units-1)
	}
	// H⁺ B H⁺.
	tmp := newSquare(n)
	for i := range n {
		for k := range n {
			if st.hinv[i][k] == 0 {
				continue
			}
			for j := range n {
				tmp[i][j] += st.hinv[i][k] * meat[k][j]
			}
		}
	}
	cov = newSquare(n)
	for i := range n {
		for k := range n {
			for j := range n {
				cov[i][j] += tmp[i][k] * st.hinv[k][j]
			}
		}
	}
	for i := range n {
		for j := range n {
			cov[i][j] *= scale
		}
	}
	return cov, units, deflate
}

// result anchors the ratings and covariance and orders the players.
func (st *btState) result(cov [][]float64, method string, units int) (BTFit, error) {
	n := len(st.r)
	level := st.b.Level
	if level == 0 {
		level = 0.95
	}
	z := normalQuantile(level)
	anchor := -1
	if st.b.Anchor != "" {
		anchor = slices.Index(st.names, st.b.Anchor)
	}
	elo := make([]float64, n)
	for i := range n {
		elo[i] = st.r[i] * eloPerNat
		if anchor >= 0 {
			elo[i] -= st.r[anchor] * eloPerNat
		}
	}
	out := newSquare(n)
	for i := range n {
		for j := range n {
			v := cov[i][j]
			if anchor >= 0 {
				v += cov[anchor][anchor] - cov[i][anchor] - cov[anchor][j]
			}
			out[i][j] = v * eloPerNat * eloPerNat
		}
	}
	fit := BTFit{Cov: out, Method: method, Units: units, Iterations: st.iters, LogLik: st.loglik}
	for i, name := range st.names {
		se := math.Sqrt(math.Max(0, out[i][i]))
		r := Rated{Name: name, Index: i, Elo: elo[i], SE: se, Lo: elo[i] - z*se, Hi: elo[i] + z*se}
		for j := range n {
			r.Games += st.raw[i][j]
			r.Points += st.rawPts[i][j]
		}
		fit.Ratings = append(fit.Ratings, r)
	}
	slices.SortStableFunc(fit.Ratings, func(a, b Rated) int {
		if a.Elo != b.Elo {
			if a.Elo > b.Elo {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return fit, nil
}

// pseudoInverse is the mean-zero pseudo-inverse of a Laplacian L of a
// connected graph: (L + J/n)⁻¹ - J/n.
func pseudoInverse(l [][]float64) ([][]float64, error) {
	n := len(l)
	h := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			h.SetSym(i, j, l[i][j]+1/float64(n))
		}
	}
	var chol mat.Cholesky
	if ok := chol.Factorize(h); !ok {
		return nil, errors.New("the information matrix is singular")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, err
	}
	out := newSquare(n)
	for i := range n {
		for j := range n {
			out[i][j] = inv.At(i, j) - 1/float64(n)
		}
	}
	return out, nil
}

func trace(m [][]float64) float64 {
	t := 0.0
	for i := range m {
		t += m[i][i]
	}
	return t
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logSigmoid is log(1 / (1 + e^-x)) without overflow.
func logSigmoid(x float64) float64 {
	if x < 0 {
		return x - math.Log1p(math.Exp(x))
	}
	return -math.Log1p(math.Exp(-x))
}

func newSquare(n int) [][]float64 {
	m := make([][]float64, n)
	flat := make([]float64, n*n)
	for i := range m {
		m[i] = flat[i*n : (i+1)*n]
	}
	return m
}

// checkSquare refuses a matrix that is not n by n (one row and column
// per player, or per strategy).
func checkSquare(name string, m [][]float64, n int) error {
	if len(m) != n {
		return fmt.Errorf("%s has %d rows, want %d", name, len(m), n)
	}
	for i, row := range m {
		if len(row) != n {
			return fmt.Errorf("%s row %d has %d entries, want %d", name, i, len(row), n)
		}
	}
	return nil
}
