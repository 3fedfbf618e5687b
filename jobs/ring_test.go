package jobs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// refLine is a line as the byte-at-a-time reference splitter produces it.
type refLine struct {
	stream  model.Stream
	text    string
	dropped int64
}

// refSplitter is the obviously-correct (slow) model of the ring's line
// rules: one byte at a time, per stream.
type refSplitter struct {
	cur   [2][]byte
	cr    [2]bool
	lines []refLine
}

func (r *refSplitter) write(s model.Stream, p []byte) {
	for _, c := range p {
		switch c {
		case '\n':
			r.emit(s)
		case '\r':
			r.cr[s] = true
		default:
			if r.cr[s] {
				r.cur[s] = r.cur[s][:0]
				r.cr[s] = false
			}
			r.cur[s] = append(r.cur[s], c)
		}
	}
}

func (r *refSplitter) emit(s model.Stream) {
	full := r.cur[s]
	text, dropped := full, int64(0)
	if len(full) > LineCap {
		cut := runeStart(full, LineCap)
		text, dropped = full[:cut], int64(len(full)-cut)
	}
	r.lines = append(r.lines, refLine{stream: s, text: string(text), dropped: dropped})
	r.cur[s] = nil
	r.cr[s] = false
}

func (r *refSplitter) close(s model.Stream) {
	if len(r.cur[s]) > 0 {
		r.emit(s)
	}
	r.cur[s], r.cr[s] = nil, false
}

// checkAgainst reads the whole ring and checks it holds a suffix of the
// reference lines with the right seqs, and at least want lines of it.
func checkAgainst(t *testing.T, r *ring, ref *refSplitter, want int) {
	t.Helper()
	p := r.read(model.ReadRequest{NoPartial: true})
	if p.Last != uint64(len(ref.lines)) {
		t.Fatalf("Last = %d, reference has %d lines", p.Last, len(ref.lines))
	}
	if len(p.Lines) < want {
		t.Fatalf("ring holds %d lines, want at least %d", len(p.Lines), want)
	}
	if len(p.Lines) > RingLines {
		t.Fatalf("ring holds %d lines, more than %d", len(p.Lines), RingLines)
	}
	if got := p.Dropped + uint64(len(p.Lines)); got != p.Last {
		t.Fatalf("dropped %d + held %d != last %d", p.Dropped, len(p.Lines), p.Last)
	}
	for i, l := range p.Lines {
		wantSeq := p.Dropped + uint64(i) + 1
		if l.Seq != wantSeq {
			t.Fatalf("line %d has seq %d, want %d", i, l.Seq, wantSeq)
		}
		rl := ref.lines[l.Seq-1]
		if string(l.Text) != rl.text || l.Stream != rl.stream || l.Dropped != rl.dropped {
			t.Fatalf("seq %d: got (%v %q dropped %d), want (%v %q dropped %d)",
				l.Seq, l.Stream, trunc(l.Text), l.Dropped, rl.stream, trunc([]byte(rl.text)), rl.dropped)
		}
	}
}

func trunc(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return string(b)
}

func TestRingBasics(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		chunks  []string // "o:" or "e:" prefix picks the stream
		want    []string // complete lines as "stream text"
		partial []string
	}{
		{"lines", []string{"o:a\nb\n"}, []string{"out a", "out b"}, nil},
		{"split across chunks", []string{"o:he", "o:llo\nwor", "o:ld\n"}, []string{"out hello", "out world"}, nil},
		{"partial prompt", []string{"o:Password: "}, nil, []string{"out Password: "}},
		{"prompt answered", []string{"o:prompt> ", "o:answer\n", "o:tail"}, []string{"out prompt> answer"}, []string{"out tail"}},
		{"crlf", []string{"o:crlf 1\r\ncrlf 2\r\n"}, []string{"out crlf 1", "out crlf 2"}, nil},
		{"cr across chunks", []string{"o:50%\r", "o:\n"}, []string{"out 50%"}, nil},
		{"cr replaces", []string{"o:10%\r20%\r", "o:100%\n"}, []string{"out 100%"}, nil},
		{"cr replaces open", []string{"o:\r10%", "o:\r20%"}, nil, []string{"out 20%"}},
		{"erase line after cr", []string{"o:\r\x1b[2K⠋ building… 1", "o:\r\x1b[2Kbuilt\n"}, []string{"out \x1b[2Kbuilt"}, nil},
		{"streams interleave", []string{"o:out1 ", "e:err1\n", "o:more\n"}, []string{"err err1", "out out1 more"}, nil},
		{"both partial", []string{"o:a", "e:b"}, nil, []string{"out a", "err b"}},
		{"split rune held back", []string{"o:caf\xc3"}, nil, []string{"out caf"}},
		{"split rune joined", []string{"o:caf\xc3", "o:\xa9\n"}, []string{"out café"}, nil},
		{"empty lines", []string{"o:\n\n"}, []string{"out ", "out "}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var r ring
			for _, ch := range c.chunks {
				s := model.StreamOut
				if ch[:2] == "e:" {
					s = model.StreamErr
				}
				r.write(s, []byte(ch[2:]), t0)
			}
			p := r.read(model.ReadRequest{})
			var got, part []string
			for _, l := range p.Lines {
				got = append(got, l.Stream.String()+" "+string(l.Text))
			}
			for _, l := range p.Partial {
				part = append(part, l.Stream.String()+" "+string(l.Text))
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("lines = %q, want %q", got, c.want)
			}
			if strings.Join(part, "|") != strings.Join(c.partial, "|") {
				t.Errorf("partial = %q, want %q", part, c.partial)
			}
		})
	}
}

func TestRingCloseFlushesOpenLine(t *testing.T) {
	t.Parallel()
	var r ring
	r.write(model.StreamOut, []byte("x\ntail-without-newline"), t0)
	r.closeStream(model.StreamOut, t0)
	p := r.read(model.ReadRequest{})
	if len(p.Lines) != 2 || string(p.Lines[1].Text) != "tail-without-newline" || len(p.Partial) != 0 {
		t.Fatalf("after close: lines %v partial %v", p.Lines, p.Partial)
	}
}

func TestRingProgressBarIsOneLine(t *testing.T) {
	t.Parallel()
	var r ring
	for i := 0; i <= 100; i++ {
		r.write(model.StreamOut, fmt.Appendf(nil, "\rdownload [%-10s] %3d%%", strings.Repeat("#", i/10), i), t0)
	}
	r.write(model.StreamOut, []byte("\n"), t0)
	p := r.read(model.ReadRequest{})
	if len(p.Lines) != 1 || !bytes.HasSuffix(p.Lines[0].Text, []byte("100%")) {
		t.Fatalf("got %d lines %v; want one line ending in 100%%", len(p.Lines), p.Lines)
	}
}

func TestRingLineCap(t *testing.T) {
	t.Parallel()
	t.Run("one chunk", func(t *testing.T) {
		var r ring
		r.write(model.StreamOut, append(bytes.Repeat([]byte("x"), LineCap+100), '\n'), t0)
		p := r.read(model.ReadRequest{})
		if len(p.Lines[0].Text) != LineCap || p.Lines[0].Dropped != 100 {
			t.Fatalf("kept %d dropped %d", len(p.Lines[0].Text), p.Lines[0].Dropped)
		}
	})
	t.Run("50 MB across chunks", func(t *testing.T) {
		var r ring
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		r.write(model.StreamOut, []byte("BEFORE\n"), t0)
		for range 50 << 20 / len(chunk) {
			r.write(model.StreamOut, chunk, t0)
		}
		r.write(model.StreamOut, []byte("\nAFTER\n"), t0)
		p := r.read(model.ReadRequest{})
		if len(p.Lines) != 3 || string(p.Lines[2].Text) != "AFTER" {
			t.Fatalf("lines: %d", len(p.Lines))
		}
		if l := p.Lines[1]; len(l.Text) != LineCap || l.Dropped != 50<<20-LineCap {
			t.Fatalf("huge line kept %d dropped %d", len(l.Text), l.Dropped)
		}
		if st := r.stats(); st.droppedBytes != 50<<20-LineCap {
			t.Fatalf("droppedBytes = %d", st.droppedBytes)
		}
	})
	t.Run("cap cuts on a rune boundary", func(t *testing.T) {
		var r ring
		line := strings.Repeat("a", LineCap-1) + "é" + "tail\n"
		r.write(model.StreamOut, []byte(line), t0)
		p := r.read(model.ReadRequest{})
		if !utf8.Valid(p.Lines[0].Text) || len(p.Lines[0].Text) != LineCap-1 {
			t.Fatalf("kept %d bytes, valid %v", len(p.Lines[0].Text), utf8.Valid(p.Lines[0].Text))
		}
	})
}

func TestRingFloodKeepsLastLines(t *testing.T) {
	t.Parallel()
	var r ring
	var ref refSplitter
	var buf []byte
	n := 0
	for n < 1_000_000 {
		buf = buf[:0]
		for len(buf) < 12<<10 {
			n++
			buf = fmt.Appendf(buf, "%d\n", n)
		}
		r.write(model.StreamOut, buf, t0)
		ref.write(model.StreamOut, buf)
	}
	checkAgainst(t, &r, &ref, RingLines)
	p := r.read(model.ReadRequest{Limit: 1, Tail: true})
	if got := string(p.Lines[0].Text); got != fmt.Sprint(n) {
		t.Fatalf("last line %q, want %d", got, n)
	}
}

func TestRingByteBudget(t *testing.T) {
	t.Parallel()
	var r ring
	line := append(bytes.Repeat([]byte("w"), LineCap-1), '\n')
	for range 3000 {
		r.write(model.StreamOut, line, t0)
	}
	st := r.stats()
	held := st.last - st.first + 1
	if held > RingBytes/LineCap || held < RingBytes/LineCap/2 {
		t.Fatalf("held %d lines of %d bytes; budget allows %d", held, LineCap, RingBytes/LineCap)
	}
	if len(r.arena) > RingBytes {
		t.Fatalf("arena grew to %d bytes, budget %d", len(r.arena), RingBytes)
	}
	p := r.read(model.ReadRequest{})
	if p.Dropped+uint64(len(p.Lines)) != 3000 {
		t.Fatalf("dropped %d + held %d != 3000", p.Dropped, len(p.Lines))
	}
}

func TestRingCursor(t *testing.T) {
	t.Parallel()
	var r ring
	for i := 1; i <= 2500; i++ {
		r.write(model.StreamOut, fmt.Appendf(nil, "line %d\n", i), t0)
	}
	cases := []struct {
		name                         string
		req                          model.ReadRequest
		first, n                     int
		dropped, skipped, more, next uint64
	}{
		{"tail 50", model.ReadRequest{Limit: 50, Tail: true}, 2451, 50, 500, 1950, 0, 2500},
		{"since old cursor", model.ReadRequest{After: 100, Limit: 10}, 501, 10, 400, 0, 1990, 510},
		{"since recent", model.ReadRequest{After: 2490}, 2491, 10, 0, 0, 0, 2500},
		{"since last", model.ReadRequest{After: 2500}, 0, 0, 0, 0, 0, 2500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := r.read(c.req)
			if len(p.Lines) != c.n || p.Dropped != c.dropped || p.Skipped != c.skipped || p.More != c.more || p.Next != c.next {
				t.Fatalf("got n=%d dropped=%d skipped=%d more=%d next=%d; want n=%d dropped=%d skipped=%d more=%d next=%d",
					len(p.Lines), p.Dropped, p.Skipped, p.More, p.Next, c.n, c.dropped, c.skipped, c.more, c.next)
			}
			if c.n > 0 && string(p.Lines[0].Text) != fmt.Sprintf("line %d", c.first) {
				t.Fatalf("first line %q, want line %d", p.Lines[0].Text, c.first)
			}
		})
	}
}

// TestRingRandomAgainstReference feeds random chunks of random lines (with
// \r, \r\n, long lines, multi-byte runes, both streams) to the ring and to
// the byte-at-a-time reference, reading at random moments.
func TestRingRandomAgainstReference(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var r ring
			var ref refSplitter
			pieces := []string{"a", "bc", "é", "日本", "\n", "\n", "\n", "\r", "\r\n", "x\ry", "\x1b[31m", "😀"}
			for step := 0; step < 400; step++ {
				s := model.Stream(rng.IntN(2))
				var chunk []byte
				switch rng.IntN(10) {
				case 0: // a long line
					chunk = append(chunk, bytes.Repeat([]byte("L"), rng.IntN(3*LineCap))...)
				case 1: // a flood of short lines
					for range rng.IntN(5000) {
						chunk = append(chunk, "f\n"...)
					}
				default:
					for range rng.IntN(200) {
						chunk = append(chunk, pieces[rng.IntN(len(pieces))]...)
					}
				}
				// split the chunk at a random byte, even inside a rune
				cut := 0
				if len(chunk) > 0 {
					cut = rng.IntN(len(chunk) + 1)
				}
				r.write(s, chunk[:cut], t0)
				r.write(s, chunk[cut:], t0)
				ref.write(s, chunk)
				if rng.IntN(20) == 0 {
					checkAgainst(t, &r, &ref, min(len(ref.lines), 200))
				}
			}
			r.closeStream(model.StreamOut, t0)
			r.closeStream(model.StreamErr, t0)
			ref.close(model.StreamOut)
			ref.close(model.StreamErr)
			checkAgainst(t, &r, &ref, min(len(ref.lines), 200))
		})
	}
}

func TestRingCompact(t *testing.T) {
	t.Parallel()
	var r ring
	for i := range 5000 {
		r.write(model.StreamOut, fmt.Appendf(nil, "%0100d\n", i), t0)
	}
	before := r.read(model.ReadRequest{})
	r.compact()
	after := r.read(model.ReadRequest{})
	if len(r.arena) > 2*2000*101 {
		t.Fatalf("arena %d bytes after compact, want ≤ twice the %d bytes held", len(r.arena), 2000*101)
	}
	if len(before.Lines) != len(after.Lines) || !bytes.Equal(before.Lines[0].Text, after.Lines[0].Text) ||
		!bytes.Equal(before.Lines[len(before.Lines)-1].Text, after.Lines[len(after.Lines)-1].Text) {
		t.Fatal("compact changed the lines")
	}
	r.write(model.StreamOut, []byte("more\n"), t0)
	if p := r.read(model.ReadRequest{Limit: 1, Tail: true}); string(p.Lines[0].Text) != "more" {
		t.Fatalf("write after compact: %q", p.Lines[0].Text)
	}
}

// TestRingReadCursorBeyondLast: a cursor at or past the newest line, up to
// the largest uint64, reads nothing (and never indexes out of the ring).
func TestRingReadCursorBeyondLast(t *testing.T) {
	t.Parallel()
	var empty ring
	for _, r := range []*ring{&empty, func() *ring {
		var r ring
		r.write(model.StreamOut, []byte("a\nb\n"), time.Now())
		return &r
	}()} {
		for _, after := range []uint64{2, 3, 1 << 53, 1<<63 - 1, 1 << 63, ^uint64(0)} {
			p := r.read(model.ReadRequest{After: after, Limit: 10})
			if len(p.Lines) != 0 || p.Dropped != 0 || p.Next != after {
				t.Errorf("after %d: %d lines, %d dropped, next %d", after, len(p.Lines), p.Dropped, p.Next)
			}
		}
	}
}

// TestVisibleHoldsBackEscapes: the open line is shown without an escape
// sequence whose end has not come yet (a split "\x1b[32m" showed its ESC
// as a glyph), and with every complete or broken one.
func TestVisibleHoldsBackEscapes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ok\x1b":             "ok",
		"ok\x1b[":            "ok",
		"ok\x1b[32":          "ok",
		"ok\x1b[32m":         "ok\x1b[32m",
		"ok\x1b]0;title":     "ok",
		"ok\x1b]0;title\x07": "ok\x1b]0;title\x07",
		"ok\x1b]8;;u\x1b\\x": "ok\x1b]8;;u\x1b\\x",
		"ok\x1b(":            "ok",
		"ok\x1b(B":           "ok\x1b(B",
		"ok\x1b[3\n":         "ok\x1b[3\n",
		"plain":              "plain",
		"caf\xc3":            "caf",
		"\x1b[1m" + "\xc3":   "\x1b[1m",
	} {
		if got := string([]byte(in)[:visible([]byte(in))]); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
	long := "x\x1b[" + strings.Repeat("1;", 200)
	if visible([]byte(long)) != len(long) {
		t.Error("an 'escape' longer than maxHeldEscape is shown, not held back")
	}
}
