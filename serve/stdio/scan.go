package stdio

import "unicode/utf8"

// The scanner's validating half: one pass over a line, no allocation.
// It is the line filter's whole cost for most messages, so it works on
// bytes directly (see BenchmarkLineFilter).

// value checks one JSON value at s.i.
func (s *scanner) value() *frameError {
	if s.i >= len(s.b) {
		return errNotJSON
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		return s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return errNotJSON
}

// enter counts one more level of nesting.
func (s *scanner) enter() *frameError {
	s.depth++
	if s.depth > maxDepth {
		return errTooDeep
	}
	return nil
}

func (s *scanner) object() *frameError {
	if ferr := s.enter(); ferr != nil {
		return ferr
	}
	s.i++ // '{'
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return errNotJSON
		}
		if ferr := s.str(); ferr != nil {
			return ferr
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return errNotJSON
		}
		s.i++
		s.space()
		if ferr := s.value(); ferr != nil {
			return ferr
		}
		s.space()
		if s.i >= len(s.b) {
			return errNotJSON
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return errNotJSON
		}
	}
}

func (s *scanner) array() *frameError {
	if ferr := s.enter(); ferr != nil {
		return ferr
	}
	s.i++ // '['
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if ferr := s.value(); ferr != nil {
			return ferr
		}
		s.space()
		if s.i >= len(s.b) {
			return errNotJSON
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.space()
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return errNotJSON
		}
	}
}

// str checks a string: no raw control bytes, valid escapes, valid UTF-8.
func (s *scanner) str() *frameError {
	b := s.b
	i := s.i + 1
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			s.i = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(b) {
				return errNotJSON
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return errNotJSON
				}
				i += 6
			default:
				return errNotJSON
			}
		case c < 0x20:
			return errNotJSON
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return errNotUTF8
			}
			i += size
		}
	}
	return errNotJSON
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() *frameError {
	b, i := s.b, s.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return errNotJSON
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return errNotJSON
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return errNotJSON
		}
		i = j
	}
	s.i = i
	return nil
}

// digits returns the index after the run of digits at i.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func (s *scanner) literal(word string) *frameError {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return errNotJSON
	}
	s.i += len(word)
	return nil
}

// skip moves past one value, which should be valid JSON text; on other
// text it stops somewhere after s.i, never past the end.
func (s *scanner) skip() {
	b := s.b
	if s.i >= len(b) {
		return
	}
	switch b[s.i] {
	case '"':
		i := s.i + 1
		for i < len(b) && b[i] != '"' {
			if b[i] == '\\' {
				i++
			}
			i++
		}
		s.i = min(i+1, len(b))
	case '{', '[':
		depth := 0
		for i := s.i; i < len(b); i++ {
			switch b[i] {
			case '"':
				s.i = i
				s.skip()
				i = s.i - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i = i + 1
					return
				}
			}
		}
		s.i = len(b)
	default:
		i := s.i
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				s.i = max(i, s.i+1)
				return
			}
			i++
		}
		s.i = i
	}
}
