package main

import (
	"errors"
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
// of an earlier version, recomputed) go to warn.
func resolvePlayers(reg *strategies.Registry, game, spec, secret string, warn io.Writer) ([]arena.Entrant, error) {
	var out []arena.Entrant
	seen := map[string]bool{}
	for _, arg := range strings.Split(spec, ",") {
		arg = strings.TrimSpace(arg)
		if arg == "" {
			return nil, fmt.Errorf("players %q has an empty item", spec)
		}
		es, err := resolvePlayer(reg, game, arg, secret, warn)
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
//	FILE.json    a variant file (named base#id, see strategies.Variant)
//	http://HOST:PORT  a remote bot of a game that has them (named by its
//	             URL), signed with secret (default: from the environment)
//
// An unknown strategy is an error that lists the known ones.
func resolvePlayer(reg *strategies.Registry, game, arg, secret string, warn io.Writer) ([]arena.Entrant, error) {
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

// otherGameError is loadVariant's error for a variant of another game.
type otherGameError struct{ got, want string }

func (e *otherGameError) Error() string {
	return fmt.Sprintf("a variant of game %s, but the game played is %s", e.got, e.want)
}

// loadVariant reads a variant file of game and resolves it (the one way the
// commands read a variant file: a hand-written file may leave out the id
// and any parameter, which take their computed value and defaults): every
// parameter known and legal, its id that of its full genome. The notice of
// an id computed by an earlier version goes to warn (nil: dropped).
func loadVariant(reg *strategies.Registry, game, path string, warn io.Writer) (strategies.Resolved, error) {
	v, err := strategies.LoadVariant(path)
	if err != nil {
		return strategies.Resolved{}, err
	}
	if v.Game != game {
		return strategies.Resolved{}, &otherGameError{got: v.Game, want: game}
	}
	r, err := reg.Check(v)
	if err != nil {
		return strategies.Resolved{}, err
	}
	if r.Notice != "" && warn != nil {
		fmt.Fprintf(warn, "warning: %s: %s\n", path, r.Notice)
	}
	return r, nil
}

// strategyOrVariant resolves the --strategy NAME / --variant FILE pair of a
// command that plays one player of game (exactly one of the two is given)
// to the strategy, its genome and a display label. hint says what to do with
// a variant of the other game.
func strategyOrVariant(reg *strategies.Registry, game, strategy, variant, hint string) (strategies.Strategy, strategies.Genome, string, error) {
	switch {
	case strategy != "" && variant != "":
		return strategies.Strategy{}, nil, "", errors.New("give --strategy or --variant, not both")
	case strategy != "":
		s, err := reg.Lookup(game, strategy)
		if err != nil {
			return strategies.Strategy{}, nil, "", err
		}
		return s, s.Schema.Defaults(), s.Name, nil
	case variant != "":
		r, err := loadVariant(reg, game, variant, nil)
		if err != nil {
			var other *otherGameError
			if errors.As(err, &other) {
				return strategies.Strategy{}, nil, "", fmt.Errorf("variant %s is for game %s; %s", variant, other.got, hint)
			}
			return strategies.Strategy{}, nil, "", err
		}
		return r.Strategy, r.Genome, r.Variant.Label(), nil
	}
	return strategies.Strategy{}, nil, "", errors.New("give --strategy NAME or --variant FILE")
}

// remoteEntrant is the arena entrant of the remote bot at url for game,
// through the games table (a game without remote bots is refused, saying
// where its bots play).
func remoteEntrant(game, url, secret string) (arena.Entrant, error) {
	g, err := games.Lookup(game)
	if err != nil {
		return arena.Entrant{}, err
	}
	if g.Remote == nil {
		return arena.Entrant{}, fmt.Errorf("player %s: the arena calls remote bots of %s only; %s", url, strings.Join(games.Remote(), ", "), g.Elsewhere)
	}
	return g.Remote(url, secret)
}
