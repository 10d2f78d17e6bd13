package main

import (
	"fmt"
	"strings"

	"crucible/arena"
	"crucible/games"
	"crucible/ladder"
	"crucible/queue"
)

// ladderBotSource is the source of ladder add --bot FILE: the manifest's
// own variant, stored as a variant whose content is the manifest with
// every value filled in and its folder absolute (written from "/"), so
// that a night on this machine starts it wherever it runs from.
func ladderBotSource(game, path string) (ladder.Source, error) {
	m, err := loadManifest(game, path)
	if err != nil {
		return ladder.Source{}, fmt.Errorf("--bot: %w", err)
	}
	if err := m.CheckRunnable(); err != nil {
		return ladder.Source{}, fmt.Errorf("--bot: %w", err)
	}
	v := m.Own()
	data, err := storedManifest(v)
	if err != nil {
		return ladder.Source{}, fmt.Errorf("--bot: %w", err)
	}
	return ladder.Source{Kind: ladder.KindVariant, Strategy: m.Name, VariantID: v.ID, Content: data}, nil
}

// ladderBotEntrant is the entrant of a stored bot manifest, named by the
// version's label; its command and files must be on this machine.
func ladderBotEntrant(bs *botSession, game string, ver ladder.Version) (arena.Entrant, error) {
	m, err := parseStored(ver.Content, ver.Label)
	if err != nil {
		return arena.Entrant{}, err
	}
	if m.Game != game {
		return arena.Entrant{}, fmt.Errorf("%s: a bot of game %s in a ladder of %s", ver.Label, m.Game, game)
	}
	if err := m.CheckRunnable(); err != nil {
		return arena.Entrant{}, fmt.Errorf("%s: %w", ver.Label, err)
	}
	h, err := bs.host()
	if err != nil {
		return arena.Entrant{}, fmt.Errorf("%s: %w", ver.Label, err)
	}
	return labGames.Bot(h, m.Own(), ver.Label)
}

// ladderBotLogDir is the folder of the bot logs of a ladder's nights:
// beside a SQLite file, else a folder of its own.
func ladderBotLogDir(db string) string {
	if db == "" || ladder.IsPostgres(db) {
		return matchBotLogDir()
	}
	return botLogDir(strings.TrimPrefix(db, "sqlite:"))
}

// workerGames is the table of games as a queue worker sees it: it also
// starts outside bots from their stored manifests, on this machine, in
// the worker's bot session.
type workerGames struct {
	*games.Table
	bots *botSession
}

var _ queue.BotGames = workerGames{}

// Bot starts the bot of a stored manifest (see queue.BotGames): its
// command and files must be on this machine at the place the manifest
// names, or the error says which is missing.
func (w workerGames) Bot(game, manifest, name string) (arena.Entrant, error) {
	m, err := parseStored(manifest, name)
	if err != nil {
		return arena.Entrant{}, err
	}
	if m.Game != game {
		return arena.Entrant{}, fmt.Errorf("%s: a bot of game %s in a run of %s", name, m.Game, game)
	}
	if err := m.CheckRunnable(); err != nil {
		return arena.Entrant{}, fmt.Errorf("this worker cannot start %s: %w", name, err)
	}
	h, err := w.bots.host()
	if err != nil {
		return arena.Entrant{}, err
	}
	return w.Table.Bot(h, m.Own(), name)
}
