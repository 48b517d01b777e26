package trace

import "strconv"

// Trace names. The event log, the timeline and the VCD name a place the same
// way: by its VCD scope path below "network", so that a row of the event log
// leads to the signals that show it and every name is one field for cut -d,
// and awk -F, (a label like "s3,4" or "r(3,4)" is sanitised, see Sanitize):
//
//	s3_4.in_0       input buffer of port 0 of switch "s3,4"
//	r_3_4.out_xp    output port x+ of switch "r(3,4)": its link (a channel)
//	                and its output buffer if any
//	t5              terminal 5 (where a packet is delivered)
//	t5.src          terminal 5's source register
//	t5.inj          terminal 5's injection link (a channel)
//
// Deadlock reports and results keep the kernel's names (Kernel.BufferName,
// e.g. "s3,4.out[0]"). Two labels that sanitise alike get _1, _2, … in the
// order of the switches.

// scopes names every switch, terminal and port once, whatever is selected,
// so the names do not depend on --trace-only.
func (l *layout) scopes() {
	if l.swScope != nil {
		return
	}
	t := l.k.Topo
	top := uniq{}
	l.swScope = make([]string, len(t.Switches))
	l.inScope = make([]string, l.nlinks)
	l.outScope = make([]string, l.nlinks)
	for term := 0; term < t.Terminals(); term++ {
		top.name(termScope(term)) // reserved: a switch labelled t3 becomes t3_1
	}
	for s := range t.Switches {
		l.swScope[s] = top.name(Sanitize(t.Switches[s].Label))
		in := uniq{}
		for p := range t.Switches[s].Out {
			gp := l.portBase[s] + int32(p)
			l.inScope[gp] = in.name(Sanitize("in_" + l.portName(p)))
			l.outScope[gp] = in.name(Sanitize("out_" + l.portName(p)))
		}
	}
}

func termScope(term int) string { return "t" + strconv.Itoa(term) }

// names fills bufName: per buffer, then one per terminal.
func (l *layout) names() []string {
	if l.bufName != nil {
		return l.bufName
	}
	l.scopes()
	nt := l.k.Topo.Terminals()
	l.bufName = make([]string, int(l.nb)+nt)
	for b := int32(0); b < l.nb; b++ {
		sw, port, out, src, depth := l.k.BufferInfo(b)
		switch {
		case src:
			l.bufName[b] = termScope(int(sw)) + ".src"
		case depth == 0: // a gap: no buffer (never in a trace)
			l.bufName[b] = "gap" + strconv.Itoa(int(b))
		case out:
			l.bufName[b] = l.swScope[sw] + "." + l.outScope[l.portBase[sw]+port]
		default:
			l.bufName[b] = l.swScope[sw] + "." + l.inScope[l.portBase[sw]+port]
		}
	}
	for t := 0; t < nt; t++ {
		l.bufName[int(l.nb)+t] = termScope(t)
	}
	return l.bufName
}

// chNames fills chName: a switch's output channel by its output port's
// scope, a terminal's injection channel as tN.inj.
func (l *layout) chNames() []string {
	if l.chName != nil {
		return l.chName
	}
	l.scopes()
	n := l.k.Channels()
	l.chName = make([]string, n)
	for ch := int32(0); ch < n; ch++ {
		if ch < l.nlinks {
			l.chName[ch] = l.swScope[l.portSw[ch]] + "." + l.outScope[ch]
		} else {
			l.chName[ch] = termScope(int(ch-l.nlinks)) + ".inj"
		}
	}
	return l.chName
}

// switchName is switch s's trace name (its VCD scope).
func (l *layout) switchName(s int) string {
	l.scopes()
	return l.swScope[s]
}
