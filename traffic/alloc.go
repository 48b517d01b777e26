package traffic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Processor allocation (Chiang 1995 §5.1, §5.6; traffic.clusters): how the
// terminals are split into the clusters of the tasks that multicast among
// themselves.

// Allocation is a traffic.clusters value.
type Allocation uint8

const (
	// AllocCube gives task t the base cube [t·c, (t+1)·c): the high address
	// bits fixed (a base binary cube when c and N are powers of two,
	// Def. 7), contention-free on the cube, omega and modified MINs.
	AllocCube Allocation = iota
	// AllocCubeMinusOne gives task t all of base cube t but one member,
	// drawn at random, and the member drawn out of cube t+1 (cyclically):
	// "all but one of the processor nodes into a cube" (§5.1).
	AllocCubeMinusOne
	// AllocRandom deals a random permutation of the terminals out in
	// blocks of c.
	AllocRandom
)

var allocNames = []string{"cube", "cube-minus-one", "random"}

func (a Allocation) String() string { return allocNames[a] }

// AllocationNames lists the traffic.clusters values.
func AllocationNames() []string { return slices.Clone(allocNames) }

// ParseAllocation reads a traffic.clusters value ("" is cube; one-out-of-cube
// is an alias of cube-minus-one, the thesis's "one out-of-cube").
func ParseAllocation(s string) (Allocation, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "cube":
		return AllocCube, nil
	case "cube-minus-one", "one-out-of-cube":
		return AllocCubeMinusOne, nil
	case "random":
		return AllocRandom, nil
	}
	return 0, &inputerr.Error{Key: "traffic.clusters", Value: s,
		Allowed: "cube, cube-minus-one (alias one-out-of-cube), random"}
}

// Allocate splits n terminals into n/size tasks of size terminals each (size
// 0: one task of all) by a, drawing from rng only for cube-minus-one and
// random. Each task's terminals are sorted. key names the cluster-size key
// the user wrote, for errors (*inputerr.Error).
func Allocate(a Allocation, n, size int, key string, rng *rand.Rand) ([][]int, error) {
	c := size
	if c == 0 {
		c = n
	}
	if c < 2 || c > n || n%c != 0 {
		return nil, &inputerr.Error{Key: key, Value: strconv.Itoa(size),
			Allowed: fmt.Sprintf("a cluster size from 2 to %d that divides the %d terminals, or 0 for all", n, n)}
	}
	tasks := make([][]int, n/c)
	switch a {
	case AllocCube:
		for t := range tasks {
			for i := range c {
				tasks[t] = append(tasks[t], t*c+i)
			}
		}
	case AllocCubeMinusOne:
		if len(tasks) < 2 {
			return nil, &inputerr.Error{Key: key, Value: strconv.Itoa(size),
				Allowed: fmt.Sprintf("with traffic.clusters cube-minus-one, a size from 2 to %d that divides the %d terminals "+
					"(two tasks at least: a task's out-of-cube node comes from another cube)", n/2, n)}
		}
		out := make([]int, len(tasks)) // the member drawn out of each cube
		for t := range tasks {
			out[t] = t*c + rng.IntN(c)
		}
		for t := range tasks {
			for i := t * c; i < (t+1)*c; i++ {
				if i != out[t] {
					tasks[t] = append(tasks[t], i)
				}
			}
			tasks[t] = append(tasks[t], out[(t+1)%len(tasks)])
			slices.Sort(tasks[t])
		}
	case AllocRandom:
		perm := rng.Perm(n)
		for t := range tasks {
			tasks[t] = slices.Sorted(slices.Values(perm[t*c : (t+1)*c]))
		}
	}
	return tasks, nil
}

// taskDests is, for every terminal, the other members of its task (the
// destinations of its multicasts), and the task of every terminal.
func taskDests(n int, tasks [][]int) (dests [][]int, of []int32) {
	dests, of = make([][]int, n), make([]int32, n)
	for t, ms := range tasks {
		for _, s := range ms {
			of[s] = int32(t)
			for _, d := range ms {
				if d != s {
					dests[s] = append(dests[s], d)
				}
			}
		}
	}
	return dests, of
}
