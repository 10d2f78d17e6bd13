package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"strings"
	"testing"
)

// Rule: SPSA from the base's defaults on the noisy quadratic ends with θ
// near the known optimum in every coordinate, and its champion's true
// rate is clearly above the base's.
func TestSPSAConvergesOnNoisyQuadratic(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	base := trueRate(space, space.Genome(space.Origin()))
	opt := newSPSAOptions()
	// 24 paired games a pair over 60 generations of 4 pairs: far fewer
	// than fishtest's tens of thousands of game pairs, so a larger final
	// learning rate than its 0.002.
	opt.REnd = 0.2
	a, err := newSPSA(space, 8, 42, *opt)
	if err != nil {
		t.Fatal(err)
	}
	s := &search{Space: space, Algorithm: a, Evaluator: &synthetic{space: space, gamesPerSeed: 4},
		Seed: 42, Seeds: 6, Generations: 60, Dir: t.TempDir()}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The run's own algorithm is left at its last state.
	theta := a.tuner.Theta
	for i, x := range theta {
		if math.Abs(x-optimum[i]) > 0.1 {
			t.Errorf("θ %s = %.3f (normalised), want within 0.1 of the optimum %.3f", space.Base.Schema[i].Name, x, optimum[i])
		}
	}
	champ := res.Hall[0]
	got := trueRate(space, space.Genome(champ.X))
	t.Logf("θ %.3f; base rate %.3f, champion true rate %.3f; θ's true rate %.3f", theta, base, got, trueRate(space, space.Genome(theta)))
	if got < base+0.3 {
		t.Errorf("champion's true rate %.3f is not clearly above the base's %.3f", got, base)
	}
}

// Rule: every generation asks θ and population/2 mirrored pairs about
// it, the pairs' iterations numbered across the run; a pair whose plus
// side scored better moves θ towards the plus side.
func TestSPSAAskTell(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	a, err := newSPSA(space, 7, 1, *newSPSAOptions())
	if err != nil {
		t.Fatal(err)
	}
	a.Horizon(10)
	ps, err := a.Ask(context.Background(), 2, history{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 7 {
		t.Fatalf("population 7 asked %d points, want θ and 3 pairs", len(ps))
	}
	theta := append([]float64(nil), a.tuner.Theta...)
	for j := 0; j < 3; j++ {
		plus, minus := ps[1+2*j].X, ps[2+2*j].X
		for i := range theta {
			if d := plus[i] + minus[i] - 2*theta[i]; math.Abs(d) > 1e-9 && plus[i] > 0 && plus[i] < 1 && minus[i] > 0 && minus[i] < 1 {
				t.Errorf("pair %d coordinate %d: %.4f and %.4f are not mirrored about θ %.4f", j, i, plus[i], minus[i], theta[i])
			}
		}
		if k := a.pending[j].K; k != 2*3+j+1 {
			t.Errorf("pair %d of generation 2 is iteration %d, want %d", j, k, 2*3+j+1)
		}
	}
	if err := a.Tell(2, make([]float64, 7)); err == nil || !strings.Contains(err.Error(), "games") {
		t.Errorf("Tell without the games: %v, want an error naming them", err)
	}
	a.TellGames(2, 10)
	fit := []float64{0.5, 0.6, 0.4, 0.5, 0.5, 0.5, 0.5}
	if err := a.Tell(2, fit); err != nil {
		t.Fatal(err)
	}
	p := a.pending
	if p != nil {
		t.Fatal("pending pairs kept after Tell")
	}
	plus := ps[1].X
	for i := range theta {
		moved, towards := a.tuner.Theta[i]-theta[i], plus[i]-theta[i]
		if moved*towards < 0 {
			t.Errorf("coordinate %d moved by %.4g, away from the winning plus side (%.4g)", i, moved, towards)
		}
	}
	if !strings.Contains(a.Note(), "θ aggression") {
		t.Errorf("note %q does not give θ", a.Note())
	}
}

// Rule: the options' defaults are fishtest's and OpenBench's; the flags
// parse per-parameter gains, and a name the strategy lacks or a step
// beyond the parameter's range is a FieldError naming the flag.
func TestSPSAOptions(t *testing.T) {
	o := newSPSAOptions()
	if o.Alpha != 0.602 || o.Gamma != 0.101 || o.ARatio != 0.1 || o.REnd != 0.002 {
		t.Errorf("defaults α %v γ %v A ratio %v r_end %v; want 0.602, 0.101, 0.1, 0.002", o.Alpha, o.Gamma, o.ARatio, o.REnd)
	}
	space := paramSpace{Base: testStrategy()}
	r := o.resolved(setup{space: space}).(*SPSAOptions)
	if r.CEnd["horizon"] != 5 || r.CEnd["reserve"] != 0.5 {
		t.Errorf("resolved c_end %v: want (max-min)/20 each (horizon 5, reserve 0.5)", r.CEnd)
	}
	ps, _ := r.params(space)
	if ps[1].MinC != 0.05 || ps[0].MinC != 0 {
		t.Errorf("smallest steps %v, %v: want half a unit of the integer reserve (0.05 of its range), none for aggression", ps[1].MinC, ps[0].MinC)
	}
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	o.Flags(fs)
	if err := fs.Parse([]string{"--spsa-c-end", "horizon=2, greed=0.1", "--spsa-r-end", "0.01,reserve=0", "--spsa-gamma", "0.2"}); err != nil {
		t.Fatal(err)
	}
	if o.CEnd["horizon"] != 2 || o.CEnd["greed"] != 0.1 || o.REnd != 0.01 || o.REndBy["reserve"] != 0 || o.Gamma != 0.2 {
		t.Errorf("parsed %+v", o)
	}
	if got := optionValues(o)["spsa-r-end"]; got != "0.01,reserve=0" {
		t.Errorf("--spsa-r-end recorded as %q", got)
	}
	for _, bad := range [][]string{
		{"--spsa-c-end", "0.5"}, {"--spsa-r-end", "x=y"}, {"--spsa-r-end", "-1"}, {"--spsa-r-end", "0"},
		{"--spsa-alpha", "0"}, {"--spsa-gamma", "2"}, {"--spsa-c-end", "a=1,a=2"},
	} {
		fs := flag.NewFlagSet("", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		newSPSAOptions().Flags(fs)
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	for _, tc := range []struct {
		opt   SPSAOptions
		field string
		want  string
	}{
		{SPSAOptions{CEnd: map[string]float64{"nerve": 1}, REnd: 0.002}, "spsa-c-end", "not a parameter of quad"},
		{SPSAOptions{REndBy: map[string]float64{"nerve": 1}, REnd: 0.002}, "spsa-r-end", "not a parameter of quad"},
		{SPSAOptions{CEnd: map[string]float64{"reserve": 11}, REnd: 0.002}, "spsa-c-end", "outside (0, 10]"},
	} {
		_, err := newSPSA(space, 8, 1, tc.opt)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want a FieldError of %s saying %q", tc.opt, err, tc.field, tc.want)
		}
	}
}

// Rule: the checkpoint's state restores θ and the horizon, and a damaged
// one is refused.
func TestSPSARestore(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	a, _ := newSPSA(space, 4, 1, *newSPSAOptions())
	a.tuner.Theta[0], a.horizon = 0.9, 17
	st, _ := a.State()
	b, _ := newSPSA(space, 4, 1, *newSPSAOptions())
	if err := b.Restore(3, st); err != nil {
		t.Fatal(err)
	}
	if b.tuner.Theta[0] != 0.9 || b.horizon != 17 {
		t.Errorf("restored θ %v horizon %d", b.tuner.Theta, b.horizon)
	}
	for _, bad := range []string{`{"theta":[0.1]}`, `{"theta":[2,0,0,0]}`, `[`} {
		if err := b.Restore(1, json.RawMessage(bad)); err == nil {
			t.Errorf("state %s restored", bad)
		}
	}
}
