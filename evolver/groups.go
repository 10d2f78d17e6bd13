package evolver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/engine"
)

// seatCounter is implemented by games that cannot be played with every
// seat count of their SeatRange (a game whose maps exist for some seat
// counts only).
type seatCounter interface {
	SeatCounts() []int
}

// validSeats lists the seat counts game g can be played with.
func validSeats(g engine.Game) []int {
	if sc, ok := g.(seatCounter); ok {
		return sc.SeatCounts()
	}
	lo, hi := g.SeatRange()
	var out []int
	for n := max(lo, 2); n <= hi; n++ {
		out = append(out, n)
	}
	return out
}

// checkSeats checks Config.Seats against the game's seat counts; 0 is
// the default, 2.
func checkSeats(g engine.Game, seats int) error {
	if seats == 0 {
		return nil
	}
	valid := validSeats(g)
	if !slices.Contains(valid, seats) {
		var s []string
		for _, n := range valid {
			s = append(s, strconv.Itoa(n))
		}
		return &FieldError{Field: "Seats", Value: seats, Reason: fmt.Sprintf("is not a seat count %s can be played with (%s)", g.Name(), strings.Join(s, ", "))}
	}
	return nil
}

// checkSeatsPool checks that a free-for-all group can be filled from the
// pool: seats-1 distinct opponents besides the candidate.
func checkSeatsPool(seats, pool int) error {
	if seats > 2 && pool < seats-1 {
		return &FieldError{Field: "Seats", Value: seats, Reason: fmt.Sprintf("needs at least %d opponents in the pool to fill a group, the pool has %d", seats-1, pool)}
	}
	return nil
}

// seatGroups returns the opponent groups of a free-for-all batch on one
// seed: the opponents (indices 0..n-1) shuffled by the seed and cut into
// groups of k, the last group filled up from the start of the shuffled
// order, so every opponent is in at least one group and no group repeats
// an opponent. Every candidate of the batch meets the same groups on that
// seed (common random numbers).
func seatGroups(seed uint64, n, k int) [][]int {
	s := engine.Mix(seed, 0x67726f757073)
	rng := rand.New(rand.NewPCG(s, engine.Mix(s, 1)))
	perm := rng.Perm(n)
	var groups [][]int
	for start := 0; start < n; start += k {
		g := make([]int, k)
		for i := range g {
			g[i] = perm[(start+i)%n]
		}
		groups = append(groups, g)
	}
	return groups
}

// groupJob is one match of a free-for-all batch: the candidate and the
// opponents of group in one rotation of the seats.
type groupJob struct {
	job  arena.Job
	cand int // the candidate's index
	seat int // the candidate's seat
}

// evaluateGroups plays every candidate in free-for-all groups of Seats:
// on each seed the opponents are cut into groups of Seats-1 (seatGroups),
// and each candidate plays each group on the group's map (the same map for
// every candidate) once per rotation of the seats, so it sits in every seat
// once. Each match is reduced to pairwise results as the stats package
// documents for N-seat games: against each other seat the candidate scores
// 1 when ranked ahead, 0.5 when level and 0 when behind (the others' order
// among themselves does not count); over the rotations this is the
// opponent's RotationScore from the candidate's side. A failed match is a
// loss against every opponent in it.
func (a *arenaEvaluator) evaluateGroups(ctx context.Context, b matchBatch, s evalSetup, progress func(done, total int)) ([]measure, error) {
	n := a.Seats
	if len(s.pool) < n-1 {
		return nil, checkSeatsPool(n, len(s.pool))
	}
	var jobs []arena.Job
	byID := map[string]groupJob{}
	order := make([]int, n)
	for r, seed := range b.Seeds {
		groups := seatGroups(seed, len(s.pool), n-1)
		for gi, g := range groups {
			members := make([]int, 0, n)
			for _, o := range g {
				members = append(members, s.pool[o])
			}
			// The group's map: one per group and seed, the same for every
			// candidate.
			mapSeed := engine.Mix(engine.Mix(seed, 0x6d6170), uint64(gi))
			for _, c := range s.players {
				group := append([]int{c}, members...)
				for rot := 0; rot < n; rot++ {
					var id strings.Builder
					fmt.Fprintf(&id, "r%d-g%d-", r, gi)
					seat := 0
					for i := range order {
						order[i] = group[(i+rot)%n]
						if order[i] == c {
							seat = i
						}
						if i > 0 {
							id.WriteString("v")
						}
						id.WriteString(strconv.Itoa(order[i]))
					}
					j := arena.Job{ID: id.String(), Round: r, Seed: mapSeed, Seats: slices.Clone(order)}
					jobs = append(jobs, j)
					byID[j.ID] = groupJob{job: j, cand: c, seat: seat}
				}
			}
		}
	}
	out := newMeasures(len(b.Candidates), len(b.Seeds))
	err := a.play()(ctx, a.Game, s.entrants, jobs, arena.Options{Workers: a.Workers, Config: a.Config, Progress: progress}, func(r arena.Record) error {
		gj, ok := byID[r.Job]
		if !ok {
			return fmt.Errorf("arena returned a record of unknown job %q", r.Job)
		}
		if r.Error != "" {
			a.Failures++
		}
		a.observe(s, gj.cand, r, gj.seat)
		m := &out[gj.cand]
		m.Matches++
		for seat, e := range gj.job.Seats {
			if seat == gj.seat {
				continue
			}
			pts := 0.0
			switch {
			case r.Error != "":
			case r.Ranks[gj.seat] < r.Ranks[seat]:
				pts = 1
			case r.Ranks[gj.seat] == r.Ranks[seat]:
				pts = 0.5
			}
			m.Points += pts
			m.Games++
			m.SeedPoints[gj.job.Round] += pts
			m.SeedGames[gj.job.Round]++
			name := s.entrants[e].Name
			vs := m.Versus[name]
			vs.Points += pts
			vs.Games++
			m.Versus[name] = vs
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
