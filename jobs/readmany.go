package jobs

import "github.com/jobdeck/jobdeck/model"

// ReadMany reads several rings at once, as Read does each: pages[i]
// answers reqs[i], with the code of its error (model.ErrorCode) in Err
// when that job cannot be read. It never waits.
func (t *Table) ReadMany(reqs []model.JobRead) []model.JobPage {
	pages := make([]model.JobPage, len(reqs))
	for i, r := range reqs {
		p, err := t.Read(r.ID, r.Req)
		pages[i] = model.JobPage{Page: p}
		if err != nil {
			pages[i].Err = model.ErrorCode(err)
		}
	}
	return pages
}
