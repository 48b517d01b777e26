package topology

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func clusterCounts(t *testing.T, s Spec, masks string) ([][]int, []SharedChannels) {
	t.Helper()
	topo := mustBuild(t, s)
	l, ok := StagedLayout(topo)
	if !ok {
		t.Fatalf("%s: not staged", s.Kind)
	}
	cs, err := ParseClusters(strings.Split(masks, ","), topo.Terminals())
	if err != nil {
		t.Fatal(err)
	}
	us, err := ClusterChannels(topo, l, cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var counts [][]int
	for _, u := range us {
		counts = append(counts, u.Counts())
	}
	return counts, Shared(us)
}

// The digest's exact counts (Chiang Figs 5.5(a), 5.6(a), 5.7, 5.8; §5.1
// Tier A item 2), each network of 16 terminals, 2×2 switches.
func TestClusterChannelsFigures(t *testing.T) {
	for _, c := range []struct {
		kind, masks, want string
		shared            int
	}{
		{"baseline", "x0xx,010x,11xx", "[[8 4 4 8] [2 1 1 2] [4 2 2 4]]", 0},
		{"butterfly", "x0xx,010x,11xx", "[[8 4 8 8] [1 1 1 2] [4 2 2 4]]", 0},
		{"modified-baseline", "x0xx,010x,11xx", "[[8 8 8 8] [2 2 2 2] [4 4 4 4]]", 0},
		{"modified-butterfly", "x0xx,010x,11xx", "[[8 8 8 8] [2 2 2 2] [4 4 4 4]]", 0},
		{"baseline", "xxx0,xxx1", "[[8 16 16 8] [8 16 16 8]]", 2},
		{"modified-baseline", "xxx0,xxx1", "[[8 8 8 8] [8 8 8 8]]", 0},
		{"modified-butterfly", "xxx0,xxx1", "[[8 8 8 8] [8 8 8 8]]", 0},
		{"butterfly", "xxx0,xxx1", "[[16 16 16 8] [16 16 16 8]]", 3},
	} {
		got, shared := clusterCounts(t, Spec{Kind: c.kind, K: 2, N: 4}, c.masks)
		if fmt.Sprint(got) != c.want || len(shared) != c.shared {
			t.Errorf("%s %s: %v (shared %v), want %s (%d shared connections)", c.kind, c.masks, got, shared, c.want, c.shared)
		}
	}
}

func TestParseClustersRefuses(t *testing.T) {
	for _, c := range []struct {
		masks []string
		n     int
		says  string
	}{
		{[]string{"x0x"}, 16, "a mask of 4 characters"},
		{[]string{"x0x2"}, 16, `'2' is none of them`},
		{[]string{"x0xx", "00xx"}, 16, "x0xx and 00xx both hold terminal 0"},
		{[]string{"1xxx", "x1x1"}, 16, "both hold terminal 13"},
		{[]string{"xx"}, 27, "not a power of two"},
		{nil, 16, "one or more masks"},
	} {
		_, err := ParseClusters(c.masks, c.n)
		e, ok := inputerr.As(err)
		if !ok || e.Key != ClusterFlag || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v on %d terminals: %v, want %s naming %q", c.masks, c.n, err, ClusterFlag, c.says)
		}
	}
	cs, err := ParseClusters([]string{"XX0", "0x1", "1x1"}, 8)
	if err != nil || fmt.Sprint(cs[0].Members(8), cs[1].Members(8), cs[2].Members(8)) != "[0 2 4 6] [1 3] [5 7]" {
		t.Errorf("%v %v", cs, err)
	}
}

// Direct networks are not staged; every MIN kind is.
func TestStagedLayout(t *testing.T) {
	for _, s := range []Spec{{Kind: "hypercube", D: 3}, {Kind: "mesh", K: 4, N: 2}, {Kind: "dshuffle", D: 2, N: 3}} {
		if _, ok := StagedLayout(mustBuild(t, s)); ok {
			t.Errorf("%s is staged", s.Kind)
		}
	}
	for _, s := range []Spec{{Kind: "cube", K: 4, N: 3}, {Kind: "modified-butterfly", K: 2, N: 5}, {Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}}} {
		l, ok := StagedLayout(mustBuild(t, s))
		if !ok {
			t.Errorf("%s is not staged", s.Kind)
		}
		t.Logf("%s: %+v", s.Kind, l)
	}
}

func TestStagedKinds(t *testing.T) {
	if got := fmt.Sprint(StagedKinds()); got != "[omega baseline butterfly cube esmin modified-baseline modified-butterfly]" {
		t.Errorf("StagedKinds() = %s", got)
	}
	_, err := PartitionChannels(mustBuild(t, Spec{Kind: "hypercube", D: 4}), []string{"xxxx"}, nil)
	if e, ok := inputerr.As(err); !ok || e.Key != "topology.kind" {
		t.Errorf("hypercube: %v", err)
	}
}

// BenchmarkClusterChannels traces the 1024-node cube MIN's one cluster of
// every terminal: 1024·1023 routes per op.
func BenchmarkClusterChannels(b *testing.B) {
	topo, err := Build(Spec{Kind: "cube", K: 2, N: 10})
	if err != nil {
		b.Fatal(err)
	}
	l, _ := StagedLayout(topo)
	cs, err := ParseClusters([]string{"xxxxxxxxxx"}, 1024)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ClusterChannels(topo, l, cs, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*1024*1023/b.Elapsed().Seconds(), "routes/s")
}

// randomCubes splits the mask into binary cubes: at random, a mask stays a
// cluster or one of its free bits is fixed both ways and each half split
// further.
func randomCubes(mask []byte, rng *rand.Rand) []string {
	var free []int
	for i, c := range mask {
		if c == 'x' {
			free = append(free, i)
		}
	}
	if len(free) == 0 || rng.IntN(3) == 0 {
		return []string{string(mask)}
	}
	i := free[rng.IntN(len(free))]
	var out []string
	for _, b := range []byte{'0', '1'} {
		m := slices.Clone(mask)
		m[i] = b
		out = append(out, randomCubes(m, rng)...)
	}
	return out
}

// Theorems 1–4: cube, omega and the two modified networks split into
// contention-free, channel-balanced binary cubes, for 2×2, 4×4 and 8×8
// switches (50 random cube partitions of 64 terminals each).
func TestCubePartitionsBalanced(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for _, kind := range []string{"cube", "omega", "modified-baseline", "modified-butterfly"} {
		for _, kn := range [][2]int{{2, 6}, {4, 3}, {8, 2}} {
			topo := mustBuild(t, Spec{Kind: kind, K: kn[0], N: kn[1]})
			for range 50 {
				masks := randomCubes([]byte("xxxxxx"), rng)
				p, err := PartitionChannels(topo, masks, rng)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Shared) > 0 {
					t.Fatalf("%s k=%d %v: shared %v", kind, kn[0], masks, p.Shared)
				}
				for _, u := range p.Uses {
					for _, c := range u.Counts() {
						if len(u.Members) > 1 && c != len(u.Members) {
							t.Fatalf("%s k=%d %v: %s uses %v", kind, kn[0], masks, u.Cluster.Mask, u.Counts())
						}
					}
				}
			}
		}
	}
}

// Lemmas 10–11: the plain baseline and butterfly (2×2) are not: some
// random cube partition loses or shares channels.
func TestCubePartitionsUnbalanced(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for _, kind := range []string{"baseline", "butterfly"} {
		topo := mustBuild(t, Spec{Kind: kind, K: 2, N: 6})
		bad := 0
		for range 50 {
			p, err := PartitionChannels(topo, randomCubes([]byte("xxxxxx"), rng), rng)
			if err != nil {
				t.Fatal(err)
			}
			off := len(p.Shared) > 0
			for _, u := range p.Uses {
				for _, c := range u.Counts() {
					off = off || len(u.Members) > 1 && c != len(u.Members)
				}
			}
			if off {
				bad++
			}
		}
		if bad == 0 {
			t.Errorf("%s: all 50 cube partitions balanced and contention-free", kind)
		}
		t.Logf("%s: %d of 50 partitions unbalanced or shared", kind, bad)
	}
}
