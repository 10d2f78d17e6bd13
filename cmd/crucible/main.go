// Command crucible is the lab's command line: it plays matches of AI Code
// Battle and Kindling, runs arenas and ratings, evolves strategy parameters
// and exports variants as deployable bots. Run `crucible --help` for the
// commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"
)

// gcPercent is the garbage collector's target unless $GOGC says otherwise.
// Matches allocate per match and keep little alive, so a heap goal of 5x the
// live heap (a few MB more) buys fewer collections on the hot path: with the
// default 100, two arena workers on 5 µs Kindling matches spend a tenth of
// their time waiting on the collector.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd()
	if err := root.ExecuteContext(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "crucible: interrupted")
			os.Exit(130)
		}
		fmt.Fprintln(os.Stderr, "crucible:", err)
		os.Exit(exitStatus(err))
	}
}

// exitStatus is the exit status of a command that failed with err: the
// status an error asks for with an ExitCode method (crucible ladder run's
// regression alarm), else 1.
func exitStatus(err error) int {
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	return 1
}

// newRootCmd assembles the command tree. Each command lives in its own file
// as a newXxxCmd constructor; the games' own commands come from the table
// of games.
func newRootCmd() *cobra.Command {
	titles := gameTitles()
	root := &cobra.Command{
		Use:   "crucible",
		Short: "A lab for tuning strategies of " + titles,
		Long: `crucible plays strategies of bot games (` + titles + `)
against each other by the thousand, ranks them with Glicko-2, improves their
parameters with genetic, CMA-ES or LLM-driven search, and exports the
champions as bots that play on the real platforms.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newStrategiesCmd(),
		newMatchCmd(),
		newArenaCmd(),
		newRateCmd(),
		newSPRTCmd(),
		newReportCmd(),
		newEvolveCmd(),
		newExploitCmd(),
		newExportCmd(),
		newBenchCmd(),
		newReplayCmd(),
		newLadderCmd(),
		newWorkerCmd(),
		newRunsCmd(),
	)
	root.AddCommand(gameCommands()...)
	return root
}
