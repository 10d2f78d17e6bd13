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
}

// BaseImage is the base image of the exported Dockerfiles: distroless
// static has no shell or libc (the binary needs neither) but does carry CA
// certificates, which an agent needs for https:// servers, and a non-root
// user.
const BaseImage = "gcr.io/distroless/static-debian12:nonroot"

// ParamTable is the README template's table of the variant's parameters,
// for a target's README.
const ParamTable = `| parameter | value | range | default | what it changes |
|---|---|---|---|---|
{{range .Params}}| {{.Name}} | {{.Value}} | {{.Range}} | {{.Default}} | {{.Description}} |
{{end}}`
