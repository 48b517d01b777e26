package network

import "fmt"

// InternalError is a panic (a bug) caught in a goroutine of a run, where
// it cannot reach the command's own recovery: commands report it as an
// internal error (flitsim: exit status 70), never as bad input.
type InternalError struct {
	Value any
	Stack []byte
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }
