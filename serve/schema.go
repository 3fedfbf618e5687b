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

// backgroundInputSchema is background's input schema.
func backgroundInputSchema() *jsonschema.Schema {
	// The command's length limits are checked by the handler, whose
	// messages say what to do; the SDK's would quote the whole command.
	return schemaFor[BackgroundArgs]()
}

// statusInputSchema is job_status's input schema, with the bounds of
// lines and wait.
func statusInputSchema() *jsonschema.Schema {
	s := schemaFor[StatusArgs]()
	s.Properties["lines"].Minimum = jsonschema.Ptr(1.0)
	s.Properties["lines"].Maximum = jsonschema.Ptr(float64(model.MaxStatusLines))
	s.Properties["wait"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["wait"].Maximum = jsonschema.Ptr(model.MaxWait.Seconds())
	// A bound the decoder would otherwise enforce in its own words
	// (uint64 overflow, or a float it cannot hold exactly).
	s.Properties["since"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["since"].Maximum = jsonschema.Ptr(float64(model.MaxCursor))
	return s
}

// killInputSchema is job_kill's input schema.
func killInputSchema() *jsonschema.Schema {
	s := schemaFor[KillArgs]()
	s.Properties["grace"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["grace"].Maximum = jsonschema.Ptr(model.MaxGrace.Seconds())
	return s
}

// reportOutputSchema is the output schema of background and job_kill.
func reportOutputSchema() *jsonschema.Schema { return schemaFor[Report]() }

// statusOutputSchema is job_status's output schema: a Report's properties
// plus jobs, none required, since a list has only jobs.
func statusOutputSchema() *jsonschema.Schema {
	s := schemaFor[Report]()
	s.Properties["jobs"] = schemaFor[[]Brief]()
	s.Properties["jobs"].Description = "every job, in ID order (job_status without id)"
	s.PropertyOrder = append(s.PropertyOrder, "jobs")
	s.Required = nil
	return s
}
