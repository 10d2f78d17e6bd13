package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"crucible/engine"
)

// Info describes a ladder: its game and the seed its nights derive theirs
// from.
type Info struct {
	Game      string `json:"game"`
	Seed      uint64 `json:"seed"`
	CreatedAt string `json:"created_at"`
}

// ErrNotInitialized is returned when a ladder's database has no ladder yet.
var ErrNotInitialized = errors.New("the database holds no ladder yet (run crucible ladder init --game acb|kindling)")

// Init makes the database a ladder of game with the given seed, and opens
// its first season. A database already holding a ladder of the same game
// is left as it is (ok is false); another game is an error.
func (s *Store) Init(ctx context.Context, game string, seed uint64) (ok bool, err error) {
	if game == "" {
		return false, errors.New("game: empty (acb or kindling)")
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		info, err := s.info(ctx, tx)
		if err == nil {
			if info.Game != game {
				return fmt.Errorf("game %s: the ladder in %s plays %s", game, s.where, info.Game)
			}
			return nil
		}
		if !errors.Is(err, ErrNotInitialized) {
			return err
		}
		t := now()
		if _, err := tx.ExecContext(ctx, s.rebind("INSERT INTO ladder (id, game, seed, created_at) VALUES (1, ?, ?, ?)"), game, int64(seed), t); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind("INSERT INTO seasons (id, name, started_at) VALUES (1, ?, ?)"), "season 1", t); err != nil {
			return err
		}
		ok = true
		return nil
	})
	return ok, err
}

// Info returns the ladder's description, or ErrNotInitialized.
func (s *Store) Info(ctx context.Context) (Info, error) { return s.info(ctx, s.db) }

func (s *Store) info(ctx context.Context, q querier) (Info, error) {
	var in Info
	var seed int64
	err := q.QueryRowContext(ctx, "SELECT game, seed, created_at FROM ladder WHERE id = 1").Scan(&in.Game, &seed, &in.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Info{}, fmt.Errorf("%s: %w", s.where, ErrNotInitialized)
	}
	in.Seed = uint64(seed)
	return in, err
}

// Kinds of version.
const (
	// KindStrategy is a strategy at its defaults.
	KindStrategy = "strategy"
	// KindVariant is a variant file's content.
	KindVariant = "variant"
	// KindURL is a remote AI Code Battle bot.
	KindURL = "url"
	// KindImported is a player known only from imported results (a
	// variant whose file was not given): it cannot be played.
	KindImported = "imported"
)

// Source is what a version plays.
type Source struct {
	// Kind is KindStrategy, KindVariant, KindURL or KindImported.
	Kind string
	// Strategy is the strategy's name ("remote" for a URL).
	Strategy string
	// VariantID is the variant's id (KindVariant, KindImported).
	VariantID string
	// Content is the variant file (KindVariant) or the URL (KindURL).
	Content string
}

// Fingerprint identifies what the source plays: adding an entrant again
// with the same fingerprint changes nothing. A variant's is its id (a hash
// of game, base and parameters), so its note or parents do not matter.
func (src Source) Fingerprint() string {
	switch src.Kind {
	case KindVariant, KindImported:
		if src.VariantID != "" {
			return "variant:" + src.VariantID
		}
	case KindURL:
		return "url:" + src.Content
	}
	return "strategy:" + src.Strategy
}

// check says what a source lacks.
func (src Source) check() error {
	switch src.Kind {
	case KindStrategy:
		if src.Strategy == "" {
			return errors.New("strategy: empty")
		}
	case KindVariant:
		if src.Strategy == "" || src.VariantID == "" || src.Content == "" {
			return fmt.Errorf("variant: needs its strategy, id and content (got strategy %q, id %q, %d bytes)", src.Strategy, src.VariantID, len(src.Content))
		}
	case KindURL:
		if src.Content == "" {
			return errors.New("url: empty")
		}
	case KindImported:
		if src.Strategy == "" {
			return errors.New("imported player: no strategy")
		}
	default:
		return fmt.Errorf("kind %q is not one of strategy, variant, url, imported", src.Kind)
	}
	return nil
}

// Version is one version of an entrant.
type Version struct {
	ID      int64  `json:"id"`
	Entrant string `json:"entrant"`
	// Number counts the entrant's versions from 1.
	Number int `json:"number"`
	// Label is the name the version plays under in matches and ratings:
	// the entrant's name for version 1, name@vN after.
	Label       string `json:"label"`
	Kind        string `json:"kind"`
	Strategy    string `json:"strategy"`
	VariantID   string `json:"variant,omitempty"`
	Content     string `json:"content,omitempty"`
	Fingerprint string `json:"fingerprint"`
	AddedAt     string `json:"added_at"`
}

// Source returns what the version plays.
func (v Version) Source() Source {
	return Source{Kind: v.Kind, Strategy: v.Strategy, VariantID: v.VariantID, Content: v.Content}
}

// labelOf is the label of version n of entrant name.
func labelOf(name string, n int) string {
	if n == 1 {
		return name
	}
	return name + "@v" + strconv.Itoa(n)
}

// nameRE is what an entrant added by hand may be called: a letter or digit,
// then letters, digits and . _ - # + : / (no @, which labels versions, and
// no spaces or commas).
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._#+:/-]*$`)

// CheckName says why name cannot name an entrant, or nil.
func CheckName(name string) error {
	if len(name) > 200 {
		return fmt.Errorf("name %.20q...: longer than 200 bytes", name)
	}
	if !nameRE.MatchString(name) {
		return fmt.Errorf("name %q: use letters, digits and . _ - # + : / (starting with a letter or digit)", name)
	}
	return nil
}

// AddResult says what Add did.
type AddResult struct {
	Version Version
	// Created is true when a new entrant or a new version was added, false
	// when the entrant already played this content.
	Created bool
	// Restored is true when a removed entrant came back.
	Restored bool
}

// Add adds entrant name playing src, or a new version of it when its
// current version plays something else (the old versions stay). A removed
// entrant added again comes back.
func (s *Store) Add(ctx context.Context, name string, src Source) (AddResult, error) {
	if err := CheckName(name); err != nil {
		return AddResult{}, err
	}
	var res AddResult
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = s.add(ctx, tx, name, src)
		return err
	})
	return res, err
}

// add is Add inside tx, without the name check (imports bring names from
// results files).
func (s *Store) add(ctx context.Context, tx *sql.Tx, name string, src Source) (AddResult, error) {
	if err := src.check(); err != nil {
		return AddResult{}, fmt.Errorf("entrant %s: %w", name, err)
	}
	if _, err := s.info(ctx, tx); err != nil {
		return AddResult{}, err
	}
	var res AddResult
	t := now()
	var removed sql.NullString
	err := tx.QueryRowContext(ctx, s.rebind("SELECT removed_at FROM entrants WHERE name = ?"), name).Scan(&removed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, s.rebind("INSERT INTO entrants (name, added_at) VALUES (?, ?)"), name, t); err != nil {
			return res, err
		}
	case err != nil:
		return res, err
	case removed.Valid:
		if _, err := tx.ExecContext(ctx, s.rebind("UPDATE entrants SET removed_at = NULL WHERE name = ?"), name); err != nil {
			return res, err
		}
		res.Restored = true
	}
	cur, err := s.currentVersion(ctx, tx, name)
	switch {
	case err == nil && cur.Fingerprint == src.Fingerprint() && cur.Kind == KindImported && src.Kind == KindVariant:
		// A variant known from imported results gets its file: same play,
		// now playable.
		if _, err := tx.ExecContext(ctx, s.rebind("UPDATE versions SET kind = ?, content = ? WHERE id = ?"), src.Kind, src.Content, cur.ID); err != nil {
			return res, err
		}
		cur.Kind, cur.Content = src.Kind, src.Content
		res.Version, res.Created = cur, true
		return res, nil
	case err == nil && cur.Fingerprint == src.Fingerprint():
		res.Version = cur
		return res, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return res, err
	}
	if r, err := s.runningRace(ctx, tx, name); err != nil || r != 0 {
		if err == nil {
			err = fmt.Errorf("entrant %s has race %d of candidate versions running; a new version waits for its verdict (crucible ladder standings shows it)", name, r)
		}
		return res, err
	}
	v, err := s.insertVersion(ctx, tx, name, src)
	if err != nil {
		return res, err
	}
	res.Version, res.Created = v, true
	return res, nil
}

// insertVersion appends a version of entrant name playing src, numbered
// after every version it has had (race candidates included).
func (s *Store) insertVersion(ctx context.Context, tx *sql.Tx, name string, src Source) (Version, error) {
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, s.rebind("SELECT MAX(number) FROM versions WHERE entrant = ?"), name).Scan(&last); err != nil {
		return Version{}, err
	}
	number := int(last.Int64) + 1
	id, err := s.nextID(ctx, tx, "versions")
	if err != nil {
		return Version{}, err
	}
	t := now()
	v := Version{ID: id, Entrant: name, Number: number, Label: labelOf(name, number), Kind: src.Kind,
		Strategy: src.Strategy, VariantID: src.VariantID, Content: src.Content, Fingerprint: src.Fingerprint(), AddedAt: t}
	_, err = tx.ExecContext(ctx, s.rebind(`INSERT INTO versions (id, entrant, number, label, kind, strategy, variant_id, content, fingerprint, added_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		v.ID, v.Entrant, v.Number, v.Label, v.Kind, v.Strategy, v.VariantID, v.Content, v.Fingerprint, v.AddedAt)
	if err != nil {
		return Version{}, fmt.Errorf("entrant %s: adding version %d (label %s): %w", name, number, v.Label, err)
	}
	return v, nil
}

const versionCols = "id, entrant, number, label, kind, strategy, variant_id, content, fingerprint, added_at"

func scanVersion(row interface{ Scan(...any) error }) (Version, error) {
	var v Version
	err := row.Scan(&v.ID, &v.Entrant, &v.Number, &v.Label, &v.Kind, &v.Strategy, &v.VariantID, &v.Content, &v.Fingerprint, &v.AddedAt)
	return v, err
}

// scanVersions reads the versions of a query's rows, given with the
// query's error, and closes them.
func scanVersions(rows *sql.Rows, err error) ([]Version, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// currentVersion is the entrant's newest version that is not a race
// candidate still racing or retired (sql.ErrNoRows if none).
func (s *Store) currentVersion(ctx context.Context, q querier, name string) (Version, error) {
	return scanVersion(q.QueryRowContext(ctx, s.rebind("SELECT "+versionCols+" FROM versions WHERE entrant = ? AND "+notCandidate("id")+" ORDER BY number DESC LIMIT 1"), name))
}

// Remove takes entrant name out of the coming nights; its versions, matches
// and ratings stay, and adding it again brings it back.
func (s *Store) Remove(ctx context.Context, name string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var removed sql.NullString
		err := tx.QueryRowContext(ctx, s.rebind("SELECT removed_at FROM entrants WHERE name = ?"), name).Scan(&removed)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("entrant %q is not in the ladder", name)
		}
		if err != nil {
			return err
		}
		if removed.Valid {
			return fmt.Errorf("entrant %q was already removed at %s", name, removed.String)
		}
		_, err = tx.ExecContext(ctx, s.rebind("UPDATE entrants SET removed_at = ? WHERE name = ?"), now(), name)
		return err
	})
}

// Entrant is one entrant with its current version.
type Entrant struct {
	Name      string  `json:"name"`
	AddedAt   string  `json:"added_at"`
	RemovedAt string  `json:"removed_at,omitempty"`
	Current   Version `json:"current"`
	// Versions is the number of versions it has had (race candidates
	// included).
	Versions int `json:"versions"`
}

// Entrants lists the entrants by name; removed ones only when all is set.
func (s *Store) Entrants(ctx context.Context, all bool) ([]Entrant, error) {
	q := "SELECT name, added_at, removed_at FROM entrants"
	if !all {
		q += " WHERE removed_at IS NULL"
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY name")
	if err != nil {
		return nil, err
	}
	var out []Entrant
	for rows.Next() {
		var e Entrant
		var removed sql.NullString
		if err := rows.Scan(&e.Name, &e.AddedAt, &removed); err != nil {
			rows.Close()
			return nil, err
		}
		e.RemovedAt = removed.String
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Current, err = s.currentVersion(ctx, s.db, out[i].Name); err != nil {
			return nil, fmt.Errorf("entrant %s: %w", out[i].Name, err)
		}
		if err := s.db.QueryRowContext(ctx, s.rebind("SELECT COUNT(*) FROM versions WHERE entrant = ?"), out[i].Name).Scan(&out[i].Versions); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Versions lists every version of entrant name, oldest first.
func (s *Store) Versions(ctx context.Context, name string) ([]Version, error) {
	out, err := scanVersions(s.db.QueryContext(ctx, s.rebind("SELECT "+versionCols+" FROM versions WHERE entrant = ? ORDER BY number"), name))
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("entrant %q is not in the ladder", name)
	}
	return out, nil
}

// allVersions maps every version id to its version.
func (s *Store) allVersions(ctx context.Context, q querier) (map[int64]Version, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+versionCols+" FROM versions")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]Version{}
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out[v.ID] = v
	}
	return out, rows.Err()
}

// checkGame refuses a game other than the ladder's.
func checkGame(info Info, g engine.Game) error {
	if g.Name() != info.Game {
		return fmt.Errorf("game %s: the ladder plays %s", g.Name(), info.Game)
	}
	return nil
}
