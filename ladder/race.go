// Races of candidate versions: several new versions of one entrant raced
// against its current version over as many nights as it takes (stats.Race).

package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/engine"
	"crucible/stats"
)

// Race defaults.
const (
	// DefaultRaceElo0 and DefaultRaceElo1 are a race's hypotheses in
	// logistic Elo of a candidate over the baseline: H0 no better, H1 5
	// better.
	DefaultRaceElo0 = 0
	DefaultRaceElo1 = 5
	// DefaultRaceAlpha is the family's false-positive rate (each
	// candidate is tested at it over the number of candidates), and
	// DefaultRaceBeta each candidate's false-negative rate.
	DefaultRaceAlpha = 0.05
	DefaultRaceBeta  = 0.05
	// DefaultRaceMaxPairs caps a candidate's pairs: a race whose leader
	// reaches it ends undecided.
	DefaultRaceMaxPairs = 20000
	// DefaultRacePairs is the most pairs a race counts a night.
	DefaultRacePairs = 2000
)

// Outcomes of a race's candidate.
const (
	OutcomeRacing  = "racing"
	OutcomeWinner  = "winner"
	OutcomeRetired = "retired"
)

// raceStream numbers races' seed streams apart from the nights' own.
const raceStream = 1 << 41

// RaceOptions set up a race of candidate versions (AddCandidates).
type RaceOptions struct {
	// Race is the race's test (Alpha for the whole family) and
	// elimination budget, as stats.Race states them.
	Race stats.Race
	// MaxPairs caps each candidate's pairs over all nights; Batch is the
	// pairs the leader plays at a time (0: stats.RaceBatch).
	MaxPairs int
	Batch    int
}

// DefaultRace is the race ladder add makes of several candidates.
func DefaultRace() RaceOptions {
	return RaceOptions{Race: stats.Race{Test: stats.SPRT{Elo0: DefaultRaceElo0, Elo1: DefaultRaceElo1,
		Alpha: DefaultRaceAlpha, Beta: DefaultRaceBeta, Model: stats.Logistic}}, MaxPairs: DefaultRaceMaxPairs}
}

// Validate checks the options.
func (o RaceOptions) Validate() error {
	if _, err := o.Race.Start(2); err != nil {
		return fmt.Errorf("race: %w", err)
	}
	if o.MaxPairs < 1 || o.Batch < 0 {
		return fmt.Errorf("race: max pairs %d must be positive and batch %d not negative", o.MaxPairs, o.Batch)
	}
	return nil
}

// RaceNight is a race's part of one night, kept in its config: the
// versions it seats and the most pairs it counts.
type RaceNight struct {
	Race       int64   `json:"race"`
	Baseline   int64   `json:"baseline"`
	Candidates []int64 `json:"candidates"`
	Pairs      int     `json:"pairs"`
}

// CandidateRace is a race of candidate versions with its state after the
// last night that played it.
type CandidateRace struct {
	ID      int64  `json:"id"`
	Entrant string `json:"entrant"`
	// Baseline is the version raced against (the entrant's current
	// version when the race began).
	Baseline      int64  `json:"baseline_id"`
	BaselineLabel string `json:"baseline"`
	CreatedAt     string `json:"created_at"`
	// Test is each candidate's test before the family's adjustment (Alpha
	// the family's), CandidateAlpha each candidate's, Delta the
	// eliminations' budget.
	Test           stats.SPRT      `json:"test"`
	CandidateAlpha float64         `json:"candidate_alpha"`
	Delta          float64         `json:"delta"`
	Batch          int             `json:"batch"`
	MaxPairs       int             `json:"max_pairs"`
	Candidates     []RaceCandidate `json:"candidates"`
	// Night is the last night that played it ("" before any), Nights how
	// many did.
	Night  string `json:"night,omitempty"`
	Nights int    `json:"nights"`
	// Pairs are the pairs counted, Rounds the most any candidate played,
	// Matches the matches played (with those of pairs not counted because
	// their candidate had left the race).
	Pairs   int `json:"pairs"`
	Rounds  int `json:"rounds"`
	Matches int `json:"matches"`
	// Saved is the matches the race did not play against testing every
	// candidate alone on as many pairs as the longest-playing one:
	// 2 (k Rounds - Pairs), once the race has ended (0 before).
	Saved int `json:"saved"`
	// Done tells the race has ended; Winner is the winner's label ("" when
	// none was shown better than the baseline).
	Done   bool   `json:"done"`
	Winner string `json:"winner,omitempty"`
}

// RaceCandidate is one candidate of a race.
type RaceCandidate struct {
	Version int64  `json:"version_id"`
	Label   string `json:"label"`
	Plays   string `json:"plays"`
	// Outcome is OutcomeRacing, OutcomeWinner or OutcomeRetired.
	Outcome string `json:"outcome"`
	stats.Racer
	// EliminatedBy labels the candidate that eliminated it; Elo is its
	// measured strength over the baseline (nil before any pair).
	EliminatedBy string          `json:"eliminated_by,omitempty"`
	Elo          *stats.Estimate `json:"elo,omitempty"`
}

// Verdict says where the race stands in a few words.
func (r CandidateRace) Verdict() string {
	switch {
	case !r.Done && r.Nights == 0:
		return "pending: no night has played it yet"
	case !r.Done:
		return fmt.Sprintf("running after %d pairs", r.Pairs)
	case r.Winner != "":
		return fmt.Sprintf("%s is better than %s (H1), promoted; the others retired", r.Winner, r.BaselineLabel)
	case r.Rounds >= r.MaxPairs:
		return fmt.Sprintf("undecided at %d pairs: %s stays, the candidates retired", r.MaxPairs, r.BaselineLabel)
	}
	return fmt.Sprintf("none is shown better than %s, which stays; the candidates retired", r.BaselineLabel)
}

// Hypotheses says the race's test, e.g. "logistic Elo [0, 5], alpha 0.05
// for the family (0.0167 each), beta 0.05, delta 0.05".
func (r CandidateRace) Hypotheses() string {
	return fmt.Sprintf("%s Elo [%g, %g], alpha %g for the family (%.3g each, Bonferroni), beta %g, delta %g",
		r.Test.Model, r.Test.Elo0, r.Test.Elo1, r.Test.Alpha, r.CandidateAlpha, r.Test.Beta, r.Delta)
}

// notCandidate is the condition on a version column col that it is not a
// candidate of a race still racing or retired: such versions are never an
// entrant's current version.
func notCandidate(col string) string {
	return col + " NOT IN (SELECT version_id FROM race_candidates WHERE outcome <> 'winner')"
}

// runningRace is the id of entrant name's race still running, 0 if none.
func (s *Store) runningRace(ctx context.Context, q querier, name string) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, s.rebind(`SELECT r.id FROM races r JOIN race_candidates c ON c.race_id = r.id
		WHERE r.entrant = ? AND c.outcome = 'racing' ORDER BY r.id LIMIT 1`), name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// AddCandidates adds several candidate versions of entrant name, which
// must be in the ladder with a version that plays, and starts a race of
// them against its current version: the coming nights play it (see
// RunNight) until one candidate is shown better, which then becomes the
// entrant's current version, or none can be; the others are retired.
// Until then the entrant plays its current version in the rated games.
func (s *Store) AddCandidates(ctx context.Context, name string, srcs []Source, opt RaceOptions) (CandidateRace, error) {
	if err := CheckName(name); err != nil {
		return CandidateRace{}, err
	}
	if len(srcs) < 2 {
		return CandidateRace{}, fmt.Errorf("entrant %s: a race needs at least 2 candidates, got %d", name, len(srcs))
	}
	if err := opt.Validate(); err != nil {
		return CandidateRace{}, err
	}
	for i, src := range srcs {
		if err := src.check(); err != nil {
			return CandidateRace{}, fmt.Errorf("entrant %s: candidate %d: %w", name, i+1, err)
		}
		if src.Kind == KindImported {
			return CandidateRace{}, fmt.Errorf("entrant %s: candidate %d cannot play (imported)", name, i+1)
		}
		for _, o := range srcs[:i] {
			if o.Fingerprint() == src.Fingerprint() {
				return CandidateRace{}, fmt.Errorf("entrant %s: candidate %s is given twice", name, src.Fingerprint())
			}
		}
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		info, err := s.info(ctx, tx)
		if err != nil {
			return err
		}
		var removed sql.NullString
		err = tx.QueryRowContext(ctx, s.rebind("SELECT removed_at FROM entrants WHERE name = ?"), name).Scan(&removed)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("entrant %s is not in the ladder: add it with one version first (its baseline)", name)
		}
		if err != nil {
			return err
		}
		if removed.Valid {
			return fmt.Errorf("entrant %s was removed: add it back with one version first", name)
		}
		if r, err := s.runningRace(ctx, tx, name); err != nil || r != 0 {
			if err == nil {
				err = fmt.Errorf("entrant %s has race %d of candidates running; its candidates cannot change until it ends", name, r)
			}
			return err
		}
		base, err := s.currentVersion(ctx, tx, name)
		if err != nil {
			return err
		}
		if base.Kind == KindImported {
			return fmt.Errorf("entrant %s: its current version %s is known only from imported results and cannot be the race's baseline", name, base.Label)
		}
		for _, src := range srcs {
			if src.Fingerprint() == base.Fingerprint {
				return fmt.Errorf("entrant %s: candidate %s is what its current version %s plays", name, src.Fingerprint(), base.Label)
			}
		}
		if id, err = s.nextID(ctx, tx, "races"); err != nil {
			return err
		}
		t := opt.Race.Test
		delta := opt.Race.Delta
		if delta == 0 {
			delta = t.Beta
		}
		batch := opt.Batch
		if batch == 0 {
			batch = stats.RaceBatch
		}
		seed := engine.Mix(info.Seed, raceStream+uint64(id))
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO races (id, entrant, baseline_id, created_at, seed, elo0, elo1, alpha, beta, delta, model, batch, max_pairs)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), id, name, base.ID, now(), int64(seed), t.Elo0, t.Elo1, t.Alpha, t.Beta, delta,
			t.Model.String(), batch, opt.MaxPairs); err != nil {
			return err
		}
		for i, src := range srcs {
			v, err := s.insertVersion(ctx, tx, name, src)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.rebind("INSERT INTO race_candidates (race_id, idx, version_id) VALUES (?, ?, ?)"), id, i, v.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return CandidateRace{}, err
	}
	all, err := s.races(ctx, s.db)
	if err != nil {
		return CandidateRace{}, err
	}
	for _, r := range all {
		if r.ID == id {
			return r, nil
		}
	}
	return CandidateRace{}, fmt.Errorf("race %d vanished", id)
}

// raceSpec is a race as stored.
type raceSpec struct {
	id, baseline int64
	entrant      string
	candidates   []int64
	outcomes     []string
	race         stats.Race
	seed         uint64
	batch, max   int
	createdAt    string
}

const raceCols = "id, entrant, baseline_id, created_at, seed, elo0, elo1, alpha, beta, delta, model, batch, max_pairs"

// raceSpecs reads every race (ordered by id) with its candidates.
func (s *Store) raceSpecs(ctx context.Context, q querier) ([]raceSpec, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+raceCols+" FROM races ORDER BY id")
	if err != nil {
		return nil, err
	}
	var out []raceSpec
	for rows.Next() {
		var r raceSpec
		var seed int64
		var model string
		t := &r.race.Test
		if err := rows.Scan(&r.id, &r.entrant, &r.baseline, &r.createdAt, &seed, &t.Elo0, &t.Elo1, &t.Alpha, &t.Beta, &r.race.Delta, &model, &r.batch, &r.max); err != nil {
			rows.Close()
			return nil, err
		}
		r.seed = uint64(seed)
		if t.Model, err = stats.ParseModel(model); err != nil {
			rows.Close()
			return nil, fmt.Errorf("race %d: %w", r.id, err)
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	byID := map[int64]int{}
	for i, r := range out {
		byID[r.id] = i
	}
	crows, err := q.QueryContext(ctx, "SELECT race_id, version_id, outcome FROM race_candidates ORDER BY race_id, idx")
	if err != nil {
		return nil, err
	}
	defer crows.Close()
	for crows.Next() {
		var race, v int64
		var outcome string
		if err := crows.Scan(&race, &v, &outcome); err != nil {
			return nil, err
		}
		r := &out[byID[race]]
		r.candidates, r.outcomes = append(r.candidates, v), append(r.outcomes, outcome)
	}
	return out, crows.Err()
}

// raceAdd is one pair counted by a race: its candidate and class.
type raceAdd struct{ cand, class int }

func formatAdds(adds []raceAdd) string {
	b := make([]byte, 0, 4*len(adds))
	for i, a := range adds {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(a.cand), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(a.class), 10)
	}
	return string(b)
}

func parseAdds(s string) ([]raceAdd, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]raceAdd, len(parts))
	for i, p := range parts {
		c, k, ok := strings.Cut(p, ":")
		ci, err1 := strconv.Atoi(c)
		ki, err2 := strconv.Atoi(k)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("pair %d: %q is not candidate:class", i, p)
		}
		out[i] = raceAdd{ci, ki}
	}
	return out, nil
}

// raceProgress is a race's stored state after a night.
type raceProgress struct {
	adds    []raceAdd
	matches int
	nights  int
	night   int64
}

// raceProgressOf reads the latest state of race id written by a night
// other than except (the night being played, which writes its own when it
// closes).
func (s *Store) raceProgressOf(ctx context.Context, q querier, id, except int64) (raceProgress, error) {
	var p raceProgress
	var adds string
	err := q.QueryRowContext(ctx, s.rebind("SELECT night_id, adds, matches FROM race_states WHERE race_id = ? AND night_id <> ? ORDER BY night_id DESC LIMIT 1"), id, except).
		Scan(&p.night, &adds, &p.matches)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := q.QueryRowContext(ctx, s.rebind("SELECT COUNT(*) FROM race_states WHERE race_id = ? AND night_id <> ?"), id, except).Scan(&p.nights); err != nil {
		return p, err
	}
	p.adds, err = parseAdds(adds)
	if err != nil {
		return p, fmt.Errorf("race %d: %w", id, err)
	}
	return p, nil
}

// replay runs a race from its start through the pairs counted.
func (r raceSpec) replay(adds []raceAdd) (*stats.RaceRun, error) {
	run, err := r.race.Start(len(r.candidates))
	if err != nil {
		return nil, fmt.Errorf("race %d: %w", r.id, err)
	}
	for i, a := range adds {
		if err := run.Add(a.cand, a.class); err != nil {
			return nil, fmt.Errorf("race %d: pair %d: %w", r.id, i, err)
		}
	}
	return run, nil
}

// raceRuns are the races a night of the active versions plays: those still
// racing whose entrant is active with the race's baseline as its current
// version.
func (s *Store) raceRuns(ctx context.Context, tx *sql.Tx, active []Version, pairs int) ([]RaceNight, error) {
	if pairs == 0 {
		return nil, nil
	}
	specs, err := s.raceSpecs(ctx, tx)
	if err != nil {
		return nil, err
	}
	current := map[string]int64{}
	for _, v := range active {
		current[v.Entrant] = v.ID
	}
	var out []RaceNight
	for _, r := range specs {
		if len(r.outcomes) == 0 || r.outcomes[0] != OutcomeRacing || current[r.entrant] != r.baseline {
			continue
		}
		out = append(out, RaceNight{Race: r.id, Baseline: r.baseline, Candidates: r.candidates, Pairs: pairs})
	}
	return out, nil
}

// Races lists every race, oldest first, with its latest state.
func (s *Store) Races(ctx context.Context) ([]CandidateRace, error) { return s.races(ctx, s.db) }

func (s *Store) races(ctx context.Context, q querier) ([]CandidateRace, error) {
	specs, err := s.raceSpecs(ctx, q)
	if err != nil {
		return nil, err
	}
	versions, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]CandidateRace, 0, len(specs))
	for _, sp := range specs {
		p, err := s.raceProgressOf(ctx, q, sp.id, 0)
		if err != nil {
			return nil, err
		}
		run, err := sp.replay(p.adds)
		if err != nil {
			return nil, err
		}
		cr := CandidateRace{ID: sp.id, Entrant: sp.entrant, Baseline: sp.baseline, BaselineLabel: versions[sp.baseline].Label,
			CreatedAt: sp.createdAt, Test: sp.race.Test, CandidateAlpha: run.Test.Alpha, Delta: run.Delta, Batch: sp.batch, MaxPairs: sp.max,
			Nights: p.nights, Pairs: run.Pairs, Rounds: run.Rounds, Matches: p.matches}
		if p.nights > 0 {
			if err := q.QueryRowContext(ctx, s.rebind("SELECT label FROM nights WHERE id = ?"), p.night).Scan(&cr.Night); err != nil {
				return nil, err
			}
		}
		cr.Done = sp.outcomes[0] != OutcomeRacing
		if cr.Done {
			cr.Saved = 2 * (len(sp.candidates)*run.Rounds - run.Pairs)
		}
		for i, id := range sp.candidates {
			rc := RaceCandidate{Version: id, Label: versions[id].Label, Plays: versions[id].Fingerprint, Outcome: sp.outcomes[i], Racer: run.Racers[i]}
			if rc.By >= 0 {
				rc.EliminatedBy = versions[sp.candidates[rc.By]].Label
			}
			if rc.Pairs > 0 {
				e, err := stats.EstimateElo(rc.Counts, regressionEstimateLevel)
				if err != nil {
					return nil, fmt.Errorf("race %d: %w", sp.id, err)
				}
				rc.Elo = &e
			}
			if rc.Outcome == OutcomeWinner {
				cr.Winner = rc.Label
			}
			cr.Candidates = append(cr.Candidates, rc)
		}
		out = append(out, cr)
	}
	return out, nil
}

// raceStager plays a night's races in stages: each stage gives every race
// still playing tonight its leader's next batch of pairs (stats.RaceRun.Next),
// chosen from the pairs counted before, so the same seeds give the same
// stages at any worker count and after any interruption.
type raceStager struct {
	night   Night
	races   []*nightRace
	stageOf []stagePart
}

// nightRace is one race during a night.
type nightRace struct {
	cfg     RaceNight
	spec    raceSpec
	run     *stats.RaceRun
	adds    []raceAdd
	counted int // pairs counted tonight
	matches int // matches recorded, all nights
	beyond  int // pairs played tonight but not counted
	stop    bool
}

// stagePart is one race's batch in the current stage.
type stagePart struct {
	race           *nightRace
	cand, from, to int
}

// newRaceStager loads the night's races with their state before it.
func (s *Store) newRaceStager(ctx context.Context, q querier, night Night) (*raceStager, error) {
	st := &raceStager{night: night}
	if len(night.Config.Races) == 0 {
		return st, nil
	}
	specs, err := s.raceSpecs(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, cfg := range night.Config.Races {
		var spec *raceSpec
		for i := range specs {
			if specs[i].id == cfg.Race {
				spec = &specs[i]
			}
		}
		if spec == nil {
			return nil, fmt.Errorf("night %s: race %d of its config is missing", night.Label, cfg.Race)
		}
		p, err := s.raceProgressOf(ctx, q, cfg.Race, night.ID)
		if err != nil {
			return nil, err
		}
		run, err := spec.replay(p.adds)
		if err != nil {
			return nil, err
		}
		st.races = append(st.races, &nightRace{cfg: cfg, spec: *spec, run: run, adds: p.adds, matches: p.matches})
	}
	return st, nil
}

// next is the next stage's jobs, none when every race is done for the
// night.
func (st *raceStager) next() []plannedJob {
	st.stageOf = st.stageOf[:0]
	var jobs []plannedJob
	var buf []byte
	for _, r := range st.races {
		if r.stop || r.counted >= r.cfg.Pairs {
			continue
		}
		c, from, to, ok := r.run.Next(r.spec.batch, r.spec.max)
		if !ok {
			continue
		}
		to = min(to, from+r.cfg.Pairs-r.counted)
		st.stageOf = append(st.stageOf, stagePart{race: r, cand: c, from: from, to: to})
		cand, base := r.spec.candidates[c], r.spec.baseline
		prefix := "n" + strconv.FormatInt(st.night.ID, 10) + "-x" + strconv.FormatInt(r.spec.id, 10) + "-p"
		for n := from; n < to; n++ {
			seed := engine.Mix(r.spec.seed, uint64(n))
			for k, seats := range [2][2]int64{{cand, base}, {base, cand}} {
				buf = strconv.AppendInt(append(buf[:0], prefix...), int64(n), 10)
				buf = append(append(strconv.AppendInt(append(buf, '-'), seats[0], 10), 'v'), strconv.FormatInt(seats[1], 10)...)
				jobs = append(jobs, plannedJob{Job: arena.Job{ID: string(buf), Round: n, Seed: seed}, Versions: []int64{seats[0], seats[1]},
					Test: -r.spec.id, Pair: n, NewSeat: k})
			}
		}
	}
	return jobs
}

// add counts the stage's pairs from their records (by job id, in the
// stage's job order); complete is false when some are missing (the
// night's budget ran out), and the races stop for the night.
func (st *raceStager) add(jobs []plannedJob, recs map[string]arena.Record) (complete bool, err error) {
	complete = true
	i := 0
	for _, part := range st.stageOf {
		r := part.race
		for n := part.from; n < part.to; n++ {
			a, okA := recs[jobs[i].ID]
			b, okB := recs[jobs[i+1].ID]
			ea, eb := entry{rec: a, newSeat: 0}, entry{rec: b, newSeat: 1}
			i += 2
			r.matches += btoi(okA) + btoi(okB)
			if !okA || !okB {
				complete, r.stop = false, true
				continue
			}
			if r.stop {
				continue
			}
			for _, rec := range []arena.Record{a, b} {
				if rec.Error != "" {
					return false, fmt.Errorf("night %s: match %s of race %d failed (the race cannot skip a pair): %s", st.night.Label, rec.Job, r.spec.id, rec.Error)
				}
			}
			if r.run.Done || r.run.Racers[part.cand].Status != stats.RaceActive {
				r.beyond++
				continue
			}
			class, err := pairClass(ea, eb)
			if err != nil {
				return false, err
			}
			if err := r.run.Add(part.cand, class); err != nil {
				return false, err
			}
			r.adds = append(r.adds, raceAdd{part.cand, class})
			r.counted++
		}
	}
	return complete, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// closeRaces appends each race's state after the night, inside tx (the
// closing transaction); a race that has ended gets its outcomes: the
// winner becomes its entrant's current version, the others are retired.
func (s *Store) closeRaces(ctx context.Context, tx *sql.Tx, st *raceStager) ([]CandidateRace, error) {
	if len(st.races) == 0 {
		return nil, nil
	}
	for _, r := range st.races {
		racers, err := json.Marshal(r.run.Racers)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO race_states (race_id, night_id, adds, pairs, matches, racers, done, winner)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), r.spec.id, st.night.ID, formatAdds(r.adds), r.run.Pairs, r.matches, string(racers),
			btoi(r.run.Done), r.run.Winner); err != nil {
			return nil, fmt.Errorf("night %s: state of race %d: %w", st.night.Label, r.spec.id, err)
		}
		if !r.run.Done {
			continue
		}
		for i, v := range r.spec.candidates {
			outcome := OutcomeRetired
			if i == r.run.Winner {
				outcome = OutcomeWinner
			}
			if _, err := tx.ExecContext(ctx, s.rebind("UPDATE race_candidates SET outcome = ? WHERE race_id = ? AND version_id = ?"), outcome, r.spec.id, v); err != nil {
				return nil, err
			}
		}
	}
	all, err := s.races(ctx, tx)
	if err != nil {
		return nil, err
	}
	var out []CandidateRace
	for _, r := range st.races {
		for _, c := range all {
			if c.ID == r.spec.id {
				out = append(out, c)
			}
		}
	}
	return out, nil
}
