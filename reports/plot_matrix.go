package reports

import (
	"fmt"
	"html/template"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"crucible/arena/rating"
)

// scoreGrid is the score matrix as a heat map grid: column c, row r (from
// the bottom) hold the score % of player n-1-r against player c; NaN where
// no game was played.
type scoreGrid struct{ m rating.Matrix }

func (g scoreGrid) Dims() (c, r int) { return len(g.m.Players), len(g.m.Players) }

func (g scoreGrid) X(c int) float64 { return float64(c) }

func (g scoreGrid) Y(r int) float64 { return float64(r) }

func (g scoreGrid) Z(c, r int) float64 {
	i := len(g.m.Players) - 1 - r
	t := g.m.Cells[i][c]
	if i == c || t.Games() == 0 {
		return math.NaN()
	}
	return 100 * t.Rate()
}

// struckCells draws the unit squares centred on its points struck
// through from corner to corner: the matrix's diagonal, where a player
// would meet itself.
type struckCells plotter.XYs

// Plot strikes the squares through.
func (cs struckCells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: light, Width: vg.Points(0.75)}
	for _, xy := range cs {
		c.StrokeLine2(sty, trX(xy.X-0.5), trY(xy.Y-0.5), trX(xy.X+0.5), trY(xy.Y+0.5))
	}
}

// keyBands is the colour key: a column of bands from 0 (bottom) to 100
// (top) in the palette's colours. Each band reaches into the next one, so
// no hairline of the background shows between them.
type keyBands struct{ pal palette.Palette }

// Plot fills the bands over the unit width of the x axis.
func (k keyBands) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cols := k.pal.Colors()
	step := 100 / float64(len(cols))
	for i, col := range cols {
		lo, hi := float64(i)*step, math.Min(100, float64(i+2)*step)
		var pa vg.Path
		pa.Move(vg.Point{X: trX(0), Y: trY(lo)})
		pa.Line(vg.Point{X: trX(1), Y: trY(lo)})
		pa.Line(vg.Point{X: trX(1), Y: trY(hi)})
		pa.Line(vg.Point{X: trX(0), Y: trY(hi)})
		pa.Close()
		c.SetColor(col)
		c.Fill(pa)
	}
}

// scorePalette maps a score % (0 to 100) to a diverging colour: blue below
// 50 (the row player scores less than its opponent), red above.
func scorePalette(n int) palette.Palette {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(100)
	return cm.Palette(n)
}

// matrixPlot draws the pairwise score matrix as a heat map with the score
// % in every cell, rows and columns in leaderboard order (row 1 on top),
// and a colour key on the right.
func matrixPlot(m rating.Matrix) (template.HTML, error) {
	n := len(m.Players)
	if n < 2 {
		return "", nil
	}
	cell, size := 26.0, vg.Length(8.5)
	if n > 24 {
		cell, size = 18, 6.5
	}
	pal := scorePalette(101)
	hm := plotter.NewHeatMap(scoreGrid{m}, pal)
	hm.Min, hm.Max = 0, 100
	hm.NaN = color.White
	p := newPlot("", "column (opponent)", "row (player)")
	p.Add(hm)

	// The diagonal struck through, the figures in the cells, a dash where
	// the pair did not play.
	var diag plotter.XYs
	var labels plotter.XYLabels
	var styles []text.Style
	for i := range n {
		r := float64(n - 1 - i)
		diag = append(diag, plotter.XY{X: float64(i), Y: r})
		for j := range n {
			t := m.Cells[i][j]
			if i == j {
				continue
			}
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(j), Y: r})
			if t.Games() == 0 {
				labels.Labels = append(labels.Labels, "–")
				styles = append(styles, textStyle(size, grey))
				continue
			}
			v := 100 * t.Rate()
			labels.Labels = append(labels.Labels, fmt.Sprintf("%.0f", v))
			styles = append(styles, textStyle(size, labelColour(pal.Colors()[int(math.Round(v))])))
		}
	}
	p.Add(struckCells(diag))
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return "", err
	}
	lb.TextStyle = styles
	lb.Offset = vg.Point{Y: vg.Points(1)} // the figures' visual centre sits a little above the text box's
	p.Add(lb)

	cols := append([]string(nil), m.Players...)
	rows := make([]string, n)
	for i, name := range m.Players {
		rows[n-1-i] = name
	}
	p.NominalX(cols...)
	p.NominalY(rows...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = text.XRight
	p.X.Tick.Label.YAlign = text.YTop // the rotated label hangs below its column
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Padding, p.Y.Padding = vg.Points(3), vg.Points(3)

	// Size the canvas so that cells come out square.
	tick := p.X.Tick.Label
	var longest vg.Length
	for _, name := range m.Players {
		longest = max(longest, tick.Width(name))
	}
	left := longest + vg.Points(30)                           // tick labels and the axis label
	bottom := longest*vg.Length(math.Sqrt2)/2 + vg.Points(34) // rotated labels and the axis label
	keyW := vg.Points(70)
	side := vg.Points(cell * float64(n))
	w := left + side + vg.Points(16) + keyW
	h := bottom + side + vg.Points(10)
	return svgOf(w, h, func(c draw.Canvas) error {
		main := draw.Crop(c, 0, -keyW-vg.Points(16), 0, 0)
		p.Draw(main)
		// The key: the plot's data area spans the same rows as the matrix.
		k := newPlot("", "", "score %")
		k.Add(keyBands{pal})
		k.HideX()
		k.X.Min, k.X.Max = 0, 1
		k.Y.Min, k.Y.Max = 0, 100
		k.Y.Padding = 0
		k.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 25, Label: "25"},
			{Value: 50, Label: "50"}, {Value: 75, Label: "75"}, {Value: 100, Label: "100"}}
		dc := p.DataCanvas(main)
		key := draw.Crop(c, c.Max.X-c.Min.X-keyW, 0, dc.Min.Y-c.Min.Y, -(c.Max.Y - dc.Max.Y))
		k.Draw(key)
		return nil
	})
}

// labelColour is white on dark cells and near-black on light ones.
func labelColour(bg color.Color) color.Color {
	r, g, b, _ := bg.RGBA()
	lum := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	if lum < 0.5 {
		return color.White
	}
	return ink
}
