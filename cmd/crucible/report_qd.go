package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"crucible/evolver/qd"
	"crucible/reports"
)

// archivePage reads the MAP-Elites archive of a run directory for the
// report; nil when the run has none.
func archivePage(dir string) (*reports.Archive, error) {
	a, err := qd.Read(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := &reports.Archive{Bins: a.Bins, Offset: qd.Offset}
	for _, d := range a.Descriptors {
		out.Axes = append(out.Axes, reports.ArchiveAxis{Name: d.Name, Doc: d.Doc, Lo: d.Lo, Hi: d.Hi})
	}
	for _, e := range a.Elites {
		names := make([]string, 0, len(e.Params))
		for n := range e.Params {
			names = append(names, n)
		}
		sort.Strings(names)
		var ps []string
		for _, n := range names {
			ps = append(ps, fmt.Sprintf("%s %.4g", n, e.Params[n]))
		}
		out.Elites = append(out.Elites, reports.ArchiveElite{Cell: e.Cell, Label: a.Base + "#" + e.ID,
			File: filepath.Join(dir, qd.ElitesDir, qd.EliteFile(e)), Fitness: e.Fitness,
			Behaviour: e.Behaviour, Params: strings.Join(ps, ", "), Generation: e.Generation})
	}
	for _, s := range a.History {
		out.History = append(out.History, reports.ArchiveStat{Generation: s.Generation, Filled: s.Filled, Coverage: s.Coverage, QDScore: s.QDScore, Best: s.Best})
	}
	return out, nil
}
