package process

import "testing"

// TestSimpleCommand: which commands run as the leader itself. When in
// doubt the answer is no (bash then evaluates the command as before), so
// the table is mostly commands that must not pass.
func TestSimpleCommand(t *testing.T) {
	t.Parallel()
	simple := []struct {
		cmd, name string
		at        int
	}{
		{"npm run dev", "npm", 0},
		{"  npm run dev  \n", "npm", 2},
		{"PORT=3000 NODE_ENV=dev npm run dev", "npm", 23},
		{"npm run dev > log.txt 2>&1", "npm", 0},
		{"npm run dev &>log 2>>err <in >|out 3<>rw 4>&- 5<&0", "npm", 0},
		{"2>/dev/null make", "make", 12},
		{"./server --port=8080", "./server", 0},
		{`"/opt/my app/bin" -x`, "/opt/my app/bin", 0},
		{`my\ tool arg`, "my tool", 0},
		{`python3 -c 'import sys; print(1 | 2 & 3)'`, "python3", 0},
		{`echo "a|b" 'c&d' "x;y"`, "echo", 0},
		{`go test ./... -run 'Test(A|B)'`, "go", 0},
		{`find . -name '*.go' -exec grep -l x {} \;`, "find", 0},
		{`cmd "${HOME}/x" ${X:-a} $1 "$@" $$`, "cmd", 0},
		{"cmd # a comment; with | operators", "cmd", 0},
		{"exec npm start", "npm", -1},
		{"FOO=1 exec npm start", "npm", -1},
		{"bash -c 'kill -SEGV $$'", "bash", 0},
	}
	for _, c := range simple {
		name, at, ok := simpleCommand(c.cmd)
		if !ok || name != c.name || at != c.at {
			t.Errorf("simpleCommand(%q) = %q, %d, %v; want %q, %d, true", c.cmd, name, at, ok, c.name, c.at)
		}
	}
	compound := []string{
		"", "   ", "# only a comment", "FOO=1", ">log", "exec >log", "exec", "exec -a name npm", "exec -c npm",
		"a; b", "a;", "a && b", "a || b", "a | b", "a |& b", "a &", "a& b", "(a)", "{ a; }", "a\nb", "a\r",
		"if true; then a; fi", "while :; do :; done", "for i in 1; do a; done", "case x in a) ;; esac",
		"select x in a; do :; done", "until a; do :; done", "f() { :; }", "function f { :; }",
		"! a", "time a", "coproc a", "[[ -f x ]]", "(( x ))", "{", "}",
		"a <<EOF", "a <<< x", "a <(b)", "a >(b)", "a > >(tee x)", "a {fd}>x", "a >", "a 2>",
		"a $(b)", "a `b`", `a "$(b)"`, "a $((1+2))", "a $'\\n'", `a $"x"`, "a ${x:-$(b)}", `a "${x:-"y"}"`,
		"$CMD args", "${CMD} args", `"$CMD" args`, "~/bin/x", "*.sh", "x?", "[a]x", "x{1,2}",
		"a[1]=2 cmd", "arr=(1 2) cmd", "a=$(b) cmd", "PATH=/x cmd", "PATH+=:/x cmd", "''", `""`,
		`cmd "unterminated`, "cmd 'unterminated", `cmd \`, "a>b", "a<b", "a=1 b=2",
	}
	for _, c := range compound {
		if name, at, ok := simpleCommand(c); ok {
			t.Errorf("simpleCommand(%q) = %q, %d, true; want not simple", c, name, at)
		}
	}
}
