package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// explainArguments says in plain words what is wrong with raw as the
// arguments of a tool whose input schema is s: not an object, a missing
// or unknown argument, a value of the wrong type or out of range. It
// returns "" when it finds nothing wrong (the SDK's message is used then).
func explainArguments(s *jsonschema.Schema, raw json.RawMessage) string {
	var args map[string]json.RawMessage
	if !isObject(raw) || json.Unmarshal(raw, &args) != nil {
		return "arguments must be a JSON object"
	}
	var problems []string
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			problems = append(problems, fmt.Sprintf("%q is missing", name))
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		prop := s.Properties[name]
		if prop == nil {
			problems = append(problems, fmt.Sprintf("there is no argument %s", shortValue([]byte(strconv.Quote(name)))))
			continue
		}
		if !fits(prop, args[name]) {
			problems = append(problems, fmt.Sprintf("%q must be %s, not %s", name, describe(prop), shortValue(args[name])))
		}
	}
	return strings.Join(problems, "; ")
}

// wholeNumbers rewrites the integer arguments of raw that are written as
// integral floats (5.0, 1e3) as plain integers, so that they decode into
// Go integers as the schema lets them (explainArguments took them as
// whole numbers). raw must have passed explainArguments.
func wholeNumbers(s *jsonschema.Schema, raw json.RawMessage) json.RawMessage {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return raw
	}
	changed := false
	for name, v := range args {
		prop := s.Properties[name]
		t := bytes.TrimSpace(v)
		if prop == nil || prop.Type != "integer" || !bytes.ContainsAny(t, ".eE") {
			continue
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			continue
		}
		args[name] = json.RawMessage(strconv.FormatInt(int64(f), 10))
		changed = true
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(args)
	if err != nil {
		return raw
	}
	return out
}

// fits reports whether v satisfies the subset of JSON Schema this
// package's input schemas use: type, minimum, maximum, minLength, anyOf.
func fits(s *jsonschema.Schema, v json.RawMessage) bool {
	if len(s.AnyOf) > 0 {
		for _, alt := range s.AnyOf {
			if fits(alt, v) {
				return true
			}
		}
		return false
	}
	v = bytes.TrimSpace(v)
	switch s.Type {
	case "string":
		var str string
		if json.Unmarshal(v, &str) != nil || len(v) == 0 || v[0] != '"' {
			return false
		}
		return s.MinLength == nil || len([]rune(str)) >= *s.MinLength
	case "boolean":
		return bytes.Equal(v, []byte("true")) || bytes.Equal(v, []byte("false"))
	case "integer", "number":
		if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
			return false
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || (s.Type == "integer" && f != math.Trunc(f)) {
			return false
		}
		return (s.Minimum == nil || f >= *s.Minimum) && (s.Maximum == nil || f <= *s.Maximum)
	}
	return true
}

// describe says what a value of schema s looks like: "a whole number from
// 1 to 2000", "true or false", "a job ID (a whole number from 0) or a
// non-empty string".
func describe(s *jsonschema.Schema) string {
	if len(s.AnyOf) > 0 {
		parts := make([]string, len(s.AnyOf))
		for i, alt := range s.AnyOf {
			parts[i] = describe(alt)
		}
		return strings.Join(parts, " or ")
	}
	switch s.Type {
	case "string":
		if s.MinLength != nil && *s.MinLength > 0 {
			return "a non-empty string"
		}
		return "a string"
	case "boolean":
		return "true or false"
	case "integer", "number":
		what := "a number"
		if s.Type == "integer" {
			what = "a whole number"
		}
		num := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
		switch {
		case s.Minimum != nil && s.Maximum != nil:
			return fmt.Sprintf("%s from %s to %s", what, num(s.Minimum), num(s.Maximum))
		case s.Minimum != nil:
			return fmt.Sprintf("%s from %s up", what, num(s.Minimum))
		case s.Maximum != nil:
			return fmt.Sprintf("%s up to %s", what, num(s.Maximum))
		}
		return what
	}
	return "a valid value"
}

// maxValueShown is how many bytes of a bad value a message quotes.
const maxValueShown = 60

// shortValue is a JSON value for a message, cut to maxValueShown bytes.
func shortValue(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > maxValueShown {
		cut := maxValueShown
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
