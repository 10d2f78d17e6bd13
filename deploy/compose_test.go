package deploy

import (
	"encoding/json"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// composeFile is the Docker Compose file.
const composeFile = "compose.yaml"

// composeService is the part of the Compose specification's service the
// file uses; decoding is strict, so a key outside it (a typo) fails.
type composeService struct {
	Image string `json:"image"`
	Build *struct {
		Context    string `json:"context"`
		Dockerfile string `json:"dockerfile"`
	} `json:"build"`
	Environment map[string]string `json:"environment"`
	Command     []string          `json:"command"`
	DependsOn   map[string]struct {
		Condition string `json:"condition"`
	} `json:"depends_on"`
	Deploy *struct {
		Replicas  int `json:"replicas"`
		Resources struct {
			Limits struct {
				CPUs   string `json:"cpus"`
				Memory string `json:"memory"`
			} `json:"limits"`
		} `json:"resources"`
	} `json:"deploy"`
	Healthcheck *struct {
		Test        []string `json:"test"`
		Interval    string   `json:"interval"`
		Timeout     string   `json:"timeout"`
		Retries     int      `json:"retries"`
		StartPeriod string   `json:"start_period"`
	} `json:"healthcheck"`
	Volumes         []string `json:"volumes"`
	Ports           []string `json:"ports"`
	Restart         string   `json:"restart"`
	StopGracePeriod string   `json:"stop_grace_period"`
}

// compose is the decoded compose file.
type compose struct {
	services map[string]composeService
	volumes  map[string]bool
}

// loadCompose decodes the compose file: top-level keys are name, services,
// volumes and x- extensions (anchors), services strictly.
func loadCompose(t *testing.T) compose {
	t.Helper()
	data, err := os.ReadFile(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := yaml.Unmarshal(data, &top); err != nil {
		t.Fatalf("%s: %v", composeFile, err)
	}
	for k := range top {
		if k != "name" && k != "services" && k != "volumes" && !strings.HasPrefix(k, "x-") {
			t.Errorf("%s: top-level key %q is not name, services, volumes or an x- extension", composeFile, k)
		}
	}
	c := compose{volumes: map[string]bool{}}
	if err := yaml.UnmarshalStrict(top["services"], &c.services); err != nil {
		t.Fatalf("%s: services: %v", composeFile, err)
	}
	var vols map[string]any
	if err := yaml.Unmarshal(top["volumes"], &vols); err != nil {
		t.Fatalf("%s: volumes: %v", composeFile, err)
	}
	for v := range vols {
		c.volumes[v] = true
	}
	return c
}

func (c compose) service(t *testing.T, name string) composeService {
	t.Helper()
	s, ok := c.services[name]
	if !ok {
		t.Fatalf("%s: no service %q (services: %v)", composeFile, name, keys(c.services))
	}
	return s
}

// TestComposeStack: PostgreSQL with a health check and a volume; workers,
// replicated, that start once the database is healthy and talk to it; a
// one-shot arena that submits a run to the same database and keeps its
// results on a volume; the image built from the repository's Dockerfile.
func TestComposeStack(t *testing.T) {
	c := loadCompose(t)
	db := c.service(t, "db")
	if !strings.HasPrefix(db.Image, "postgres:") {
		t.Errorf("db: image %q, want the official postgres image", db.Image)
	}
	if db.Healthcheck == nil || len(db.Healthcheck.Test) < 2 || !strings.Contains(strings.Join(db.Healthcheck.Test, " "), "pg_isready") {
		t.Errorf("db: healthcheck %+v does not run pg_isready", db.Healthcheck)
	}
	if !c.namedVolumeAt(t, "db", db, "/var/lib/postgresql/data") {
		t.Errorf("db: no named volume on /var/lib/postgresql/data in %v", db.Volumes)
	}

	// Every crucible service's database is the db service, with its
	// credentials, in $CRUCIBLE_DB and --db alike.
	for name, s := range c.services {
		if name == "db" {
			continue
		}
		if s.Image != "crucible:local" || s.Build == nil {
			t.Errorf("%s: image %q build %+v, want crucible:local built from the repository", name, s.Image, s.Build)
		} else if _, err := os.Stat(filepath.Join(s.Build.Context, s.Build.Dockerfile)); err != nil {
			t.Errorf("%s: build: %v", name, err)
		}
		if d, ok := s.DependsOn["db"]; !ok || d.Condition != "service_healthy" {
			t.Errorf("%s: depends_on %+v, want db with condition service_healthy", name, s.DependsOn)
		}
		flagDB, ok := flagValue(s.Command, "db")
		if !ok || flagDB != s.Environment["CRUCIBLE_DB"] {
			t.Errorf("%s: --db %q and CRUCIBLE_DB %q differ", name, flagDB, s.Environment["CRUCIBLE_DB"])
		}
		u, err := url.Parse(flagDB)
		if err != nil {
			t.Fatalf("%s: --db %q: %v", name, flagDB, err)
		}
		pw, _ := u.User.Password()
		if u.Hostname() != "db" || u.User.Username() != db.Environment["POSTGRES_USER"] || pw != db.Environment["POSTGRES_PASSWORD"] || u.Path != "/"+db.Environment["POSTGRES_DB"] {
			t.Errorf("%s: --db %q does not match the db service (user, password, database %v)", name, flagDB, db.Environment)
		}
	}

	w := c.service(t, "worker")
	if len(w.Command) == 0 || w.Command[0] != "worker" {
		t.Fatalf("worker: command %q, want crucible worker ...", w.Command)
	}
	if w.Deploy == nil || w.Deploy.Replicas < 2 {
		t.Errorf("worker: deploy %+v, want deploy.replicas of at least 2", w.Deploy)
	}
	addr, _ := flagValue(w.Command, "metrics-addr")
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("worker: --metrics-addr %q: %v", addr, err)
	}
	if !slices.Contains(w.Ports, port) {
		t.Errorf("worker: ports %v do not publish the metrics port %s", w.Ports, port)
	}
	rescue := durationFlag(t, "worker", w.Command, "rescue-after")
	if grace, err := time.ParseDuration(w.StopGracePeriod); err != nil || grace <= rescue {
		t.Errorf("worker: stop_grace_period %q does not exceed --rescue-after %s", w.StopGracePeriod, rescue)
	}

	a := c.service(t, "arena")
	if len(a.Command) == 0 || a.Command[0] != "arena" {
		t.Fatalf("arena: command %q, want crucible arena ...", a.Command)
	}
	if a.Restart != "no" || a.Deploy != nil {
		t.Errorf("arena: restart %q deploy %+v, want a one-shot (restart \"no\", one replica)", a.Restart, a.Deploy)
	}
	if _, ok := a.DependsOn["worker"]; !ok {
		t.Errorf("arena: depends_on %v lacks worker", keys(a.DependsOn))
	}
	out, _ := flagValue(a.Command, "out")
	if !c.namedVolumeAt(t, "arena", a, filepath.Dir(out)) {
		t.Errorf("arena: --out %q is not on a named volume (%v)", out, a.Volumes)
	}
}

// namedVolumeAt reports whether s mounts a named volume at dir, failing
// the test on a named volume the file does not declare.
func (c compose) namedVolumeAt(t *testing.T, name string, s composeService, dir string) bool {
	t.Helper()
	found := false
	for _, v := range s.Volumes {
		src, dst, ok := strings.Cut(v, ":")
		if !ok || strings.HasPrefix(src, ".") || strings.HasPrefix(src, "/") {
			continue
		}
		if !c.volumes[src] {
			t.Errorf("%s: volume %q is not declared under volumes", name, src)
		}
		found = found || strings.SplitN(dst, ":", 2)[0] == dir
	}
	return found
}
