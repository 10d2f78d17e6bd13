package acb

import (
	"reflect"
	"testing"
)

// TestGeneratedMapCache: the cached map is GenerateMap's, for every seat
// count and a few sizes and seeds, on the first request and the next; and
// what a caller does to its copy leaves the next one as generated.
func TestGeneratedMapCache(t *testing.T) {
	for _, players := range []int{2, 3, 4, 6} {
		for _, seed := range []uint64{1, 77, 1 << 40} {
			cfg := DefaultConfig()
			if players > 2 {
				cfg.Rows, cfg.Cols = 48, 48
			}
			want, err := GenerateMap(cfg, players, seed)
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 2; k++ {
				got, err := generatedMap(cfg, players, seed)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%d players, seed %d, request %d: the cached map differs from GenerateMap's", players, seed, k)
				}
				got.Walls[0].Row++
				got.Energy = got.Energy[:0]
				got.Cores[0].Owner = 9
			}
		}
	}
}
