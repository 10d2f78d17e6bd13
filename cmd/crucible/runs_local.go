package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"crucible/arena"
	"crucible/evolver"
)

// maxLocalDepth is how deep runs list --local looks under its directory.
const maxLocalDepth = 4

// localRun is a run found on disk: an arena (or sprt) results file or an
// evolve run directory.
type localRun struct {
	path     string
	kind     string // "arena" or "evolve"
	game     string
	what     string // the evolve run's algorithm and base; the results' size
	status   string
	modified time.Time
}

// listLocalRuns finds the local runs under dir: results files (*.jsonl
// whose first line is a result record) and evolve run directories (with a
// checkpoint), newest first. Hidden directories are left out, and nothing
// deeper than maxLocalDepth levels.
func listLocalRuns(dir string) ([]localRun, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--local: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("--local %s is not a directory", dir)
	}
	var runs []localRun
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is not a run
		}
		rel, _ := filepath.Rel(dir, path)
		depth := strings.Count(rel, string(filepath.Separator)) + 1
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || depth > maxLocalDepth) {
				return filepath.SkipDir
			}
			m, ok, err := evolver.ReadMeta(path)
			if err != nil || !ok {
				return nil
			}
			r := localRun{path: path, kind: "evolve", game: m.Game, what: m.Algorithm + " over " + m.Base, status: "unfinished: evolve --resume continues it"}
			if _, err := os.Stat(filepath.Join(path, evolver.ReportFile)); err == nil {
				r.status = "complete"
			}
			if info, err := os.Stat(path); err == nil {
				r.modified = info.ModTime()
			}
			runs = append(runs, r)
			return filepath.SkipDir // its own files are not runs
		}
		if !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		if r, ok := localResults(path); ok {
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b localRun) int { return b.modified.Compare(a.modified) })
	return runs, nil
}

// localResults describes a results file: its game (from its first record)
// and how many result lines it holds; false when path is no results file.
func localResults(path string) (localRun, bool) {
	f, err := os.Open(path)
	if err != nil {
		return localRun{}, false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var first []byte
	for len(bytes.TrimSpace(first)) == 0 {
		if first, err = br.ReadBytes('\n'); len(bytes.TrimSpace(first)) == 0 && err != nil {
			return localRun{}, false
		}
	}
	res, perr := arena.ParseResults(first, path)
	if perr != nil || len(res.Records) != 1 {
		return localRun{}, false
	}
	lines := 1
	buf := make([]byte, 64<<10)
	for {
		n, err := br.Read(buf)
		lines += bytes.Count(buf[:n], []byte("\n"))
		if err == io.EOF {
			break
		}
		if err != nil {
			return localRun{}, false
		}
	}
	r := localRun{path: path, kind: "arena", game: res.Records[0].Game, what: fmt.Sprintf("%d result lines", lines),
		status: "crucible rate or report --results reads it"}
	if info, err := f.Stat(); err == nil {
		r.modified = info.ModTime()
	}
	return r, true
}

// writeLocalRuns prints the runs as a table.
func writeLocalRuns(w io.Writer, dir string, runs []localRun) error {
	if len(runs) == 0 {
		_, err := fmt.Fprintf(w, "no arena results files or evolve runs under %s\n", dir)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODIFIED\tKIND\tGAME\tWHAT\tSTATUS\tPATH")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.modified.Local().Format(time.DateTime), r.kind, r.game, r.what, r.status, r.path)
	}
	return tw.Flush()
}
