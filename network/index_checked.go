//go:build checked

package network

// elem is &s[i], bounds-checked: the checked build of index.go's elem.
func elem[T any](s []T, i int32) *T { return &s[i] }
