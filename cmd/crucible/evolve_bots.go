package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"crucible/arena"
	"crucible/bots"
	"crucible/engine"
	"crucible/strategies"
)

// ChampionBotFile is the manifest of the champion of an evolve run whose
// base is an outside bot: the bot's manifest with every value filled in,
// ready for crucible ladder add --bot and for deployment as it is.
const ChampionBotFile = "champion-bot.json"

// evolveBot is the outside bot an evolve run searches: its manifest and
// the session that runs its candidates' processes.
type evolveBot struct {
	manifest *bots.Manifest
	session  *botSession
}

// botStrategy is the manifest as a strategy the evolver searches: its
// parameters are the schema, with the manifest's values as the defaults
// (so the base is the manifest's own variant), and each genome's player
// is a process of the variant with those values, started through the
// games table (the variant's id is the manifest's, see bots.Variant). A
// process that cannot start fails the match, and the reason goes to warn.
func botStrategy(ctx context.Context, bs *botSession, m *bots.Manifest, warn io.Writer) (strategies.Strategy, error) {
	h, err := bs.host()
	if err != nil {
		return strategies.Strategy{}, err
	}
	schema := slices.Clone(m.Params)
	own := m.Genome()
	for i := range schema {
		schema[i].Default = own[i]
	}
	var mu sync.Mutex
	entrants := map[string]arena.Entrant{}
	var reported bool
	entrant := func(g strategies.Genome) (arena.Entrant, error) {
		v := m.Variant(g)
		mu.Lock()
		defer mu.Unlock()
		if e, ok := entrants[v.ID]; ok {
			return e, nil
		}
		e, err := labGames.Bot(h, v, v.Label())
		if err == nil {
			entrants[v.ID] = e
		}
		return e, err
	}
	return strategies.Strategy{
		Game: m.Game, Name: m.Name, Schema: schema,
		Description: "outside bot " + strings.Join(m.Command, " ") + " in " + m.WorkDir(),
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			e, err := entrant(g)
			var p engine.Player
			if err == nil {
				p, err = e.New(ctx, seed, seat)
			}
			if err != nil {
				mu.Lock()
				if !reported && ctx.Err() == nil {
					fmt.Fprintf(warn, "crucible: bot %s: %v\n", m.Name, err)
					reported = true
				}
				mu.Unlock()
				return nil
			}
			return p
		},
	}, nil
}

// resolveEvolveBase turns an --base that names a bot manifest into the
// strategy the evolver searches, registered with the lab's strategies,
// and returns the registry, the base's name and the bot (nil for a
// built-in base, which passes through). A bot whose name is a built-in
// strategy's is refused.
func resolveEvolveBase(ctx context.Context, reg *strategies.Registry, game, base, out string, warn io.Writer) (*strategies.Registry, string, *evolveBot, error) {
	if !strings.HasSuffix(base, ".json") || !isManifestFile(base) {
		return reg, base, nil, nil
	}
	m, err := loadManifest(game, base)
	if err != nil {
		return nil, "", nil, fmt.Errorf("--base: %w", err)
	}
	if len(m.Params) == 0 {
		return nil, "", nil, fmt.Errorf("--base %s: the bot declares no params, so there is nothing to search", base)
	}
	if err := m.CheckRunnable(); err != nil {
		return nil, "", nil, fmt.Errorf("--base: %w", err)
	}
	if _, err := reg.Lookup(game, m.Name); err == nil {
		return nil, "", nil, fmt.Errorf("--base %s: the bot's name %q is a built-in strategy's; rename the bot (its manifest's name)", base, m.Name)
	}
	bs := newBotSession(filepath.Join(filepath.Clean(out)+"-bots"), warn)
	s, err := botStrategy(ctx, bs, m, warn)
	if err != nil {
		return nil, "", nil, err
	}
	var all []strategies.Strategy
	for _, g := range labGames.Names() {
		all = append(all, reg.List(g)...)
	}
	reg2, err := strategies.NewRegistry(append(all, s)...)
	if err != nil {
		return nil, "", nil, err
	}
	return reg2, m.Name, &evolveBot{manifest: m, session: bs}, nil
}

// writeChampion writes the champion of a bot's run as a manifest beside
// the run's other files.
func (b *evolveBot) writeChampion(out string, champion strategies.Variant) (string, error) {
	g, err := b.manifest.Params.FromMap(champion.Params)
	if err != nil {
		return "", fmt.Errorf("the champion's values: %w", err)
	}
	path := filepath.Join(out, ChampionBotFile)
	if err := b.manifest.Variant(g).Write(path); err != nil {
		return "", err
	}
	return path, nil
}
