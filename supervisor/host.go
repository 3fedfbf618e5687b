package supervisor

// HostJobs prepares the process that hosts the jobs core (jobdeck), before
// it starts any job: it ends what jobdecks that died left behind
// (CleanStaleCgroups, CleanStaleDirs), and it makes this process adopt
// the orphans of supervisors that die (AdoptOrphans). The error is
// AdoptOrphans': jobs still run without it, but what a dead supervisor's
// job started in a session of its own and without markers is not found.
func HostJobs() error {
	CleanStaleCgroups()
	CleanStaleDirs()
	return AdoptOrphans()
}
