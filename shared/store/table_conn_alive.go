//go:build linux || darwin

package store

import (
	"crypto/tls"
	"errors"
	"net"
	"syscall"
)

// alive reports whether an idle connection is still open: its server may
// have closed it while it waited (Node, so dynalite, after 5 s; DynamoDB
// later), and nothing reads an idle connection here to notice. It peeks
// without waiting: nothing to read means open; end of stream, an error or
// unexpected bytes (a TLS close alert) mean it is not to be used again.
func alive(c net.Conn) bool {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := false
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK)
		return true // done: never wait for the connection to become readable
	})
	return err == nil && open
}
