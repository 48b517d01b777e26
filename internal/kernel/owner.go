package kernel

// Of is the kernel of a built network.Network, or nil: this module's own
// packages (the tracers, the command, the verify suite, the searches) reach
// the kernel through it. Package network registers the accessor
// (SetOwner), which keeps the kernel off network's exported surface; the
// kernel package itself is internal to the module.
func Of(network any) *Kernel {
	if ofOwner == nil {
		return nil
	}
	return ofOwner(network)
}

var ofOwner func(any) *Kernel

// SetOwner registers how Of finds the kernel of its argument (package
// network calls it once, from init).
func SetOwner(f func(any) *Kernel) { ofOwner = f }
