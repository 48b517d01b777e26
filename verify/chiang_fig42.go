package verify

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

// loadChiang loads an embedded configs/chiang experiment (a test seam).
var loadChiang = configs.LoadChiang

// Chiang 1995 §4.1, Fig 4.2: the multicast of configs/chiang/fig4_2.yaml
// (node 2 to {3,…,7} on the 8-node cube MIN of Chiang's switch) replayed
// cycle by cycle. Each stage must hold the header in exactly its cycle, so
// a late injection or a stage that costs an extra cycle fails the row.
func init() {
	want := []string{"s2,2", "s1,0 s1,2", "s0,1 s0,2 s0,3"}
	Register(Claim{
		ID:     "chiang-fig4.2-header",
		Source: "Chiang 1995 §4.1, Fig 4.2",
		Claim: "8-node cube MIN, one-flit output buffers: node 2's multicast to {3,4,5,6,7} (generated in cycle 0) has its " +
			"header in s2,2 in cycle 1, in s1,0 and s1,2 in cycle 2 and in s0,1, s0,2 and s0,3 in cycle 3",
		Published: strings.Join(want, " / "),
		Tolerance: "exact: the switches holding the header in each of cycles 1–3, and the multicast delivered",
		Measure: func() (string, bool, error) {
			got, err := fig42Stages(len(want))
			if err != nil {
				return "", false, err
			}
			m := strings.Join(got, " / ")
			return m, slices.Equal(got, want), nil
		},
	})
}

// fig42Stages replays fig4_2.yaml and lists, for each of the first cycles,
// the switches whose buffers hold the header (sorted; "none" if no switch
// does), then runs it to the end.
func fig42Stages(cycles int) ([]string, error) {
	c, err := loadChiang("fig4_2.yaml", nil)
	if err != nil {
		return nil, err
	}
	n, err := network.Build(c)
	if err != nil {
		return nil, err
	}
	var got []string
	var loc []network.Location
	for range cycles {
		n.Cycle()
		loc = kernel.Of(n).Locate(0, 0, loc[:0])
		var sw []string
		for _, l := range loc {
			if !slices.Contains(sw, l.Label) {
				sw = append(sw, l.Label)
			}
		}
		slices.SortFunc(sw, compareLabels)
		if len(sw) == 0 {
			sw = []string{"none"}
		}
		got = append(got, strings.Join(sw, " "))
	}
	r, err := n.RunPlain()
	if err != nil {
		return nil, err
	}
	return got, delivered("fig4_2.yaml", r)
}

// compareLabels orders switch labels "sG,R" by stage, then row, numerically.
func compareLabels(a, b string) int {
	var ga, ra, gb, rb int
	fmt.Sscanf(a, "s%d,%d", &ga, &ra)
	fmt.Sscanf(b, "s%d,%d", &gb, &rb)
	if ga != gb {
		return gb - ga
	}
	return ra - rb
}
