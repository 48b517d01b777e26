//go:build !linux

package kernel

// adviseHuge is a no-op where madvise(MADV_HUGEPAGE) does not exist
// (huge_linux.go).
func adviseHuge[T any](s []T) {}
