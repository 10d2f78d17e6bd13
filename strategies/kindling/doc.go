// Package kindling holds the Kindling bidders: each a distinct idea with
// named, bounded parameters, including the house bots easy and normal.
package kindling

import "crucible/strategies"

// All returns every Kindling bidder of the package.
func All() []strategies.Strategy { return nil }
