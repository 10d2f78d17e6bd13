package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// k8sDir holds the Kubernetes manifests; kustomization.yaml lists them.
const k8sDir = "k8s"

// manifests are the Kubernetes objects of k8sDir, decoded into their types.
type manifests struct {
	deployments []*appsv1.Deployment
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	cronJobs    []*batchv1.CronJob
	secrets     []*corev1.Secret
	// clusters are CloudNativePG Clusters, whose types are not imported
	// (the operator's module is large): kept as generic JSON.
	clusters []map[string]any
	files    []string // the files read, base names, sorted
}

// docSep splits a YAML stream into its documents.
var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// yamlDocs returns the non-empty documents of a YAML file.
func yamlDocs(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var docs [][]byte
	for _, d := range docSep.Split(string(data), -1) {
		var v any
		if err := yaml.Unmarshal([]byte(d), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if v != nil {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

// loadManifests decodes every document of every .yaml file in k8sDir but
// the kustomization into its k8s.io/api type, strictly: a field the type
// does not have, a duplicate field, or a field the type would drop fails
// the test. A kind the test does not know fails it too, so a new manifest
// gets checked.
func loadManifests(t *testing.T) manifests {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(k8sDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifests
	for _, path := range paths {
		if filepath.Base(path) == "kustomization.yaml" {
			continue
		}
		m.files = append(m.files, filepath.Base(path))
		for i, doc := range yamlDocs(t, path) {
			where := fmt.Sprintf("%s document %d", path, i+1)
			var tm struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if err := yaml.Unmarshal(doc, &tm); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			var obj any
			switch tm.APIVersion + " " + tm.Kind {
			case "apps/v1 Deployment":
				d := new(appsv1.Deployment)
				m.deployments, obj = append(m.deployments, d), d
			case "autoscaling/v2 HorizontalPodAutoscaler":
				h := new(autoscalingv2.HorizontalPodAutoscaler)
				m.hpas, obj = append(m.hpas, h), h
			case "batch/v1 CronJob":
				c := new(batchv1.CronJob)
				m.cronJobs, obj = append(m.cronJobs, c), c
			case "v1 Secret":
				s := new(corev1.Secret)
				m.secrets, obj = append(m.secrets, s), s
			case "postgresql.cnpg.io/v1 Cluster":
				var c map[string]any
				if err := yaml.UnmarshalStrict(doc, &c); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				m.clusters = append(m.clusters, c)
				continue
			default:
				t.Fatalf("%s: apiVersion %q kind %q is not one this test checks; add it to loadManifests", where, tm.APIVersion, tm.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			keptWhole(t, where, doc, obj)
		}
	}
	sort.Strings(m.files)
	return m
}

// keptWhole fails the test unless every field and value of the document
// survives decoding into obj and encoding it again. Strict decoding alone
// lets through a key that differs from the field's only in case
// (encoding/json matches names case-insensitively, the API server does not).
func keptWhole(t *testing.T, where string, doc []byte, obj any) {
	t.Helper()
	var in, out any
	if err := yaml.Unmarshal(doc, &in); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	enc, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if err := json.Unmarshal(enc, &out); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if err := subset(in, out, ""); err != nil {
		t.Errorf("%s: %v", where, err)
	}
}

// subset reports the first field or value of in that out lacks or changes.
func subset(in, out any, path string) error {
	switch in := in.(type) {
	case map[string]any:
		o, ok := out.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an object became %v", path, out)
		}
		for k, v := range in {
			ov, ok := o[k]
			if !ok {
				return fmt.Errorf("field %s.%s is not a field of the type (dropped when decoded)", path, k)
			}
			if err := subset(v, ov, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		o, ok := out.([]any)
		if !ok || len(o) != len(in) {
			return fmt.Errorf("%s: list %v became %v", path, in, out)
		}
		for i := range in {
			if err := subset(in[i], o[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	default:
		if !reflect.DeepEqual(in, out) {
			return fmt.Errorf("%s: %v became %v", path, in, out)
		}
		return nil
	}
}

// one returns the only element of list, failing the test unless there is
// exactly one.
func one[T any](t *testing.T, what string, list []T) T {
	t.Helper()
	if len(list) != 1 {
		t.Fatalf("want exactly one %s in %s, found %d", what, k8sDir, len(list))
	}
	return list[0]
}

// TestKustomizationListsEveryManifest: kubectl apply -k applies exactly the
// manifests of the directory, and the image they name is the one the
// kustomization sets.
func TestKustomizationListsEveryManifest(t *testing.T) {
	m := loadManifests(t)
	var k struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Resources  []string `json:"resources"`
		Images     []struct {
			Name    string `json:"name"`
			NewName string `json:"newName"`
			NewTag  string `json:"newTag"`
		} `json:"images"`
	}
	data, err := os.ReadFile(filepath.Join(k8sDir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, &k); err != nil {
		t.Fatalf("kustomization.yaml: %v", err)
	}
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("kustomization.yaml: apiVersion %q kind %q", k.APIVersion, k.Kind)
	}
	res := append([]string(nil), k.Resources...)
	sort.Strings(res)
	if !reflect.DeepEqual(res, m.files) {
		t.Errorf("kustomization.yaml resources %v, the directory's manifests %v", res, m.files)
	}
	if len(k.Images) != 1 || k.Images[0].Name != imageName || k.Images[0].NewName == "" {
		t.Errorf("kustomization.yaml images %+v: want one entry for %q with a newName", k.Images, imageName)
	}
	for _, c := range m.containers() {
		if c.Image != imageName {
			t.Errorf("container %s: image %q, want %q (set by the kustomization's images)", c.Name, c.Image, imageName)
		}
	}
}

// imageName is the image every manifest names, replaced by the kustomization.
const imageName = "crucible"

// containers returns the containers of every pod template.
func (m manifests) containers() []corev1.Container {
	var cs []corev1.Container
	for _, d := range m.deployments {
		cs = append(cs, d.Spec.Template.Spec.Containers...)
	}
	for _, c := range m.cronJobs {
		cs = append(cs, c.Spec.JobTemplate.Spec.Template.Spec.Containers...)
	}
	return cs
}

// envRef matches a $(VAR) reference Kubernetes expands in args.
var envRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// TestContainersRunCrucible: every container runs the image's ENTRYPOINT
// (crucible) with args only, every $(VAR) in its args is one of its env
// variables (Kubernetes leaves an undefined one as it is), and every
// variable drawn from a Secret names a key of a Secret of the manifests.
func TestContainersRunCrucible(t *testing.T) {
	m := loadManifests(t)
	secrets := map[string]*corev1.Secret{}
	for _, s := range m.secrets {
		secrets[s.Name] = s
	}
	for _, c := range m.containers() {
		if len(c.Command) != 0 {
			t.Errorf("container %s: command %q overrides the image's ENTRYPOINT (crucible); use args", c.Name, c.Command)
		}
		env := map[string]corev1.EnvVar{}
		for _, e := range c.Env {
			env[e.Name] = e
		}
		for _, a := range c.Args {
			for _, ref := range envRef.FindAllStringSubmatch(a, -1) {
				if _, ok := env[ref[1]]; !ok {
					t.Errorf("container %s: args use $(%s), not among its env", c.Name, ref[1])
				}
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				continue
			}
			ref := e.ValueFrom.SecretKeyRef
			s, ok := secrets[ref.Name]
			if !ok {
				t.Errorf("container %s: env %s reads Secret %q, not among the manifests", c.Name, e.Name, ref.Name)
				continue
			}
			if _, ok := secretData(s)[ref.Key]; !ok {
				t.Errorf("container %s: env %s reads key %q of Secret %s, which has %v", c.Name, e.Name, ref.Key, s.Name, keys(secretData(s)))
			}
		}
	}
}

// secretData merges a Secret's stringData and (decoded) data.
func secretData(s *corev1.Secret) map[string]string {
	out := map[string]string{}
	for k, v := range s.Data {
		out[k] = string(v)
	}
	for k, v := range s.StringData {
		out[k] = v
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// flagValue returns the value of --name in args (as "--name value" or
// "--name=value") and whether it is there.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// dbFromSecret checks that args pass --db $(CRUCIBLE_DB) and that the
// container's CRUCIBLE_DB comes from the database Secret's url.
func dbFromSecret(t *testing.T, where string, c corev1.Container, secret *corev1.Secret) {
	t.Helper()
	if v, ok := flagValue(c.Args, "db"); !ok || v != "$(CRUCIBLE_DB)" {
		t.Errorf("%s: --db is %q (set: %v), want $(CRUCIBLE_DB)", where, v, ok)
	}
	for _, e := range c.Env {
		if e.Name != "CRUCIBLE_DB" {
			continue
		}
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			t.Errorf("%s: CRUCIBLE_DB does not come from a Secret", where)
			return
		}
		if ref := e.ValueFrom.SecretKeyRef; ref.Name != secret.Name || ref.Key != "url" {
			t.Errorf("%s: CRUCIBLE_DB reads %s/%s, want %s/url", where, ref.Name, ref.Key, secret.Name)
		}
		return
	}
	t.Errorf("%s: no CRUCIBLE_DB in env", where)
}

// TestNoUnknownManifestBytes guards the strictness itself: a misspelled
// field and a field in the wrong case are refused by the decoding
// loadManifests uses.
func TestNoUnknownManifestBytes(t *testing.T) {
	for _, bad := range []string{
		"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicaz: 2\n",
		"apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n  replicas: 3\n",
	} {
		if err := yaml.UnmarshalStrict([]byte(bad), new(appsv1.Deployment)); err == nil {
			t.Errorf("strict decoding accepted:\n%s", bad)
		}
	}
	caseBad := []byte("apiVersion: apps/v1\nkind: Deployment\nspec:\n  Replicas: 2\n")
	d := new(appsv1.Deployment)
	if err := yaml.UnmarshalStrict(caseBad, d); err != nil {
		t.Fatalf("expected encoding/json to accept a case-folded key: %v", err)
	}
	var in, out any
	_ = yaml.Unmarshal(caseBad, &in)
	enc, _ := json.Marshal(d)
	_ = json.Unmarshal(enc, &out)
	if err := subset(in, out, ""); err == nil || !strings.Contains(err.Error(), "Replicas") {
		t.Errorf("keptWhole's check missed the key in the wrong case: %v", err)
	}
	if !bytes.Contains(enc, []byte(`"replicas":2`)) {
		t.Errorf("decoded %s", enc)
	}
}
