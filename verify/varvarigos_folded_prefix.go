package verify

import (
	"fmt"
	"strings"
)

// The folded cube's t_p prefix channel (the folded-cube paper §3, eq. 4;
// digest 000b §4.14(c)): the classes and the class ranks computed by
// prefix messages on the links before the data phase.
func init() {
	Register(Claim{
		ID:     "varvarigos-folded-pmnb-prefix",
		Source: "folded-cube paper §3, eq. 4 (digest 000b §4.14(c), §5.4, §7 item 24; 000a §5.6, §7.3)",
		Claim: "folded-cube PMNB and PMNA with the rank computation on the links: a prefix over F_d (r_s, M, class r_s mod (d+1)) then the d+1 class prefixes over the F_c at once, " +
			"2d hops of t_p each: exactly 4d·t_p added to the t_p = 0 run, within ⌈M/(d+1)⌉ + 2d + 4d·t_p − 1; d = 4, 6, 8, t_p = 1, 2",
		Published: "the 4d·t_p term of eq. 4 (d=16 M=1024: 92 at t_p = 0, 156 at t_p = 1): +4d·t_p, d=4: 16, 32; d=6: 24, 48; d=8: 32, 64",
		Tolerance: "exact; every node's rank, class rank and M from the messages equal the true ones (checked in every run); delivered once",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct{ d, m, tps int }{{4, 5, 2}, {6, 20, 2}, {8, 100, 2}, {8, 256, 1}} {
				for _, task := range []string{"pmnb", "pmna"} {
					p := map[string]string{"task.m": fmt.Sprint(c.m)}
					base, err := foldRun(c.d, task, p, 1)
					if err != nil {
						return "", false, err
					}
					var add []string
					for tp := 1; tp <= c.tps; tp++ {
						r, err := foldRun(c.d, task, map[string]string{"task.m": fmt.Sprint(c.m), "task.tp": fmt.Sprint(tp)}, 1)
						if err != nil {
							return "", false, err
						}
						ok = ok && near(r.Slots-base.Slots, float64(4*c.d*tp)) && near(r.Slots, *r.Formula) && within(r)
						add = append(add, fmt.Sprintf("+%g (%g ≤ %g)", r.Slots-base.Slots, r.Slots, *r.UpperBound))
					}
					parts = append(parts, fmt.Sprintf("%s d=%d M=%d: %s", task, c.d, c.m, strings.Join(add, ", ")))
				}
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}
