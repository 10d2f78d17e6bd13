package main

import (
	"fmt"
	"io"
	"strings"

	"crucible/arena"
	"crucible/games"
	"crucible/strategies"
)

// resolvePlayers turns a comma-separated players argument into arena
// entrants for game (see resolvePlayer for the forms of an item). Names must
// be unique in the result. secret is the shared secret of remote bots; when
// empty it comes from the environment. Notices about variant files (an id
// of an earlier version, recomputed) go to warn. Bot manifests start their
// processes in bs (nil: manifests are refused).
func resolvePlayers(reg *strategies.Registry, game, spec, secret string, warn io.Writer, bs *botSession) ([]arena.Entrant, error) {
	var out []arena.Entrant
	seen := map[string]bool{}
	for _, arg := range strings.Split(spec, ",") {
		arg = strings.TrimSpace(arg)
		if arg == "" {
			return nil, fmt.Errorf("players %q has an empty item", spec)
		}
		es, err := resolvePlayer(reg, game, arg, secret, warn, bs)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if seen[e.Name] {
				return nil, fmt.Errorf("player %s is listed twice in %q", e.Name, spec)
			}
			seen[e.Name] = true
			out = append(out, e)
		}
	}
	return out, nil
}

// resolvePlayer turns one player item into entrants. An item is one of:
//
//	all          every strategy of the game, at its defaults
//	NAME         one strategy at its defaults (named NAME)
//	FILE.json    a variant file (named base#id, see strategies.Variant),
//	             or a bot manifest (kind crucible-bot/1, named name#id, see
//	             bots.Variant) whose processes bs starts
//	http://HOST:PORT  a remote bot of a game that has them (named by its
//	             URL), signed with secret (default: from the environment)
//
// An unknown strategy is an error that lists the known ones.
func resolvePlayer(reg *strategies.Registry, game, arg, secret string, warn io.Writer, bs *botSession) ([]arena.Entrant, error) {
	switch {
	case arg == "":
		return nil, fmt.Errorf("empty player name")

	case arg == "all":
		list := reg.List(game)
		if len(list) == 0 {
			return nil, fmt.Errorf("game %s has no strategies yet", game)
		}
		out := make([]arena.Entrant, 0, len(list))
		for _, s := range list {
			out = append(out, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
		}
		return out, nil

	case strings.HasSuffix(arg, ".json") && isManifestFile(arg):
		e, err := botEntrant(bs, game, arg)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", arg, err)
		}
		return []arena.Entrant{e}, nil

	case strings.HasSuffix(arg, ".json"):
		r, err := loadVariant(reg, game, arg, warn)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", arg, err)
		}
		return []arena.Entrant{arena.StrategyEntrant(r.Strategy, r.Variant.Label(), r.Variant.ID, r.Genome)}, nil

	case isBotURL(arg):
		e, err := remoteEntrant(game, arg, secret)
		if err != nil {
			return nil, err
		}
		return []arena.Entrant{e}, nil

	default:
		s, err := reg.Lookup(game, arg)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", arg, err)
		}
		return []arena.Entrant{arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults())}, nil
	}
}

// loadVariant reads a variant file of game as every command does
// (games.LoadVariant); the notice of an id computed by an earlier version
// goes to warn (nil: dropped).
func loadVariant(reg *strategies.Registry, game, path string, warn io.Writer) (strategies.Resolved, error) {
	r, err := games.LoadVariant(reg, game, path)
	if err != nil {
		return strategies.Resolved{}, err
	}
	if r.Notice != "" && warn != nil {
		fmt.Fprintf(warn, "warning: %s: %s\n", path, r.Notice)
	}
	return r, nil
}

// remoteEntrant is the arena entrant of the remote bot at url for game,
// through the games table (a game without remote bots is refused, saying
// where its bots play).
func remoteEntrant(game, url, secret string) (arena.Entrant, error) {
	return labGames.Remote(game, url, secret)
}

// isBotURL reports whether a player item names a remote bot.
func isBotURL(s string) bool {
	return len(s) > 7 && (s[:7] == "http://" || (len(s) > 8 && s[:8] == "https://"))
}
