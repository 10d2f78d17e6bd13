package acb

import (
	"slices"
	"sync"
)

// The generated maps of recent matches, by what GenerateMap reads: the
// grid size, the cores per player, the seat count and the seed. The
// matches of a round robin on one seed all play one map, which was
// generated afresh for each (about 2% of a strategy-heavy match's CPU).
// GenerateMap is a function of these alone (its generator is seeded from
// the seed), so a map taken from here is the one it would build; each
// match gets its own copy, so nothing a match does to its map reaches
// another.
var mapCache struct {
	sync.Mutex
	m map[mapKey]*Map
}

type mapKey struct {
	rows, cols, cores, players int
	seed                       uint64
}

// mapCacheLen bounds the maps kept; a full cache starts afresh.
const mapCacheLen = 64

// generatedMap returns a copy of GenerateMap(cfg, players, seed), from the
// cache when it holds that map.
func generatedMap(cfg Config, players int, seed uint64) (*Map, error) {
	k := mapKey{cfg.Rows, cfg.Cols, cfg.CoresPerPlayer, players, seed}
	mapCache.Lock()
	mp, ok := mapCache.m[k]
	mapCache.Unlock()
	if ok {
		return copyMap(mp), nil
	}
	mp, err := GenerateMap(cfg, players, seed)
	if err != nil {
		return nil, err
	}
	mapCache.Lock()
	if mapCache.m == nil || len(mapCache.m) >= mapCacheLen {
		mapCache.m = make(map[mapKey]*Map, mapCacheLen)
	}
	mapCache.m[k] = copyMap(mp)
	mapCache.Unlock()
	return mp, nil
}

func copyMap(mp *Map) *Map {
	c := *mp
	c.Walls = slices.Clone(mp.Walls)
	c.Energy = slices.Clone(mp.Energy)
	c.Cores = slices.Clone(mp.Cores)
	c.ZoneCenters = slices.Clone(mp.ZoneCenters)
	return &c
}
