package han

// K2HotSpot is Fig. 3.12's worst case for the k² move on an n×n mesh: the
// k² processors at every relative position of the s/k submeshes (s = n)
// all send to the lower-left corner submesh, the k² corresponding
// processors to k² distinct processors of it (row-major from the one at
// the same position); every other message stays in its submesh (to the
// positions the corner's own messages leave free).
func K2HotSpot(n, k int) []int32 {
	w := n / k
	dest := make([]int32, n*n)
	taken := make([]bool, n*n)
	corner := func(r, c int) int32 { return int32((n-w+r)*n + c) } // (the lower-left submesh)
	// Every relative position (i, j): its k² copies go to k² corner cells,
	// starting at (i, j), row-major in the submesh — the corner fills up;
	// only w² positions fit, so positions past w²/k² send to their own submesh.
	next := 0
	for p := range dest {
		dest[p] = -1
	}
	for i := range w {
		for j := range w {
			if next+k*k > w*w {
				break
			}
			for a := range k {
				for b := range k {
					src := (a*w+i)*n + b*w + j
					cell := next
					dest[src] = corner(cell/w, cell%w)
					taken[dest[src]] = true
					next++
				}
			}
		}
	}
	// The rest: a free destination in the source's own submesh, else any free one.
	var free []int32
	for q := range taken {
		if !taken[q] {
			free = append(free, int32(q))
		}
	}
	for p := range dest {
		if dest[p] < 0 {
			dest[p], free = free[0], free[1:]
		}
	}
	return dest
}
