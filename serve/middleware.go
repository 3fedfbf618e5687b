package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// methodCallTool is the JSON-RPC method of a tool call.
const methodCallTool = "tools/call"

// middleware wraps every incoming request. For tool calls it:
//   - drops arguments given as null (null means "not given"), so that the
//     schemas need no nullable types;
//   - turns a panic below it into a tool error instead of a crash;
//   - rewrites the SDK's own argument errors (wrong type, out of range,
//     unknown field, not an object) into a message that names the problem
//     and shows what the tool takes;
//   - appends the finished-job notes to every error result.
func (s *server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		// A client's first request (its initialize) meets it: the jobs
		// that finished before it came are not noted to it.
		s.requestKey(req)
		call, ok := req.(*mcp.CallToolRequest)
		if method != methodCallTool || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		s.forgetClosedSessions()
		call.Params.Arguments = normalizeArguments(call.Params.Arguments)
		defer func() {
			if p := recover(); p != nil {
				r := &mcp.CallToolResult{}
				r.SetError(&toolError{fmt.Errorf("internal error in %s (%v): this is a jobdeck bug; the job table is unchanged, try again or use job_status", call.Params.Name, p)})
				res, err = r, nil
			}
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r != nil && r.IsError {
				s.explainError(call, r)
			}
		}()
		return next(ctx, method, req)
	}
}

// explainError rewrites an error result's text: argument errors from the
// SDK get the tool's argument help, every error gets the notes.
func (s *server) explainError(call *mcp.CallToolRequest, r *mcp.CallToolResult) {
	msg := resultText(r)
	var te *toolError
	if !errors.As(r.GetError(), &te) {
		detail := ""
		if schema := s.inputs[call.Params.Name]; schema != nil {
			detail = explainArguments(schema, call.Params.Arguments)
		}
		if detail == "" {
			detail = shorten(strings.TrimPrefix(msg, `validating "arguments": `))
		}
		msg = "invalid arguments: " + detail
		if help, ok := argumentsHelp[call.Params.Name]; ok {
			msg += "\n" + help
		}
	}
	now := s.opts.now()
	notes := s.notes.take(s.noteKey(call), s.core.List())
	r.Content = []mcp.Content{&mcp.TextContent{Text: withNotes(plainString(msg), notes, now)}}
}

// resultText joins the text contents of r.
func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// normalizeArguments removes null-valued members from a JSON object and
// turns absent or null arguments into {}. Anything else is returned
// unchanged, for the SDK's validation to reject.
func normalizeArguments(raw json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage("{}")
	}
	if trimmed[0] != '{' {
		return raw
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return raw
	}
	changed := false
	for k, v := range m {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(m, k)
			changed = true
		}
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

// forgetClosedSessions drops the notes of sessions that have ended
// (sessionless clients' notes go by notebook.touch).
func (s *server) forgetClosedSessions() {
	live := map[any]bool{}
	for ss := range s.mcp.Sessions() {
		live[ss] = true
	}
	s.notes.forget(func(k any) bool {
		_, client := k.(clientKey)
		return client || live[k]
	})
}

// maxErrorLine is the longest line of an SDK error message kept: the
// SDK's validation errors quote the offending value, which may be huge.
const maxErrorLine = 300

// shorten cuts every line of msg to maxErrorLine bytes (at a rune
// boundary), marking the cut with "…".
func shorten(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		if len(l) > maxErrorLine {
			cut := maxErrorLine
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut] + "…"
		}
	}
	return strings.Join(lines, "\n")
}
