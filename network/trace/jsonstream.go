package trace

import (
	"bufio"
	"io"
	"strconv"

	"github.com/flitsim/flitsim/flit"
)

// jsonStream writes the events of a trace-event JSON array one at a time
// (the Perfetto timeline and its per-router or per-link tracks), reusing one
// scratch buffer: open starts an event (after a comma unless it is the
// first), close writes it.
type jsonStream struct {
	bw    *bufio.Writer
	buf   []byte
	first bool
}

func newJSONStream(w io.Writer) jsonStream {
	return jsonStream{bw: bufio.NewWriterSize(w, 1<<16), first: true}
}

func (s *jsonStream) open() []byte {
	b := s.buf[:0]
	if !s.first {
		b = append(b, ',')
	}
	s.first = false
	return append(b, '\n')
}

func (s *jsonStream) close(b []byte) {
	s.bw.Write(b)
	s.buf = b
}

// appendWormFields appends a worm's "src", its "dst" (or number of
// "destinations" for a multicast) and its length in "flits", as JSON
// object members.
func appendWormFields(b []byte, w *flit.Worm) []byte {
	b = append(b, `"src":`...)
	b = strconv.AppendInt(b, int64(w.Src), 10)
	if w.Dests > 1 {
		b = append(b, `,"destinations":`...)
		b = strconv.AppendInt(b, int64(w.Dests), 10)
	} else {
		b = append(b, `,"dst":`...)
		b = strconv.AppendInt(b, int64(w.Dst), 10)
	}
	b = append(b, `,"flits":`...)
	return strconv.AppendInt(b, int64(w.Len), 10)
}
