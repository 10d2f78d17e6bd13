package stats

import (
	"math"
	"slices"
)

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
