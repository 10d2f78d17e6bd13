package bidders

// stageLevelArgs is what stageLevel reads and writes at one beacon k of a
// seat (every field 8 bytes, in this order: the assembly reads them by
// offset).
type stageLevelArgs struct {
	sig    *[levels][stageLanes]float64 // the current strategy, updated
	reg    *[levels][stageLanes]float64 // the regrets, updated
	bids   *[stageLanes]float64         // each node's number of bids (0: padding)
	single *[stageLanes]uint64
	uni    *[stageLanes]float64
	w      *[levels]float64    // the payoff of each bid
	next   *[stageVals]float64 // the values of beacon k+1's nodes
	out    *[stageVals]float64 // the values of beacon k's nodes, set
	q      *[levels][stageLanes]float64
	groups int    // groups of four nodes
	moves  [2]int // the most bids of a node of each eight (the first has the most)
}
