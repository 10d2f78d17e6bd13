package export

import (
	"context"
	"io"
	"text/template"

	"crucible/strategies"
)

// Target is what exporting a variant of one game writes and runs; each
// game's entry in the table of games (package games) gives its target.
type Target struct {
	// Game is the name of the game whose variants the target exports.
	Game string
	// Bot says what the exported binary is, for help texts.
	Bot string
	// Dockerfile and README are the templates of the export's files,
	// filled with the variant (see BaseImage and ParamTable).
	Dockerfile, README *template.Template
	// RunHint is the command that runs the exported bot from its
	// directory (%s), printed after an export.
	RunHint string
	// Run is the exported program: it plays the resolved variant with
	// the command-line arguments args (the bot's flags), writing its
	// results to out and its log to errw, until ctx ends or its work is
	// done.
	Run func(ctx context.Context, v strategies.Resolved, args []string, out, errw io.Writer) error
}
