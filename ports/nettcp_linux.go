package ports

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"net/netip"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// The socket tables of the reader's network namespace (proc_net_tcp(5)
// in proc(5): one line per socket after a header).
var tcpTables = [...]string{"/proc/net/tcp", "/proc/net/tcp6"}

// listenState is TCP_LISTEN as the tables print it (st = 0A).
const listenState = "0A"

// listener is one LISTEN entry of a socket table.
type listener struct {
	addr  netip.Addr
	port  int
	uid   int
	inode uint64
}

// noDiag is set once sock_diag was refused: from then on only the /proc
// tables are read.
var noDiag atomic.Bool

// listeners calls f for each TCP socket in LISTEN (both families), from
// sock_diag or, where that is refused, from the /proc tables. It fails
// only when neither can be read.
func (p *procfs) listeners(f func(listener)) error {
	if !noDiag.Load() {
		p.diag = p.diag[:0]
		err := p.diagListeners(func(l listener) { p.diag = append(p.diag, l) })
		if err == nil {
			for _, l := range p.diag {
				f(l)
			}
			return nil
		}
		noDiag.Store(true)
	}
	return p.tableListeners(f)
}

// tableListeners reads both /proc socket tables and calls f for each
// LISTEN entry. It fails only when neither table can be read.
func (p *procfs) tableListeners(f func(listener)) error {
	var firstErr error
	read := 0
	for _, path := range tcpTables {
		b, err := p.read(unix.AT_FDCWD, path)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		read++
		parseListeners(b, f)
	}
	if read == 0 {
		return firstErr
	}
	return nil
}

// parseListeners calls f for each LISTEN line of a socket table. Lines
// that do not parse are skipped.
func parseListeners(b []byte, f func(listener)) {
	// Skip the header line.
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	} else {
		return
	}
	var fields [10][]byte
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if n := splitFields(line, fields[:]); n < len(fields) {
			continue
		}
		// fields: sl, local_address, rem_address, st, tx:rx, tr:when,
		// retrnsmt, uid, timeout, inode.
		if string(fields[3]) != listenState {
			continue
		}
		addr, port, ok := parseHexAddr(fields[1])
		uid, ok2 := atoi(fields[7])
		inode, ok3 := atoi(fields[9])
		if ok && ok2 && ok3 {
			f(listener{addr: addr, port: port, uid: uid, inode: uint64(inode)})
		}
	}
}

// splitFields fills out with the first len(out) space-separated fields of
// line and returns how many it found.
func splitFields(line []byte, out [][]byte) int {
	n := 0
	for n < len(out) {
		for len(line) > 0 && line[0] == ' ' {
			line = line[1:]
		}
		if len(line) == 0 {
			break
		}
		i := bytes.IndexByte(line, ' ')
		if i < 0 {
			i = len(line)
		}
		out[n] = line[:i]
		n++
		line = line[i:]
	}
	return n
}

// parseHexAddr parses "0100007F:1F90" (IPv4) or a 32-digit IPv6 address
// and its port. The kernel prints the address as 32-bit words in host
// byte order, and the port as a number.
func parseHexAddr(b []byte) (netip.Addr, int, bool) {
	i := bytes.IndexByte(b, ':')
	if i < 0 || len(b)-i-1 != 4 {
		return netip.Addr{}, 0, false
	}
	var pb [2]byte
	if _, err := hex.Decode(pb[:], b[i+1:]); err != nil {
		return netip.Addr{}, 0, false
	}
	port := int(binary.BigEndian.Uint16(pb[:]))
	var raw [16]byte
	h := b[:i]
	if len(h) != 8 && len(h) != 32 {
		return netip.Addr{}, 0, false
	}
	if _, err := hex.Decode(raw[:len(h)/2], h); err != nil {
		return netip.Addr{}, 0, false
	}
	// Each word was printed as a host-order number: store it back the way
	// it sat in memory, which is network order.
	for w := 0; w < len(h)/8; w++ {
		v := binary.BigEndian.Uint32(raw[4*w:])
		binary.NativeEndian.PutUint32(raw[4*w:], v)
	}
	if len(h) == 8 {
		return netip.AddrFrom4([4]byte(raw[:4])), port, true
	}
	return netip.AddrFrom16(raw).Unmap(), port, true
}
