// Package bidders holds the Kindling bidders: each a distinct idea with
// named, bounded parameters, including the house bots easy and normal.
//
// Every bidder implements kindling.Bidder (engine/kindling): it sees only
// the public state of its seat (a kindling.View) and always makes a legal
// move. Randomised bidders draw only from a math/rand/v2 generator seeded
// with the seed given to Strategy.New.
package bidders

import "crucible/strategies"

// All returns every Kindling bidder of the package, the house bots easy
// and normal among them.
func All() []strategies.Strategy {
	return []strategies.Strategy{
		randomStrategy(),
		evenStrategy(),
		greedyStrategy(),
		sniperStrategy(),
		farmerStrategy(),
		saverStrategy(),
		contrarianStrategy(),
		growthStrategy(),
		dumpStrategy(),
		bestRespStrategy(),
		easyStrategy(),
		normalStrategy(),
	}
}
