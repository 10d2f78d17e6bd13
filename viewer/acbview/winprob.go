package acbview

//go:generate go test -run TestFitWinModel -update

import (
	"math"
)

// The win-probability model is a conditional logit over the outcomes of
// a match: each player still alive wins, or nobody does (a draw: a tie at
// the top after max_turns, or everyone eliminated at once, about one
// match in six among the lab's strategies). At the end of turn t,
//
//	P(i wins) = exp(β·x_i) / (exp(δ·z) + Σ_j exp(β·x_j))   over the living j,
//	P(draw)   = exp(δ·z)   / (exp(δ·z) + Σ_j exp(β·x_j)),
//
// where x_i are player i's features below (its own state, its share of
// all players' and the match's progress τ = t / max_turns) and z the
// match's draw features. A player feature equal for everyone cancels, so
// with equal states every living player has the same chance. An
// eliminated player has 0. The coefficients are fitted by
// fitConditionalLogit on matches of the lab's strategies (winprob_coef.go
// says on which; `go test ./viewer -run TestFitWinModel -update` refits),
// with each outcome an alternative whose feature vector is x_i followed
// by zeros for a player, zeros followed by z for the draw.

// playerFeatureNames and drawFeatureNames name the features in order,
// for the generated file and the tests.
var (
	playerFeatureNames = [...]string{
		"log1p(units)",
		"log1p(units)*tau",
		"unit share",
		"unit share*tau",
		"cores",
		"cores*tau",
		"log1p(energy)",
		"score/10",
		"score/10*tau",
		"score lead/10*tau^4",
		"inactive",
	}
	drawFeatureNames = [...]string{
		"draw: constant",
		"draw: tau",
		"draw: tie at the top",
		"draw: tie at the top*tau^4",
		"draw: log1p(top score)",
		"draw: players alive",
	}
)

const (
	numPlayerFeatures = len(playerFeatureNames)
	numDrawFeatures   = len(drawFeatureNames)
	// numFeatures is the length of an alternative's feature vector.
	numFeatures = numPlayerFeatures + numDrawFeatures
)

// playerFeatures writes player i's features at progress tau into x
// (numPlayerFeatures entries).
func playerFeatures(st []playerState, i int, tau float64, x []float64) {
	s := st[i]
	totalUnits, bestOther := 0, math.MinInt
	for j, o := range st {
		if !o.Alive() {
			continue
		}
		totalUnits += o.Units
		if j != i && o.Score > bestOther {
			bestOther = o.Score
		}
	}
	share := 0.0
	if totalUnits > 0 {
		share = float64(s.Units) / float64(totalUnits)
	}
	lead := 0.0
	if bestOther != math.MinInt {
		lead = max(-20, min(20, float64(s.Score-bestOther)))
	}
	lu := math.Log1p(float64(s.Units))
	t4 := tau * tau * tau * tau
	x[0] = lu
	x[1] = lu * tau
	x[2] = share
	x[3] = share * tau
	x[4] = float64(s.Cores)
	x[5] = float64(s.Cores) * tau
	x[6] = math.Log1p(float64(s.Energy))
	x[7] = float64(s.Score) / 10
	x[8] = float64(s.Score) / 10 * tau
	x[9] = lead / 10 * t4
	x[10] = 0
	if s.Inactive {
		x[10] = 1
	}
}

// drawFeatures writes the match's draw features at progress tau into z
// (numDrawFeatures entries).
func drawFeatures(st []playerState, tau float64, z []float64) {
	top, atTop, alive := math.MinInt, 0, 0
	for _, s := range st {
		if !s.Alive() {
			continue
		}
		alive++
		switch {
		case s.Score > top:
			top, atTop = s.Score, 1
		case s.Score == top:
			atTop++
		}
	}
	tie := 0.0
	if atTop >= 2 {
		tie = 1
	}
	z[0] = 1
	z[1] = tau
	z[2] = tie
	z[3] = tie * tau * tau * tau * tau
	z[4] = math.Log1p(float64(max(top, 0)))
	z[5] = float64(alive)
}

// alternatives writes the feature vectors of the outcomes at one turn
// into xs: one per living player in seat order, then the draw. It returns
// xs and the seats of the player alternatives.
func alternatives(st []playerState, tau float64, xs []float64, seats []int) ([]float64, []int) {
	var x [numFeatures]float64
	for i := range st {
		if !st[i].Alive() {
			continue
		}
		x = [numFeatures]float64{}
		playerFeatures(st, i, tau, x[:numPlayerFeatures])
		xs = append(xs, x[:]...)
		seats = append(seats, i)
	}
	x = [numFeatures]float64{}
	drawFeatures(st, tau, x[numPlayerFeatures:])
	return append(xs, x[:]...), seats
}

// winModel is a fitted conditional logit (see the comment above).
type winModel struct {
	coef []float64
}

// predict writes each player's probability of winning at progress tau
// into out[:len(st)] and the probability of a draw into out[len(st)].
// Eliminated players get 0; when nobody is alive the draw gets 1.
func (m winModel) predict(st []playerState, tau float64, out []float64) {
	var buf [(8 + 1) * numFeatures]float64
	var seatBuf [8]int
	xs, seats := alternatives(st, tau, buf[:0], seatBuf[:0])
	n := len(xs) / numFeatures
	u := make([]float64, n)
	maxU := math.Inf(-1)
	for a := range n {
		x := xs[a*numFeatures : (a+1)*numFeatures]
		for k, c := range m.coef {
			u[a] += c * x[k]
		}
		maxU = max(maxU, u[a])
	}
	sum := 0.0
	for a := range u {
		u[a] = math.Exp(u[a] - maxU)
		sum += u[a]
	}
	for i := range out[:len(st)+1] {
		out[i] = 0
	}
	for a, seat := range seats {
		out[seat] = u[a] / sum
	}
	out[len(st)] = u[n-1] / sum
}

// progress is τ = t / max_turns, capped at 1.
func progress(t, maxTurns int) float64 {
	if maxTurns < 1 {
		return 1
	}
	return min(1, float64(t)/float64(maxTurns))
}

// winProbabilities returns each player's chance to win at the end of
// every turn (index 0 the initial position) from the embedded model,
// followed by the chance of a draw. At the last turn of a finished match
// they are the result: 1 for the winner (or the draw), 0 for the others.
func winProbabilities(r *replay, states [][]playerState) [][]float64 {
	m := winModel{coef: winCoef[:]}
	w := len(r.Players) + 1
	out := make([][]float64, len(states))
	flat := make([]float64, w*len(states))
	for t := range states {
		out[t] = flat[t*w : (t+1)*w : (t+1)*w]
		m.predict(states[t], progress(t, r.Config.MaxTurns), out[t])
	}
	if r.finished && len(r.Turns) > 0 && r.Result.Turns == len(r.Turns) {
		last := out[len(out)-1]
		for p := range last {
			last[p] = 0
		}
		if w := r.Result.Winner; w != nil {
			last[*w] = 1
		} else {
			last[len(last)-1] = 1
		}
	}
	return out
}
