package traffic

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// baseCube reports whether ms is a base binary cube: len(ms) = 2^m members
// that agree on every address bit above the m lowest.
func baseCube(ms []int) bool {
	c := len(ms)
	if bits.OnesCount(uint(c)) != 1 {
		return false
	}
	for _, v := range ms {
		if v/c != ms[0]/c {
			return false
		}
	}
	return len(ms) == c && len(slices.Compact(slices.Clone(ms))) == c
}

// partition reports whether tasks cover 0..n−1 once each, c per task.
func partition(t *testing.T, tasks [][]int, n, c int) {
	t.Helper()
	seen := make([]bool, n)
	for i, ms := range tasks {
		if len(ms) != c || !slices.IsSorted(ms) {
			t.Fatalf("task %d: %v, want %d sorted members", i, ms, c)
		}
		for _, v := range ms {
			if v < 0 || v >= n || seen[v] {
				t.Fatalf("task %d: node %d outside 0..%d or placed twice", i, v, n-1)
			}
			seen[v] = true
		}
	}
	if len(tasks) != n/c {
		t.Fatalf("%d tasks, want %d", len(tasks), n/c)
	}
}

func TestAllocateCube(t *testing.T) {
	for _, c := range []int{2, 4, 8, 16, 32, 64} {
		tasks, err := Allocate(AllocCube, 64, c, ClusterSizeKey, newRng(1))
		if err != nil {
			t.Fatal(err)
		}
		partition(t, tasks, 64, c)
		for _, ms := range tasks {
			if !baseCube(ms) {
				t.Errorf("size %d: %v is not a base cube", c, ms)
			}
		}
	}
}

// Every task holds all of one base cube but one node, and one node of
// another cube: the node drawn out of the next cube.
func TestAllocateCubeMinusOne(t *testing.T) {
	for _, c := range []int{2, 4, 8, 16, 32} {
		tasks, err := Allocate(AllocCubeMinusOne, 64, c, ClusterSizeKey, newRng(7))
		if err != nil {
			t.Fatal(err)
		}
		partition(t, tasks, 64, c)
		for i, ms := range tasks {
			in, out := 0, -1
			for _, v := range ms {
				if v/c == i {
					in++
				} else {
					out = v
				}
			}
			if in != c-1 || out/c != (i+1)%len(tasks) {
				t.Errorf("size %d task %d: %v: want %d nodes of cube %d and one of cube %d", c, i, ms, c-1, i, (i+1)%len(tasks))
			}
			if baseCube(ms) {
				t.Errorf("size %d task %d: %v is a cube", c, i, ms)
			}
		}
	}
	a, _ := Allocate(AllocCubeMinusOne, 64, 8, ClusterSizeKey, newRng(7))
	b, _ := Allocate(AllocCubeMinusOne, 64, 8, ClusterSizeKey, newRng(7))
	d, _ := Allocate(AllocCubeMinusOne, 64, 8, ClusterSizeKey, newRng(8))
	if !slices.EqualFunc(a, b, slices.Equal) || slices.EqualFunc(a, d, slices.Equal) {
		t.Error("the dropped nodes are not drawn from the seed")
	}
}

// Random placement is a partition drawn from the seed: the same seed gives
// the same tasks, another seed others, and it is not the cube placement.
func TestAllocateRandom(t *testing.T) {
	cubes := 0
	var first [][]int
	for seed := range uint64(20) {
		tasks, err := Allocate(AllocRandom, 64, 8, ClusterSizeKey, newRng(seed))
		if err != nil {
			t.Fatal(err)
		}
		partition(t, tasks, 64, 8)
		for _, ms := range tasks {
			if baseCube(ms) {
				cubes++
			}
		}
		again, _ := Allocate(AllocRandom, 64, 8, ClusterSizeKey, newRng(seed))
		if !slices.EqualFunc(tasks, again, slices.Equal) {
			t.Fatalf("seed %d: two placements differ", seed)
		}
		if seed == 0 {
			first = tasks
		} else if slices.EqualFunc(tasks, first, slices.Equal) {
			t.Errorf("seed %d places the tasks as seed 0", seed)
		}
	}
	// A random 8-set of 64 is a base cube with probability 8/C(64,8).
	if cubes > 0 {
		t.Errorf("%d random tasks of 160 are base cubes", cubes)
	}
}

func TestAllocateErrors(t *testing.T) {
	for _, c := range []struct {
		a    Allocation
		size int
		want string
	}{
		{AllocCube, 3, "traffic.cluster_size: "},
		{AllocRandom, 128, "traffic.cluster_size: "},
		{AllocCube, 1, "traffic.cluster_size: "},
		{AllocCubeMinusOne, 64, "two tasks at least"},
		{AllocCubeMinusOne, 0, "two tasks at least"},
	} {
		_, err := Allocate(c.a, 64, c.size, ClusterSizeKey, newRng(1))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v size %d: %v, want one line with %q", c.a, c.size, err, c.want)
		}
	}
	if _, err := ParseAllocation("blocks"); err == nil || !strings.HasPrefix(err.Error(), "traffic.clusters: ") {
		t.Errorf("ParseAllocation: %v", err)
	}
	if a, err := ParseAllocation("One-Out-Of-Cube"); err != nil || a != AllocCubeMinusOne {
		t.Errorf("alias: %v %v", a, err)
	}
	if _, err := NewTasks(64, [][]int{{0, 1}}, 1, Length{4, 4}, true, newRng(1)); err == nil || !strings.HasPrefix(err.Error(), "traffic.ratio: ") {
		t.Errorf("ratio 1: %v", err)
	}
}

// taskNet is a network that takes every multicast in delay cycles, and
// checks that it stays in its task and that a blocking task has one at a
// time.
type taskNet struct {
	t        *testing.T
	g        TaskWorkload
	of       map[int]int // node → task
	tasks    [][]int
	delay    int64
	blocking bool
	now      int64
	inFlight map[int]int // task → multicasts in flight
	due      [][2]int64  // (cycle, src)
	sent     int
	flits    int
}

func (n *taskNet) Emit(src, dst, flits int) { n.t.Fatal("a unicast") }
func (n *taskNet) EmitMulticast(src int, dsts []int, flits int) {
	task := n.of[src]
	want := slices.DeleteFunc(slices.Clone(n.tasks[task]), func(v int) bool { return v == src })
	if !slices.Equal(dsts, want) {
		n.t.Fatalf("multicast from %d to %v, want the rest of its task %v", src, dsts, want)
	}
	if n.blocking && n.inFlight[task] > 0 {
		n.t.Fatalf("blocking task %d multicasts again before its multicast arrived", task)
	}
	n.inFlight[task]++
	n.sent++
	n.flits += flits
	n.due = append(n.due, [2]int64{n.now + n.delay, int64(src)})
}

func (n *taskNet) run(cycles int64) {
	for n.now = 0; n.now < cycles; n.now++ {
		if n.g.NextAt(n.now) == n.now {
			n.g.Generate(n.now, n)
		}
		for len(n.due) > 0 && n.due[0][0] == n.now {
			src := int(n.due[0][1])
			n.due = n.due[1:]
			n.inFlight[n.of[src]]--
			n.g.Delivered(src, n.now)
		}
	}
}

// Tasks multicast only inside their cluster; a blocking task waits for its
// multicast, so its utilisation is C/(C + delay) with C = L(1 − R)/R; a
// non-blocking task does not wait and sends every C cycles.
func TestTasks(t *testing.T) {
	const n, c, ratio, delay, cycles = 64, 8, 0.3, 10, 200000
	for _, blocking := range []bool{true, false} {
		for _, al := range []Allocation{AllocCube, AllocCubeMinusOne, AllocRandom} {
			tasks, _ := Allocate(al, n, c, ClusterSizeKey, newRng(5))
			g, err := NewTasks(n, tasks, ratio, Length{64, 64}, blocking, newRng(5))
			if err != nil {
				t.Fatal(err)
			}
			g.SetWindow(1000, cycles)
			net := &taskNet{t: t, g: g, of: map[int]int{}, tasks: tasks, delay: delay, blocking: blocking, inFlight: map[int]int{}}
			for i, ms := range tasks {
				for _, v := range ms {
					net.of[v] = i
				}
			}
			net.run(cycles)
			comp := math.Round(64 * (1 - ratio) / ratio) // 149
			rho, ok := g.Utilization()
			period := comp + delay
			if !blocking {
				period = comp
				if ok {
					t.Errorf("non-blocking tasks report a utilisation")
				}
			} else if want := comp / (comp + delay); !ok || math.Abs(rho-want) > 0.002 {
				t.Errorf("%v blocking: utilisation %.4f, want %.4f", al, rho, want)
			}
			if want := float64(cycles) / period * float64(len(tasks)); math.Abs(float64(net.sent)-want) > float64(len(tasks)) {
				t.Errorf("%v blocking %v: %d multicasts, want %.0f", al, blocking, net.sent, want)
			}
		}
	}
}
