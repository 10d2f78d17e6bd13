package reports

import (
	"fmt"
	"html/template"
)

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{
	"add":            func(a, b float64) float64 { return a + b },
	"neg":            func(a float64) float64 { return -a },
	"signf":          func(v float64) string { return fmt.Sprintf("%+.2f", v) },
	"half":           func() float64 { return eloBarW / 2 },
	"headToHeadNote": func() string { return HeadToHeadNote },
}).Parse(pageTemplates))

const pageTemplates = `
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; background: #fff; margin: 2em auto; max-width: 1200px; padding: 0 1.5em; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
.sub { color: #555; margin-top: 0; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.25em 1.5em; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.5em 0; }
th, td { padding: 0.3em 0.4em; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: middle; white-space: nowrap; }
td.wrap { white-space: normal; text-align: left; min-width: 14em; max-width: 28em; }
.scroll { overflow-x: auto; }
th { background: #f4f4f4; font-weight: 600; border-bottom: 1px solid #bbb; white-space: normal; }
td.name, th.name, td.text, th.text { text-align: left; }
td.name { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
tbody tr:nth-child(even) { background: #fafafa; }
tr.champion td { background: #fdebd9; font-weight: 600; }
tr.evolved td { background: #fff6ec; }
tr.base td { background: #e8f0fa; }
.bar { display: block; }
.note { color: #555; font-size: 0.92em; max-width: 60em; }
.warn { background: #fff4d6; border-left: 4px solid #d9a400; padding: 0.5em 0.8em; }
.errors { background: #fdecea; border-left: 4px solid #c0392b; padding: 0.5em 0.8em; }
.errors li { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.9em; word-break: break-word; }
figure.plot { margin: 0.8em 0; }
figure.plot svg { max-width: 100%; height: auto; }
figure.plot svg text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
figcaption { color: #555; font-size: 0.92em; max-width: 60em; }
.key { display: inline-block; width: 0.8em; height: 0.8em; vertical-align: baseline; margin: 0 0.2em 0 0.6em; }
footer { margin-top: 3em; color: #888; font-size: 0.85em; }
</style>
</head>
<body>
{{end}}

{{define "facts"}}<dl class="facts">{{range .}}
<dt>{{.Name}}</dt><dd>{{.Value}}</dd>{{end}}
</dl>{{end}}

{{define "board"}}<div class="scroll"><table class="leaderboard">
<thead><tr>{{range $i, $h := .Head}}<th{{if eq $i 1}} class="name"{{end}}>{{$h}}</th>{{end}}<th class="text">Elo bar, ±{{.EloScale}}</th></tr></thead>
<tbody>{{range .Rows}}
<tr{{if .Class}} class="{{.Class}}"{{end}}>{{range $i, $c := .Cells}}<td{{if eq $i 1}} class="name"{{end}}>{{$c}}</td>{{end}}<td class="text">{{if .HasBar}}<svg class="bar" width="160" height="14" viewBox="0 0 160 14" role="img" aria-label="Elo bar"><line x1="{{half}}" y1="1" x2="{{half}}" y2="13" stroke="#999" stroke-width="1"/><line x1="{{.Lo}}" y1="7" x2="{{.Hi}}" y2="7" stroke="#1f5fa8" stroke-width="2"/><line x1="{{.Lo}}" y1="3" x2="{{.Lo}}" y2="11" stroke="#1f5fa8" stroke-width="1.5"/><line x1="{{.Hi}}" y1="3" x2="{{.Hi}}" y2="11" stroke="#1f5fa8" stroke-width="1.5"/><circle cx="{{.X}}" cy="7" r="3" fill="#1f5fa8"/></svg>{{end}}</td></tr>{{end}}
</tbody>
</table></div>{{with .Ranks}}
<h3 id="ranks">Rank probabilities</h3>{{if .Unavailable}}
<p class="note">Not available: {{.Unavailable}}.</p>{{else}}
<div class="scroll"><table class="ranks">
<thead><tr>{{range $i, $h := .Head}}<th{{if eq $i 1}} class="name"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}
<tr>{{range $i, $c := .}}<td{{if eq $i 1}} class="name"{{end}}>{{$c}}</td>{{end}}</tr>{{end}}
</tbody>
</table></div>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{end}}{{end}}{{end}}

{{define "boardplots"}}
{{if .Ratings}}<figure class="plot" id="ratings-plot">{{.Ratings}}
<figcaption>{{.Caption}}</figcaption>
</figure>{{end}}
{{if .Matrix}}<h3>Pairwise score</h3>
<figure class="plot" id="matrix-plot">{{.Matrix}}
<figcaption>Score % of the row player against the column player (win 1, draw ½, loss 0), rows and columns in leaderboard order.
Red: the row player scores more than half; blue: less; a dash: the pair did not play; struck through: a player against itself.</figcaption>
</figure>{{end}}
{{end}}

{{define "arena"}}{{template "head" .}}
<header>
<h1>Arena report</h1>
<p class="sub">{{.Page.Source}}</p>
</header>
<section id="run">
<h2>Run</h2>
{{template "facts" .Facts}}
{{if .Errors}}<div class="errors"><p>{{.Page.Facts.Failed}} of {{.Page.Facts.Matches}} matches failed and are left out of the ratings{{if gt .Page.Facts.Failed (len .Errors)}} (the first {{len .Errors}} are listed){{end}}:</p>
<ul>{{range .Errors}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
</section>
<section id="leaderboard">
<h2>Leaderboard</h2>
<p>Ordered by <strong>{{if .Page.Summary.Model}}{{.Page.Summary.Model.Title}}{{else}}Glicko-2 conservative rating (rating − 2 RD){{end}}</strong>.</p>
{{template "board" .Board}}
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{template "boardplots" .Board}}
</section>
{{with .Field}}<section id="field">
<h2>Non-transitive field</h2>
<p class="note">When strengths are not one scale (A beats B, B beats C, C beats A), one rating misleads. α-Rank is the share of time an evolving population spends on each player, moving towards whoever beats the current one; here the {{.AlphaRank}}.
Nash averaging weighs the players by the maximum-entropy Nash equilibrium of the score margins (the score matrix minus its transpose): a player in its support (payoff 0) is not beaten by the equilibrium mixture; the payoff of the others is their expected score against the mixture minus 50%, in points per 100 games.{{if .Unmet}} {{.Unmet}} pairs of players never met and count as even.{{end}}</p>
<div class="scroll"><table class="field">
<thead><tr><th>#</th><th class="name">player</th><th>α-Rank mass</th><th class="text"></th><th>Nash mass</th><th class="text"></th><th>payoff vs Nash</th></tr></thead>
<tbody>{{range .Rows}}
<tr><td>{{.Rank}}</td><td class="name">{{.Name}}</td><td>{{.Alpha}}</td><td class="text"><svg class="bar" width="160" height="12" viewBox="0 0 160 12" role="img" aria-label="α-Rank mass"><rect x="0" y="2" width="160" height="8" fill="#eee"/><rect x="0" y="2" width="{{.AlphaW}}" height="8" fill="#d95f02"/></svg></td><td>{{.Nash}}</td><td class="text"><svg class="bar" width="160" height="12" viewBox="0 0 160 12" role="img" aria-label="Nash mass"><rect x="0" y="2" width="160" height="8" fill="#eee"/><rect x="0" y="2" width="{{.NashW}}" height="8" fill="#1f5fa8"/></svg></td><td>{{.Payoff}}</td></tr>{{end}}
</tbody>
</table></div>
<h3>Cycles of significant wins</h3>
{{if .Cycles}}<table class="cycles">
<thead><tr><th class="text">cycle</th><th>lower ends of the three links</th></tr></thead>
<tbody>{{range .Cycles}}<tr><td class="text name">{{.Text}}</td><td>{{.Lows}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p>None: no three players beat one another in a circle with every win significant.</p>{{end}}
<p class="note">A link A &gt; B is significant when the lower end of the 95% interval of A's score against B, computed over the rounds they met in, is above 50%. Strongest cycle (largest weakest link) first.</p>
</section>{{end}}
{{template "arenamatches" .Page}}<section id="method">
<h2>How the figures are computed</h2>
<p class="note">Games count pairwise results: an N-seat match is N−1 games for each of its players (the better-ranked seat wins, equal ranks draw). The score % is points per game (a draw is half a point).</p>
<p class="note">Every interval is computed over independent units, never over games or pairings. A unit is a seed: every match played on it, whatever its players (both seat orders of a pair, every rotation of a free-for-all group, every pairing of a round), since they share the seed's map or deal and a map that suits a player lifts all its results of that round at once. A score's interval is the cluster-robust one over its seeds: the standard error of points over games with each seed's residual taken once, and a Student t quantile; the Bradley–Terry interval is the sandwich clustered the same way. Rounds of a pairing whose matches repeated another round's exactly (the same scores, length and end) count as one: a deterministic outcome seen on fifty seeds is one observation, and when every unit gave the same score the interval is Wilson's over the number of distinct outcomes. The Elo against the field is the Elo difference the score implies, with the bar from the ends of its interval (a perfect record is taken half a game from the edge).</p>
<p class="note">Bradley–Terry is the maximum-likelihood Elo fit of all pairwise results (a draw is half a win, as in Ordo), with cluster-robust (sandwich) intervals over the same units; on a round robin its order is the order of the scores. Glicko-2 rates the batch as one rating period (or one per round with --periods rounds); Weng–Lin (openskill's Plackett–Luce model) rates each match's full ranking in schedule order, the free-for-all option. A leaderboard warns when it ranks a player above another whose score against the same opponents is significantly higher.</p>
</section>
<footer>Written by crucible report from {{.Page.Source}}.</footer>
</body>
</html>
{{end}}

{{define "evolve"}}{{template "head" .}}
<header>
<h1>Evolution report</h1>
<p class="sub">{{.Page.Dir}}</p>
</header>
{{range .Page.Notes}}<p class="warn">{{.}}</p>
{{end}}<section id="settings">
<h2>Run</h2>
{{template "facts" .Page.Settings}}
{{if .Page.Outcome}}<h3>Search</h3>
{{template "facts" .Page.Outcome}}{{end}}
</section>
<section id="fitness">
<h2>Fitness over the generations</h2>
{{if .Fitness}}<figure class="plot" id="fitness-plot">{{.Fitness}}
<figcaption>Orange: the fitness of the hall of fame's leader after each generation (its seed-adjusted score rate over every game it played).
Blue: the mean score rate of the generation's candidates, with the band from the worst to the best of them.
Grey dashes: the base strategy's running score rate; it plays every generation as the anchor of the fitness.</figcaption>
</figure>
<table>
<thead><tr><th class="text"></th><th>generation</th><th>champion's fitness</th><th>candidates' mean</th><th>min–max</th><th>base</th></tr></thead>
<tbody>{{range .GenRows}}<tr><td class="text">{{.Label}}</td><td>{{.Generation}}</td><td>{{.Best}}</td><td>{{.Mean}}</td><td>{{.Spread}}</td><td>{{.BaseStr}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p class="note">No generation has been recorded yet.</p>{{end}}
</section>
{{if .Page.Program}}<section id="champion">
<h2>Champion</h2>
<p><strong class="name">{{.Page.Champion}}</strong>{{if .Page.ChampionNote}}: {{.Page.ChampionNote}}{{end}}</p>
<p>The champion is a program of {{.Page.ProgramRules}} rules (as <code>crucible strategies --show</code> prints it):</p>
<pre class="program">{{.Page.Program}}</pre>
</section>
{{end}}{{if .Params}}<section id="champion">
<h2>Champion</h2>
<p><strong class="name">{{.Page.Champion}}</strong>{{if .Page.ChampionNote}}: {{.Page.ChampionNote}}{{end}}</p>
<div class="scroll"><table class="params">
<thead><tr><th class="name">parameter</th><th>range</th><th>base default</th><th>champion</th><th>change (% of range)</th><th class="text">position in the range</th><th class="text">what it does</th></tr></thead>
<tbody>{{range .Params}}
<tr><td class="name">{{.Name}}</td><td>{{.Range}}</td><td>{{.Default}}</td><td>{{.Value}}</td><td>{{.Change}}</td><td class="text">{{if .Ranged}}<svg class="bar" width="160" height="16" viewBox="0 0 160 16" role="img" aria-label="position in the range"><rect x="6" y="6" width="148" height="4" rx="2" fill="#e4e4e4"/>{{if .Moved}}<line x1="{{.DefX}}" y1="8" x2="{{.ValX}}" y2="8" stroke="#f0b080" stroke-width="4"/>{{end}}<circle cx="{{.ValX}}" cy="8" r="4.5" fill="#d95f02"/><rect x="{{add .DefX -1}}" y="1" width="2" height="14" fill="#444"/></svg>{{end}}</td><td class="wrap">{{.Description}}</td></tr>{{end}}
</tbody>
</table></div>
<p class="note">In the position bars the range runs from its minimum (left) to its maximum (right); <span class="key" style="background:#444"></span>the base's default, <span class="key" style="background:#d95f02"></span>the champion's value.</p>
</section>{{end}}
{{with .Holdout}}<section id="holdout">
<h2>Held-out comparison</h2>
<table>
<thead><tr><th class="name">variant</th><th>score rate</th></tr></thead>
<tbody>
<tr class="champion"><td class="name">{{.A}}</td><td>{{.RateAStr}}</td></tr>
<tr class="base"><td class="name">{{.B}}</td><td>{{.RateBStr}}</td></tr>
</tbody>
</table>
<p>Difference <strong>{{.DiffStr}}</strong>, 95% interval {{.Interval}}: {{.Verdict}}.</p>
{{if .Bounded}}<svg class="bar" width="360" height="40" viewBox="0 0 360 40" role="img" aria-label="95% interval of the difference">
<line x1="10" y1="16" x2="350" y2="16" stroke="#ddd" stroke-width="1"/>
<line x1="{{.Zero}}" y1="4" x2="{{.Zero}}" y2="28" stroke="#888" stroke-width="1"/>
<line x1="{{.Lo}}" y1="16" x2="{{.Hi}}" y2="16" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="3"/>
<line x1="{{.Lo}}" y1="9" x2="{{.Lo}}" y2="23" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="2"/>
<line x1="{{.Hi}}" y1="9" x2="{{.Hi}}" y2="23" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="2"/>
<circle cx="{{.X}}" cy="16" r="4.5" fill="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}"/>
<text x="10" y="38" font-size="11" fill="#555">{{signf (neg .Scale)}}</text>
<text x="{{.Zero}}" y="38" font-size="11" fill="#555" text-anchor="middle">0</text>
<text x="350" y="38" font-size="11" fill="#555" text-anchor="end">{{signf .Scale}}</text>
</svg>{{end}}
<p class="note">Both played every opponent ({{.Opponents}}) on the same {{.Seeds}} held-out seeds in both seat orders ({{printf "%.0f" .GamesPerSide}} pairwise games each); seeds no generation and no tournament played. The interval is Student's t over the per-seed differences, paired by seed.</p>
</section>{{end}}
{{with .Page.Archive}}{{template "archive" .}}
{{end}}{{if .HasBoard}}<section id="tournament">
<h2>Ranking of the champion among the reference strategies</h2>
{{template "board" .Board}}
<p class="note">A round robin of the champion and the reference strategies, every pair on every ranking seed in both seat orders{{with .Board.Method}}, rated by {{.}}{{end}}; ordered by {{.Board.Title}}.
Orange rows are evolved variants (the champion in bold), the blue row the base strategy at its defaults.</p>
{{template "boardplots" .Board}}
</section>{{end}}
{{with .H2H}}<section id="head-to-head">
<h2>Finalists head-to-head</h2>
{{template "board" .}}
<p class="note">The finalists against one another, every pair on {{$.Page.HeadToHeadSeeds}} fresh seeds in both seat orders{{with .Method}}, rated by {{.}}{{end}}; ordered by {{.Title}}. Reported only: it does not choose the champion.</p>
<p class="note">{{headToHeadNote}}</p>
</section>{{end}}
<footer>Written by crucible report from the run directory {{.Page.Dir}}.</footer>
</body>
</html>
{{end}}
`
