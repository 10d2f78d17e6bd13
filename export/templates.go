package export

import "crucible/strategies"

// pageData fills a target's Dockerfile and README templates: the variant
// (.V), its label, its strategy's description, its parameters (.Params,
// see ParamTable) and the binary's architecture.
type pageData struct {
	V           strategies.Variant
	Label       string
	Description string
	Params      []paramRow
	Arch        string
	// Program is a program strategy's rules as text ("" for any other
	// strategy): the README shows them instead of the parameter table.
	Program string
}

// BaseImage is the base image of the exported Dockerfiles: distroless
// static has no shell or libc (the binary needs neither) but does carry CA
// certificates, which an agent needs for https:// servers, and a non-root
// user.
const BaseImage = "gcr.io/distroless/static-debian12:nonroot"

// ParamTable is the README template's table of the variant's parameters,
// for a target's README (a program variant's rules instead).
const ParamTable = `{{if .Program}}The variant is a program (its genome, in variant.json's params, encodes the same rules):

` + "```" + `
{{.Program}}` + "```" + `
{{else}}| parameter | value | range | default | what it changes |
|---|---|---|---|---|
{{range .Params}}| {{.Name}} | {{.Value}} | {{.Range}} | {{.Default}} | {{.Description}} |
{{end}}{{end}}`
