package sanitize

import "testing"

// fuzzSeeds adds every table input as a seed.
func fuzzSeeds(f *testing.F) {
	for _, it := range case23 {
		f.Add([]byte(it.line()))
	}
	for _, tc := range case24 {
		if len(tc.in) < 1024 { // not the 1 MiB line
			f.Add([]byte(tc.in))
		}
	}
	for _, tc := range case21 {
		f.Add([]byte(tc.in))
	}
	for _, tc := range rows {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(benchHostile))
}

// FuzzPlain asserts the Plain contract on any input: valid UTF-8, no control
// byte but TAB, no DEL, no C1 or bidi control, idempotent, and AppendPlain
// agreeing with Plain.
func FuzzPlain(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		p := Plain(in)
		if v := plainViolation(p); v != "" {
			t.Fatalf("Plain(%q) = %q: %s", in, p, v)
		}
		if again := Plain([]byte(p)); again != p {
			t.Fatalf("Plain not idempotent on %q: %q then %q", in, p, again)
		}
		if got := string(AppendPlain([]byte("x"), in)); got != "x"+p {
			t.Fatalf("AppendPlain(x, %q) = %q, want %q", in, got, "x"+p)
		}
	})
}

// FuzzStyled asserts the Styled contract on any input: valid UTF-8, no
// control byte but the ESC of normalised SGRs, no attribute left set at the
// end, no TAB, the same text as Plain with tabs expanded, idempotent.
func FuzzStyled(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		checkAll(t, in)
	})
}
