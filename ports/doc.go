// Package ports finds the TCP ports that process trees listen on, and who
// holds a port that a job could not bind.
//
// On Linux it reads the kernel's lists only: the socket inodes a process
// holds are the /proc/<pid>/fd links that read "socket:[<inode>]"; the
// listening sockets (state LISTEN, 0A) of the reader's network namespace,
// with address, port, uid and inode, come from sock_diag (sock_diag(7)),
// or from /proc/net/tcp and /proc/net/tcp6 where that is refused; a tree
// is a root and its descendants, found through
// /proc/<pid>/task/<tid>/children (or, on kernels without those files,
// one pass over every /proc/<pid>/stat).
//
// Guarantees:
//
//   - A process that exits while it is being looked at (its /proc entries
//     vanish, or turn into a zombie's) is skipped: it is never an error.
//   - Every Scan asks the kernel for the listening sockets afresh, so a
//     socket closed before the call is never listed. Which process holds
//     each one is remembered between scans of one Scanner and re-checked
//     each time (Scan says how), so that a steady set of servers costs a
//     readlink each rather than a read of every fd table.
//   - Processes of other users whose /proc/<pid>/fd is closed to this
//     process are skipped (their sockets still show in Holders, by uid).
//   - InUse and Named only read text; they work on every platform.
//
// It never signals, opens a socket, or writes anything; it starts no
// goroutines and logs nothing. Elsewhere than Linux, Scan and Holders
// return ErrUnsupported and find nothing.
package ports
