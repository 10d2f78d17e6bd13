package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/games"
)

// botsHelp is the paragraph of --help that says how manifests play, shared
// by every command that takes them.
const botsHelp = `A bot manifest (a .json file with "kind": "crucible-bot/1", see the README's
"tune your own bot") is accepted wherever a strategy or variant file is: the
lab starts the bot's command itself on this machine (so its command and files
must be here), on a free loopback port with a fresh secret, waits for its
/health, reuses its processes across matches, restarts one that dies (the
restarts are reported), writes each process's output to a log file in the
run's folder, and stops every process when the run ends, on Ctrl-C, and
(on Linux) when the lab itself is killed.`

// botSession runs the outside bots of one command: a process manager
// created on the first manifest, whose log files go to one folder, closed
// (every process stopped) by Close.
type botSession struct {
	// logDir is where the process logs go, created when the first bot
	// starts.
	logDir string
	// warn receives the processes' restarts and failures and the games'
	// notices.
	warn io.Writer

	mu      sync.Mutex
	mgr     *botproc.Manager
	cleanup []func()
	// stored maps each bot entrant's name to its manifest as a queue
	// worker on another machine reads it (see storedManifest).
	stored map[string]string
}

// newBotSession returns a session whose logs go to logDir.
func newBotSession(logDir string, warn io.Writer) *botSession {
	if warn == nil {
		warn = io.Discard
	}
	return &botSession{logDir: logDir, warn: warn}
}

// botLogDir is the folder of the bot logs of a run whose results go to
// out: "runs/a.jsonl" logs to "runs/a-bots/".
func botLogDir(out string) string {
	base := strings.TrimSuffix(out, filepath.Ext(out))
	return base + "-bots"
}

// sprtBotLogDir is the folder of the bot logs of crucible sprt: beside
// --out, else a folder of its own (see matchBotLogDir).
func sprtBotLogDir(out string) string {
	if out == "" {
		return matchBotLogDir()
	}
	return botLogDir(out)
}

// matchBotLogDir is the folder of the bot logs of a command without an
// output file (crucible match): crucible-bots-<pid> in the temporary
// folder, named in the summary printed at the end.
func matchBotLogDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("crucible-bots-%d", os.Getpid()))
}

// host returns the games' view of the session, starting its process
// manager.
func (s *botSession) host() (games.BotHost, error) {
	if s == nil {
		return games.BotHost{}, fmt.Errorf("this command does not start outside bots")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mgr == nil {
		if err := os.MkdirAll(s.logDir, 0o755); err != nil {
			return games.BotHost{}, fmt.Errorf("the bots' log folder: %w", err)
		}
		m, err := botproc.New(botproc.Options{LogDir: s.logDir, Events: s.event})
		if err != nil {
			return games.BotHost{}, err
		}
		s.mgr = m
	}
	return games.BotHost{Procs: s.mgr, Warn: s.warn, OnClose: func(f func()) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.cleanup = append(s.cleanup, f)
	}}, nil
}

// event reports a process's restarts and failures on warn; starts are
// kept for the summary.
func (s *botSession) event(e botproc.Event) {
	switch e.Kind {
	case botproc.Restarted, botproc.Failed:
		fmt.Fprintf(s.warn, "crucible: %s\n", e)
	}
}

// Close stops every bot process and reports, per variant, its processes,
// restarts and start times. It is safe on a nil session and idempotent.
func (s *botSession) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	m, cleanup := s.mgr, s.cleanup
	s.cleanup = nil
	s.mu.Unlock()
	for i := len(cleanup) - 1; i >= 0; i-- {
		cleanup[i]()
	}
	if m == nil {
		return nil
	}
	stats := m.Stats()
	err := m.Close()
	s.mu.Lock()
	s.mgr = nil
	s.mu.Unlock()
	for _, st := range stats {
		ready := time.Duration(0)
		if st.Starts > 0 {
			ready = st.ReadyTotal / time.Duration(st.Starts)
		}
		fmt.Fprintf(s.warn, "bot %s: %d matches, %d processes, %d restarts, ready in %v on average (max %v); logs in %s\n",
			st.Label, st.Leases, st.Processes, st.Restarts, ready.Round(time.Millisecond), st.ReadyMax.Round(time.Millisecond), s.logDir)
	}
	return err
}

// isManifestFile reports whether path names a bot manifest (a JSON file
// whose kind is crucible-bot/...), as opposed to a variant file.
func isManifestFile(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bots.IsManifest(data)
}

// loadManifest reads the manifest at path for game.
func loadManifest(game, path string) (*bots.Manifest, error) {
	m, err := bots.Load(path, labGames.Names())
	if err != nil {
		return nil, err
	}
	if m.Game != game {
		return nil, fmt.Errorf("bot manifest %s is for game %s, but the game played is %s", path, m.Game, game)
	}
	return m, nil
}

// botEntrant is the arena entrant of the manifest at path for game (its
// own variant: defaults overridden by its values), named name#id, whose
// processes the session runs.
func botEntrant(s *botSession, game, path string) (arena.Entrant, error) {
	m, err := loadManifest(game, path)
	if err != nil {
		return arena.Entrant{}, err
	}
	if err := m.CheckRunnable(); err != nil {
		return arena.Entrant{}, err
	}
	h, err := s.host()
	if err != nil {
		return arena.Entrant{}, fmt.Errorf("bot manifest %s: %w", path, err)
	}
	v := m.Own()
	e, err := labGames.Bot(h, v, v.Label())
	if err != nil {
		return arena.Entrant{}, err
	}
	data, err := storedManifest(v)
	if err != nil {
		return arena.Entrant{}, err
	}
	s.mu.Lock()
	if s.stored == nil {
		s.stored = map[string]string{}
	}
	s.stored[e.Name] = data
	s.mu.Unlock()
	return e, nil
}

// storedManifest is the manifest of v as the lab stores it for a night or
// a queue worker: every value filled in and its folder absolute (written
// from "/"), so that it starts the same bot from any working directory of
// a machine that has the bot's files at the same place.
func storedManifest(v bots.Variant) (string, error) {
	data, err := v.Marshal(string(filepath.Separator))
	return string(data), err
}

// parseStored reads a manifest written by storedManifest, named name in
// errors.
func parseStored(data, name string) (*bots.Manifest, error) {
	return bots.Parse([]byte(data), string(filepath.Separator), name, labGames.Names())
}

// manifests returns the stored manifest of every bot entrant by name.
func (s *botSession) manifests() map[string]string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.stored))
	for k, v := range s.stored {
		out[k] = v
	}
	return out
}
