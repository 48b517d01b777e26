package kernel

import (
	"syscall"
	"unsafe"
)

// hugeMin is the smallest array worth asking huge pages for: two of them.
const hugeMin = 4 << 20

// adviseHuge asks the kernel to back s's memory with 2 MB pages where the
// system leaves that to the program (transparent_hugepage "madvise"). A
// large network's per-buffer arrays are hundreds of MB touched at random:
// with 4 KB pages nearly every access also misses the TLB. Called right
// after make, before the pages are first touched, so the faults themselves
// take huge pages. Only the whole 2 MB pages inside s are advised; an error
// (no THP support) changes nothing but speed.
func adviseHuge[T any](s []T) {
	n := uintptr(cap(s)) * unsafe.Sizeof(*new(T))
	if n < hugeMin {
		return
	}
	const page = 2 << 20
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])))
	lo, hi := (p+page-1)&^(page-1), (p+n)&^(page-1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])), lo-p)), hi-lo), 14) // MADV_HUGEPAGE
}
