//go:build !unix

package booksim

import "time"

var start = time.Now()

// cpuTime falls back on wall time where getrusage is missing.
func cpuTime() time.Duration { return time.Since(start) }
