package bidders

import "golang.org/x/sys/cpu"

// stageAVX says whether update takes beacons four nodes at a time with
// AVX (stageLevel); tests turn it off to check levelGo gives the same.
var stageAVX = cpu.X86.HasAVX

// stageLevel does levelGo's step on the nodes of a beacon eight at a time
// (cfr_level_amd64.s). Every lane runs its node's sums over its bids in
// order with the same operations, and no multiply is fused into an add,
// so the results are levelGo's to the bit; masks (bid x below the node's
// number of bids) keep the padding (bids a node does not have, nodes
// beyond the last) at zero.
//
//go:noescape
func stageLevel(a *stageLevelArgs)
