package model

import "fmt"

// TermSize is the size of a job's terminal (its pty), in character cells.
// The zero value means the jobs core's default (160 columns by 40 rows).
type TermSize struct {
	// Cols and Rows are the width and height in cells: 1 to MaxTermCells
	// each, or both zero for the default.
	Cols, Rows int
}

// IsZero reports whether s is the zero value (the default size).
func (s TermSize) IsZero() bool { return s.Cols == 0 && s.Rows == 0 }

// String returns "80×24".
func (s TermSize) String() string { return fmt.Sprintf("%d×%d", s.Cols, s.Rows) }

// MaxTermCells bounds each side of a TermSize: 4096 cells, more than any
// screen shows, and within the 16 bits a pty's size is held in.
const MaxTermCells = 4096

// FieldSize names the terminal size of a start or a resize in an
// InputError.
const FieldSize = "size"

// CheckTermSize refuses a size with a side below 1 or above MaxTermCells
// (callers that take the zero size for the default check it first). kind
// is ErrBadSpec for a spec, ErrBadRequest for a resize. Errors are
// *InputError (FieldSize).
func CheckTermSize(s TermSize, kind error) error {
	if s.Cols < 1 || s.Rows < 1 || s.Cols > MaxTermCells || s.Rows > MaxTermCells {
		return &InputError{Err: kind, Field: FieldSize, Msg: fmt.Sprintf("a terminal of %d×%d cells: give 1 to %d columns and rows", s.Cols, s.Rows, MaxTermCells)}
	}
	return nil
}
