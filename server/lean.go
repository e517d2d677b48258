package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The lean path. net/http spends, on every request, more than the rest of
// serve's HTTP handling together: a goroutine that reads the connection
// in the background while the handler runs (one more read system call
// and two goroutine switches a request), a header map and its clone, the
// headers sorted and written, a Date formatted, buffers taken from pools.
// For the two requests an agent makes for every tool call (POST
// /v1/decide and POST /v1/hooks/NAME) in their plainest form, Lean reads
// the request itself and answers it with one write; it gives every other
// connection, and a connection from its first request that is not of that
// form, to net/http with the bytes read so far, so net/http parses them
// as it would have. The handler is the same (the Server's, security checks
// included); only the framing differs. See docs/design-notes.md ("A lean
// path for the deciding requests") for what it keeps of net/http's safety.

// Lean serves a Server's handler on a listener: the plainest deciding
// requests itself, everything else through an http.Server.
type Lean struct {
	hs      *http.Server
	maxBody int64
	handoff *handoffListener
	ctx     context.Context
	stop    context.CancelFunc

	mu     sync.Mutex
	ln     net.Listener
	conns  map[*leanConn]struct{}
	closed bool
	// active counts the requests being answered, which Shutdown waits for.
	active atomic.Int32
}

// NewLean returns a Lean that reads the deciding requests of s itself and
// passes the rest to hs, whose Handler must be s.Handler(); hs's
// ReadHeaderTimeout and IdleTimeout bound the lean path's waits too (10 s
// and 2 min when zero).
func (s *Server) NewLean(hs *http.Server) *Lean {
	ctx, stop := context.WithCancel(context.Background())
	return &Lean{hs: hs, maxBody: positive(s.opts.MaxBody, DefaultMaxBody), ctx: ctx, stop: stop, conns: map[*leanConn]struct{}{}}
}

// Serve accepts connections on ln until Shutdown or an error of ln; it
// returns http.ErrServerClosed after Shutdown.
func (l *Lean) Serve(ln net.Listener) error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return http.ErrServerClosed
	}
	l.ln = ln
	l.handoff = newHandoffListener(ln.Addr())
	l.mu.Unlock()
	go func() { _ = l.hs.Serve(l.handoff) }() // ends when Shutdown or Close closes the hand-off listener
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if l.isClosed() {
				return http.ErrServerClosed
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		lc := &leanConn{l: l, c: c}
		if !l.track(lc, true) {
			c.Close()
			return http.ErrServerClosed
		}
		go lc.serve()
	}
}

// Shutdown stops accepting, closes idle connections, waits for the
// requests being answered (up to ctx), then shuts the http.Server down.
func (l *Lean) Shutdown(ctx context.Context) error {
	l.mu.Lock()
	l.closed = true
	if l.ln != nil {
		l.ln.Close()
	}
	for lc := range l.conns {
		lc.closeIfIdle()
	}
	l.mu.Unlock()
	var err error
	t := time.NewTicker(5 * time.Millisecond)
	for l.active.Load() > 0 && err == nil {
		select {
		case <-t.C:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	t.Stop()
	l.stop()
	l.closeHandoff()
	if herr := l.hs.Shutdown(ctx); err == nil {
		err = herr
	}
	return err
}

// Close closes the listener and every connection at once, as
// http.Server's Close does, and closes the http.Server.
func (l *Lean) Close() error {
	l.mu.Lock()
	l.closed = true
	if l.ln != nil {
		l.ln.Close()
	}
	for lc := range l.conns {
		lc.c.Close()
	}
	l.mu.Unlock()
	l.stop()
	l.closeHandoff()
	return l.hs.Close()
}

// closeHandoff closes the listener net/http serves, so that no connection
// waits to be handed to it after Shutdown or Close (http.Server closes it
// too, unless it was closed before its Serve began).
func (l *Lean) closeHandoff() {
	l.mu.Lock()
	h := l.handoff
	l.mu.Unlock()
	if h != nil {
		h.Close()
	}
}

func (l *Lean) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// track adds or removes a connection; adding fails after Shutdown.
func (l *Lean) track(lc *leanConn, add bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !add {
		delete(l.conns, lc)
		return true
	}
	if l.closed {
		return false
	}
	l.conns[lc] = struct{}{}
	return true
}

// timeouts are hs's, with net/http's defaults for serve when unset.
func (l *Lean) timeouts() (head, idle time.Duration) {
	head, idle = l.hs.ReadHeaderTimeout, l.hs.IdleTimeout
	if head <= 0 {
		head = l.hs.ReadTimeout
	}
	if head <= 0 {
		head = 10 * time.Second
	}
	if idle <= 0 {
		idle = head
	}
	return head, idle
}

// leanConn is one connection the lean path reads.
type leanConn struct {
	l    *Lean
	c    net.Conn
	br   *bufio.Reader
	idle atomic.Bool // waiting for the next request
	w    leanResponse
	// head bounds the wait for a request's head, and for the rest of a
	// body its handler left unread.
	head time.Duration
	// remote is the peer's address, as net/http gives it.
	remote string
	// ctx is the context of the connection's requests: cancelled when the
	// connection ends or the Lean stops.
	ctx context.Context
	// req is the request the handler's is a copy of (WithContext), filled
	// anew for each request; url is the URL of the connection's last
	// request, shared by the requests of the same path.
	req http.Request
	url *url.URL
}

var leanReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, leanMaxHead) }}

// serve answers the connection's requests until one is not the lean
// path's (then net/http gets the connection) or the connection ends.
func (lc *leanConn) serve() {
	lc.br = leanReaders.Get().(*bufio.Reader)
	lc.br.Reset(lc.c)
	handed := false
	defer func() {
		lc.l.track(lc, false)
		if !handed {
			lc.c.Close()
			lc.br.Reset(nil)
			leanReaders.Put(lc.br)
		}
	}()
	lc.w = leanResponse{conn: lc.c, header: make(http.Header, 12)}
	var cancel context.CancelFunc
	lc.ctx, cancel = context.WithCancel(lc.l.ctx)
	defer cancel()
	head, idle := lc.l.timeouts()
	lc.head, lc.remote = head, lc.c.RemoteAddr().String()
	first := true
	for {
		h, ok, err := lc.readHead(first, head, idle)
		if err != nil {
			return
		}
		if !ok {
			lc.l.active.Add(-1)
			handed = lc.handOff()
			return
		}
		first = false
		more := lc.answer(&h)
		lc.l.active.Add(-1)
		if !more {
			return
		}
	}
}

// readHead waits for the next request's head: ok is false when it is not
// the lean path's, err non-nil when the connection ended, timed out or
// the Lean was shut down (closed without a reply, as net/http does). With
// a nil error the request counts as active; the caller ends that (with an
// error it does not).
func (lc *leanConn) readHead(first bool, head, idle time.Duration) (h leanHead, ok bool, err error) {
	wait := idle
	if first {
		wait = head
	}
	lc.idle.Store(true)
	lc.c.SetReadDeadline(time.Now().Add(wait))
	if lc.l.isClosed() {
		lc.idle.Store(false)
		return h, false, http.ErrServerClosed
	}
	_, err = lc.br.Peek(1)
	if err != nil {
		lc.idle.Store(false)
		return h, false, err
	}
	// Counted active before it stops being idle, so that Shutdown, which
	// waits for the active ones after closing the idle ones, misses none.
	lc.l.active.Add(1)
	lc.idle.Store(false)
	// From the request's first byte on, reading it is bounded by the head
	// timeout instead of the idle one. The new deadline is set only once
	// a read of the connection is to come (a head or body not all read
	// yet): when the request came whole with its first read, as an
	// agent's calls of a few hundred bytes do, nothing reads the
	// connection before the next request's wait sets its own, so setting
	// it would change nothing but cost a change of the connection's timer.
	bounded := first
	for n := lc.br.Buffered(); ; n = lc.br.Buffered() + 1 {
		if n > leanMaxHead {
			return h, false, nil
		}
		if !bounded && n > lc.br.Buffered() {
			lc.c.SetReadDeadline(time.Now().Add(head))
			bounded = true
		}
		b, perr := lc.br.Peek(n) // all that arrived, or one more byte
		var complete bool
		h, complete, ok = parseLeanHead(b, lc.l.maxBody)
		if !complete && errors.Is(perr, os.ErrDeadlineExceeded) {
			// Too slow (or shut down): closed without a reply, as net/http
			// closes it, rather than given a second timeout there.
			lc.l.active.Add(-1)
			return h, false, perr
		}
		if complete || perr != nil {
			if !bounded && ok && complete && int64(h.size)+h.contentLength > int64(lc.br.Buffered()) {
				lc.c.SetReadDeadline(time.Now().Add(head)) // the body is still to come
			}
			// A head cut short goes to net/http too, which answers it
			// from the same bytes as it would have.
			return h, ok && complete, nil
		}
	}
}

// closeIfIdle closes the connection when it waits for its next request
// (under the Lean's lock, at Shutdown).
func (lc *leanConn) closeIfIdle() {
	if lc.idle.Load() {
		lc.c.SetReadDeadline(time.Now()) // its Peek returns, serve closes it
	}
}

// handOff gives the connection, with the bytes read and not used, to
// net/http.
func (lc *leanConn) handOff() bool {
	lc.c.SetReadDeadline(time.Time{})
	return lc.l.handoff.give(&bufferedConn{Conn: lc.c, r: lc.br})
}

// answer serves one request whose head h is at the start of the buffer;
// it reports whether the connection may serve another.
func (lc *leanConn) answer(h *leanHead) bool {
	if _, err := lc.br.Discard(h.size); err != nil {
		return false
	}
	body := &leanBody{r: lc.br, left: h.contentLength}
	r := lc.request(h, body)
	w := &lc.w
	w.reset(h.close)
	w.req = body
	if !lc.run(w, r) {
		return false
	}
	if w.closes() {
		w.closing = true
	}
	if !w.wrote && body.left > 0 && !w.closing && !lc.discard(body) {
		// As net/http: a body the handler left unread is read and dropped
		// when small, else the connection closes after the reply.
		w.closing = true
	}
	w.finish()
	return !w.closing && w.err == nil && body.left == 0 && !lc.l.isClosed()
}

// discard reads and drops what the handler left of a body, within the
// head's timeout; it reports whether the body is now read to its end.
func (lc *leanConn) discard(body *leanBody) bool {
	lc.c.SetReadDeadline(time.Now().Add(lc.head))
	return body.discard(leanMaxDiscard)
}

// leanMaxDiscard is how much of a body its handler left unread is read to
// keep the connection (net/http's maxPostHandlerReadBytes).
const leanMaxDiscard = 256 << 10

// run calls the handler; false means it panicked (the connection is then
// closed without a reply, as net/http does).
func (lc *leanConn) run(w *leanResponse, r *http.Request) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				const size = 64 << 10
				buf := make([]byte, size)
				buf = buf[:runtime.Stack(buf, false)]
				lc.logf("http: panic serving %v: %v\n%s", lc.c.RemoteAddr(), p, buf)
			}
			ok = false
		}
	}()
	lc.l.hs.Handler.ServeHTTP(w, r)
	return true
}

func (lc *leanConn) logf(format string, args ...any) {
	if lc.l.hs.ErrorLog != nil {
		lc.l.hs.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// request builds the http.Request of head h, as net/http would from the
// same bytes, with the connection's context. Its context is not cancelled
// when the handler returns, as net/http's is, but when the connection
// ends: the lean path's handlers (the deciding endpoints) keep no work
// tied to it (a decision runs with context.WithoutCancel of it), and a
// context of each request's own cost an allocation and a registration
// with its parent, under the parent's lock, for every request. The
// request is a copy of lc.req (WithContext), so nothing the handler may
// keep is filled again for the next request; its URL, which no handler
// changes, is shared with the connection's earlier requests of the same
// path.
func (lc *leanConn) request(h *leanHead, body *leanBody) *http.Request {
	if lc.url == nil || lc.url.Path != h.path {
		lc.url = &url.URL{Path: h.path}
	}
	lc.req = http.Request{
		Method:        http.MethodPost,
		URL:           lc.url,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h.header(),
		Body:          body,
		ContentLength: h.contentLength,
		Host:          h.host,
		Close:         h.close,
		RemoteAddr:    lc.remote,
		RequestURI:    h.path,
	}
	return lc.req.WithContext(lc.ctx)
}

// header is the request's Header as net/http makes it: every field but
// Host, under its canonical name.
func (h *leanHead) header() http.Header {
	hdr := make(http.Header, h.n)
	vals := make([]string, h.n)
	for i := range h.fields[:h.n] {
		f := h.fields[i]
		vals[i] = f.value
		hdr[f.name] = vals[i : i+1 : i+1]
	}
	return hdr
}

// leanBody is a request body of a known length read from the connection.
type leanBody struct {
	r    *bufio.Reader
	left int64
}

func (b *leanBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// Close leaves what is unread (see answer).
func (b *leanBody) Close() error { return nil }

// buffered reports whether what is left of the body is in the reader's
// buffer already, so that reading it makes no read of the connection.
func (b *leanBody) buffered() bool { return b.left <= int64(b.r.Buffered()) }

// discard reads and drops the rest of the body when it is at most max
// bytes; it reports whether the body is now read to its end.
func (b *leanBody) discard(max int64) bool {
	if b.left > max {
		return false
	}
	n, err := b.r.Discard(int(b.left))
	b.left -= int64(n)
	return err == nil && b.left == 0
}

// bufferedConn is a connection whose first bytes were read into r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) {
	if c.r != nil {
		if c.r.Buffered() > 0 {
			return c.r.Read(p)
		}
		c.r = nil // drained: read the connection itself from now on
	}
	return c.Conn.Read(p)
}

// CloseWrite shuts the connection's writing side when it can, as net/http
// does with a TCP connection before closing it after an error reply.
func (c *bufferedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// handoffListener is the listener the http.Server serves: the connections
// the lean path gives it.
type handoffListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newHandoffListener(addr net.Addr) *handoffListener {
	return &handoffListener{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// give hands c to the http.Server; false when it is closed.
func (h *handoffListener) give(c net.Conn) bool {
	select {
	case h.conns <- c:
		return true
	case <-h.done:
		return false
	}
}

func (h *handoffListener) Accept() (net.Conn, error) {
	select {
	case c := <-h.conns:
		return c, nil
	case <-h.done:
		return nil, net.ErrClosed
	}
}

func (h *handoffListener) Close() error {
	h.once.Do(func() { close(h.done) })
	return nil
}

func (h *handoffListener) Addr() net.Addr { return h.addr }
