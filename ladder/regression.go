package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"crucible/stats"
)

// Regression test defaults: fishtest's non-regression test.
const (
	// DefaultRegressionElo0 and DefaultRegressionElo1 are the bounds of
	// fishtest's non-regression tests, in normalized Elo: H0 says the new
	// version is 1.75 weaker than its predecessor, H1 that it is 0.25
	// stronger.
	DefaultRegressionElo0 = -1.75
	DefaultRegressionElo1 = 0.25
	// DefaultRegressionAlpha and DefaultRegressionBeta are the error rates.
	DefaultRegressionAlpha = 0.05
	DefaultRegressionBeta  = 0.05
	// DefaultRegressionPairs is the game pairs a running test plays a
	// night.
	DefaultRegressionPairs = 2000
)

// The verdicts of a regression test.
const (
	// VerdictPending: the test was started but no night has closed on it.
	VerdictPending = "pending"
	// VerdictRunning: the log-likelihood ratio is between its bounds.
	VerdictRunning = "running"
	// VerdictH0: H0 accepted, the new version is weaker than its
	// predecessor (by Elo0 or more, within the test's error rates).
	VerdictH0 = "H0"
	// VerdictH1: H1 accepted, the new version is not weaker.
	VerdictH1 = "H1"
)

// RegressionOptions set up the regression tests nights start: when an
// entrant has a new version, each night plays PairsPerNight game pairs
// (one seed, both seat orders) of the new version against the previous
// one and adds them to a pentanomial SPRT, until the test decides.
type RegressionOptions struct {
	// Test is the SPRT's hypotheses, error rates and Elo model.
	Test stats.SPRT
	// PairsPerNight is the game pairs a running test plays a night; 0
	// starts and plays no test.
	PairsPerNight int
}

// DefaultRegression is fishtest's non-regression test: normalized Elo
// bounds [-1.75, 0.25], alpha = beta = 0.05, with DefaultRegressionPairs
// pairs a night.
func DefaultRegression() RegressionOptions {
	return RegressionOptions{Test: stats.SPRT{Elo0: DefaultRegressionElo0, Elo1: DefaultRegressionElo1,
		Alpha: DefaultRegressionAlpha, Beta: DefaultRegressionBeta, Model: stats.Normalized}, PairsPerNight: DefaultRegressionPairs}
}

// Validate checks the test's parameters and the pairs.
func (o RegressionOptions) Validate() error {
	if err := o.Test.Validate(); err != nil {
		return fmt.Errorf("regression test: %w", err)
	}
	if o.PairsPerNight < 0 {
		return fmt.Errorf("regression test: pairs per night %d is negative", o.PairsPerNight)
	}
	return nil
}

// RegressionRun is a regression test's part of one night: the test, its
// versions, and the game pairs the night plays.
type RegressionRun struct {
	Test     int64 `json:"test"`
	Version  int64 `json:"version"`
	Baseline int64 `json:"baseline"`
	Pairs    int   `json:"pairs"`
}

// RegressionTest is a regression test of a new version against the
// previous version of its entrant, with its state after the last night
// that played it.
type RegressionTest struct {
	ID int64 `json:"id"`
	// Entrant, Version and Label name the new version; Baseline and
	// BaselineLabel the version it is tested against.
	Entrant       string `json:"entrant"`
	Version       int64  `json:"version_id"`
	Number        int    `json:"version"`
	Label         string `json:"label"`
	Baseline      int64  `json:"baseline_id"`
	BaselineLabel string `json:"baseline"`
	// Started is the label of the night that started the test.
	Started string `json:"started"`
	// Elo0 and Elo1 are the new version's Elo difference over the
	// baseline under H0 and H1, in Model's units ("normalized" or
	// "logistic"); Alpha and Beta the error rates.
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model"`
	// Night is the label of the last night that played the test ("" while
	// pending) and Nights how many nights did.
	Night  string `json:"night,omitempty"`
	Nights int    `json:"nights"`
	// Counts are the pentanomial counts of the game pairs so far, from the
	// new version's side; LLR, Lower and Upper the log-likelihood ratio
	// and its bounds.
	Counts stats.Pentanomial `json:"pentanomial"`
	LLR    float64           `json:"llr"`
	Lower  float64           `json:"lower"`
	Upper  float64           `json:"upper"`
	// Verdict is VerdictPending, VerdictRunning, VerdictH0 or VerdictH1.
	Verdict string `json:"verdict"`
	// Elo is the new version's measured strength over the baseline (nil
	// before any pair).
	Elo *stats.Estimate `json:"elo,omitempty"`
	// Current is set while the version is its entrant's current version
	// and the entrant is in the ladder: a running test goes on, a
	// regression stands.
	Current bool `json:"current"`
}

// Hypotheses says the test's bounds, model and error rates, e.g.
// "normalized Elo [-1.75, 0.25], alpha 0.05, beta 0.05".
func (t RegressionTest) Hypotheses() string {
	return fmt.Sprintf("%s Elo [%g, %g], alpha %g, beta %g", t.Model, t.Elo0, t.Elo1, t.Alpha, t.Beta)
}

// Regressed reports whether the test found the new version weaker.
func (t RegressionTest) Regressed() bool { return t.Verdict == VerdictH0 }

// Describe says the test's state in a few words, e.g. "H0: weaker than
// sniper (LLR -2.96, 812 pairs)".
func (t RegressionTest) Describe() string {
	pairs := t.Counts.Pairs()
	switch t.Verdict {
	case VerdictPending:
		return "pending against " + t.BaselineLabel
	case VerdictH0:
		return fmt.Sprintf("H0: weaker than %s (LLR %.2f, %d pairs)", t.BaselineLabel, t.LLR, pairs)
	case VerdictH1:
		return fmt.Sprintf("H1: not weaker than %s (LLR %.2f, %d pairs)", t.BaselineLabel, t.LLR, pairs)
	}
	s := fmt.Sprintf("running against %s: LLR %.2f in (%.2f, %.2f), %d pairs", t.BaselineLabel, t.LLR, t.Lower, t.Upper, pairs)
	if !t.Current {
		s += ", stopped (no longer the current version)"
	}
	return s
}

// regressionRuns returns the regression tests a night of the active
// versions plays: one per new version (an entrant's version after its
// first, not a race's winner) against the version before it (retired race
// candidates left out), unless that one cannot play (it
// is known only from imported results) or the test has decided. Tests
// started now are also returned in fresh, with their ids, to be recorded
// once the night is.
func (s *Store) regressionRuns(ctx context.Context, tx *sql.Tx, active []Version, opt RegressionOptions) (runs, fresh []RegressionRun, err error) {
	if opt.PairsPerNight == 0 {
		return nil, nil, nil
	}
	all, err := s.allVersions(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	next, err := s.nextID(ctx, tx, "sprt_tests")
	if err != nil {
		return nil, nil, err
	}
	// A race's candidates are not tested: the winner was raced against
	// the baseline, and the others never play again.
	candidate := map[int64]string{}
	crows, err := tx.QueryContext(ctx, "SELECT version_id, outcome FROM race_candidates")
	if err != nil {
		return nil, nil, err
	}
	for crows.Next() {
		var id int64
		var outcome string
		if err := crows.Scan(&id, &outcome); err != nil {
			crows.Close()
			return nil, nil, err
		}
		candidate[id] = outcome
	}
	crows.Close()
	if err := crows.Err(); err != nil {
		return nil, nil, err
	}
	for _, v := range active {
		if _, raced := candidate[v.ID]; v.Number < 2 || raced {
			continue
		}
		var base Version
		for _, w := range all {
			if o, raced := candidate[w.ID]; raced && o != OutcomeWinner {
				continue // a retired candidate was never current
			}
			if w.Entrant == v.Entrant && w.Number < v.Number && w.Number > base.Number {
				base = w
			}
		}
		if base.ID == 0 || base.Kind == KindImported {
			continue
		}
		run := RegressionRun{Version: v.ID, Baseline: base.ID, Pairs: opt.PairsPerNight}
		err := tx.QueryRowContext(ctx, s.rebind("SELECT id FROM sprt_tests WHERE version_id = ? AND baseline_id = ?"), v.ID, base.ID).Scan(&run.Test)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			run.Test = next
			next++
			fresh = append(fresh, run)
		case err != nil:
			return nil, nil, err
		default:
			var verdict string
			err := tx.QueryRowContext(ctx, s.rebind("SELECT verdict FROM sprt_states WHERE test_id = ? ORDER BY night_id DESC LIMIT 1"), run.Test).Scan(&verdict)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, nil, err
			}
			if verdict == VerdictH0 || verdict == VerdictH1 {
				continue
			}
		}
		runs = append(runs, run)
	}
	return runs, fresh, nil
}

// insertRegressionTests records the tests night n starts.
func (s *Store) insertRegressionTests(ctx context.Context, tx *sql.Tx, n Night, fresh []RegressionRun, opt RegressionOptions) error {
	for _, r := range fresh {
		t := opt.Test
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO sprt_tests (id, version_id, baseline_id, started_night, elo0, elo1, alpha, beta, model)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), r.Test, r.Version, r.Baseline, n.ID, t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model.String()); err != nil {
			return fmt.Errorf("night %s: starting the regression test of version %d: %w", n.Label, r.Version, err)
		}
	}
	return nil
}

// closeRegression adds the game pairs of night to each of its regression
// tests and appends each test's state after it, inside tx (the closing
// transaction), and returns the tests.
func (s *Store) closeRegression(ctx context.Context, tx *sql.Tx, night Night) ([]RegressionTest, error) {
	if len(night.Config.Regression) == 0 {
		return nil, nil
	}
	tally, err := s.nightTally(ctx, tx, night.ID)
	if err != nil {
		return nil, err
	}
	for _, run := range night.Config.Regression {
		test, err := s.sprtOf(ctx, tx, run.Test)
		if err != nil {
			return nil, err
		}
		var counts stats.Pentanomial
		err = tx.QueryRowContext(ctx, s.rebind("SELECT p0, p1, p2, p3, p4 FROM sprt_states WHERE test_id = ? ORDER BY night_id DESC LIMIT 1"), run.Test).
			Scan(&counts[0], &counts[1], &counts[2], &counts[3], &counts[4])
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		add := tally.Pairs[strconv.FormatInt(run.Test, 10)]
		for k := range counts {
			counts[k] += add[k]
		}
		llr, err := test.LLR(counts)
		if err != nil {
			return nil, fmt.Errorf("night %s: regression test %d: %w", night.Label, run.Test, err)
		}
		lower, upper := test.Bounds()
		verdict := VerdictRunning
		switch test.Decide(llr) {
		case stats.AcceptH0:
			verdict = VerdictH0
		case stats.AcceptH1:
			verdict = VerdictH1
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO sprt_states (test_id, night_id, p0, p1, p2, p3, p4, llr, lower_bound, upper_bound, verdict)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), run.Test, night.ID, counts[0], counts[1], counts[2], counts[3], counts[4],
			llr, lower, upper, verdict); err != nil {
			return nil, fmt.Errorf("night %s: state of regression test %d: %w", night.Label, run.Test, err)
		}
	}
	all, err := s.regressionTests(ctx, tx)
	if err != nil {
		return nil, err
	}
	var out []RegressionTest
	for _, run := range night.Config.Regression {
		for _, t := range all {
			if t.ID == run.Test {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// sprtOf reads a test's hypotheses.
func (s *Store) sprtOf(ctx context.Context, q querier, id int64) (stats.SPRT, error) {
	var t stats.SPRT
	var model string
	err := q.QueryRowContext(ctx, s.rebind("SELECT elo0, elo1, alpha, beta, model FROM sprt_tests WHERE id = ?"), id).
		Scan(&t.Elo0, &t.Elo1, &t.Alpha, &t.Beta, &model)
	if err != nil {
		return t, fmt.Errorf("regression test %d: %w", id, err)
	}
	if t.Model, err = stats.ParseModel(model); err != nil {
		return t, fmt.Errorf("regression test %d: %w", id, err)
	}
	return t, nil
}

// RegressionTests lists every regression test, oldest first, with its
// latest state.
func (s *Store) RegressionTests(ctx context.Context) ([]RegressionTest, error) {
	return s.regressionTests(ctx, s.db)
}

// Regressions lists the regressions that stand: tests that found a
// version weaker than its predecessor while it is still its entrant's
// current version.
func (s *Store) Regressions(ctx context.Context) ([]RegressionTest, error) {
	all, err := s.regressionTests(ctx, s.db)
	if err != nil {
		return nil, err
	}
	var out []RegressionTest
	for _, t := range all {
		if t.Current && t.Regressed() {
			out = append(out, t)
		}
	}
	return out, nil
}

// regressionEstimateLevel is the confidence level of a test's Elo
// estimate.
const regressionEstimateLevel = 0.95

func (s *Store) regressionTests(ctx context.Context, q querier) ([]RegressionTest, error) {
	versions, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, err
	}
	active, err := s.activeVersions(ctx, q)
	if err != nil {
		return nil, err
	}
	current := map[int64]bool{}
	for _, v := range active {
		current[v.ID] = true
	}
	labels := map[int64]string{}
	nrows, err := q.QueryContext(ctx, "SELECT id, label FROM nights")
	if err != nil {
		return nil, err
	}
	for nrows.Next() {
		var id int64
		var l string
		if err := nrows.Scan(&id, &l); err != nil {
			nrows.Close()
			return nil, err
		}
		labels[id] = l
	}
	nrows.Close()
	rows, err := q.QueryContext(ctx, "SELECT id, version_id, baseline_id, started_night, elo0, elo1, alpha, beta, model FROM sprt_tests ORDER BY id")
	if err != nil {
		return nil, err
	}
	var out []RegressionTest
	index := map[int64]int{}
	for rows.Next() {
		var t RegressionTest
		var started int64
		var model string
		var test stats.SPRT
		if err := rows.Scan(&t.ID, &t.Version, &t.Baseline, &started, &test.Elo0, &test.Elo1, &test.Alpha, &test.Beta, &model); err != nil {
			rows.Close()
			return nil, err
		}
		if test.Model, err = stats.ParseModel(model); err != nil {
			rows.Close()
			return nil, fmt.Errorf("regression test %d: %w", t.ID, err)
		}
		t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model = test.Elo0, test.Elo1, test.Alpha, test.Beta, model
		v, b := versions[t.Version], versions[t.Baseline]
		t.Entrant, t.Number, t.Label, t.BaselineLabel = v.Entrant, v.Number, v.Label, b.Label
		t.Started, t.Verdict, t.Current = labels[started], VerdictPending, current[t.Version]
		t.Lower, t.Upper = test.Bounds()
		index[t.ID] = len(out)
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	srows, err := q.QueryContext(ctx, "SELECT test_id, night_id, p0, p1, p2, p3, p4, llr, lower_bound, upper_bound, verdict FROM sprt_states ORDER BY test_id, night_id")
	if err != nil {
		return nil, err
	}
	defer srows.Close()
	for srows.Next() {
		var id, night int64
		var c stats.Pentanomial
		var llr, lo, hi float64
		var verdict string
		if err := srows.Scan(&id, &night, &c[0], &c[1], &c[2], &c[3], &c[4], &llr, &lo, &hi, &verdict); err != nil {
			return nil, err
		}
		i, ok := index[id]
		if !ok {
			return nil, fmt.Errorf("state of unknown regression test %d", id)
		}
		t := &out[i]
		t.Night, t.Counts, t.LLR, t.Lower, t.Upper, t.Verdict = labels[night], c, llr, lo, hi, verdict
		t.Nights++
	}
	if err := srows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Counts.Pairs() > 0 {
			e, err := stats.EstimateElo(out[i].Counts, regressionEstimateLevel)
			if err != nil {
				return nil, fmt.Errorf("regression test %d: %w", out[i].ID, err)
			}
			out[i].Elo = &e
		}
	}
	return out, nil
}
