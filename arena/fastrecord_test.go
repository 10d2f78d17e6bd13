package arena

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastLines are result lines in the writer's form and in others: every
// optional field, a failed match, escapes, spaces, other spellings, odd
// numbers and broken lines.
var fastLines = []string{
	`{"job":"r0-0v1","game":"kindling","config":"44136fa355b3","round":0,"seed":15916886550466581944,"players":[{"name":"bestresp","strategy":"bestresp"},{"name":"cfr","strategy":"cfr"}],"scores":[36,40],"ranks":[2,1],"turns":8,"reason":"turns","duration_ms":0.778595}`,
	`{"job":"r3-1v0","game":"acb","round":3,"seed":7,"players":[{"name":"g#ab12","strategy":"gatherer","variant":"ab12"},{"name":"rusher","strategy":"rusher"}],"scores":[-1.5e3,0.25],"ranks":[1,1],"turns":500,"reason":"turns","crashed":[false,true],"duration_ms":12}`,
	`{"job":"r0-0v1","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"},{"name":"b","strategy":"b"}],"scores":null,"ranks":null,"turns":0,"reason":"","error":"strategy b panicked","duration_ms":1}`,
	`{"job":"r0-0v1","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"},{"name":"b","strategy":"b"}],"scores":[],"ranks":[],"turns":0,"reason":"","error":"boom","duration_ms":1}`,
	`{"job":"r\u00e9","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"},{"name":"b","strategy":"b"}],"scores":[1,2],"ranks":[2,1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"ré","game":"acb","round":0,"seed":1,"players":[{"name":"a b","strategy":"a"},{"name":"<b>","strategy":"b"}],"scores":[1,2],"ranks":[2,1],"turns":3,"reason":"x","duration_ms":1}`,
	`{ "job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":1.0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":-1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":18446744073709551616,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":01,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1e999],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[-0],"ranks":[1],"turns":3,"reason":"x","duration_ms":-0.0}`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}x`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1} `,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1`,
	`{"JOB":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","config":"","round":0,"seed":1,"players":[{"name":"a","strategy":"a","variant":""}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[],"scores":[],"ranks":[],"turns":3,"reason":"x","duration_ms":1}`,
	`{"job":"r","game":"acb","round":0,"seed":1,"players":[{"name":"a","strategy":"a"}],"scores":[1],"ranks":[1],"turns":3,"reason":"x","crashed":[],"duration_ms":1}`,
	"{\"job\":\"r\xff\",\"game\":\"acb\",\"round\":0,\"seed\":1,\"players\":[{\"name\":\"a\",\"strategy\":\"a\"}],\"scores\":[1],\"ranks\":[1],\"turns\":3,\"reason\":\"x\",\"duration_ms\":1}",
	"{\"job\":\"r\t\",\"game\":\"acb\",\"round\":0,\"seed\":1,\"players\":[{\"name\":\"a\",\"strategy\":\"a\"}],\"scores\":[1],\"ranks\":[1],\"turns\":3,\"reason\":\"x\",\"duration_ms\":1}",
}

// TestFastRecordAgreesWithEncodingJSON checks the fast decoder against
// encoding/json: where it accepts a line it gives the same record, and
// it accepts the writer's own lines.
func TestFastRecordAgreesWithEncodingJSON(t *testing.T) {
	for _, line := range fastLines {
		checkFastRecord(t, []byte(line))
	}
	// The writer's own lines (json.Marshal of a Record) take the fast path.
	for _, line := range fastLines[:2] {
		r, err := decodeJSONRecord([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := fastRecord(data); !ok || !reflect.DeepEqual(got, r) {
			t.Errorf("the writer's line %s: fast path %v, %+v", data, ok, got)
		}
	}
}

// checkFastRecord fails t when fastRecord accepts line and encoding/json
// refuses it or reads another record.
func checkFastRecord(t *testing.T, line []byte) {
	t.Helper()
	fast, ok := fastRecord(line)
	if !ok {
		return
	}
	slow, err := decodeJSONRecord(line)
	if err != nil {
		t.Fatalf("fast path accepts %q, encoding/json refuses it: %v", line, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("line %q: fast path %+v, encoding/json %+v", line, fast, slow)
	}
}

// FuzzFastRecord checks on any line that the fast decoder accepts only
// what encoding/json accepts, and reads it the same.
func FuzzFastRecord(f *testing.F) {
	for _, l := range fastLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkFastRecord(t, line) })
}
