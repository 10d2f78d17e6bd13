// Ratings of the nights: the ratings a night starts from, and the closing of
// a night as one Glicko-2 rating period.

package ladder

import (
	"context"
	"crucible/arena/rating"
	"database/sql"
	"fmt"
	"math"
	"sort"
)

// priorRatings returns each version's rating before the next period: its
// latest snapshot; for a version without one, the latest rating of an
// earlier version of its entrant with the deviation and volatility of a
// new player (the centre is kept, the certainty is not); else glicko's
// initial rating. own reports which versions have a snapshot of their own.
func (s *Store) priorRatings(ctx context.Context, q querier, vs []Version, glicko *rating.Glicko2) (map[int64]rating.Rating, map[int64]bool, error) {
	latest, err := s.latestRatings(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	all, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	prior := make(map[int64]rating.Rating, len(vs))
	own := make(map[int64]bool, len(vs))
	for _, v := range vs {
		if r, ok := latest[v.ID]; ok {
			prior[v.ID], own[v.ID] = r, true
			continue
		}
		prior[v.ID] = glicko.Initial
		best := 0
		for _, w := range all {
			if w.Entrant != v.Entrant || w.Number >= v.Number || w.Number <= best {
				continue
			}
			if r, ok := latest[w.ID]; ok {
				best = w.Number
				prior[v.ID] = rating.Rating{Rating: r.Rating, RD: glicko.Initial.RD, Volatility: glicko.Initial.Volatility}
			}
		}
	}
	return prior, own, nil
}

// latestRatings maps each rated version to its latest snapshot.
func (s *Store) latestRatings(ctx context.Context, q querier) (map[int64]rating.Rating, error) {
	rows, err := q.QueryContext(ctx, `SELECT r.version_id, r.rating, r.rd, r.volatility FROM ratings r
		JOIN (SELECT version_id, MAX(night_id) AS night_id FROM ratings GROUP BY version_id) m
		ON m.version_id = r.version_id AND m.night_id = r.night_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]rating.Rating{}
	for rows.Next() {
		var id int64
		var r rating.Rating
		if err := rows.Scan(&id, &r.Rating, &r.RD, &r.Volatility); err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, rows.Err()
}

// RatingRow is one version's rating after one night.
type RatingRow struct {
	Night      int64  `json:"night"`
	NightLabel string `json:"night_label"`
	Version    int64  `json:"version_id"`
	Label      string `json:"label"`
	rating.Rating
	// Games, Wins, Draws and Losses count the night's pairwise games.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Lo and Hi bound the rating's 95% interval (rating -/+ 1.96 RD).
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// closeNight rates the night's matches as one period inside tx, writes
// every rated version's snapshot and marks the night closed. A night
// closed meanwhile (by another process) is an error, so no night is ever
// rated twice.
func (s *Store) closeNight(ctx context.Context, tx *sql.Tx, info Info, night Night, note string) ([]RatingRow, error) {
	versions, err := s.allVersions(ctx, tx)
	if err != nil {
		return nil, err
	}
	outcomes, played, err := s.nightOutcomes(ctx, tx, night.ID, versions)
	if err != nil {
		return nil, err
	}
	glicko := night.Config.Glicko2
	if glicko.Tau == 0 {
		glicko = *rating.Default()
	}
	rated := map[int64]Version{}
	for _, id := range night.Config.Versions {
		rated[id] = versions[id]
	}
	for id := range played {
		rated[id] = versions[id]
	}
	list := make([]Version, 0, len(rated))
	for _, v := range rated {
		list = append(list, v)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	prior, _, err := s.priorRatings(ctx, tx, list, &glicko)
	if err != nil {
		return nil, err
	}
	start := make(map[string]rating.Rating, len(list))
	for _, v := range list {
		start[v.Label] = prior[v.ID]
	}
	after := glicko.RatePeriod(start, outcomes)
	tally := map[string]*rating.Tally{}
	for _, v := range list {
		tally[v.Label] = &rating.Tally{}
	}
	count := func(name string, score float64) {
		t := tally[name]
		switch {
		case score > 0.5:
			t.Wins++
		case score < 0.5:
			t.Losses++
		default:
			t.Draws++
		}
	}
	for _, o := range outcomes {
		if o.A == o.B {
			continue
		}
		count(o.A, o.Score)
		count(o.B, 1-o.Score)
	}
	out := make([]RatingRow, 0, len(list))
	for _, v := range list {
		r, ok := after[v.Label]
		if !ok {
			return nil, fmt.Errorf("night %s: no rating for %s", night.Label, v.Label)
		}
		t := tally[v.Label]
		row := RatingRow{Night: night.ID, NightLabel: night.Label, Version: v.ID, Label: v.Label, Rating: r,
			Games: t.Games(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses, Lo: r.Rating - z95*r.RD, Hi: r.Rating + z95*r.RD}
		if math.IsNaN(r.Rating) || math.IsNaN(r.RD) {
			return nil, fmt.Errorf("night %s: the rating of %s is not a number", night.Label, v.Label)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO ratings (night_id, version_id, rating, rd, volatility, games, wins, draws, losses, lo, hi)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			night.ID, v.ID, r.Rating, r.RD, r.Volatility, row.Games, row.Wins, row.Draws, row.Losses, row.Lo, row.Hi); err != nil {
			return nil, fmt.Errorf("night %s: rating of %s: %w", night.Label, v.Label, err)
		}
		out = append(out, row)
	}
	res, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET closed_at = ?, note = ? WHERE id = ? AND closed_at IS NULL"), now(), note, night.ID)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, fmt.Errorf("night %s was closed by another run meanwhile (%v)", night.Label, err)
	}
	return out, nil
}
