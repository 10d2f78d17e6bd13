package export

import (
	"text/template"

	"crucible/strategies"
)

// pageData fills the Dockerfile and README templates.
type pageData struct {
	V           strategies.Variant
	Label       string
	Description string
	Params      []paramRow
	Arch        string
}

// The base image: distroless static has no shell or libc (the binary needs
// neither) but does carry CA certificates, which the Kindling agent needs
// for https:// servers, and a non-root user.
const baseImage = "gcr.io/distroless/static-debian12:nonroot"

var acbDockerfile = template.Must(template.New("Dockerfile").Parse(`# AI Code Battle bot {{.Label}}, exported by crucible.
# Build: docker build -t acb-{{.V.ID}} .
# Run:   docker run --rm -p 8080:8080 -e SHARED_SECRET=... acb-{{.V.ID}}
FROM ` + baseImage + `
COPY bot /bot
COPY variant.json /variant.json
ENV PORT=8080
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/bot"]
`))

var kindlingDockerfile = template.Must(template.New("Dockerfile").Parse(`# Kindling agent {{.Label}}, exported by crucible.
# Build: docker build -t kindling-{{.V.ID}} .
# Run:   docker run --rm kindling-{{.V.ID}}            (a match against a house bot)
#        docker run --rm kindling-{{.V.ID}} K7QF2      (join lobby K7QF2)
FROM ` + baseImage + `
COPY bot /bot
COPY variant.json /variant.json
ENV KINDLING_URL=` + PublicKindling + `
USER nonroot:nonroot
ENTRYPOINT ["/bot"]
`))

const paramTable = `| parameter | value | range | default | what it changes |
|---|---|---|---|---|
{{range .Params}}| {{.Name}} | {{.Value}} | {{.Range}} | {{.Default}} | {{.Description}} |
{{end}}`

var acbReadme = template.Must(template.New("README.md").Parse(`# {{.Label}}: an AI Code Battle bot

Variant ` + "`{{.V.ID}}`" + ` of the strategy ` + "`{{.V.Base}}`" + ` ({{.Description}}),
exported by crucible. ` + "`bot`" + ` is a static Linux/{{.Arch}} binary that serves this variant
and nothing else, speaking the platform's bot protocol.

## Run

    SHARED_SECRET=your-secret PORT=8080 ./bot
    curl -i http://localhost:8080/health        # 200 when ready

With Docker (the image is distroless; nothing else is needed):

    docker build -t acb-{{.V.ID}} .
    docker run --rm -p 8080:8080 -e SHARED_SECRET=your-secret acb-{{.V.ID}}

## Environment

| variable | meaning |
|---|---|
| SHARED_SECRET | the HMAC key shared with the match coordinator (required: the bot refuses to start without it) |
| PORT | the port to listen on (default 8080) |

Flag: ` + "`-host ADDR`" + ` listens on one interface only (default all). SIGTERM stops the bot
gracefully.

## Protocol

- ` + "`GET /health`" + ` answers 200.
- ` + "`POST /turn`" + ` checks, in order: the five headers X-ACB-Match-Id, X-ACB-Turn,
  X-ACB-Timestamp, X-ACB-Bot-Id, X-ACB-Signature; the timestamp within 30 s of now; the
  signature, HMAC-SHA256(SHARED_SECRET, "{match_id}.{turn}.{timestamp}.{sha256_hex(body)}")
  as 64 hex characters compared in constant time; then the body, whose match_id and turn
  must equal the headers. Failures answer 401 (authentication) or 400 (body, including a body
  over 4 MiB), computing no moves.
- The reply is ` + "`{\"moves\": [...]}`" + `, signed over its exact bytes with
  "{match_id}.{turn}.{sha256_hex(reply)}" in X-ACB-Signature.
- One strategy instance per match keeps its memory between turns. If the strategy has not
  answered within 80% of config.turn_timeout, the bot answers no moves rather than miss the
  deadline.

## Try it against crucible

    SHARED_SECRET=s3cret PORT=8080 ./bot &
    ACB_SECRET=s3cret crucible arena --game acb --players gatherer,http://127.0.0.1:8080

## The variant

` + paramTable + `
The same parameters are in ` + "`variant.json`" + `; rebuild with
` + "`crucible export --variant variant.json --out DIR`" + ` from the crucible checkout.
`))

var kindlingReadme = template.Must(template.New("README.md").Parse(`# {{.Label}}: a Kindling agent

Variant ` + "`{{.V.ID}}`" + ` of the bidder ` + "`{{.V.Base}}`" + ` ({{.Description}}),
exported by crucible. ` + "`bot`" + ` is a static Linux/{{.Arch}} binary that plays this variant
and nothing else over the Kindling JSON API, as the platform's agent loop: it polls the
state about once a second, bids when it can move, backs off on errors, and prints the final
standings when the match is finished.

## Run

    ./bot                          # create a match against one house bot and play it
    ./bot K7QF2                    # join the lobby K7QF2 and play it
    ./bot -seats 4 -bots 2         # create a 4-seat match with 2 house bots; others join with its code
    ./bot -seats 3 -bots 0 -start-after 2m   # wait 2 minutes for players, then fill with house bots
    ./bot -help                    # every flag

With Docker (the image is distroless and carries the CA certificates for https):

    docker build -t kindling-{{.V.ID}} .
    docker run --rm kindling-{{.V.ID}}
    docker run --rm -e KINDLING_URL=http://host.docker.internal:8787 kindling-{{.V.ID}}

## Environment

| variable | meaning |
|---|---|
| KINDLING_URL | the server (default ` + PublicKindling + `; ` + "`-url`" + ` overrides it) |

## Try it against crucible

    crucible kindling serve --addr :8787 &
    KINDLING_URL=http://127.0.0.1:8787 ./bot -seats 4 -bots 3

## The variant

` + paramTable + `
The same parameters are in ` + "`variant.json`" + `; rebuild with
` + "`crucible export --variant variant.json --out DIR`" + ` from the crucible checkout.
`))
