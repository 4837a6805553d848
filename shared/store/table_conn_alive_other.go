//go:build !(linux || darwin)

package store

import "net"

// alive cannot peek here: an idle connection counts as open (a closed one
// fails its call, which the SDK tries again).
func alive(net.Conn) bool { return true }
