package serve

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jobdeck/jobdeck/model"
)

// selectorSchema is the schema of a job selector: an ID or a name.
func selectorSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Type: "integer", Minimum: jsonschema.Ptr(0.0)},
		{Type: "string", MinLength: jsonschema.Ptr(1)},
	}}
}

// schemaFor infers the schema of T and makes it portable: nullable types
// (["null","array"] for slices, ["null","integer"] for pointers) become
// their plain type. Null arguments are removed before validation (see
// normalizeArguments), so nothing is lost; outputs never hold null.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[Selector](): selectorSchema()},
	})
	if err != nil {
		// The types are this package's own: a failure is a programming
		// error caught by every test.
		panic(fmt.Sprintf("serve: schema for %v: %v", reflect.TypeFor[T](), err))
	}
	dropNull(s)
	return s
}

// dropNull rewrites every {"type":["null",X]} in s to {"type":X}.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		var kept []string
		for _, t := range s.Types {
			if t != "null" {
				kept = append(kept, t)
			}
		}
		if len(kept) == 1 {
			s.Type, s.Types = kept[0], nil
		} else {
			s.Types = kept
		}
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
	for _, sub := range s.AnyOf {
		dropNull(sub)
	}
	for _, sub := range s.OneOf {
		dropNull(sub)
	}
}

// statusInputSchema is job_status's input schema, with the bounds of its
// numbers.
func statusInputSchema() *jsonschema.Schema {
	s := schemaFor[StatusArgs]()
	bound(s, "lines", 1, model.MaxStatusLines)
	bound(s, "head", 1, model.MaxStatusLines)
	bound(s, "wait", 0, model.MaxWait.Seconds())
	bound(s, "context", 0, model.MaxContext)
	bound(s, "max_bytes", model.MinResultBytes, model.MaxResultBytes)
	// A bound the decoder would otherwise enforce in its own words
	// (uint64 overflow, or a float it cannot hold exactly).
	bound(s, "since", 0, model.MaxCursor)
	return s
}

// backgroundInputSchema is background's input schema. The command's
// length limits are checked by the handler, whose messages say what to
// do; the SDK's would quote the whole command.
func backgroundInputSchema() *jsonschema.Schema {
	s := schemaFor[BackgroundArgs]()
	bound(s, "lines", 1, model.MaxStatusLines)
	bound(s, "wait", 0, model.MaxWait.Seconds())
	return s
}

// killInputSchema is job_kill's input schema.
func killInputSchema() *jsonschema.Schema {
	s := schemaFor[KillArgs]()
	bound(s, "grace", 0, model.MaxGrace.Seconds())
	return s
}

// bound sets the minimum and maximum of property name.
func bound(s *jsonschema.Schema, name string, lo, hi float64) {
	s.Properties[name].Minimum = jsonschema.Ptr(lo)
	s.Properties[name].Maximum = jsonschema.Ptr(hi)
}

// outputSchema is the one output schema of the three tools: a job's report
// (background, job_kill, job_status with an id) or the list of jobs
// (job_status without id). It names the main fields only; the tool
// descriptions and the text teach the rest.
func outputSchema() *jsonschema.Schema {
	str := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }
	num := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} }
	line := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"seq": num(), "stream": str(), "text": str(),
	}}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"id": num(), "status": str(),
			"lines": {Type: "array", Items: line},
			"next":  num(),
			"calls": {Type: "array", Items: str()},
			"wait":  {Type: "object"},
			"jobs":  {Type: "array", Items: &jsonschema.Schema{Type: "object"}},
		},
	}
}
