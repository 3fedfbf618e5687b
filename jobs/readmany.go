package jobs

import (
	"slices"

	"github.com/jobdeck/jobdeck/model"
)

// ReadMany reads several rings at once, as Read does each: pages[i]
// answers reqs[i], with the code of its error (model.ErrorCode) in Err
// when that job cannot be read. It never waits; JobRead.Seen is ignored.
func (t *Table) ReadMany(reqs []model.JobRead) []model.JobPage {
	pages := make([]model.JobPage, len(reqs))
	for i, r := range reqs {
		pages[i] = t.readPage(r)
	}
	return pages
}

// Frame is what a console's frame needs in one call: every job's snapshot
// (as List) and then the pages of reqs (as ReadMany), except that a read
// whose Seen is the job's progress as just listed is skipped and answered
// Same: the reader already holds that window. It never waits.
func (t *Table) Frame(reqs []model.JobRead) ([]model.Snapshot, []model.JobPage) {
	list := t.List()
	pages := make([]model.JobPage, len(reqs))
	for i, r := range reqs {
		if r.Seen != nil {
			j := slices.IndexFunc(list, func(s model.Snapshot) bool { return s.ID == r.ID })
			if j >= 0 && model.ProgressOf(list[j]) == *r.Seen {
				pages[i].Same = true
				continue
			}
		}
		pages[i] = t.readPage(r)
	}
	return list, pages
}

// readPage is one read of ReadMany or Frame.
func (t *Table) readPage(r model.JobRead) model.JobPage {
	p, err := t.Read(r.ID, r.Req)
	page := model.JobPage{Page: p}
	if err != nil {
		page.Err = model.ErrorCode(err)
	}
	return page
}
