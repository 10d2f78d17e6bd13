package deploy

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// exitRegression is the status `crucible ladder run` exits with while a
// new version stands found weaker than its previous one (cmd/crucible,
// documented in the README's ladder section).
const exitRegression = 3

// TestWorkerDeployment: the worker pods run `crucible worker` on the
// database of the Secret, request CPU and memory (the autoscaler's
// utilization is measured against the CPU request), play no more matches at
// once than they have cores, are probed and scraped on the metrics port
// they serve, and are given longer than the rescue time to stop.
func TestWorkerDeployment(t *testing.T) {
	m := loadManifests(t)
	d := one(t, "Deployment", m.deployments)
	secret := one(t, "Secret", m.secrets)
	spec := d.Spec.Template.Spec
	c := one(t, "container in the worker pod", spec.Containers)
	where := "Deployment " + d.Name

	if len(c.Args) == 0 || c.Args[0] != "worker" {
		t.Fatalf("%s: args %q, want crucible worker ...", where, c.Args)
	}
	dbFromSecret(t, where, c, secret)

	for k, v := range d.Spec.Selector.MatchLabels {
		if d.Spec.Template.Labels[k] != v {
			t.Errorf("%s: selector %s=%s does not match the pod template's labels %v", where, k, v, d.Spec.Template.Labels)
		}
	}

	req, lim := c.Resources.Requests, c.Resources.Limits
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		q, ok := req[r]
		if !ok || q.Sign() <= 0 {
			t.Errorf("%s: no %s request", where, r)
		}
		if l, ok := lim[r]; ok && l.Cmp(q) < 0 {
			t.Errorf("%s: %s limit %s below its request %s", where, r, l.String(), q.String())
		}
	}
	if _, ok := lim[corev1.ResourceMemory]; !ok {
		t.Errorf("%s: no memory limit", where)
	}
	workers := intFlag(t, where, c.Args, "workers")
	cpu := req[corev1.ResourceCPU]
	if cores := cpu.MilliValue(); int64(workers)*1000 > cores {
		t.Errorf("%s: --workers %d plays more matches at once than the %s CPUs it requests", where, workers, cpu.String())
	}

	// Metrics: --metrics-addr's port is the container's metrics port, the
	// probes' and the scrape annotation's.
	addr, ok := flagValue(c.Args, "metrics-addr")
	if !ok {
		t.Fatalf("%s: no --metrics-addr", where)
	}
	_, portText, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("%s: --metrics-addr %q: %v", where, addr, err)
	}
	port, _ := strconv.Atoi(portText)
	var named string
	for _, p := range c.Ports {
		if int(p.ContainerPort) == port {
			named = p.Name
		}
	}
	if named == "" {
		t.Errorf("%s: --metrics-addr port %d is not among the container's ports %v", where, port, c.Ports)
	}
	for name, probe := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe} {
		if probe == nil || probe.HTTPGet == nil {
			t.Errorf("%s: no HTTP %s probe", where, name)
			continue
		}
		if p := probe.HTTPGet.Port; !(p.Type == intstr.String && p.StrVal == named && named != "") && !(p.Type == intstr.Int && int(p.IntVal) == port) {
			t.Errorf("%s: %s probe on port %s, not the metrics port %d", where, name, p.String(), port)
		}
		if probe.HTTPGet.Path != "/metrics" {
			t.Errorf("%s: %s probe on %q, want /metrics", where, name, probe.HTTPGet.Path)
		}
	}
	ann := d.Spec.Template.Annotations
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] != portText || ann["prometheus.io/path"] != "/metrics" {
		t.Errorf("%s: scrape annotations %v, want scrape true on port %s path /metrics", where, ann, portText)
	}

	// Stopping: SIGTERM, then SIGKILL after the grace period. A worker
	// given longer than --rescue-after is never killed while its batch is
	// still its own; a batch is about a minute of play.
	rescue := durationFlag(t, where, c.Args, "rescue-after")
	if rescue < 2*time.Minute {
		t.Errorf("%s: --rescue-after %s would rescue batches (about a minute each) still being played", where, rescue)
	}
	if spec.TerminationGracePeriodSeconds == nil {
		t.Fatalf("%s: no terminationGracePeriodSeconds (the default 30 s is shorter than a batch)", where)
	}
	if grace := time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second; grace <= rescue {
		t.Errorf("%s: terminationGracePeriodSeconds %s does not exceed --rescue-after %s", where, grace, rescue)
	}
	nonRoot(t, where, spec)
}

// nonRoot checks the pod runs as a non-root user.
func nonRoot(t *testing.T, where string, spec corev1.PodSpec) {
	t.Helper()
	sc := spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("%s: the pod does not run as a non-root user: %+v", where, sc)
	}
}

func intFlag(t *testing.T, where string, args []string, name string) int {
	t.Helper()
	v, ok := flagValue(args, name)
	if !ok {
		t.Fatalf("%s: no --%s in %q", where, name, args)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s: --%s %q is not a positive integer", where, name, v)
	}
	return n
}

func durationFlag(t *testing.T, where string, args []string, name string) time.Duration {
	t.Helper()
	v, ok := flagValue(args, name)
	if !ok {
		t.Fatalf("%s: no --%s in %q", where, name, args)
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s: --%s: %v", where, name, err)
	}
	return d
}

// TestHPAScalesTheWorkers: the autoscaler targets the worker Deployment by
// name and scales it on CPU utilization, within sane bounds.
func TestHPAScalesTheWorkers(t *testing.T) {
	m := loadManifests(t)
	d := one(t, "Deployment", m.deployments)
	h := one(t, "HorizontalPodAutoscaler", m.hpas)
	ref := h.Spec.ScaleTargetRef
	if ref.APIVersion != "apps/v1" || ref.Kind != "Deployment" || ref.Name != d.Name {
		t.Errorf("HPA %s targets %s %s %q, want apps/v1 Deployment %q", h.Name, ref.APIVersion, ref.Kind, ref.Name, d.Name)
	}
	minR := int32(1)
	if h.Spec.MinReplicas != nil {
		minR = *h.Spec.MinReplicas
	}
	if minR < 1 || h.Spec.MaxReplicas < minR {
		t.Errorf("HPA %s: replicas %d to %d", h.Name, minR, h.Spec.MaxReplicas)
	}
	cpu := false
	for _, mt := range h.Spec.Metrics {
		if mt.Type == autoscalingv2.ResourceMetricSourceType && mt.Resource != nil && mt.Resource.Name == corev1.ResourceCPU &&
			mt.Resource.Target.Type == autoscalingv2.UtilizationMetricType && mt.Resource.Target.AverageUtilization != nil {
			u := *mt.Resource.Target.AverageUtilization
			if u < 10 || u > 100 {
				t.Errorf("HPA %s: CPU target %d%% (the workers' limit equals their request, so above 100%% is never reached)", h.Name, u)
			}
			cpu = true
		}
	}
	if !cpu {
		t.Errorf("HPA %s: no CPU utilization metric in %+v", h.Name, h.Spec.Metrics)
	}
}

// TestNightlyLadder: the CronJob runs `crucible ladder run` every night on
// the database of the Secret, one at a time, and a regression (exit status
// 3) fails the Job at once instead of replaying the night.
func TestNightlyLadder(t *testing.T) {
	m := loadManifests(t)
	cj := one(t, "CronJob", m.cronJobs)
	secret := one(t, "Secret", m.secrets)
	where := "CronJob " + cj.Name
	if f := strings.Fields(cj.Spec.Schedule); len(f) != 5 || f[2] != "*" || f[3] != "*" || f[4] != "*" {
		t.Errorf("%s: schedule %q is not once a day", where, cj.Spec.Schedule)
	}
	if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Errorf("%s: concurrencyPolicy %q, want Forbid", where, cj.Spec.ConcurrencyPolicy)
	}
	job := cj.Spec.JobTemplate.Spec
	pod := job.Template.Spec
	c := one(t, "container in the ladder pod", pod.Containers)
	if len(c.Args) < 2 || c.Args[0] != "ladder" || c.Args[1] != "run" {
		t.Fatalf("%s: args %q, want crucible ladder run ...", where, c.Args)
	}
	dbFromSecret(t, where, c, secret)
	budget := durationFlag(t, where, c.Args, "budget")
	if job.ActiveDeadlineSeconds == nil || time.Duration(*job.ActiveDeadlineSeconds)*time.Second <= budget {
		t.Errorf("%s: activeDeadlineSeconds %v does not leave the night its --budget %s", where, job.ActiveDeadlineSeconds, budget)
	}
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q, want Never (podFailurePolicy needs it)", where, pod.RestartPolicy)
	}
	failsOnRegression := false
	if p := job.PodFailurePolicy; p != nil {
		for _, r := range p.Rules {
			if r.Action != batchv1.PodFailurePolicyActionFailJob || r.OnExitCodes == nil || r.OnExitCodes.Operator != batchv1.PodFailurePolicyOnExitCodesOpIn {
				continue
			}
			if r.OnExitCodes.ContainerName != nil && *r.OnExitCodes.ContainerName != c.Name {
				continue
			}
			for _, v := range r.OnExitCodes.Values {
				failsOnRegression = failsOnRegression || v == exitRegression
			}
		}
	}
	if !failsOnRegression {
		t.Errorf("%s: no podFailurePolicy rule fails the Job on exit status %d (a regression)", where, exitRegression)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := c.Resources.Requests[r]; !ok || q.Cmp(resource.MustParse("0")) <= 0 {
			t.Errorf("%s: no %s request", where, r)
		}
	}
	nonRoot(t, where, pod)
}

// TestDatabaseSecret: the committed Secret holds a PostgreSQL URL with the
// documented placeholder password, never a real one, pointing at the
// read-write Service of the CloudNativePG Cluster, whose bootstrap creates
// the URL's database and user.
func TestDatabaseSecret(t *testing.T) {
	m := loadManifests(t)
	s := one(t, "Secret", m.secrets)
	raw, ok := secretData(s)["url"]
	if !ok {
		t.Fatalf("Secret %s: no url key", s.Name)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("Secret %s: url %q: %v", s.Name, raw, err)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		t.Errorf("Secret %s: url scheme %q, want postgres", s.Name, u.Scheme)
	}
	if pw, _ := u.User.Password(); pw != "CHANGE-ME" {
		t.Errorf("Secret %s: the committed password must be the placeholder CHANGE-ME, found %q", s.Name, pw)
	}
	c := one(t, "CloudNativePG Cluster", m.clusters)
	name := dig(c, "metadata", "name")
	if u.Hostname() != name+"-rw" {
		t.Errorf("Secret %s: host %q, want the Cluster %q's read-write Service %s-rw", s.Name, u.Hostname(), name, name)
	}
	if db := dig(c, "spec", "bootstrap", "initdb", "database"); "/"+db != u.Path {
		t.Errorf("Secret %s: database %q, the Cluster creates %q", s.Name, u.Path, db)
	}
	if owner := dig(c, "spec", "bootstrap", "initdb", "owner"); u.User.Username() != owner {
		t.Errorf("Secret %s: user %q, the Cluster's database owner is %q", s.Name, u.User.Username(), owner)
	}
}

// dig returns the string at path in a generic JSON object, "" if absent.
func dig(v map[string]any, path ...string) string {
	var cur any = v
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[k]
	}
	s, _ := cur.(string)
	return s
}
