# syntax=docker/dockerfile:1
#
# crucible in a container: the worker, the arena, the ladder and every other
# command (see deploy/README.md). Build from the repository root:
#
#   docker build -t crucible .
#
# Build stage: a static binary (CGO_ENABLED=0: the SQLite driver is pure Go,
# so nothing needs libc), without debug symbols or local paths.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# -buildvcs=false: .git is not in the build context (.dockerignore), so the
# ladder records the code version as the module's, "(devel)".
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/crucible ./cmd/crucible
# /data, owned by the runtime user, is the working directory: --out files,
# replays and SQLite ladders land there (mount a volume on it to keep them).
RUN mkdir -p /out/data

# Runtime stage: distroless static (CA certificates, tzdata, /etc/passwd with
# the nonroot user 65532, no shell and no package manager).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/crucible /usr/local/bin/crucible
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
USER 65532:65532
# Prometheus metrics of `crucible worker --metrics-addr :9090`.
EXPOSE 9090
ENTRYPOINT ["/usr/local/bin/crucible"]
CMD ["--help"]
