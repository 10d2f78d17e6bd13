// Package qd is the archive of a quality-diversity search (MAP-Elites):
// a grid of cells over behaviour descriptors, each cell holding its best
// variant, with the statistics pyribs reports (coverage, QD-score, best),
// and its files in a run directory (ArchiveFile, ElitesDir). The evolver's
// map-elites algorithm fills it; reports read it back (Read).
package qd

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"crucible/evolver/behave"
	"crucible/internal/atomicfile"
	"crucible/strategies"
)

// Files of a MAP-Elites run, beside the search's.
const (
	// ArchiveFile holds the archive (Archive) after the latest generation.
	ArchiveFile = "archive.json"
	// ElitesDir holds each elite of the archive as a variant file.
	ElitesDir = "elites"
	// Kind is the format of ArchiveFile.
	Kind = "crucible-qd-archive/1"
)

// Offset is added to every elite's fitness in the QD-score so that each
// term is non-negative, as pyribs' qd_score offsets its objectives: a
// fitness is a seed-adjusted score rate, which may stray below 0 but not
// below -1.
const Offset = 1.0

// Elite is the best variant found in one cell of the archive.
type Elite struct {
	// Cell is the cell's index on each descriptor's axis, from 0.
	Cell []int `json:"cell"`
	// ID, X and Params are the variant: its id, its point in the
	// normalised space and its parameters.
	ID     string             `json:"id"`
	X      []float64          `json:"x"`
	Params map[string]float64 `json:"params"`
	// Fitness is its fitness when it entered the cell (or when it was last
	// measured there).
	Fitness float64 `json:"fitness"`
	// Behaviour is its descriptors' values, in the archive's order, from
	// Counts, the behaviour measured over all its matches so far.
	Behaviour []float64     `json:"behaviour"`
	Counts    behave.Counts `json:"counts"`
	// Generation is the generation it was measured in; Parents are the
	// elites it was bred from.
	Generation int      `json:"generation"`
	Parents    []string `json:"parents,omitempty"`
}

// Stats describe the archive after one generation, as pyribs' archive
// statistics do.
type Stats struct {
	Generation int `json:"generation"`
	// Filled is the number of cells holding an elite and Coverage its
	// share of the cells.
	Filled   int     `json:"filled"`
	Coverage float64 `json:"coverage"`
	// QDScore is the sum over filled cells of fitness + Offset.
	QDScore float64 `json:"qd_score"`
	// Best is the best elite's fitness (pyribs' obj_max) and BestID its id.
	Best   float64 `json:"best"`
	BestID string  `json:"best_id"`
	// New, Improved, Remeasured and Unplaced count the generation's
	// distinct proposals that filled an empty cell, replaced a worse
	// elite, were elites measured again (and placed anew by their
	// behaviour over all their matches: in their cell, another, or out of
	// the archive when a better elite holds the cell they now fall in), or
	// had no behaviour measured (and could not be placed).
	New        int `json:"new"`
	Improved   int `json:"improved"`
	Remeasured int `json:"remeasured,omitempty"`
	Unplaced   int `json:"unplaced,omitempty"`
}

// Archive is a MAP-Elites grid archive: each descriptor's range cut into
// Bins equal cells (a value outside the range falls into the edge cell),
// each cell holding its best variant.
type Archive struct {
	Format      string              `json:"format"`
	Game        string              `json:"game"`
	Base        string              `json:"base"`
	Descriptors []behave.Descriptor `json:"descriptors"`
	Bins        int                 `json:"bins"`
	// Elites are the filled cells' elites, in cell order.
	Elites []Elite `json:"elites"`
	// History has one line per generation.
	History []Stats `json:"history"`
}

// Cells is the number of cells of the grid.
func (a *Archive) Cells() int {
	n := 1
	for range a.Descriptors {
		n *= a.Bins
	}
	return n
}

// CellOf returns the cell of the descriptor values v.
func (a *Archive) CellOf(v []float64) []int {
	cell := make([]int, len(a.Descriptors))
	for i, d := range a.Descriptors {
		f := (v[i] - d.Lo) / (d.Hi - d.Lo)
		k := int(math.Floor(f * float64(a.Bins)))
		if math.IsNaN(f) || k < 0 {
			k = 0
		}
		cell[i] = min(k, a.Bins-1)
	}
	return cell
}

// Insertion results.
const (
	Rejected = iota // the cell holds a better (or equal) elite
	Added           // the cell was empty
	Improved        // the elite replaced a worse one
)

// Insert offers e to its cell (e.Cell is set from e.Behaviour): it enters
// an empty cell (Added) or replaces an elite of lower fitness (Improved);
// otherwise the archive is unchanged (Rejected). A variant already in the
// archive is removed first (Remove) by the caller (Remove).
func (a *Archive) Insert(e Elite) int {
	e.Cell = a.CellOf(e.Behaviour)
	i := sort.Search(len(a.Elites), func(i int) bool { return !cellLess(a.Elites[i].Cell, e.Cell) })
	if i < len(a.Elites) && equalCell(a.Elites[i].Cell, e.Cell) {
		old := &a.Elites[i]
		if e.Fitness <= old.Fitness {
			return Rejected
		}
		*old = e
		return Improved
	}
	a.Elites = append(a.Elites, Elite{})
	copy(a.Elites[i+1:], a.Elites[i:])
	a.Elites[i] = e
	return Added
}

// Remove takes the elite of variant id out of the archive, and reports
// whether it was there.
func (a *Archive) Remove(id string) (Elite, bool) {
	for i, e := range a.Elites {
		if e.ID == id {
			a.Elites = append(a.Elites[:i], a.Elites[i+1:]...)
			return e, true
		}
	}
	return Elite{}, false
}

func cellLess(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func equalCell(a, b []int) bool { return !cellLess(a, b) && !cellLess(b, a) }

// Stats returns coverage, QD-score and best of the archive as it is.
func (a *Archive) Stats() Stats {
	s := Stats{Filled: len(a.Elites), Best: math.Inf(-1)}
	s.Coverage = float64(s.Filled) / float64(a.Cells())
	for _, e := range a.Elites {
		s.QDScore += math.Max(0, e.Fitness+Offset)
		if e.Fitness > s.Best || (e.Fitness == s.Best && e.ID < s.BestID) {
			s.Best, s.BestID = e.Fitness, e.ID
		}
	}
	if s.Filled == 0 {
		s.Best = 0
	}
	return s
}

// String is a one-line summary of the stats.
func (s Stats) String() string {
	return fmt.Sprintf("archive: %d cells filled (coverage %.1f%%), QD-score %.2f, best %.3f (%s); %d new, %d improved, %d measured again",
		s.Filled, 100*s.Coverage, s.QDScore, s.Best, s.BestID, s.New, s.Improved, s.Remeasured)
}

// Read reads the archive of a run directory.
func Read(dir string) (*Archive, error) {
	path := filepath.Join(dir, ArchiveFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var a Archive
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if a.Format != Kind {
		return nil, fmt.Errorf("%s: format %q, expected %q", path, a.Format, Kind)
	}
	if a.Bins < 1 || len(a.Descriptors) == 0 {
		return nil, fmt.Errorf("%s: %d descriptors of %d bins", path, len(a.Descriptors), a.Bins)
	}
	return &a, nil
}

// EliteFile is the name of an elite's variant file in ElitesDir.
func EliteFile(e Elite) string {
	var b strings.Builder
	for i, c := range e.Cell {
		if i > 0 {
			b.WriteString("-")
		}
		fmt.Fprintf(&b, "%02d", c)
	}
	return "cell-" + b.String() + "-" + e.ID + ".json"
}

// Write replaces the run directory's archive file and brings its elites
// directory in line with the archive: every elite as a variant file (an
// exportable variant of the base, which variant makes), no file of a
// replaced elite. written maps the files written so far to the fitness
// their note gives, so that only new and re-measured elites are written
// again.
func (a *Archive) Write(dir string, variant func(Elite) strategies.Variant, written map[string]float64) error {
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, ArchiveFile), append(data, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", ArchiveFile, err)
	}
	ed := filepath.Join(dir, ElitesDir)
	if err := os.MkdirAll(ed, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, e := range a.Elites {
		name := EliteFile(e)
		keep[name] = true
		path := filepath.Join(ed, name)
		if f, ok := written[name]; ok && f == e.Fitness {
			continue
		}
		written[name] = e.Fitness
		v := variant(e)
		v.Note = eliteNote(a, e)
		if err := v.Save(path); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(ed)
	if err != nil {
		return err
	}
	for _, f := range entries {
		if !keep[f.Name()] {
			delete(written, f.Name())
			if err := os.Remove(filepath.Join(ed, f.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// eliteNote describes an elite in its variant file.
func eliteNote(a *Archive, e Elite) string {
	var parts []string
	for i, d := range a.Descriptors {
		parts = append(parts, fmt.Sprintf("%s %.3g", d.Name, e.Behaviour[i]))
	}
	return fmt.Sprintf("MAP-Elites elite of cell %v (%s), fitness %.3f in generation %d", e.Cell, strings.Join(parts, ", "), e.Fitness, e.Generation)
}
