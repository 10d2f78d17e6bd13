// Package deploy holds the deployment of crucible past one machine: the
// Docker Compose file (compose.yaml: PostgreSQL, queue workers, a one-shot
// arena) and the Kubernetes manifests (k8s/: worker Deployment and its
// HorizontalPodAutoscaler, the nightly ladder CronJob, the database Secret,
// a CloudNativePG Cluster). The repository root's Dockerfile builds the
// image they run.
//
// docker and kubectl do not run where the lab is tested, so the package's
// tests check the files instead: every Kubernetes document decodes strictly
// into its k8s.io/api type, the properties the deployment relies on hold
// (the worker runs `crucible worker` with CPU and memory requests, the
// autoscaler targets it, the grace period outlasts the rescue time, the
// CronJob reads the database URL from the Secret, ...), every crucible flag
// used exists, and the Dockerfile builds ./cmd/crucible statically and runs
// it as a non-root user. See README.md.
package deploy
