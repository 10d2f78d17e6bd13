package reports

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"crucible/arena/rating"
)

// The plots' look: a sans-serif face (the page's CSS names fallbacks with
// the same metrics, Arial and Helvetica, for browsers without Liberation)
// and a few colours that stay apart for colour-blind readers.
var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	ink      = color.RGBA{0x22, 0x22, 0x22, 0xff}
	grid     = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	blue     = color.RGBA{0x1f, 0x5f, 0xa8, 0xff}
	orange   = color.RGBA{0xd9, 0x5f, 0x02, 0xff}
	grey     = color.RGBA{0x88, 0x88, 0x88, 0xff}
	band     = color.NRGBA{0x9e, 0xc3, 0xe6, 0x99}
	light    = color.RGBA{0xb0, 0xb0, 0xb0, 0xff}
)

// newPlot returns a plot with the report's fonts and sizes.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sansFont, 12)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sansFont, 10)
		a.Tick.Label.Font = font.From(sansFont, 9)
		a.Label.TextStyle.Color = ink
		a.Tick.Label.Color = ink
		a.Color = ink
		a.Tick.Color = ink
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	return p
}

// textStyle is a plain text style in the report's font.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Font: font.From(sansFont, size), Color: c, Handler: plot.DefaultTextHandler,
		XAlign: text.XCenter, YAlign: text.YCenter}
}

// svgOf draws whatever draws on a w by h canvas and returns the SVG
// element, without the XML prologue, for inlining in HTML. vgsvg escapes
// every text it writes. A panic of the plotting library (it panics on some
// degenerate data) becomes an error.
func svgOf(w, h vg.Length, drawIt func(c draw.Canvas) error) (out template.HTML, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing a plot: %v", r)
		}
	}()
	c := vgsvg.New(w, h)
	if err := drawIt(draw.New(c)); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", errors.New("drawing a plot: the SVG writer produced no <svg> element")
	}
	return template.HTML(s[i:]), nil // built by vgsvg, which escapes its texts
}

// The plots' own tickers and plotters.
var (
	_ plot.Ticker  = integerTicks{}
	_ plot.Ticker  = niceTicks{}
	_ plot.Plotter = struckCells{}
	_ plot.Plotter = keyBands{}
)

// integerTicks labels whole numbers only (generations): every one on a
// short axis, round steps of at least 2 on a longer one.
type integerTicks struct{}

// Ticks returns the labelled ticks between lo and hi.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi-lo > 10 {
		return niceTicks{N: 8}.Ticks(lo, hi)
	}
	var out []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		out = append(out, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return out
}

// niceTicks labels about N round values evenly spaced over the axis: 1, 2
// or 5 times a power of ten apart.
type niceTicks struct{ N int }

// Ticks returns the labelled ticks between lo and hi.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || t.N < 1 {
		return nil
	}
	raw := (hi - lo) / float64(t.N)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var out []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v := k * step
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return out
}

// ratingsPlot draws each player's figure in the summary's model with its
// interval (the model's Plot), one line per player in leaderboard order
// (top to bottom), and a dashed reference line; it returns the plot and
// its caption. A model without a plot (α-Rank and Nash leaderboards,
// whose masses are in the field section) draws none.
func ratingsPlot(s rating.Summary) (template.HTML, string, error) {
	spec := modelSpec(s)
	if spec == nil || spec.Plot == nil {
		return "", "", nil
	}
	pl := spec.Plot(s)
	rows, label, caption, ref := pl.Points, pl.Label, pl.Caption, pl.Ref
	n := len(rows)
	if n == 0 {
		return "", "", nil
	}
	p := newPlot("", label, "")
	pts := make(plotter.XYs, n)
	bars := xErrs{XYs: make(plotter.XYs, n), errs: make(plotter.XErrors, n)}
	names := make([]string, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range rows {
		y := float64(n - 1 - i)
		pts[i] = plotter.XY{X: r.X, Y: y}
		bars.XYs[i] = pts[i]
		bars.errs[i].Low, bars.errs[i].High = r.X-r.Lo, r.Hi-r.X
		names[n-1-i] = r.Name
		lo, hi = math.Min(lo, r.Lo), math.Max(hi, r.Hi)
	}
	line, err := plotter.NewLine(plotter.XYs{{X: ref, Y: -0.5}, {X: ref, Y: float64(n) - 0.5}})
	if err != nil {
		return "", "", err
	}
	line.Color, line.Dashes, line.Width = grey, []vg.Length{vg.Points(3), vg.Points(3)}, vg.Points(0.75)
	eb, err := plotter.NewXErrorBars(bars)
	if err != nil {
		return "", "", err
	}
	eb.Color, eb.Width, eb.CapWidth = blue, vg.Points(1.5), vg.Points(6)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return "", "", err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: blue, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	grd := plotter.NewGrid()
	grd.Vertical.Color, grd.Horizontal.Color = grid, nil // a nominal axis has no scale to rule
	p.Add(grd, line, eb, sc)
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	pad := math.Max(pl.Pad, (hi-lo)*0.04)
	p.X.Min, p.X.Max = math.Min(lo, ref)-pad, math.Max(hi, ref)+pad
	p.X.Tick.Marker = niceTicks{N: 8}
	h := vg.Points(float64(22*n + 60))
	svg, err := svgOf(vg.Points(600), h, func(c draw.Canvas) error {
		p.Draw(c)
		return nil
	})
	return svg, caption, err
}

// xErrs are points with horizontal error bars.
type xErrs struct {
	plotter.XYs
	errs plotter.XErrors
}

func (x xErrs) XError(i int) (float64, float64) { return x.errs.XError(i) }

// scoreGrid is the score matrix as a heat map grid: column c, row r (from
// the bottom) hold the score % of player n-1-r against player c; NaN where
// no game was played.
type scoreGrid struct{ m rating.Matrix }

func (g scoreGrid) Dims() (c, r int) { return len(g.m.Players), len(g.m.Players) }
func (g scoreGrid) X(c int) float64  { return float64(c) }
func (g scoreGrid) Y(r int) float64  { return float64(r) }
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

// Generation is one line of an evolution run's progress, as the fitness
// plot reads it.
type Generation struct {
	// Generation numbers it from 0.
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
		x := float64(g.Generation)
		best[i] = plotter.XY{X: x, Y: g.Best}
		mean[i] = plotter.XY{X: x, Y: g.Mean}
		base[i] = plotter.XY{X: x, Y: g.Base}
		ring = append(ring, plotter.XY{X: x, Y: g.Max})
		for _, v := range []float64{g.Best, g.Mean, g.Base, g.Min, g.Max} {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for i := len(gens) - 1; i >= 0; i-- {
		ring = append(ring, plotter.XY{X: float64(gens[i].Generation), Y: gens[i].Min})
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
	first, last := float64(gens[0].Generation), float64(gens[len(gens)-1].Generation)
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
