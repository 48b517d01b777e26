package verify

import (
	"fmt"
	"strings"
)

// PMNG, the partial multinode gather (Varvarigos 1992 §3.1, digest 000a
// §5: PE reversed): M nodes each receive a separate packet from every
// other node, no combining. The collective runs PE on the same active set,
// records it and replays it time-reversed on the router; the claim is
// that PMNG has PE's complexity, measured as equal times.

func init() {
	Register(Claim{
		ID:        "varvarigos-pmng",
		Source:    "Varvarigos 1992 §3.1 task list, §3.7 (digest 000a §5, §5.12)",
		Claim:     "PMNG (PE reversed: time-reversed schedule on reversed links) takes the partial exchange's time on the same active set, every packet delivered once to its gatherer",
		Published: "T_PMNG = T_PE (same complexity as PE)",
		Tolerance: "exact equality of the router's slot counts for d = 4, 6, 8 and several M; delivered exactly once",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct{ d, m int }{{4, 3}, {4, 16}, {6, 4}, {6, 13}, {8, 16}, {8, 64}} {
				p := map[string]string{"task.m": fmt.Sprint(c.m)}
				pe, err := collRun(c.d, "pe", p)
				if err != nil {
					return "", false, err
				}
				g, err := collRun(c.d, "pmng", p)
				if err != nil {
					return "", false, err
				}
				parts = append(parts, fmt.Sprintf("d=%d M=%d: PMNG %g, PE %g (%d deliveries)", c.d, c.m, g.Slots, pe.Slots, g.Deliveries))
				ok = ok && g.Slots == pe.Slots && g.Deliveries == int64(c.m*(1<<c.d-1)) && g.Slots >= g.LowerBound
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}
