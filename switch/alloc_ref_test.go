package xbar

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// flitsimKind is the flitsim allocator that reproduces a BookSim allocator.
var flitsimKind = map[string]string{
	"islip":                  "islip",
	"wavefront":              "wavefront",
	"separable_input_first":  "separable-input-first",
	"separable_output_first": "separable-output-first",
}

// TestAllocatorsMatchBookSim replays testdata/booksim/allocref.txt: random
// request streams run through BookSim2's own allocator classes (compiled
// from booksim2 @28f43299 by testdata/booksim/gen.sh), every cycle's grants
// recorded. Each flitsim allocator must give the same grants cycle after
// cycle, which also checks that its pointers move as BookSim's do.
func TestAllocatorsMatchBookSim(t *testing.T) {
	f, err := os.Open("testdata/booksim/allocref.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var (
		a       Allocator
		name    string
		in      int
		cyc     int
		streams = map[string]int{}
	)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		nums := atois(t, line, fields[1:])
		switch fields[0] {
		case "A":
			kind := flitsimKind[fields[1]]
			nums = atois(t, line, fields[2:])
			in, cyc = nums[0], 0
			a = mustAlloc(t, kind, nums[0], nums[1], nums[2])
			name = fmt.Sprintf("%s %d×%d iters %d (line %d)", kind, nums[0], nums[1], nums[2], line)
			streams[kind]++
		case "R":
			cyc++
			a.Clear()
			for k := 0; k+2 < len(nums); k += 3 {
				a.AddRequest(nums[k], nums[k+1], nums[k+2])
			}
			a.Allocate()
		case "G":
			if got := grantsOf(a, in); !slices.Equal(got, nums) {
				t.Fatalf("%s, cycle %d: grants %v, BookSim %v", name, cyc, got, nums)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"islip", "wavefront", "separable-input-first", "separable-output-first"} {
		if streams[k] < 6 {
			t.Errorf("%s: %d reference streams, want at least 6", k, streams[k])
		}
	}
}

func atois(t *testing.T, line int, fields []string) []int {
	n := make([]int, 0, len(fields))
	for _, s := range fields {
		v, err := strconv.Atoi(s)
		if err != nil {
			if len(n) == 0 {
				return nil // the A line's kind name
			}
			t.Fatalf("allocref.txt line %d: %v", line, err)
		}
		n = append(n, v)
	}
	return n
}
