package plot

import (
	"fmt"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Scale is the latency axis' scale: ScaleAuto is logarithmic when the
// plotted latencies span more than LogRatio (the lowest to the highest),
// linear otherwise.
type Scale string

// The scales a latency axis takes (--plot-scale).
const (
	ScaleAuto   Scale = "auto"
	ScaleLinear Scale = "linear"
	ScaleLog    Scale = "log"
)

// Scales lists the scales, as --plot-scale takes them.
var Scales = []string{string(ScaleAuto), string(ScaleLinear), string(ScaleLog)}

// LogRatio is the span of latencies (highest / lowest) past which the
// automatic scale is logarithmic: on a linear axis the low-load points of
// such a plot would lie on its floor, or, clipped, the high ones off it.
const LogRatio = 20

// ParseScale checks a --plot-scale value; "" is ScaleAuto.
func ParseScale(flag, s string) (Scale, error) {
	switch Scale(s) {
	case "", ScaleAuto:
		return ScaleAuto, nil
	case ScaleLinear, ScaleLog:
		return Scale(s), nil
	}
	return "", inputerr.New(flag, strconv.Quote(s), "auto, linear, log")
}

// Options are a drawing's choices.
type Options struct {
	Scale Scale // the latency axis' (the zero value is ScaleAuto)
}

// useLog reports whether a latency axis over values lo..hi (the lowest
// and highest mean latency drawn) is logarithmic under s.
func useLog(s Scale, lo, hi float64) bool {
	switch s {
	case ScaleLog:
		return lo > 0
	case ScaleLinear:
		return false
	}
	return lo > 0 && hi > LogRatio*lo
}

// steps125 are the mantissas of a log axis' labelled ticks.
var steps125 = []float64{1, 2, 5}

// floor125 is the largest 1, 2 or 5 × 10^n at most v (v > 0).
func floor125(v float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v)))
	out := e
	for _, m := range steps125 {
		if m*e <= v*(1+1e-9) {
			out = m * e
		}
	}
	return out
}

// ceil125 is the smallest 1, 2 or 5 × 10^n at least v (v > 0).
func ceil125(v float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range steps125 {
		if m*e >= v*(1-1e-9) {
			return m * e
		}
	}
	return 10 * e
}

// setLogAxis makes a a logarithmic axis from lo to hi, rounded out to
// 1, 2 or 5 × 10^n.
func setLogAxis(a *gplot.Axis, lo, hi float64) {
	a.Min, a.Max = floor125(lo), ceil125(hi)
	a.Scale = gplot.LogScale{}
	a.Tick.Marker = logTicks{}
}

// logTicks labels 1, 2 and 5 × 10^n (only 10^n past three decades) and
// marks the other whole multiples of 10^n unlabelled.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0) || hi < lo {
		return nil
	}
	few := hi/lo > 1000
	var out []gplot.Tick
	for e := math.Pow(10, math.Floor(math.Log10(lo))); e <= hi*(1+1e-9); e *= 10 {
		for m := 1.0; m <= 9; m++ {
			v := m * e
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := gplot.Tick{Value: v}
			if m == 1 || !few && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			out = append(out, t)
		}
	}
	return out
}

// valueText writes a latency beside its mark on the plot's edge: whole
// cycles from 100 on, three figures below; "none" for no value.
func valueText(v float64) string {
	switch {
	case math.IsNaN(v):
		return "none"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
