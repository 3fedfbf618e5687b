package model

import "strconv"

// signalNames are the Linux signal names by number (signal(7)).
var signalNames = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP",
	6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1",
	11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
	16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP",
	21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR",
	31: "SIGSYS",
}

// SignalName returns the name of signal n as in signal(7) ("SIGTERM"), or
// "signal N" for numbers without a name (real-time signals).
func SignalName(n int) string {
	if n > 0 && n < len(signalNames) && signalNames[n] != "" {
		return signalNames[n]
	}
	return "signal " + strconv.Itoa(n)
}

// Signal numbers that the facts below name (signal(7), the same on every
// Linux architecture jobdeck runs on).
const (
	sigHUP  = 1
	sigINT  = 2
	sigQUIT = 3
	sigKILL = 9
	sigTERM = 15
)

// ForeignSignal is a fact about how a job ended: a signal that jobdeck did
// not send. Signal is the signal's number; ViaShell reports that only the
// exit status says so (bash reports a command killed by signal n as exit
// status 128+n, which a plain `exit 137` gives too).
type ForeignSignal struct {
	Signal   int
	ViaShell bool
}

// ForeignSignal returns the signal that ended the job when jobdeck did not
// send it, and false when there is nothing to say: the job was stopped by
// jobdeck (Stop is set), it ended another way, or its supervisor was lost
// (Err is set, and the exit status is not the job's own). It speaks of
// SIGKILL, SIGTERM, SIGINT, SIGHUP and SIGQUIT as signals, and of exit
// statuses 137 and 143 (SIGKILL and SIGTERM through bash).
func (s Snapshot) ForeignSignal() (ForeignSignal, bool) {
	if s.Exit == nil || s.Stop != nil || s.Err != "" {
		return ForeignSignal{}, false
	}
	switch s.Exit.Signal {
	case sigKILL, sigTERM, sigINT, sigHUP, sigQUIT:
		return ForeignSignal{Signal: s.Exit.Signal}, true
	}
	switch s.Exit.Code {
	case 128 + sigKILL, 128 + sigTERM:
		return ForeignSignal{Signal: s.Exit.Code - 128, ViaShell: true}, true
	}
	return ForeignSignal{}, false
}
