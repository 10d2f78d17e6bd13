package bidders

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"crucible/strategies"
)

// go test ./strategies/bidders -run TestExp -v  with EXP="name:k=v,k=v;name2" EXPSEEDS=100 EXPSEATS=2
func TestExp(t *testing.T) {
	spec := os.Getenv("EXP")
	if spec == "" {
		t.Skip()
	}
	seeds, _ := strconv.Atoi(os.Getenv("EXPSEEDS"))
	if seeds == 0 {
		seeds = 100
	}
	seats, _ := strconv.Atoi(os.Getenv("EXPSEATS"))
	if seats == 0 {
		seats = 2
	}
	field := []string{}
	for _, s := range All() {
		field = append(field, s.Name)
	}
	if f := os.Getenv("EXPFIELD"); f != "" {
		field = strings.Split(f, ";")
	}
	parse := func(cand string) (string, strategies.Genome) {
		name, kv, _ := strings.Cut(cand, ":")
		s := mustLookup(t, name)
		g := s.Schema.Defaults()
		if kv != "" {
			for _, p := range strings.Split(kv, ",") {
				k, val, _ := strings.Cut(p, "=")
				x, _ := strconv.ParseFloat(val, 64)
				g[s.Schema.Index(k)] = x
			}
		}
		return name, g
	}
	for _, cand := range strings.Split(spec, ";") {
		name, g := parse(cand)
		total, n := 0.0, 0
		line := ""
		for _, oppSpec := range field {
			opp, og := parse(oppSpec)
			w := 0.0
			for k := 0; k < seeds; k++ {
				seat := k % seats
				names := make([]string, seats)
				gs := make([]strategies.Genome, seats)
				for i := range names {
					names[i] = opp
					gs[i] = og
				}
				names[seat] = name
				gs[seat] = g
				w += winShare(play(t, uint64(k)*7919+uint64(seats), names, gs), seat)
			}
			r := w / float64(seeds)
			total += r
			n++
			line += fmt.Sprintf(" %s %.2f", opp[:min(len(opp), 12)], r)
		}
		fmt.Printf("%-40s mean %.3f |%s\n", cand, total/float64(n), line)
	}
}
