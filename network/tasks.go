package network

import (
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/traffic"
)

// Chiang's task workloads on the simulated network (traffic/task.go,
// patterns blocking-multicast and non-blocking-multicast): the network
// tells a blocking task when its multicast has arrived, and reports the
// tasks' system utilisation.

// clusterSizeOf is the cluster size c asks for and the key that gave it:
// traffic.cluster_size or traffic.cluster (the same setting by two names;
// giving both with different values is an error).
func clusterSizeOf(c *Config) (int, string, error) {
	t := &c.Traffic
	switch {
	case t.ClusterSize == 0:
		return t.Cluster, traffic.ClusterKey, nil
	case t.Cluster != 0 && t.Cluster != t.ClusterSize:
		return 0, "", inputerr.New(traffic.ClusterSizeKey, strconv.Itoa(t.ClusterSize),
			"the value of traffic.cluster (%d), or leave one of the two unset: they are the same setting", t.Cluster)
	}
	return t.ClusterSize, traffic.ClusterSizeKey, nil
}

// workload builds the generator of the configured traffic pattern.
func (n *Network) workload(length traffic.Length) (traffic.Generator, error) {
	c, t := &n.Cfg, n.k.Topo
	size, sizeKey, err := clusterSizeOf(c)
	if err != nil {
		return nil, err
	}
	return traffic.NewWorkload(traffic.PatternArgs{
		Name: c.Traffic.Pattern, Shape: traffic.Shape{N: t.Terminals(), Radix: t.Radix, Digits: t.Digits},
		Load: c.Traffic.Load, Length: length, Cluster: size, ClusterKey: sizeKey,
		Clusters: c.Traffic.Clusters, Ratio: c.Traffic.Ratio,
		Hotspots: c.Traffic.Hotspots, HotspotFraction: c.Traffic.HotspotFraction, Rng: n.k.Rand(),
	})
}

// hookTasks connects a task workload: its measurement window, and the
// deliveries that end a blocking task's wait (the software multicast
// driver reports whole messages itself, see swDriver.delivered).
func (n *Network) hookTasks() {
	tw, ok := n.gen.(traffic.TaskWorkload)
	if !ok {
		return
	}
	tw.SetWindow(n.start, n.end)
	if !n.scheme.Software() {
		n.k.Stats().OnDelivered(func(w *flit.Worm, arrive int64) { tw.Delivered(int(w.Src), arrive) })
	}
}

// fillTasks sets the system utilisation of blocking tasks (over a window
// the run completed).
func (n *Network) fillTasks(r *Result) {
	tw, ok := n.gen.(traffic.TaskWorkload)
	if sw, isSW := n.gen.(*swDriver); isSW {
		tw, ok = sw.inner.(traffic.TaskWorkload)
	}
	if !ok || n.k.Now() < n.end {
		return
	}
	if rho, ok := tw.Utilization(); ok {
		r.SystemUtilization = &rho
	}
}
