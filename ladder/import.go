package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"crucible/arena"
	"crucible/arena/rating"
)

// ImportResult says what Import did.
type ImportResult struct {
	Night Night
	// Added are the entrants' versions the file brought in.
	Added   []Version
	Ratings []RatingRow
}

// sourceOf is the version a player of a results file stands for: a remote
// bot (strategy "remote") by its URL, a variant by its id, else a strategy
// at its defaults.
func sourceOf(p arena.PlayerRef) Source {
	switch {
	case p.Strategy == "remote":
		return Source{Kind: KindURL, Strategy: "remote", Content: p.Name}
	case p.VariantID != "":
		return Source{Kind: KindImported, Strategy: p.Strategy, VariantID: p.VariantID}
	}
	return Source{Kind: KindStrategy, Strategy: p.Strategy}
}

// Import brings the records of an arena results file into the ladder as
// one night of kind import, labelled label, rated as one Glicko-2 period
// of its players (with the default tunables), all in one transaction.
// Players become entrants named as in the file (a variant known only by its
// id cannot play nights until added with its file); a player whose name is
// an entrant playing something else is an error. source (the file's name
// and hash) is kept with the night. The records must be of the ladder's
// game, with unique job ids.
func (s *Store) Import(ctx context.Context, recs []arena.Record, label, source string) (ImportResult, error) {
	var res ImportResult
	if label == "" {
		return res, errors.New("import label: empty")
	}
	if len(recs) == 0 {
		return res, errors.New("import: the file holds no result")
	}
	info, err := s.Info(ctx)
	if err != nil {
		return res, err
	}
	seen := map[string]int{}
	for i, r := range recs {
		if r.Game != info.Game {
			return res, fmt.Errorf("record %d (job %s): game %s, but the ladder plays %s", i+1, r.Job, r.Game, info.Game)
		}
		if j, ok := seen[r.Job]; ok {
			return res, fmt.Errorf("record %d: job %s is also record %d; a night holds each job once", i+1, r.Job, j)
		}
		seen[r.Job] = i + 1
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if open, ok, err := s.openNight(ctx, tx); err != nil {
			return err
		} else if ok {
			return fmt.Errorf("night %s is open; finish it (crucible ladder run) before importing", open.Label)
		}
		var exists int
		if err := tx.QueryRowContext(ctx, s.rebind("SELECT COUNT(*) FROM nights WHERE label = ?"), label).Scan(&exists); err != nil {
			return err
		}
		if exists > 0 {
			return fmt.Errorf("import label %s: a night of that name exists (the file was imported already?)", label)
		}
		ids := map[string]int64{}
		fps := map[string]string{}
		var order []int64
		for _, r := range recs {
			for _, p := range r.Players {
				src := sourceOf(p)
				if fp, ok := fps[p.Name]; ok {
					if fp != src.Fingerprint() {
						return fmt.Errorf("player %s (job %s) plays %s, but %s in an earlier record", p.Name, r.Job, src.Fingerprint(), fp)
					}
					continue
				}
				fps[p.Name] = src.Fingerprint()
				cur, err := s.currentVersion(ctx, tx, p.Name)
				if err == nil && cur.Fingerprint != src.Fingerprint() {
					return fmt.Errorf("player %s (job %s): the ladder's entrant %s plays %s, the file's plays %s", p.Name, r.Job, p.Name, cur.Fingerprint, src.Fingerprint())
				}
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					return err
				}
				add, err := s.add(ctx, tx, p.Name, src)
				if err != nil {
					return fmt.Errorf("player %s (job %s): %w", p.Name, r.Job, err)
				}
				if add.Created {
					res.Added = append(res.Added, add.Version)
				}
				ids[p.Name] = add.Version.ID
				order = append(order, add.Version.ID)
			}
		}
		id, err := s.nextID(ctx, tx, "nights")
		if err != nil {
			return err
		}
		n := Night{ID: id, Label: label, Kind: KindImport, StartedAt: now(), GameConfig: recs[0].Config,
			Config:      NightConfig{Glicko2: *rating.Default(), Versions: order, Source: source, ChunkSize: importChunk},
			CodeVersion: CodeVersion(), Planned: len(recs)}
		if err := s.insertNight(ctx, tx, n); err != nil {
			return err
		}
		var rows []chunkRow
		for first := 0; first < len(recs); first += importChunk {
			part := recs[first:min(first+importChunk, len(recs))]
			entries := make([]entry, len(part))
			for i, r := range part {
				seats := make([]int64, len(r.Players))
				for k, p := range r.Players {
					seats[k] = ids[p.Name]
				}
				entries[i] = entry{rec: r, played: true, versions: seats}
			}
			row, err := encodeChunk(first/importChunk, first, entries, "")
			if err != nil {
				return fmt.Errorf("import %s: %w", label, err)
			}
			rows = append(rows, row)
		}
		if err := s.insertChunks(ctx, tx, id, rows); err != nil {
			return err
		}
		if res.Ratings, err = s.closeNight(ctx, tx, info, n, "imported from "+source); err != nil {
			return err
		}
		res.Night, err = scanNight(tx.QueryRowContext(ctx, s.rebind("SELECT "+nightCols+" FROM nights WHERE id = ?"), id))
		return err
	})
	return res, err
}
