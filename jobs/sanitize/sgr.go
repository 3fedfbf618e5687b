package sanitize

import "strconv"

// maxParam caps parsed parameter values; anything larger is out of range
// for every attribute and colour, and the cap keeps the arithmetic bounded.
const maxParam = 1 << 16

// paramReader walks the parameters of an SGR (the bytes between "ESC [" and
// "m": digits, ';' and ':'). An empty parameter is missing (-1). Like every
// CSI, an empty parameter list is one missing parameter.
type paramReader struct {
	b    []byte
	i    int
	done bool
}

// next returns the next parameter, -1 if it is empty, and whether a ':'
// follows it (its sub-parameters come next). ok is false at the end.
func (p *paramReader) next() (v int, colon bool, ok bool) {
	if p.done {
		return 0, false, false
	}
	v = -1
	for p.i < len(p.b) {
		c := p.b[p.i]
		p.i++
		switch {
		case c >= '0' && c <= '9':
			if v < 0 {
				v = 0
			}
			if v < maxParam {
				v = v*10 + int(c-'0')
			}
		case c == ':':
			return v, true, true
		default: // ';'
			return v, false, true
		}
	}
	p.done = true
	return v, false, true
}

// skipSubs consumes the remaining sub-parameters of a parameter that was
// followed by ':'.
func (p *paramReader) skipSubs(colon bool) {
	for colon {
		_, colon, _ = p.next()
	}
}

// sgrWriter appends the normalised SGR: "\x1b[" then the kept attributes
// separated by ';', then 'm'.
type sgrWriter struct {
	dst   []byte
	mark  int  // len(dst) before the sequence
	count int  // attributes written
	reset bool // the last attribute written was a reset (0)
}

func (w *sgrWriter) attr(v int) {
	if w.count == 0 {
		w.dst = append(w.dst, "\x1b["...)
	} else {
		w.dst = append(w.dst, ';')
	}
	w.dst = strconv.AppendInt(w.dst, int64(v), 10)
	w.count++
	w.reset = v == 0
}

func (w *sgrWriter) color(base int, c extColor) {
	w.attr(base)
	if c.indexed {
		w.dst = append(w.dst, ";5;"...)
		w.dst = strconv.AppendInt(w.dst, int64(c.r), 10)
	} else {
		w.dst = append(w.dst, ";2;"...)
		w.dst = strconv.AppendInt(w.dst, int64(c.r), 10)
		w.dst = append(w.dst, ';')
		w.dst = strconv.AppendInt(w.dst, int64(c.g), 10)
		w.dst = append(w.dst, ';')
		w.dst = strconv.AppendInt(w.dst, int64(c.b), 10)
	}
	w.reset = false
}

// appendSGR appends the normalised form of the SGR whose parameter bytes are
// body (see the package documentation for what is kept) and returns the
// buffer and whether an attribute is left set afterwards; dirty is that state
// before this SGR. An SGR with nothing kept appends nothing.
func appendSGR(dst, body []byte, dirty bool) ([]byte, bool) {
	w := sgrWriter{dst: dst, mark: len(dst)}
	p := paramReader{b: body}
	for {
		v, colon, ok := p.next()
		if !ok {
			break
		}
		switch {
		case v == 38 || v == 48:
			if c, ok := readColor(&p, colon); ok {
				w.color(v, c)
			}
		case v == 58:
			readColor(&p, colon) // underline colour: consumed, dropped
		case v == 4 && colon:
			// Underline style (4:0 none, 4:1 single, 4:3 curly …).
			style, more, _ := p.next()
			p.skipSubs(more)
			if style <= 0 {
				w.attr(24)
			} else {
				w.attr(4)
			}
		default:
			p.skipSubs(colon)
			if v < 0 {
				v = 0
			}
			if keptAttr(v) {
				w.attr(v)
			}
		}
	}
	if w.count == 0 {
		return w.dst, dirty
	}
	if w.count == 1 && w.reset {
		// A lone reset is written the short way, as ansi.ResetStyle.
		w.dst = append(w.dst[:w.mark], "\x1b["...)
	}
	w.dst = append(w.dst, 'm')
	return w.dst, !w.reset
}

// keptAttr reports whether the single-number SGR attribute v is kept.
func keptAttr(v int) bool {
	switch {
	case v <= 7, v == 9, v >= 21 && v <= 25, v == 27, v == 29:
		return true
	case v >= 30 && v <= 37, v == 39, v >= 40 && v <= 47, v == 49:
		return true
	case v == 53, v == 55, v >= 90 && v <= 97, v >= 100 && v <= 107:
		return true
	}
	return false
}

// extColor is an extended colour: a palette index in r when indexed, else
// an RGB triple.
type extColor struct {
	indexed bool
	r, g, b int
}

// readColor reads the arguments of an extended colour attribute (38, 48,
// 58) whose number was just read; colon says they follow as sub-parameters.
// Forms, per ITU T.416 and xterm's ctlseqs ("CSI Pm m"):
//
//	38;5;n       38;2;r;g;b          (";" form, xterm and most terminals)
//	38:5:n       38:2:r:g:b  38:2:cs:r:g:b  (":" form, T.416; more
//	                                         sub-parameters are ignored)
//
// ok is false, with the arguments still consumed, when the colour type is
// not 2 or 5, an argument is missing, or a value is above 255.
func readColor(p *paramReader, colon bool) (extColor, bool) {
	var args [6]int
	n := 0
	if colon {
		for more := true; more; {
			var v int
			v, more, _ = p.next()
			if n < len(args) {
				args[n] = v
				n++
			}
		}
		if args[0] == 2 && n >= 5 {
			// 38:2:cs:r:g:b, the colour space id usually empty.
			return rgb(args[2], args[3], args[4])
		}
	} else {
		var more bool
		args[0], more, _ = p.next()
		p.skipSubs(more)
		n = 1
		want := 0
		switch args[0] {
		case 5:
			want = 1
		case 2:
			want = 3
		}
		for ; n <= want; n++ {
			var ok bool
			args[n], more, ok = p.next()
			p.skipSubs(more)
			if !ok {
				return extColor{}, false
			}
		}
	}
	switch {
	case n >= 2 && args[0] == 5 && args[1] >= 0 && args[1] <= 255:
		return extColor{indexed: true, r: args[1]}, true
	case n == 4 && args[0] == 2:
		return rgb(args[1], args[2], args[3])
	}
	return extColor{}, false
}

// rgb checks an RGB triple; a missing value (-1) counts as 0, as in
// "38:2::0:0:255" only the colour space is usually left empty.
func rgb(r, g, b int) (extColor, bool) {
	c := extColor{r: max(r, 0), g: max(g, 0), b: max(b, 0)}
	if c.r > 255 || c.g > 255 || c.b > 255 {
		return extColor{}, false
	}
	return c, true
}
