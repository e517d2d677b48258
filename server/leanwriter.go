package server

import (
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// leanResponse is the http.ResponseWriter of a request the lean path
// reads (see lean.go): it gathers the status, headers and body, and
// writes them with one write when the handler returns (or at a Flush),
// with Date and Content-Length as net/http sets them.
type leanResponse struct {
	conn   net.Conn
	header http.Header
	status int
	body   []byte
	out    []byte // the reply as written; kept for the connection's next one
	// wrote is set once the reply left (at a Flush); later writes go
	// straight to the connection.
	wrote bool
	err   error
	// closing says the connection closes after the reply: the reply
	// then says so (as net/http's does).
	closing bool
	// req is the body of the request being answered.
	req *leanBody
	// block is the handler's header lines of an earlier reply, kept for
	// the next replies of the connection with the same headers.
	block headerBlock
}

// headerBlock is a set of headers, one value each, and its lines as
// appendHeader writes them (names in order, values cleaned). A deciding
// request's reply has the same nine headers every time (the security
// headers and Content-Type): the lines are then copied instead of the
// names being gathered, sorted and checked and the values cleaned again.
// Only sets without Date, Content-Length and Connection are kept, whose
// lines depend on nothing else.
type headerBlock struct {
	keys, vals []string
	text       []byte
	hasType    bool
}

// matches reports whether h is the block's set: as many names, each of the
// block's with one value, the block's.
func (k *headerBlock) matches(h http.Header) bool {
	if len(k.keys) == 0 || len(h) != len(k.keys) {
		return false
	}
	for i, name := range k.keys {
		v := h[name]
		if len(v) != 1 || v[0] != k.vals[i] {
			return false
		}
	}
	return true
}

// keep makes the block h's, whose lines are text, when h may be kept.
func (k *headerBlock) keep(h http.Header, keys []string, text []byte) {
	k.keys, k.vals, k.text, k.hasType = k.keys[:0], k.vals[:0], k.text[:0], false
	if len(keys) > 16 {
		return
	}
	for _, name := range keys {
		v := h[name]
		switch {
		case len(v) != 1, name == "Date", name == "Content-Length", name == "Connection":
			k.keys = k.keys[:0]
			return
		case name == "Content-Type":
			k.hasType = true
		}
		k.keys = append(k.keys, name)
		k.vals = append(k.vals, v[0])
	}
	k.text = append(k.text, text...)
}

func (w *leanResponse) reset(closing bool) {
	clear(w.header)
	w.status, w.body, w.wrote, w.err, w.closing = 0, w.body[:0], false, nil, closing
}

// Header returns the reply's header map.
func (w *leanResponse) Header() http.Header { return w.header }

// WriteHeader sets the status once; later calls are ignored as net/http
// ignores them (it logs them).
func (w *leanResponse) WriteHeader(code int) {
	if w.status == 0 && !w.wrote {
		if code < 100 || code > 999 {
			panic("invalid WriteHeader code " + strconv.Itoa(code)) // as net/http
		}
		w.status = code
	}
}

// Write adds to the body.
func (w *leanResponse) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.wrote {
		if w.err != nil {
			return 0, w.err
		}
		n, err := w.conn.Write(p)
		w.err = err
		return n, err
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	w.body = append(w.body, p...)
	return len(p), nil
}

// SetReadDeadline sets the connection's read deadline
// (http.ResponseController).
func (w *leanResponse) SetReadDeadline(t time.Time) error { return w.conn.SetReadDeadline(t) }

// bodyBuffered reports whether the rest of the request's body was read
// from the connection already (it came with the head, as an agent's small
// calls do): reading it then waits for nothing, and no read deadline has
// anything to bound (readBefore).
func (w *leanResponse) bodyBuffered() bool { return w.req != nil && w.req.buffered() }

// SetWriteDeadline sets the connection's write deadline.
func (w *leanResponse) SetWriteDeadline(t time.Time) error { return w.conn.SetWriteDeadline(t) }

// FlushError writes what the handler gave so far (http.ResponseController).
func (w *leanResponse) FlushError() error {
	if !w.wrote {
		w.finish()
	}
	return w.err
}

// Flush is FlushError for http.Flusher.
func (w *leanResponse) Flush() { _ = w.FlushError() }

// closes reports whether the handler asked to close the connection after
// its reply.
func (w *leanResponse) closes() bool {
	return strings.EqualFold(firstValue(w.header, "Connection"), "close")
}

// finish writes the reply once: status line, headers, body.
func (w *leanResponse) finish() {
	if w.wrote {
		return
	}
	w.wrote = true
	if w.status == 0 {
		w.status = http.StatusOK
	}
	b := w.out[:0]
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(w.status), 10)
	b = append(b, ' ')
	if text := http.StatusText(w.status); text != "" {
		b = append(b, text...)
	} else {
		b = append(b, "status code "...)
		b = strconv.AppendInt(b, int64(w.status), 10)
	}
	b = append(b, "\r\n"...)
	b = w.appendHeader(b)
	b = append(b, "\r\n"...)
	if bodyAllowed(w.status) {
		b = append(b, w.body...)
	}
	_, w.err = w.conn.Write(b)
	if cap(b) <= 64<<10 {
		w.out = b[:0]
	}
}

// appendHeader appends the handler's headers in name order, then Date,
// Content-Length, Content-Type when the handler set none, and
// "Connection: close" when the connection closes and the handler did not
// say so, all in net/http's order; a name that is not a token is left out
// and CR or LF in a value becomes a space, as net/http does.
func (w *leanResponse) appendHeader(b []byte) []byte {
	var hasDate, hasLength, hasType, closeHeader bool
	if w.block.matches(w.header) {
		// No Date, Content-Length nor Connection among them (keep).
		b = append(b, w.block.text...)
		hasType, closeHeader = w.block.hasType, w.closing
	} else {
		var keysBuf [16]string
		keys := keysBuf[:0]
		for k := range w.header {
			switch k {
			case "Date":
				hasDate = true
			case "Content-Length":
				hasLength = true
			case "Content-Type":
				hasType = true
			}
			keys = append(keys, k)
		}
		closeHeader = w.closing && !w.closes()
		slices.Sort(keys)
		start := len(b)
		for _, k := range keys {
			if !validFieldName(k) || closeHeader && k == "Connection" {
				continue
			}
			for _, v := range w.header[k] {
				b = append(b, k...)
				b = append(b, ": "...)
				b = appendFieldValue(b, v)
				b = append(b, "\r\n"...)
			}
		}
		w.block.keep(w.header, keys, b[start:])
	}
	if !hasDate {
		b = append(b, "Date: "...)
		b = append(b, httpDate()...)
		b = append(b, "\r\n"...)
	}
	if bodyAllowed(w.status) {
		if !hasLength {
			b = append(b, "Content-Length: "...)
			b = strconv.AppendInt(b, int64(len(w.body)), 10)
			b = append(b, "\r\n"...)
		}
		if !hasType && len(w.body) > 0 {
			b = append(b, "Content-Type: "...)
			b = append(b, http.DetectContentType(w.body)...)
			b = append(b, "\r\n"...)
		}
	}
	if closeHeader {
		b = append(b, "Connection: close\r\n"...)
	}
	return b
}

// appendFieldValue appends v as net/http writes a header value: CR and LF
// turned into spaces, then spaces and tabs trimmed.
func appendFieldValue(b []byte, v string) []byte {
	if strings.IndexByte(v, '\r') >= 0 || strings.IndexByte(v, '\n') >= 0 {
		bs := []byte(v)
		for i, c := range bs {
			if c == '\r' || c == '\n' {
				bs[i] = ' '
			}
		}
		v = string(bs)
	}
	if v != "" && (v[0] == ' ' || v[0] == '\t' || v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = strings.Trim(v, " \t")
	}
	return append(b, v...)
}

func validFieldName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isTokenByte(k[i]) {
			return false
		}
	}
	return true
}

// bodyAllowed reports whether a reply of status may have a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status <= 199) && status != http.StatusNoContent && status != http.StatusNotModified
}

// dateCache is the Date header of the current second, formatted once.
var dateCache atomic.Pointer[struct {
	sec  int64
	text string
}]

// httpDate is the Date header's value now.
func httpDate() string {
	now := time.Now()
	if d := dateCache.Load(); d != nil && d.sec == now.Unix() {
		return d.text
	}
	d := &struct {
		sec  int64
		text string
	}{now.Unix(), now.UTC().Format(http.TimeFormat)}
	dateCache.Store(d)
	return d.text
}
