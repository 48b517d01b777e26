package trace

import (
	"bufio"
	"io"
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
