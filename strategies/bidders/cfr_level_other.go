//go:build !amd64

package bidders

// stageAVX is false where there is no assembly: update uses levelGo.
var stageAVX = false

// stageLevel is never called where stageAVX is false.
func stageLevel(a *stageLevelArgs) { panic("bidders: stageLevel without AVX") }
