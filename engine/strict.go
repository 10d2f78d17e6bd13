package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeStrict decodes one JSON value from data into v (a pointer) more
// strictly than encoding/json, for files people write by hand (configs,
// maps) where a typo must not pass silently:
//
//   - the input must be one JSON value: empty input, and data after the
//     value ({"rows":40} xyz), are errors;
//   - where v expects an object, the input must be an object, not null;
//   - object keys must be the field names exactly: encoding/json matches
//     them case-insensitively ("ROWS" would set rows), here a key that is
//     not a field name is an unknown field, at any depth, and a key given
//     twice is an error;
//   - a JSON array decoded into a Go array must have exactly its length
//     (encoding/json pads [1] to [1, 0] and drops extra elements).
//
// Errors name the field by its path (cores[1].owner) and the offending
// key or value. Types that implement json.Unmarshaler are decoded by their
// own method and not checked inside.
func DecodeStrict(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("DecodeStrict needs a non-nil pointer, not %T", v)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return errors.New("empty input; want a JSON value")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return fmt.Errorf("unexpected data after the JSON value: %w", err)
		}
		return fmt.Errorf("unexpected data after the JSON value: %v", tok)
	}
	t := rv.Type().Elem()
	if isObjectType(t) && string(raw) == "null" {
		return errors.New("null is not allowed; want a JSON object")
	}
	if err := checkStrict(raw, t, ""); err != nil {
		return err
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// selfDecoding reports whether values of t decode themselves.
func selfDecoding(t reflect.Type) bool {
	return t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType)
}

// isObjectType reports whether t (through pointers) is a struct or a map
// that encoding/json fills from an object.
func isObjectType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return !selfDecoding(t) && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map)
}

// checkStrict walks raw alongside the Go type t. path names raw for errors.
func checkStrict(raw json.RawMessage, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	raw = bytes.TrimSpace(raw)
	if selfDecoding(t) || string(raw) == "null" || len(raw) == 0 {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if raw[0] != '{' {
			return nil // a type error: encoding/json names it
		}
		fields := map[string]reflect.Type{}
		jsonFields(t, fields)
		seen := map[string]bool{}
		return eachMember(raw, func(key string, val json.RawMessage) error {
			ft, ok := fields[key]
			if !ok {
				for name := range fields {
					if strings.EqualFold(name, key) {
						return fmt.Errorf("unknown field %q%s (did you mean %q? field names are case-sensitive)", key, in(path), name)
					}
				}
				return fmt.Errorf("unknown field %q%s", key, in(path))
			}
			if seen[key] {
				return fmt.Errorf("field %q is given twice%s", key, in(path))
			}
			seen[key] = true
			return checkStrict(val, ft, join(path, key))
		})
	case reflect.Map:
		if raw[0] != '{' {
			return nil
		}
		seen := map[string]bool{}
		return eachMember(raw, func(key string, val json.RawMessage) error {
			if seen[key] {
				return fmt.Errorf("key %q is given twice%s", key, in(path))
			}
			seen[key] = true
			return checkStrict(val, t.Elem(), join(path, key))
		})
	case reflect.Slice, reflect.Array:
		if raw[0] != '[' {
			return nil
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return err
		}
		if t.Kind() == reflect.Array && len(elems) != t.Len() {
			return fmt.Errorf("%s = %s has %d element(s); want exactly %d", orValue(path), raw, len(elems), t.Len())
		}
		for i, e := range elems {
			if err := checkStrict(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields collects the JSON names of t's exported fields (promoted ones
// of embedded structs included) with their types.
func jsonFields(t reflect.Type, out map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFields(ft, out)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
}

// eachMember calls fn for every member of the JSON object raw, in order.
func eachMember(raw json.RawMessage, fn func(key string, val json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '{'
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		if err := fn(tok.(string), val); err != nil {
			return err
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func in(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

func orValue(path string) string {
	if path == "" {
		return "the value"
	}
	return path
}
