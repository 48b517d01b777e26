//go:build checked

package kernel

// elem is &s[i], bounds-checked: the checked build of index.go's elem.
func elem[T any, I int | int32](s []T, i I) *T { return &s[i] }
