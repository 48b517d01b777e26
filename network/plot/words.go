package plot

import "strings"

// keyWords name the keys a sweep most often varies, for legends and
// titles: a curve reads "multicast scheme hardware", not
// "multicast.scheme=hardware".
var keyWords = map[string]string{
	"traffic.load":           "offered load",
	"traffic.pattern":        "traffic",
	"traffic.flits":          "packet length",
	"traffic.cluster":        "cluster size",
	"traffic.cluster_size":   "cluster size",
	"traffic.clusters":       "placement",
	"traffic.ratio":          "R",
	"multicast.scheme":       "multicast scheme",
	"multicast.worm":         "multicast worm",
	"multicast.encoding":     "header encoding",
	"switching":              "switching",
	"routing":                "routing",
	"arbiter":                "arbiter",
	"buffers.input":          "input buffers",
	"buffers.output":         "output buffers",
	"buffers.vcs":            "virtual channels",
	"link.latency":           "link latency",
	"switch.delay":           "switch delay",
	"switch.reuse":           "buffer reuse",
	"topology.kind":          "topology",
	"run.seed":               "seed",
	"run.workers":            "workers",
	"queue.full":             "when a queue is full",
	"multicast.send_latency": "send latency",
}

// inWords writes key = value in words: a known key by its name
// ("input buffers 4"), a topology's parameter as itself ("k = 4"), any
// other key by its last part, underscores as spaces.
func inWords(key, value string) string {
	if w, ok := keyWords[key]; ok {
		return w + " " + value
	}
	name := key[strings.LastIndex(key, ".")+1:]
	if strings.HasPrefix(key, "topology.") && len(name) == 1 {
		return name + " = " + value
	}
	return strings.ReplaceAll(name, "_", " ") + " " + value
}
