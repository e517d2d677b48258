package fleettest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy forwards TCP connections to a PostgreSQL server and can cut its
// replies, as a network partition that lets a statement through but loses
// its answer does: the server commits, the client never learns it.
type Proxy struct {
	ln       net.Listener
	target   string
	deaf     atomic.Bool // replies are dropped
	mu       sync.Mutex
	conns    []net.Conn
	accepted atomic.Int64
}

// NewProxy listens on a free loopback port and forwards to the host and
// port of serverURL; it returns the proxy and serverURL pointed at it. The
// proxy closes when t ends.
func NewProxy(t testing.TB, serverURL string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: u.Host}
	go p.accept()
	t.Cleanup(p.close)
	u.Host = ln.Addr().String()
	return p, u.String()
}

// Deafen drops every reply from now on, on the open connections and new
// ones, while statements still reach the server.
func (p *Proxy) Deafen() { p.deaf.Store(true) }

// Heal cuts the open connections (as the client would after a timeout)
// and forwards both ways again for new ones.
func (p *Proxy) Heal() {
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.deaf.Store(false)
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.accepted.Add(1)
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); s.Close() }()
		go p.replies(c, s)
	}
}

// replies copies the server's bytes to the client unless the proxy is deaf.
func (p *Proxy) replies(c, s net.Conn) {
	defer c.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 && !p.deaf.Load() {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) close() {
	p.ln.Close()
	p.Heal()
}
