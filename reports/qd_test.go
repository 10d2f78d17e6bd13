package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func archiveSample() *Archive {
	return &Archive{
		Axes: []ArchiveAxis{{Name: "aggression", Doc: "kills per 100 turns", Lo: 0, Hi: 16}, {Name: "economy", Doc: "energy per 100 turns", Lo: 0, Hi: 64}},
		Bins: 4, Offset: 1,
		Elites: []ArchiveElite{
			{Cell: []int{0, 1}, Label: "swarm#aaaaaaaaaa", File: "run/elites/cell-00-01-aaaaaaaaaa.json", Fitness: 0.4, Behaviour: []float64{2, 20}, Params: "cohesion 3", Generation: 1},
			{Cell: []int{2, 3}, Label: "swarm#bbbbbbbbbb", File: "run/elites/cell-02-03-bbbbbbbbbb.json", Fitness: 0.7, Behaviour: []float64{9, 60}, Params: "cohesion 7", Generation: 2},
		},
		History: []ArchiveStat{{Generation: 0, Filled: 1, Coverage: 1.0 / 16, QDScore: 1.4, Best: 0.4}, {Generation: 1, Filled: 2, Coverage: 2.0 / 16, QDScore: 3.1, Best: 0.7}},
	}
}

// Rule: the grid places each elite in its cell and leaves the others
// empty; the evolution page of a map-elites run shows the archive's heat
// map, its statistics and every elite with its variant file.
func TestArchiveSection(t *testing.T) {
	a := archiveSample()
	g, lo, hi := a.grid()
	if g.cols != 4 || g.rows != 4 || g.z[0][1] != 0.4 || g.z[2][3] != 0.7 || !math.IsNaN(g.z[1][1]) || lo != 0.4 || hi != 0.7 {
		t.Fatalf("grid %+v, range [%v, %v]", g, lo, hi)
	}
	pg := evolveSample()
	pg.Archive = a
	var buf bytes.Buffer
	if err := WriteEvolveHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	i := strings.Index(page, `id="archive-map"`)
	if i < 0 || !strings.Contains(page[i:i+strings.Index(page[i:], "</figure>")], "<svg") {
		t.Fatal("no archive heat map")
	}
	for _, want := range []string{
		"2 of 16 cells filled (12.5%) over aggression × economy, 4 cells per descriptor; QD-score 3.10",
		"best fitness 0.700",
		"run/elites/cell-02-03-bbbbbbbbbb.json", "aggression 9, economy 60", `id="archive-progress"`,
		"crucible export --variant FILE",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// A run without an archive has no such section.
	buf.Reset()
	if err := WriteEvolveHTML(&buf, evolveSample()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="archive"`) {
		t.Error("a run without an archive shows one")
	}
}
