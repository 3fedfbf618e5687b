package model

// SessionInfo describes the session a console is attached to: the shared
// jobs core of one worktree (or of a named session), and who else uses it.
type SessionInfo struct {
	// Label names the session for people: its worktree's path, or
	// `session "NAME"`. Empty for a private core.
	Label string
	// Short is the label in a word, for titles: the worktree's directory
	// name ("app" for /home/me/src/app), or the session's name in quotes.
	Short string
	// Private reports a core of this process's own, that nobody else can
	// join (jobdeck --private).
	Private bool
	// Self is the ID the session gave this client.
	Self int
	// Clients are the attached clients, oldest first, this one included.
	Clients []Client
}

// Client is one client attached to a session.
type Client struct {
	// ID numbers the client within its session: 1, 2, 3 … in attach order.
	ID int
	// Kind is "console", "mcp" (an agent over stdio) or "http" (agents
	// over streamable HTTP).
	Kind string
	// Name is how the client is shown: "console", or an agent's MCP
	// client name ("claude-code").
	Name string
	// PID is the client process's ID, as the kernel gave it; 0 when not
	// known.
	PID int
}

// Others returns the attached clients other than this one, oldest first.
func (s SessionInfo) Others() []Client {
	var out []Client
	for _, c := range s.Clients {
		if c.ID != s.Self {
			out = append(out, c)
		}
	}
	return out
}
