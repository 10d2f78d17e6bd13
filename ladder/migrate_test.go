package ladder

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/engine/kindling"
)

// copyRows copies every row of table from one store to another (same
// columns).
func copyRows(t *testing.T, from, to *Store, table, cols, where string) {
	t.Helper()
	rows, err := from.db.Query("SELECT " + cols + " FROM " + table + " " + where)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := len(strings.Split(cols, ","))
	ins := to.rebind("INSERT INTO " + table + " (" + cols + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")")
	for rows.Next() {
		vals := make([]any, n)
		ptrs := make([]any, n)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if _, err := to.db.Exec(ins, vals...); err != nil {
			t.Fatalf("copying %s: %v", table, err)
		}
	}
}

// oldMatchRow writes a record as the first schema's row of one match.
func oldMatchRow(t *testing.T, s *Store, tx *sql.Tx, night int64, position int, r arena.Record, ids map[string]int64) {
	t.Helper()
	seats := make([]int64, len(r.Players))
	for i, p := range r.Players {
		seats[i] = ids[p.Name]
	}
	scores, _ := json.Marshal(r.Scores)
	ranks := "-"
	if r.Ranks != nil {
		ranks = joinRanks(r.Ranks)
	}
	var crashed, errText sql.NullString
	if r.Crashed != nil {
		c, _ := json.Marshal(r.Crashed)
		crashed = sql.NullString{String: string(c), Valid: true}
	}
	if r.Error != "" {
		errText = sql.NullString{String: r.Error, Valid: true}
	}
	if _, err := tx.Exec(s.rebind(`INSERT INTO matches (night_id, job, position, round, seed, config, seats, scores, ranks, turns, reason, crashed, error, duration_ms, replay)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`),
		night, r.Job, position, r.Round, int64(r.Seed), r.Config, joinInts(seats), string(scores), ranks, r.Turns, r.Reason,
		crashed, errText, r.DurationMS); err != nil {
		t.Fatal(err)
	}
}

// A ladder written by the first schema (one row per match) is upgraded in
// place: its closed nights come back out byte for byte and keep their
// ratings; a night it left open keeps its whole chunks, plays the rest
// again and ends as the uninterrupted night did.
func TestMigrationFromMatchRows(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			// The reference: a ladder of today's schema with two nights,
			// the second of 4 x 3 / 2 pairs x 400 seeds x 2 = 4800 matches
			// (more than one chunk of importChunk).
			ref := open(t, mk(t))
			ref.Init(ctx, "kindling", 3)
			for _, n := range []string{"normal", "sniper", "greedy", "even"} {
				ref.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n})
			}
			b := kindlingBuilder(t)
			if _, err := ref.RunNight(ctx, kindling.Game{}, b, NightOptions{Label: "n1", SeedsPerNight: 3, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			r2, err := ref.RunNight(ctx, kindling.Game{}, b, NightOptions{Label: "n2", SeedsPerNight: 400, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if r2.Night.Planned != 4800 {
				t.Fatalf("night 2 planned %d", r2.Night.Planned)
			}
			var want bytes.Buffer
			if err := ref.ExportLines(ctx, 0, &want); err != nil {
				t.Fatal(err)
			}

			// The same ladder in the first schema, night 2 left open with
			// 4500 of its matches recorded, in completion order.
			dsn := mk(t)
			old, err := openAt(ctx, dsn, 1)
			if err != nil {
				t.Fatal(err)
			}
			copyRows(t, ref, old, "ladder", "id, game, seed, created_at", "")
			copyRows(t, ref, old, "seasons", "id, name, started_at, ended_at", "")
			copyRows(t, ref, old, "entrants", "name, added_at, removed_at", "")
			copyRows(t, ref, old, "versions", versionCols, "")
			copyRows(t, ref, old, "nights", "id, season_id, label, kind, started_at, closed_at, seed, budget_ms, spent_ms, config, game_config, code_version, planned, note", "")
			copyRows(t, ref, old, "ratings", "night_id, version_id, rating, rd, volatility, games, wins, draws, losses, lo, hi", "WHERE night_id = 1")
			if _, err := old.db.Exec("UPDATE nights SET closed_at = NULL, note = '' WHERE id = 2"); err != nil {
				t.Fatal(err)
			}
			ids := map[string]int64{}
			vs, _ := ref.allVersions(ctx, ref.db)
			for id, v := range vs {
				ids[v.Label] = id
			}
			tx, err := old.db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			for _, night := range []int64{1, 2} {
				recs := exportLines(t, ref, night)
				for pos := len(recs) - 1; pos >= 0; pos-- { // in another order than the schedule's
					if night == 2 && pos >= 4500 {
						continue
					}
					oldMatchRow(t, old, tx, night, pos, recs[pos], ids)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			old.Close()

			// Opened today: upgraded.
			s := open(t, dsn)
			if v, err := s.SchemaVersion(ctx); err != nil || v != 3 {
				t.Fatalf("schema version %d, %v", v, err)
			}
			if n, err := s.MatchCount(ctx, 2); err != nil || n != importChunk {
				t.Fatalf("night 2 keeps %d matches (%v), want its one whole chunk of %d", n, err, importChunk)
			}
			var got bytes.Buffer
			if err := s.ExportLines(ctx, 1, &got); err != nil {
				t.Fatal(err)
			}
			var want1 bytes.Buffer
			ref.ExportLines(ctx, 1, &want1)
			if got.String() != want1.String() {
				t.Fatalf("night 1 after the upgrade differs:\n%s\nwant\n%s", got.String(), want1.String())
			}
			h, err := s.History(ctx, "normal")
			hr, _ := ref.History(ctx, "normal")
			if err != nil || len(h) != 1 || h[0].Rating != hr[0].Rating {
				t.Fatalf("history of normal after the upgrade: %+v %v, want night 1's %+v", h, err, hr[0])
			}
			res, err := s.RunNight(ctx, kindling.Game{}, b, NightOptions{})
			if err != nil || !res.Resumed || res.Played != 4800-importChunk {
				t.Fatalf("continuing night 2: %+v %v", res, err)
			}
			got.Reset()
			if err := s.ExportLines(ctx, 0, &got); err != nil {
				t.Fatal(err)
			}
			strip := func(s string) string {
				recs, err := arena.ParseResults([]byte(s), "x")
				if err != nil {
					t.Fatal(err)
				}
				return mustJSON(t, withoutTimes(recs.Records))
			}
			if strip(got.String()) != strip(want.String()) {
				t.Fatal("the upgraded ladder's matches differ from the uninterrupted one's")
			}
			for i, rr := range res.Ratings {
				if rr.Rating != r2.Ratings[i].Rating || rr.Games != r2.Ratings[i].Games {
					t.Fatalf("night 2 rating of %s: %+v, uninterrupted %+v", rr.Label, rr, r2.Ratings[i])
				}
			}
		})
	}
}
