// Command bot is the program `crucible export` builds: one variant, fixed
// at link time, run as what its game's export target (see package export
// and the lab's table of games) makes of it: the AI Code Battle HTTP bot,
// the Kindling agent. It lives above the table, which imports package
// export, so that no import runs back up.
//
// The variant is the base64 of its JSON, set with
// -ldflags "-X main.variantJSON=...". Built without it, the program says so
// and exits.
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"crucible/games/lab"
	"crucible/strategies"
)

// variantJSON is the base64 of the variant's JSON, set at link time.
var variantJSON string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
}

// variant decodes the linked-in variant.
func variant() (strategies.Variant, error) {
	if variantJSON == "" {
		return strategies.Variant{}, errors.New("this binary has no variant linked in; build it with crucible export --variant FILE --out DIR")
	}
	data, err := base64.StdEncoding.DecodeString(variantJSON)
	if err != nil {
		return strategies.Variant{}, fmt.Errorf("the linked-in variant is not base64: %w", err)
	}
	return strategies.ParseVariant(data, "linked-in variant")
}

// run resolves the variant against its game's strategies and runs its
// game's export target.
func run(ctx context.Context, args []string, out, errw io.Writer) error {
	v, err := variant()
	if err != nil {
		return err
	}
	game, err := lab.Table().Lookup(v.Game)
	if err != nil {
		return fmt.Errorf("variant %s: %w", v.Label(), err)
	}
	if game.Export == nil {
		return fmt.Errorf("variant %s: game %s has no export target", v.Label(), v.Game)
	}
	reg, err := strategies.NewRegistry(game.Strategies()...)
	if err != nil {
		return err
	}
	r, err := reg.Check(v)
	if err != nil {
		return err
	}
	return game.Export.Run(ctx, r, args, out, errw)
}
