package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/internal/atomicfile"
)

// replayRef is a match whose replay an arena run may have kept as
// <dir>/<ID>.json: its job id and game.
type replayRef struct{ ID, Game string }

// viewerWriter is the page function of game's replays, from the table of
// games.
func viewerWriter(game string) (func(io.Writer, []byte) error, error) {
	g, err := labGames.Lookup(game)
	if err != nil {
		return nil, err
	}
	if g.Viewer == nil {
		return nil, fmt.Errorf("game %q has no viewer page", game)
	}
	return g.Viewer.Write, nil
}

// viewerPages gives every match of refs whose replay dir keeps
// (<dir>/<job>.json) its viewer page <dir>/<job>.html, written by the
// viewer package as crucible replay writes it. A page that exists and is
// not older than its replay is kept; the others are written atomically,
// so an interruption leaves no half page. It returns the page of every
// match that has one (by job id), how many it wrote, and a warning per
// replay that could not be shown (the others are still written). progress,
// when set, is called after each match.
func viewerPages(ctx context.Context, dir string, refs []replayRef, progress func(done, total int)) (pages map[string]string, written int, warnings []string, err error) {
	if info, err := os.Stat(dir); err != nil {
		return nil, 0, nil, fmt.Errorf("--replays: %w", err)
	} else if !info.IsDir() {
		return nil, 0, nil, fmt.Errorf("--replays %s is not a directory", dir)
	}
	pages = map[string]string{}
	for i, r := range refs {
		if err := ctx.Err(); err != nil {
			return pages, written, warnings, err
		}
		page, wrote, warning, err := viewerPage(dir, r)
		if err != nil {
			return pages, written, warnings, err
		}
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if page != "" {
			pages[r.ID] = page
		}
		if wrote {
			written++
		}
		if progress != nil {
			progress(i+1, len(refs))
		}
	}
	return pages, written, warnings, nil
}

// viewerPage brings the viewer page of one match up to date (see
// viewerPages): its path ("" when the match has no replay or the replay
// cannot be shown, which warning then says), and whether it was written.
func viewerPage(dir string, r replayRef) (page string, wrote bool, warning string, err error) {
	src := filepath.Join(dir, r.ID+".json")
	page = filepath.Join(dir, r.ID+".html")
	in, err := os.Stat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, "", nil // a failed match, or one played without --replays
	}
	if err != nil {
		return "", false, "", fmt.Errorf("--replays: %w", err)
	}
	if out, err := os.Stat(page); err == nil && !out.ModTime().Before(in.ModTime()) {
		return page, false, "", nil
	}
	write, err := viewerWriter(r.Game)
	if err != nil {
		return "", false, fmt.Sprintf("%s: %v", src, err), nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", false, "", fmt.Errorf("--replays: %w", err)
	}
	var buf bytes.Buffer
	if err := write(&buf, data); err != nil {
		return "", false, fmt.Sprintf("%s has no viewer page: %v", src, err), nil
	}
	if err := atomicfile.WriteFile(page, buf.Bytes()); err != nil {
		return "", false, "", fmt.Errorf("writing the viewer page %s: %w", page, err)
	}
	return page, true, "", nil
}

// relativeLink is the URL of target relative to the directory of the page
// at from (both file paths), as an href.
func relativeLink(from, target string) (string, error) {
	af, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	at, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(filepath.Dir(af), at)
	if err != nil {
		return "", err
	}
	return (&url.URL{Path: filepath.ToSlash(rel)}).String(), nil
}

// arenaViewerPages writes the viewer page beside every replay the arena
// run kept in --replays (those of a resumed run's earlier matches too,
// when missing) and says where they are.
func arenaViewerPages(cmd *cobra.Command, f arenaFlags, jobs []arena.Job) error {
	stderr := cmd.ErrOrStderr()
	refs := make([]replayRef, len(jobs))
	for i, j := range jobs {
		refs[i] = replayRef{ID: j.ID, Game: f.game}
	}
	bar := newProgressBar(stderr, len(refs))
	var progress func(done, total int)
	if bar != nil {
		bar.Describe("viewer pages")
		progress = func(done, _ int) { bar.Set(done) }
	}
	pages, written, warnings, err := viewerPages(cmd.Context(), f.replays, refs, progress)
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(stderr)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d viewer pages in %s (%d written now), <job>.html beside each replay; crucible report --results %s --replays %s links them\n",
		len(pages), f.replays, written, f.out, f.replays)
	return nil
}
