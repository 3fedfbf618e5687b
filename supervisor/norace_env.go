//go:build !race

package supervisor

// supervisorEnv is the supervisor's environment: nil, jobdeck's own.
func supervisorEnv() []string { return nil }
