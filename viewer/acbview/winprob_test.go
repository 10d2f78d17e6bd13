package acbview

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies/acbstrat"
)

var update = flag.Bool("update", false, "refit the win-probability model on the training matches and rewrite winprob_coef.go")

// Training and held-out matches are played from disjoint seed ranges.
const (
	trainFirstSeed   = 1
	trainMatches     = 1600
	heldOutFirstSeed = 1_000_001
	heldOutMatches   = 240
	// sampleEvery keeps one turn in sampleEvery of every match (turns of
	// one match are strongly correlated; more adds little).
	sampleEvery = 5
)

// stalling plays like its controller until turn from, then orders
// nothing, as a remote bot that stops answering: its units hold.
type stalling struct {
	c    acb.Controller
	from int
}

// Turn returns no moves from turn from on (v.Turn+1 is the turn the
// orders are for).
func (s stalling) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	if v.Turn+1 >= s.from {
		return buf, nil
	}
	return s.c.Turn(ctx, v, buf)
}

// inactiveAfter is the number of failed turns after which the engine
// marks a bot inactive (the replay's bot_inactive event).
const inactiveAfter = 10

// trainingSpec is the match played for a seed: 2, 3, 4 or 6 players drawn
// from the 21 reference strategies with their default parameters, on a
// square map of side 32, 40, 48 or 60, the zone enabled in one match in
// four, max_turns 500 (300 in one match in four). In one match in eight
// one seat stops ordering from a turn drawn in 1..max_turns/2 (stall
// seat and turn are returned; seat -1 when none), standing for a remote
// bot that goes inactive.
func trainingSpec(seed uint64) (spec engine.MatchSpec, stallSeat, stallFrom int) {
	rng := rand.New(rand.NewPCG(seed, 0x77696e70726f62))
	counts := []int{2, 3, 4, 6}
	np := counts[rng.IntN(len(counts))]
	sides := []int{32, 40, 48, 60}
	cfg := acb.DefaultConfig()
	cfg.Rows = sides[rng.IntN(len(sides))]
	cfg.Cols = cfg.Rows
	cfg.ZoneEnabled = rng.IntN(4) == 0
	if rng.IntN(4) == 0 {
		cfg.MaxTurns = 300
	}
	stallSeat = -1
	if rng.IntN(8) == 0 {
		stallSeat, stallFrom = rng.IntN(np), 1+rng.IntN(cfg.MaxTurns/2)
	}
	all := acbstrat.All()
	seats := make([]engine.Seat, np)
	for i := range seats {
		s := all[rng.IntN(len(all))]
		g := s.Schema.Defaults()
		p := s.New(g, engine.SeatSeed(seed, i), i)
		if i == stallSeat {
			p = stalling{c: p.(acb.Controller), from: stallFrom}
		}
		seats[i] = engine.Seat{Name: s.Name, Strategy: s.Name, Params: s.Schema.Map(g), Player: p}
	}
	return engine.MatchSpec{Seed: seed, Config: acb.MatchConfig{Config: cfg}, Seats: seats}, stallSeat, stallFrom
}

// playedMatch is one match of the training or held-out set, summarised.
type playedMatch struct {
	replay *replay
	states [][]playerState
}

// playMatches plays n matches from seed first on, on all cores, through
// acb.Game.Play (the arena's code path) with their replays recorded and
// decoded by the viewer's own decoder.
func playMatches(t testing.TB, first uint64, n int) []playedMatch {
	t.Helper()
	out := make([]playedMatch, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				seed := first + uint64(i)
				spec, stallSeat, stallFrom := trainingSpec(seed)
				var buf bytes.Buffer
				spec.Replay = &buf
				if _, err := (acb.Game{}).Play(context.Background(), spec); err != nil {
					errs[i] = fmt.Errorf("seed %d: %w", seed, err)
					continue
				}
				r, err := decode(buf.Bytes())
				if err != nil {
					errs[i] = fmt.Errorf("seed %d: %w", seed, err)
					continue
				}
				states := statesOf(r)
				if stallSeat >= 0 {
					for t := stallFrom + inactiveAfter - 1; t < len(states); t++ {
						states[t][stallSeat].Inactive = true
					}
				}
				out[i] = playedMatch{replay: r, states: states}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// winnerOf returns the match's winner, or -1 for a draw.
func winnerOf(m playedMatch) int {
	if !m.replay.finished || m.replay.Result.Winner == nil {
		return -1
	}
	return *m.replay.Result.Winner
}

// choiceDataOf turns matches into observations: every sampleEvery-th turn
// before the last, with two or more players alive, is a choice among the
// outcomes (each living player wins, or a draw) of the one that happened.
func choiceDataOf(ms []playedMatch) *choiceData {
	d := &choiceData{K: numFeatures}
	xs := make([]float64, 0, 7*numFeatures)
	seats := make([]int, 0, 6)
	for _, m := range ms {
		w := winnerOf(m)
		for t := 0; t < len(m.states)-1; t += sampleEvery {
			st := m.states[t]
			xs, seats = alternatives(st, progress(t, m.replay.Config.MaxTurns), xs[:0], seats[:0])
			if len(seats) < 2 {
				continue
			}
			chosen := len(seats) // the draw
			if w >= 0 {
				chosen = slices.Index(seats, w)
			}
			d.add(xs, chosen, 1)
		}
	}
	return d
}

// The fitting routine recovers the coefficients of data simulated from a
// known conditional logit: 20,000 choice sets of 2 to 6 alternatives with
// 3 features each, every coefficient within 4 standard errors (from the
// inverse information at the estimate) of the truth.
func TestFitConditionalLogitRecoversKnownCoefficients(t *testing.T) {
	truth := []float64{1.5, -0.8, 0.3}
	rng := rand.New(rand.NewPCG(7, 11))
	d := &choiceData{K: len(truth)}
	for range 20000 {
		n := 2 + rng.IntN(5)
		xs := make([]float64, n*d.K)
		u := make([]float64, n)
		sum := 0.0
		for a := range n {
			for j := range truth {
				xs[a*d.K+j] = rng.NormFloat64()
				u[a] += truth[j] * xs[a*d.K+j]
			}
			u[a] = math.Exp(u[a])
			sum += u[a]
		}
		r, chosen := rng.Float64()*sum, n-1
		for a := range n {
			if r < u[a] {
				chosen = a
				break
			}
			r -= u[a]
		}
		d.add(xs, chosen, 1)
	}
	fit, err := fitConditionalLogit(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	se := standardErrors(t, d, fit.Coef)
	for j := range truth {
		if z := math.Abs(fit.Coef[j]-truth[j]) / se[j]; z > 4 {
			t.Errorf("coefficient %d = %.4f ± %.4f, truth %.4f (z = %.1f)", j, fit.Coef[j], se[j], truth[j], z)
		}
	}
	// The estimate is a maximum: moving any coefficient lowers the
	// log-likelihood.
	for j := range truth {
		for _, h := range []float64{-1e-3, 1e-3} {
			b := append([]float64(nil), fit.Coef...)
			b[j] += h
			if ll := logLik(d, b, nil, nil); ll > fit.LogLik {
				t.Errorf("log-likelihood %.6f at coefficient %d %+g exceeds the fit's %.6f", ll, j, h, fit.LogLik)
			}
		}
	}
	t.Logf("fit %.4f (truth %v), se %.4f, %d Newton steps", fit.Coef, truth, se, fit.Iterations)
}

// standardErrors are the square roots of the diagonal of the inverse
// information at beta.
func standardErrors(t *testing.T, d *choiceData, beta []float64) []float64 {
	t.Helper()
	k := d.K
	grad := make([]float64, k)
	info := mat.NewSymDense(k, nil)
	logLik(d, beta, grad, info)
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		t.Fatal("the information matrix is not positive definite")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		t.Fatal(err)
	}
	se := make([]float64, k)
	for j := range se {
		se[j] = math.Sqrt(inv.At(j, j))
	}
	return se
}

// TestFitWinModel refits the win model on the training matches and
// rewrites winprob_coef.go; it runs only with -update (it plays 1,600
// matches):
//
//	go test ./viewer -run TestFitWinModel -update
func TestFitWinModel(t *testing.T) {
	if !*update {
		t.Skip("refits the embedded win model; run with -update to rewrite winprob_coef.go")
	}
	ms := playMatches(t, trainFirstSeed, trainMatches)
	d := choiceDataOf(ms)
	draws := 0
	for _, m := range ms {
		if winnerOf(m) < 0 {
			draws++
		}
	}
	fit, err := fitConditionalLogit(d, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	se := standardErrors(t, d, fit.Coef)
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by `go test ./viewer -run TestFitWinModel -update`; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package viewer\n\n")
	fmt.Fprintf(&b, "// winCoef are the win model's coefficients: the player features then the\n// draw features, in the order of their names,\n")
	fmt.Fprintf(&b, "// fitted by fitConditionalLogit (ridge 1e-3) on %d matches played by\n", trainMatches)
	fmt.Fprintf(&b, "// acb.Game.Play (seeds %d..%d, trainingSpec: 2, 3, 4 or 6 of the 21\n", trainFirstSeed, trainFirstSeed+trainMatches-1)
	fmt.Fprintf(&b, "// reference strategies, maps of side 32 to 60, one seat in one match in\n")
	fmt.Fprintf(&b, "// eight stalling): %d won matches and %d draws, %d observations (every\n", len(ms)-draws, draws, d.len())
	fmt.Fprintf(&b, "// %dth turn), log-likelihood %.1f,\n", sampleEvery, fit.LogLik)
	fmt.Fprintf(&b, "// %d Newton steps.\n", fit.Iterations)
	fmt.Fprintf(&b, "var winCoef = [numFeatures]float64{\n")
	for j, c := range fit.Coef {
		name := ""
		if j < numPlayerFeatures {
			name = playerFeatureNames[j]
		} else {
			name = drawFeatureNames[j-numPlayerFeatures]
		}
		fmt.Fprintf(&b, "\t%.6g, // %s (se %.3g)\n", c, name, se[j])
	}
	fmt.Fprintf(&b, "}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("winprob_coef.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote winprob_coef.go:\n%s", src)
}

// calibration holds the figures of TestWinModelCalibration.
// calibrationBin gathers the predictions falling in one tenth: their
// count, outcomes and predictions summed, and per match the sum of
// (outcome - prediction), from which the bin's standard error is clustered
// by match (positions of one match are not independent evidence).
type calibrationBin struct {
	n, hits, pred float64
	perMatch      map[int]float64
}

// se is the clustered standard error of the bin's observed frequency
// minus its mean prediction: sqrt(Σ over matches of their residual sum
// squared) / n.
func (b calibrationBin) se() float64 {
	var s float64
	for _, r := range b.perMatch {
		s += r * r
	}
	return math.Sqrt(s) / b.n
}

type calibration struct {
	bins                        [10]calibrationBin
	brier, brierUnif, brierBase float64
	logLoss                     float64
	positions, matches, draws   int
}

// calibrate evaluates model m on matches: at every sampleEvery-th turn
// before the last with two or more players alive, each outcome (each
// living player wins, or a draw) is a prediction binned by tenths, and the
// Brier score Σ over outcomes of (p - happened)² is averaged over
// positions, with two baselines: uniform (1/n for each of n living
// players, 0 for the draw) and base rate (the draw at drawRate, the rest
// shared equally).
func calibrate(m winModel, ms []playedMatch, drawRate float64) calibration {
	var c calibration
	probs := make([]float64, 8)
	for k := range c.bins {
		c.bins[k].perMatch = map[int]float64{}
	}
	for mi, pm := range ms {
		c.matches++
		w := winnerOf(pm)
		if w < 0 {
			c.draws++
		}
		for t := 0; t < len(pm.states)-1; t += sampleEvery {
			st := pm.states[t]
			alive := 0
			for _, s := range st {
				if s.Alive() {
					alive++
				}
			}
			if alive < 2 {
				continue
			}
			m.predict(st, progress(t, pm.replay.Config.MaxTurns), probs)
			add := func(p, y, unif, base float64) {
				c.brier += (p - y) * (p - y)
				c.brierUnif += (unif - y) * (unif - y)
				c.brierBase += (base - y) * (base - y)
				if y == 1 {
					c.logLoss -= math.Log(max(p, 1e-12))
				}
				bin := min(9, int(p*10))
				c.bins[bin].n++
				c.bins[bin].hits += y
				c.bins[bin].pred += p
				c.bins[bin].perMatch[mi] += y - p
			}
			n := float64(alive)
			for i, s := range st {
				if s.Alive() {
					add(probs[i], b2f(i == w), 1/n, (1-drawRate)/n)
				}
			}
			add(probs[len(st)], b2f(w < 0), 0, drawRate)
			c.positions++
		}
	}
	c.brier /= float64(c.positions)
	c.brierUnif /= float64(c.positions)
	c.brierBase /= float64(c.positions)
	c.logLoss /= float64(c.positions)
	return c
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestWinModelCalibration checks the embedded model on 240 held-out
// matches (seeds disjoint from the training ones), with calibrate: in
// each bin of tenths holding at least 300 predictions, the mean predicted
// probability is within 0.05 of the observed frequency, or, where the bin
// rests on too few matches to tell 0.05 apart, within three standard
// errors clustered by match; and the Brier score is lower than both
// baselines' (uniform, and the draw at its training rate of one in six).
func TestWinModelCalibration(t *testing.T) {
	ms := playMatches(t, heldOutFirstSeed, heldOutMatches)
	c := calibrate(winModel{coef: winCoef[:]}, ms, 1.0/6)
	t.Logf("%d held-out matches (%d draws), %d positions: Brier %.4f, uniform %.4f, base rate %.4f; log-loss of what happened %.4f",
		c.matches, c.draws, c.positions, c.brier, c.brierUnif, c.brierBase, c.logLoss)
	t.Logf("bin        n   mean pred   observed   clustered se")
	for i, b := range c.bins {
		if b.n == 0 {
			continue
		}
		pred, obs := b.pred/b.n, b.hits/b.n
		se := b.se()
		t.Logf("%.1f-%.1f %6.0f   %.3f       %.3f      %.3f", float64(i)/10, float64(i+1)/10, b.n, pred, obs, se)
		if b.n >= 300 && math.Abs(pred-obs) > max(0.05, 3*se) {
			t.Errorf("bin %.1f-%.1f: mean prediction %.3f but observed frequency %.3f over %.0f predictions from %d matches (tolerance max(0.05, 3 x %.3f))", float64(i)/10, float64(i+1)/10, pred, obs, b.n, len(b.perMatch), se)
		}
	}
	if c.brier >= c.brierUnif || c.brier >= c.brierBase {
		t.Errorf("Brier score %.4f is not better than the uniform guess's %.4f and the base rate's %.4f", c.brier, c.brierUnif, c.brierBase)
	}
}
