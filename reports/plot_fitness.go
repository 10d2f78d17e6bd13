package reports

import (
	"html/template"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Generation is one line of an evolution run's progress, as the fitness
// plot reads it.
type Generation struct {
	// Generation numbers it from 0; the page shows it from 1, as
	// crucible evolve prints it.
	Generation int
	// Best is the champion's fitness after the generation; Base the base
	// defaults' running score rate.
	Best, Base float64
	// Mean, Min and Max describe the score rates of the generation's
	// candidates.
	Mean, Min, Max float64
}

// fitnessPlot draws the champion's fitness, the candidates' mean score
// rate with their min-max band, and the base's running score rate over
// the generations, with the legend on the right.
func fitnessPlot(gens []Generation) (template.HTML, error) {
	if len(gens) == 0 {
		return "", nil
	}
	p := newPlot("", "generation", "score rate against the opponents")
	best := make(plotter.XYs, len(gens))
	mean := make(plotter.XYs, len(gens))
	base := make(plotter.XYs, len(gens))
	ring := make(plotter.XYs, 0, 2*len(gens))
	lo, hi := 0.0, 1.0
	for i, g := range gens {
		x := float64(g.Generation + 1) // from 1, as crucible evolve prints them
		best[i] = plotter.XY{X: x, Y: g.Best}
		mean[i] = plotter.XY{X: x, Y: g.Mean}
		base[i] = plotter.XY{X: x, Y: g.Base}
		ring = append(ring, plotter.XY{X: x, Y: g.Max})
		for _, v := range []float64{g.Best, g.Mean, g.Base, g.Min, g.Max} {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for i := len(gens) - 1; i >= 0; i-- {
		ring = append(ring, plotter.XY{X: float64(gens[i].Generation + 1), Y: gens[i].Min})
	}
	spread, err := plotter.NewPolygon(ring)
	if err != nil {
		return "", err
	}
	spread.Color = band
	spread.LineStyle.Width = 0
	bl, err := plotter.NewLine(base)
	if err != nil {
		return "", err
	}
	bl.Color, bl.Width, bl.Dashes = grey, vg.Points(1.25), []vg.Length{vg.Points(4), vg.Points(3)}
	ml, err := plotter.NewLine(mean)
	if err != nil {
		return "", err
	}
	ml.Color, ml.Width = blue, vg.Points(1.25)
	bs, err := plotter.NewLine(best)
	if err != nil {
		return "", err
	}
	bs.Color, bs.Width = orange, vg.Points(2.25)
	grd := plotter.NewGrid()
	grd.Vertical.Color, grd.Horizontal.Color = grid, grid
	p.Add(grd, spread, bl, ml, bs)
	if len(gens) == 1 {
		// One generation draws no line: mark the points.
		for _, l := range []struct {
			xy plotter.XYs
			c  color.Color
		}{{best, orange}, {mean, blue}, {base, grey}} {
			sc, err := plotter.NewScatter(l.xy)
			if err != nil {
				return "", err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: l.c, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
	}
	// The legend goes beside the plot, not over the lines.
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(sansFont, 9)
	leg.TextStyle.Color = ink
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(4)
	leg.Add("champion's fitness", bs)
	leg.Add("candidates' mean", ml)
	leg.Add("candidates' min–max", spread)
	leg.Add("base's score rate", bl)
	p.X.Tick.Marker = integerTicks{}
	p.Y.Tick.Marker = niceTicks{N: 5}
	first, last := float64(gens[0].Generation+1), float64(gens[len(gens)-1].Generation+1)
	if last == first {
		first, last = first-0.5, last+0.5
	}
	p.X.Min, p.X.Max = first, last
	p.Y.Min, p.Y.Max = lo, hi
	legendW := vg.Points(150)
	return svgOf(vg.Points(640), vg.Points(300), func(c draw.Canvas) error {
		plotArea := draw.Crop(c, 0, -legendW, 0, 0)
		p.Draw(plotArea)
		// The legend beside the plot, level with the top of its data area.
		dc := p.DataCanvas(plotArea)
		lc := draw.Crop(c, c.Max.X-c.Min.X-legendW+vg.Points(10), 0, 0, -(c.Max.Y - dc.Max.Y))
		leg.Draw(lc)
		return nil
	})
}
