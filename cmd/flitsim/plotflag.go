package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/network/plot"
)

// plotScaleFlag adds --plot-scale to a command that draws load-latency
// plots (sweep, merge); its values are completed.
func plotScaleFlag(fs *pflag.FlagSet) *string {
	s := fs.String("plot-scale", string(plot.ScaleAuto),
		fmt.Sprintf("the plots' latency (delay) axis: auto (log when the values drawn span more than %d×), linear or log", plot.LogRatio))
	_ = fs.SetAnnotation("plot-scale", valuesAnnotation, plot.Scales)
	return s
}

// plotOptions checks a --plot-scale value.
func plotOptions(scale string) (plot.Options, error) {
	s, err := plot.ParseScale("--plot-scale", scale)
	return plot.Options{Scale: s}, err
}
