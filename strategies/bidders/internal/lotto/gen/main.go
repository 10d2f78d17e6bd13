// Command gen writes the lotto package's table: the equilibrium of every
// one-beacon contest of the grid (see package lotto). `go generate
// ./strategies/bidders/internal/lotto` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"crucible/internal/atomicfile"
	"crucible/strategies/bidders/internal/lotto"
)

func main() {
	out := flag.String("out", "table.bin", "file to write")
	verbose := flag.Bool("v", false, "report each lead as it is solved")
	flag.Parse()
	data := lotto.Generate(func(lead int) {
		if *verbose {
			fmt.Fprintf(os.Stderr, "lead %+d solved\n", lead)
		}
	})
	if err := atomicfile.WriteFile(*out, data); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
