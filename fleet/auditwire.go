package fleet

import (
	"encoding/binary"
	"time"
)

// The audit insert's parameters are built in PostgreSQL's binary array
// format as records join a group, and sent as they are: pgx's generic
// encoding of ten slices (a plan looked up per parameter, each element
// encoded through interfaces, the buffers grown as it goes) was about half
// of a replica's CPU in the commit (docs/benchmarks.md, "Round 5: the
// fleet"). What the server receives is byte for byte what pgx sent
// (TestAuditColumnsAsPgx).

// OIDs of the element types of insertAudit's parameters.
const (
	oidText        = 25
	oidTimestamptz = 1184
)

// arrayHeader is the size of a one-dimensional array's header: the
// number of dimensions, the null flag, the element type, the length and
// the lower bound, four bytes each.
const arrayHeader = 20

// auditColumns are the parameters of insertAudit for a group of records:
// each column's elements as a binary array without its header, which
// params writes in front (arrayHeader bytes are kept free for it).
type auditColumns struct {
	n    int
	cols [10][]byte // time, replica, policy, agent, session, tool, verdict, rule, record, rid
}

// add appends one record's values: its time, the text of the columns
// replica to rule, its JSON and its id.
func (c *auditColumns) add(t time.Time, text *[7]string, record []byte, rid string) {
	if c.n == 0 {
		for j := range c.cols {
			if c.cols[j] == nil {
				c.cols[j] = make([]byte, 0, 1024)
			}
			c.cols[j] = append(c.cols[j][:0], make([]byte, arrayHeader)...)
		}
	}
	c.n++
	c.cols[0] = binary.BigEndian.AppendUint32(c.cols[0], 8)
	c.cols[0] = binary.BigEndian.AppendUint64(c.cols[0], uint64(microsSinceY2K(t)))
	for j, v := range text {
		c.cols[j+1] = appendElem(c.cols[j+1], v)
	}
	c.cols[8] = appendElem(c.cols[8], record)
	c.cols[9] = appendElem(c.cols[9], rid)
}

// appendElem appends an array element: its length and its bytes.
func appendElem[T string | []byte](col []byte, v T) []byte {
	col = binary.BigEndian.AppendUint32(col, uint32(len(v)))
	return append(col, v...)
}

// reset empties the columns for another group, keeping their buffers
// unless one grew past what a usual group needs.
func (c *auditColumns) reset() {
	c.n = 0
	for j, col := range c.cols {
		if cap(col) > 64<<10 {
			c.cols[j] = nil
		}
	}
}

// params writes the arrays' headers and returns the ten parameters.
func (c *auditColumns) params() [][]byte {
	out := make([][]byte, len(c.cols))
	for j, col := range c.cols {
		elem := uint32(oidText)
		if j == 0 {
			elem = oidTimestamptz
		}
		h := col[:0]
		h = binary.BigEndian.AppendUint32(h, 1) // dimensions
		h = binary.BigEndian.AppendUint32(h, 0) // no nulls
		h = binary.BigEndian.AppendUint32(h, elem)
		h = binary.BigEndian.AppendUint32(h, uint32(c.n))
		_ = binary.BigEndian.AppendUint32(h, 1) // lower bound
		out[j] = col
	}
	return out
}

// microsSinceY2K is timestamptz's binary value: microseconds since
// 2000-01-01 UTC, the sub-microsecond part dropped as pgx drops it.
func microsSinceY2K(t time.Time) int64 {
	const unixToY2K = 946_684_800 * 1_000_000
	return t.Unix()*1_000_000 + int64(t.Nanosecond())/1000 - unixToY2K
}

// binaryFormats marks insertAudit's ten parameters as binary.
var binaryFormats = []int16{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
