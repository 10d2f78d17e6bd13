package ladder

import (
	"context"
	"fmt"

	"crucible/arena"
	"crucible/arena/rating"
)

// Standings is the ladder as it stands.
type Standings struct {
	// Night is the last closed night (zero when none was).
	Night Night
	// Summary is the leaderboard of the entrants' current versions, named
	// by their labels: each at its latest rating (a version not rated yet
	// at the rating it will start from), with the pairwise results of the
	// last night between them.
	Summary rating.Summary
	// Versions maps each label of the leaderboard to its version.
	Versions map[string]Version
}

// Standings returns the leaderboard of the active entrants.
func (s *Store) Standings(ctx context.Context) (Standings, error) {
	return s.RankedStandings(ctx, nil)
}

// RankedStandings is Standings with, when ranks is not nil, each
// entrant's probability of each rank (Summary.Ranks): the bootstrap of
// the last closed night's units between the current versions
// (rating.RankProbabilities), the Bradley–Terry order of that night
// rather than the ladder's Glicko-2 over all nights.
func (s *Store) RankedStandings(ctx context.Context, ranks *rating.RankOptions) (Standings, error) {
	var st Standings
	if _, err := s.Info(ctx); err != nil {
		return st, err
	}
	active, err := s.activeVersions(ctx, s.db)
	if err != nil {
		return st, err
	}
	prior, _, err := s.priorRatings(ctx, s.db, active, rating.Default())
	if err != nil {
		return st, err
	}
	ratings := make(map[string]rating.Rating, len(active))
	st.Versions = make(map[string]Version, len(active))
	for _, v := range active {
		ratings[v.Label] = prior[v.ID]
		st.Versions[v.Label] = v
	}
	nights, err := s.Nights(ctx)
	if err != nil {
		return st, err
	}
	// The last closed night's matches between current versions give the
	// statistics beside the ratings: score rates and pairs with intervals
	// clustered by seed (every match of the night on one seed is one
	// independent unit), as every leaderboard of the lab computes them.
	var matches []rating.Match
	for i := len(nights) - 1; i >= 0; i-- {
		if nights[i].ClosedAt == "" {
			continue
		}
		st.Night = nights[i]
		err := s.Export(ctx, st.Night.ID, func(r arena.Record) error {
			if r.Error != "" {
				return nil
			}
			for _, p := range r.Players {
				if _, ok := ratings[p.Name]; !ok {
					return nil
				}
			}
			matches = append(matches, r.Match())
			return nil
		})
		if err != nil {
			return st, err
		}
		break
	}
	names := make([]string, 0, len(active))
	for _, v := range active {
		names = append(names, v.Label)
	}
	st.Summary, err = rating.Leaderboard(names, matches, rating.Options{Model: rating.ModelGlicko2, Periods: rating.PriorIsRating, Prior: ratings, Ranks: ranks})
	if err != nil {
		return st, err
	}
	if t := st.Summary.Ranks; t != nil {
		if st.Night.ID == 0 {
			t.Unavailable = "no night has closed yet: there are no matches to resample"
			t.Players = []rating.PlayerRanks{}
		} else {
			t.Method += fmt.Sprintf(", over night %s's matches between the current versions", st.Night.Label)
		}
	}
	// The ratings are the ladder's own, each night one rating period; the
	// leaderboard only shows them (it does not rate the night again).
	st.Summary.Method = "the ladder's Glicko-2 ratings, one rating period per night (no night closed yet: the starting ratings)"
	if st.Night.ID != 0 {
		st.Summary.Method = fmt.Sprintf("the ladder's Glicko-2 ratings, one rating period per night, as they stand after night %s (its matches between the current versions give the score columns)", st.Night.Label)
	}
	return st, nil
}

// HistoryPoint is an entrant's rating after one night.
type HistoryPoint struct {
	RatingRow
	// ClosedAt is when the night was closed.
	ClosedAt string `json:"closed_at"`
	// VersionNumber is the version rated; NewVersion marks the first
	// night of a version after an earlier one.
	VersionNumber int  `json:"version"`
	NewVersion    bool `json:"new_version"`
}

// History returns entrant name's rating after every night that rated it,
// oldest first (a night that rated two of its versions gives two points,
// in version order).
func (s *Store) History(ctx context.Context, name string) ([]HistoryPoint, error) {
	if _, err := s.Versions(ctx, name); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT n.id, n.label, n.closed_at, v.id, v.label, v.number,
			r.rating, r.rd, r.volatility, r.games, r.wins, r.draws, r.losses, r.lo, r.hi
		FROM ratings r JOIN versions v ON v.id = r.version_id JOIN nights n ON n.id = r.night_id
		WHERE v.entrant = ? ORDER BY n.id, v.number`), name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HistoryPoint
	last := 0
	for rows.Next() {
		var p HistoryPoint
		if err := rows.Scan(&p.Night, &p.NightLabel, &p.ClosedAt, &p.Version, &p.Label, &p.VersionNumber,
			&p.Rating.Rating, &p.RD, &p.Volatility, &p.Games, &p.Wins, &p.Draws, &p.Losses, &p.Lo, &p.Hi); err != nil {
			return nil, fmt.Errorf("history of %s: %w", name, err)
		}
		p.NewVersion = last != 0 && p.VersionNumber > last
		last = max(last, p.VersionNumber)
		out = append(out, p)
	}
	return out, rows.Err()
}
