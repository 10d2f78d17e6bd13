package reports

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Archive is a MAP-Elites archive as the evolution report shows it: the
// grid's axes, its elites and its statistics over the generations.
type Archive struct {
	// Axes are the behaviour descriptors, one per axis of the grid.
	Axes []ArchiveAxis
	// Bins is the number of cells per axis.
	Bins int
	// Offset is what the QD-score adds to every elite's fitness.
	Offset float64
	// Elites are the filled cells' elites.
	Elites []ArchiveElite
	// History is the archive after each generation.
	History []ArchiveStat
}

// ArchiveAxis is one behaviour descriptor and the range its cells cut.
type ArchiveAxis struct {
	Name, Doc string
	Lo, Hi    float64
}

// ArchiveElite is the best variant of one cell.
type ArchiveElite struct {
	// Cell is the cell's index on each axis, from 0.
	Cell []int
	// Label is the variant's name (strategy#id) and File its variant file,
	// which crucible export accepts.
	Label, File string
	Fitness     float64
	// Behaviour is its descriptors' values; Params its parameters as
	// "name value" pairs.
	Behaviour  []float64
	Params     string
	Generation int
}

// ArchiveStat is the archive after one generation.
type ArchiveStat struct {
	Generation, Filled int
	Coverage, QDScore  float64
	Best               float64
}

// Cells is the number of cells of the grid.
func (a *Archive) Cells() int {
	n := 1
	for range a.Axes {
		n *= a.Bins
	}
	return n
}

// Last is the archive's latest statistics (zero before any generation).
func (a *Archive) Last() ArchiveStat {
	if len(a.History) == 0 {
		return ArchiveStat{}
	}
	return a.History[len(a.History)-1]
}

// Coverage is the latest coverage as a percentage.
func (a *Archive) Coverage() string { return fmt.Sprintf("%.1f%%", 100*a.Last().Coverage) }

// AxisNames joins the axes' names.
func (a *Archive) AxisNames() string {
	var s []string
	for _, ax := range a.Axes {
		s = append(s, ax.Name)
	}
	return strings.Join(s, " × ")
}

// BehaviourOf formats an elite's descriptor values with their names.
func (a *Archive) BehaviourOf(e ArchiveElite) string {
	var s []string
	for i, ax := range a.Axes {
		if i < len(e.Behaviour) {
			s = append(s, fmt.Sprintf("%s %.3g", ax.Name, e.Behaviour[i]))
		}
	}
	return strings.Join(s, ", ")
}

// archiveGrid is the archive projected on its first two axes (the best
// elite over the others), as a heat map grid of fitness; NaN where no
// cell is filled.
type archiveGrid struct {
	cols, rows int
	z          [][]float64 // z[col][row]
}

func (g archiveGrid) Dims() (c, r int)   { return g.cols, g.rows }
func (g archiveGrid) X(c int) float64    { return float64(c) }
func (g archiveGrid) Y(r int) float64    { return float64(r) }
func (g archiveGrid) Z(c, r int) float64 { return g.z[c][r] }
func (a *Archive) grid() (archiveGrid, float64, float64) {
	g := archiveGrid{cols: a.Bins, rows: 1}
	if len(a.Axes) > 1 {
		g.rows = a.Bins
	}
	g.z = make([][]float64, g.cols)
	for c := range g.z {
		g.z[c] = make([]float64, g.rows)
		for r := range g.z[c] {
			g.z[c][r] = math.NaN()
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range a.Elites {
		c, r := e.Cell[0], 0
		if len(e.Cell) > 1 {
			r = e.Cell[1]
		}
		if c < 0 || c >= g.cols || r < 0 || r >= g.rows {
			continue
		}
		if z := g.z[c][r]; math.IsNaN(z) || e.Fitness > z {
			g.z[c][r] = e.Fitness
		}
		lo, hi = math.Min(lo, e.Fitness), math.Max(hi, e.Fitness)
	}
	if hi-lo < 1e-9 {
		lo, hi = lo-0.05, hi+0.05
	}
	return g, lo, hi
}

// edgeTicks labels an axis of bins cells with the values at the cells'
// edges (every other edge when there are many).
func edgeTicks(ax ArchiveAxis, bins int) plot.ConstantTicks {
	step := 1
	if bins > 10 {
		step = 2
	}
	var ts plot.ConstantTicks
	for k := 0; k <= bins; k++ {
		lbl := ""
		if k%step == 0 {
			lbl = fmt.Sprintf("%.3g", ax.Lo+float64(k)*(ax.Hi-ax.Lo)/float64(bins))
		}
		ts = append(ts, plot.Tick{Value: float64(k) - 0.5, Label: lbl})
	}
	return ts
}

// HeatMap draws the archive as a heat map: one square per cell of the
// first two descriptors, coloured by its elite's fitness (white when
// empty; with a third descriptor, the best elite over it), the fitness
// written in the cell.
func (a *Archive) HeatMap() (template.HTML, error) {
	if len(a.Axes) == 0 || a.Bins < 1 || len(a.Elites) == 0 {
		return "", nil
	}
	g, lo, hi := a.grid()
	// Black-body colours from black (lowest fitness) to yellow (highest),
	// stopping short of the white end, which marks an empty cell.
	top := hi + 0.25*(hi-lo)
	cm := moreland.ExtendedBlackBody()
	cm.SetMin(lo)
	cm.SetMax(top)
	pal := cm.Palette(80)
	hm := plotter.NewHeatMap(g, pal)
	hm.Min, hm.Max = lo, top
	hm.NaN = color.White
	ylabel := ""
	if len(a.Axes) > 1 {
		ylabel = a.Axes[1].Name
	}
	p := newPlot("", a.Axes[0].Name, ylabel)
	p.Add(hm)
	var labels plotter.XYLabels
	for c := range g.cols {
		for r := range g.rows {
			if z := g.z[c][r]; !math.IsNaN(z) {
				labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(r)})
				labels.Labels = append(labels.Labels, fmt.Sprintf("%.2f", z))
			}
		}
	}
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return "", err
	}
	for i, xy := range labels.XYs {
		f := (g.z[int(xy.X)][int(xy.Y)] - lo) / (top - lo)
		lb.TextStyle[i] = textStyle(vg.Length(7.5), labelColour(pal.Colors()[min(len(pal.Colors())-1, int(f*float64(len(pal.Colors()))))]))
	}
	p.Add(lb)
	p.X.Min, p.X.Max = -0.5, float64(g.cols)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(g.rows)-0.5
	p.X.Tick.Marker = edgeTicks(a.Axes[0], a.Bins)
	if len(a.Axes) > 1 {
		p.Y.Tick.Marker = edgeTicks(a.Axes[1], a.Bins)
	} else {
		p.Y.Tick.Marker = plot.ConstantTicks{}
	}
	cell := 34.0
	w := vg.Points(cell*float64(g.cols) + 70)
	h := vg.Points(cell*float64(g.rows) + 50)
	return svgOf(w, h, func(c draw.Canvas) error {
		p.Draw(c)
		return nil
	})
}

// Progress draws coverage and QD-score over the generations.
func (a *Archive) Progress() (template.HTML, error) {
	if len(a.History) < 2 {
		return "", nil
	}
	p := newPlot("", "generation", "QD-score")
	var pts plotter.XYs
	for _, s := range a.History {
		pts = append(pts, plotter.XY{X: float64(s.Generation + 1), Y: s.QDScore})
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return "", err
	}
	l.Color = orange
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Y.Min = 0
	return svgOf(vg.Points(420), vg.Points(200), func(c draw.Canvas) error {
		p.Draw(c)
		return nil
	})
}

func init() {
	// The archive section joins the shared templates; the evolution page
	// includes it when the run has an archive.
	template.Must(pages.New("archive.tmpl").Parse(archiveTemplate))
}

const archiveTemplate = `
{{define "archive"}}<section id="archive">
<h2>MAP-Elites archive</h2>
<p>{{len .Elites}} of {{.Cells}} cells filled ({{.Coverage}}) over {{.AxisNames}}, {{.Bins}} cells per descriptor; QD-score {{printf "%.2f" .Last.QDScore}} (the sum over filled cells of fitness + {{printf "%g" .Offset}}), best fitness {{printf "%.3f" .Last.Best}}.</p>
{{with .HeatMap}}<figure class="plot" id="archive-map">{{.}}
<figcaption>Each square is a cell of the archive; its colour and figure are its elite's fitness (seed-adjusted score rate); white cells hold no variant yet. The axes' ticks are the descriptors' values at the cells' edges; values beyond the range fall into the edge cells.</figcaption>
</figure>{{end}}
<ul class="note">{{range .Axes}}<li><strong>{{.Name}}</strong>: {{.Doc}} (range {{printf "%g" .Lo}} to {{printf "%g" .Hi}})</li>{{end}}</ul>
{{with .Progress}}<figure class="plot" id="archive-progress">{{.}}
<figcaption>QD-score after each generation.</figcaption>
</figure>{{end}}
<h3>Elites</h3>
<div class="scroll"><table>
<thead><tr><th class="text">cell</th><th class="name">variant</th><th>fitness</th><th class="text">behaviour</th><th class="text">parameters</th><th>generation</th><th class="text">variant file</th></tr></thead>
<tbody>{{range .Elites}}<tr><td class="text">{{.Cell}}</td><td class="name">{{.Label}}</td><td>{{printf "%.3f" .Fitness}}</td><td class="text">{{$.BehaviourOf .}}</td><td class="text">{{.Params}}</td><td>{{.Generation}}</td><td class="text">{{.File}}</td></tr>
{{end}}</tbody>
</table></div>
<p class="note">Every elite is a variant file: <code>crucible export --variant FILE --out DIR</code> makes it a deployable bot.</p>
</section>{{end}}
`
