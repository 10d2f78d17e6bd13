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
