package reports

import (
	"html/template"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// versionColours tell an entrant's versions apart in its history plot.
var versionColours = []color.Color{blue, orange, color.RGBA{0x1b, 0x9e, 0x77, 0xff}, color.RGBA{0x75, 0x70, 0xb3, 0xff}, color.RGBA{0xe7, 0x29, 0x8a, 0xff}}

// historyPlot draws an entrant's rating over the nights: a line with a
// band of ± 2 RD for each version, in its own colour, and a dashed
// vertical line labelled vN where a new version starts.
func historyPlot(h LadderHistory, nights []string) (template.HTML, error) {
	if len(h.Points) == 0 {
		return "", nil
	}
	p := newPlot("", "night", "Glicko-2 rating ± 2 RD")
	grd := plotter.NewGrid()
	grd.Vertical.Color, grd.Horizontal.Color = grid, grid
	p.Add(grd)
	lo, hi := math.Inf(1), math.Inf(-1)
	var changes []LadderPoint
	for start := 0; start < len(h.Points); {
		end := start
		for end < len(h.Points) && h.Points[end].Version == h.Points[start].Version {
			end++
		}
		seg := h.Points[start:end]
		col := versionColours[(seg[0].Version-1)%len(versionColours)]
		line := make(plotter.XYs, len(seg))
		ring := make(plotter.XYs, 0, 2*len(seg))
		for i, pt := range seg {
			line[i] = plotter.XY{X: float64(pt.Night), Y: pt.Rating}
			ring = append(ring, plotter.XY{X: float64(pt.Night), Y: pt.Rating + 2*pt.RD})
			lo, hi = math.Min(lo, pt.Rating-2*pt.RD), math.Max(hi, pt.Rating+2*pt.RD)
		}
		for i := len(seg) - 1; i >= 0; i-- {
			ring = append(ring, plotter.XY{X: float64(seg[i].Night), Y: seg[i].Rating - 2*seg[i].RD})
		}
		if len(seg) > 1 {
			poly, err := plotter.NewPolygon(ring)
			if err != nil {
				return "", err
			}
			r, g, b, _ := col.RGBA()
			poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x33}
			poly.LineStyle.Width = 0
			p.Add(poly)
			l, err := plotter.NewLine(line)
			if err != nil {
				return "", err
			}
			l.Color, l.Width = col, vg.Points(1.75)
			p.Add(l)
		} else {
			// One night: a point with its ± 2 RD bar.
			bars := yErrs{XYs: line, errs: plotter.YErrors{{Low: 2 * seg[0].RD, High: 2 * seg[0].RD}}}
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return "", err
			}
			eb.Color, eb.Width, eb.CapWidth = col, vg.Points(1.25), vg.Points(6)
			p.Add(eb)
		}
		sc, err := plotter.NewScatter(line)
		if err != nil {
			return "", err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		if start > 0 {
			changes = append(changes, seg[0])
		}
		start = end
	}
	pad := math.Max(20, (hi-lo)*0.12)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	var marks plotter.XYLabels
	for _, c := range changes {
		x := float64(c.Night) - 0.5
		vl, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
		if err != nil {
			return "", err
		}
		vl.Color, vl.Width, vl.Dashes = grey, vg.Points(1), []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(vl)
		marks.XYs = append(marks.XYs, plotter.XY{X: x, Y: p.Y.Max - pad*0.35})
		marks.Labels = append(marks.Labels, "v"+strconv.Itoa(c.Version))
	}
	if len(marks.XYs) > 0 {
		lb, err := plotter.NewLabels(marks)
		if err != nil {
			return "", err
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i] = textStyle(9, ink)
			lb.TextStyle[i].XAlign = text.XLeft
		}
		lb.Offset = vg.Point{X: vg.Points(3)}
		p.Add(lb)
	}
	p.X.Min, p.X.Max = -0.6, float64(len(nights))-0.4
	p.X.Tick.Marker = nightTicks(nights)
	if len(nights) > 8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = text.XRight
		p.X.Tick.Label.YAlign = text.YTop
	}
	p.Y.Tick.Marker = niceTicks{N: 5}
	return svgOf(vg.Points(520), vg.Points(190), func(c draw.Canvas) error {
		p.Draw(c)
		return nil
	})
}

// yErrs are points with vertical error bars.
type yErrs struct {
	plotter.XYs
	errs plotter.YErrors
}

func (y yErrs) YError(i int) (float64, float64) { return y.errs.YError(i) }

// nightTicks labels the nights by their labels: every one when there are
// at most 12, else about 10 evenly spaced.
func nightTicks(nights []string) plot.ConstantTicks {
	step := 1
	if len(nights) > 12 {
		step = int(math.Ceil(float64(len(nights)) / 10))
	}
	var out plot.ConstantTicks
	for i := 0; i < len(nights); i += step {
		out = append(out, plot.Tick{Value: float64(i), Label: nights[i]})
	}
	return out
}
