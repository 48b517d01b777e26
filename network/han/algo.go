package han

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Algorithms and schedules.
const (
	AlgQ = "q" // quarters (Ch. 3)
	AlgH = "h" // halves, two move/smooth pairs a stage (Ch. 4)
	// Greedy row-column routing (§1.4), the baselines: along the row to the
	// destination column, then along the column, first come first served.
	AlgGreedy = "greedy"
	// AlgGreedyFF is greedy with farthest-first priority on the columns.
	AlgGreedyFF = "greedy-ff"

	Static = "static" // every phase takes its worst-case length (the thesis's processors count clock ticks)
	Actual = "actual" // every phase ends when its last message lands
)

// Algorithms lists the algorithms Run knows.
var Algorithms = []string{AlgQ, AlgH, AlgGreedy, AlgGreedyFF}

// Schedules lists the schedules.
var Schedules = []string{Static, Actual}

// Phase is one phase of a stage.
type Phase struct {
	Phase     string `json:"phase"`  // move, count, row or column
	Kind      string `json:"kind"`   // data or integer
	Region    string `json:"region"` // the regions it works on, e.g. "8x8" (move: the region split)
	Steps     int64  `json:"steps"`  // its length in the schedule run
	Static    int64  `json:"static"` // its worst-case length
	Actual    int64  `json:"actual"` // until its last message landed
	MaxBuffer int    `json:"max_buffer"`
	// OverStatic, when set, is the thesis's worst-case length this phase
	// outran (Static is then its actual length); see Result.Deviations.
	OverStatic int64 `json:"over_static,omitempty"`
}

// Stage is one recursion stage on regions of side Side.
type Stage struct {
	Side   int     `json:"side"`
	Phases []Phase `json:"phases"`
}

// Bound is the thesis's formula for each measured figure.
type Bound struct {
	DataSteps          float64 `json:"data_steps"`
	IntegerSteps       float64 `json:"integer_steps"`
	TotalSteps         float64 `json:"total_steps"`
	MaxBuffer          int     `json:"max_buffer"`
	MaxBufferAfterMove int     `json:"max_buffer_after_move"`
	Source             string  `json:"source"`
}

// Result is a routing's outcome.
type Result struct {
	Algorithm          string  `json:"algorithm"`
	Rows               int     `json:"rows"`
	Cols               int     `json:"cols"`
	Dims               []int   `json:"dims,omitempty"` // a K-D mesh's sides (K ≥ 3; rows is the first, cols the product of the rest)
	Permutation        string  `json:"permutation"`
	Schedule           string  `json:"schedule"`
	Model              string  `json:"model,omitempty"` // the machine's (lockstep.model; "": distributed)
	Wrap               bool    `json:"wrap,omitempty"`
	Buffers            int     `json:"buffers"`
	Messages           int     `json:"messages"`
	Copies             int     `json:"copies"` // made by restricted broadcasting
	DataSteps          int64   `json:"data_steps"`
	IntegerSteps       int64   `json:"integer_steps"`
	TotalSteps         int64   `json:"total_steps"`
	MaxBuffer          int     `json:"max_buffer"`
	MaxBufferAfterMove int     `json:"max_buffer_after_move"`
	Bound              Bound   `json:"bound"`
	Stages             []Stage `json:"stages"`
	// Deviations lists where the run outlasted a length the thesis claims
	// without proof (the k² move's (k−1)s).
	Deviations []string `json:"deviations,omitempty"`
}

// Buffers is the pool size an algorithm needs on an n×n mesh (Thm 3.1,
// Thm 4.1); greedy's is unbounded in effect: a column never holds more than
// n messages.
func Buffers(alg string, n int) int {
	switch alg {
	case AlgH:
		return 3
	case AlgGreedy, AlgGreedyFF:
		return n
	}
	return 5
}

// ThesisBound is the thesis's bound for alg on a rows×cols mesh (Thm 3.3,
// Thm 4.5; §3.6.4 and §4.6.5 for rectangles).
func ThesisBound(alg string, rows, cols int) Bound {
	n, f, rf, cf := cols, float64(cols), float64(rows), float64(cols)
	odd := alg == AlgH && (!Pow2(rows) || !Pow2(cols))
	switch {
	case odd && rows != cols:
		return Bound{2.5*rf + 3*cf, 1.5*rf + 2*cf, 4*rf + 5*cf, 3, 3, "Han 1990 §4.6.5, §4.6.4: (2.5r + 3c) data + (1.5r + 2c) integer steps, 3 buffers (3 after a move: the smaller half's outer column)"}
	case odd:
		return Bound{5.5 * f, 3.5 * f, 9 * f, 3, 3, "Han 1990 §4.6.4: H on an arbitrary square ≅ 5.5n data + 3.5n integer steps, 3 buffers (3 after a move: the smaller half's outer column)"}
	case rows != cols && alg == AlgH:
		return Bound{2.5*rf + 3*cf, 1.5*rf + 2*cf, 4*rf + 5*cf, 3, 2, "Han 1990 §4.6.5: (2.5r + 3c) data + (1.5r + 2c) integer steps, 3 buffers"}
	}
	if rows != cols {
		return Bound{1.75*rf + 2.2*cf, 0.5*rf + cf, 2.25*rf + 3.2*cf, 5, 4, "Han 1990 §3.6.4: (1.75r + 2.2c) data + (0.5r + c) integer steps, 5 buffers"}
	}
	switch alg {
	case AlgGreedy:
		return Bound{3*f - 3, 0, 3*f - 3, n, n, "Han 1990 §1.4: greedy row-column, 3n − 3 steps without priority; n buffers"}
	case AlgGreedyFF:
		return Bound{2*f - 2, 0, 2*f - 2, n, n, "Han 1990 §1.4: greedy row-column with farthest-first priority, 2n − 2 steps; n buffers"}
	}
	if alg == AlgH {
		return Bound{5.5 * f, 3.5 * f, 9 * f, 3, 2, "Han 1990 Thm 4.1, 4.5: 5.5n data + 3.5n integer steps, 3 buffers (2 after a move)"}
	}
	return Bound{4 * f, 1.5 * f, 5.5 * f, 5, 4, "Han 1990 Thm 3.1, 3.3: 4n data + 1.5n integer steps, 5 buffers (4 after a move)"}
}

// RowBound is Thm 2.1's worst case of row movement on c processors with b
// buffers, floored: a static schedule counts whole steps (b even:
// b(b+2)c/(4(b+1)); b odd: (b+1)c/4; never below c − 1).
func RowBound(b, c int) int64 {
	if b%2 == 1 {
		return int64(max(c-1, (b+1)*c/4))
	}
	return int64(max(c-1, b*(b+2)*c/(4*(b+1))))
}

// ColBound is Thm 2.3's worst case of column movement on r processors, b buffers.
func ColBound(b, r int) int64 { return int64(r - 1 - (r-1)/b) }

// InternalError is a failure of the algorithm's own invariants (a bug).
type InternalError struct{ Msg string }

func (e *InternalError) Error() string { return e.Msg }

func internalf(format string, a ...any) error { return &InternalError{fmt.Sprintf(format, a...)} }

// router runs one algorithm on a machine.
type router struct {
	m            *Machine
	dests        [][]int32 // per message (copies included): the destinations it carries
	cnt          []counted // per processor
	sendE, sendW []int32
	target       []int32 // per message: its column-movement target row
	bestN, bestS []int32
	bestStep     []int64   // per processor: the stamp bestN and bestS were chosen at
	stamp        int64     // column-movement and k²-move steps, all phases
	grid         grid      // scratch: the regions a phase works on
	sub          []Move    // scratch: an ILLIAC machine step's moves
	subAt        []int32   // and their indices in the distributed step's
	subInt       []IntSend // and integer sends
	inbox        []IntSend // and an ILLIAC step's deliveries
	copyDir      []Dir     // per message: the last direction a step copies it in (ILLIAC, at copyAt)
	copyAt       []uint32
	copyStamp    uint32
	live, who    []int32   // scratch: travel's travellers under way, and per move its traveller
	moves        []Move    // and its step's moves (also smoothing's)
	act          []int32   // scratch: smoothing's active processors or messages
	sends        []IntSend // scratch: a counting step's integer sends
	travs        []trav    // scratch: a move's travellers
	bulk         bulk      // travelBulk's
	straight     straight  // and straightBulk's
	rowBulk      rowBulk   // rowMoveBulk's
	keyAt        []int32   // scratch: sortBySource's traveller at each processor (−1 none)
	travs2       []trav    // and its sorted copy
	win          []int32   // per processor×4+dir: the k² move's winner of the channel (at winStep)
	winStep      []int64
	onStep       func() // (tests: called after every data step of a move)
	schedule     string
	res          *Result
	stage        *Stage
}

// MaxSide bounds the mesh side: a Q or H machine of 2048² processors is
// 4 M pools of a few buffers; greedy's pools are n deep.
func MaxSide(alg string) int {
	if alg == AlgGreedy || alg == AlgGreedyFF {
		return 256
	}
	return 2048
}

// SideOK says whether alg runs on an n×n mesh.
func SideOK(alg string, n int) bool {
	if n < 2 || n > MaxSide(alg) {
		return false
	}
	return alg != AlgQ || n&(n-1) == 0
}

// Pow2 reports whether n is a power of two.
func Pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// AllowedSide says which sides alg runs on.
func AllowedSide(alg string) string {
	if alg != AlgQ {
		return fmt.Sprintf("from 2 to %d", MaxSide(alg))
	}
	return fmt.Sprintf("a power of two from 2 to %d: algorithm %s halves the side every stage", MaxSide(alg), alg)
}

// Rectangles says whether alg runs on rectangular meshes (§3.6.4, §4.6.5:
// Q and H, at least as many rows as columns).
func Rectangles(alg string) bool { return alg == AlgQ || alg == AlgH }

// RectangleRule says which rectangles alg runs on.
func RectangleRule(alg string) string {
	if Rectangles(alg) {
		return "algorithm " + alg + " needs at least as many rows as columns (topology.k=C,R: C columns, R ≥ C rows)"
	}
	return "algorithm " + alg + " needs a square mesh"
}

// Check says whether alg can run on a rows×cols mesh, as a bad-input message.
func Check(alg string, rows, cols int) error {
	if !slices.Contains(Algorithms, alg) {
		return fmt.Errorf("algorithm %q (allowed: %s)", alg, strings.Join(Algorithms, ", "))
	}
	for _, s := range []int{rows, cols} {
		if !SideOK(alg, s) {
			return fmt.Errorf("side %d (allowed: %s)", s, AllowedSide(alg))
		}
	}
	if rows != cols && !Rectangles(alg) || rows < cols {
		return fmt.Errorf("a %d×%d mesh (rows × columns): %s", rows, cols, RectangleRule(alg))
	}
	return nil
}

// Run routes dest (per processor, row-major: its message's destination
// processor, or −1 for none) with alg on an n×n lock-step mesh of pools of
// buffers messages. A refused step is returned as *Refusal, a broken
// invariant as *InternalError.
func Run(alg string, n, buffers int, dest []int32, schedule string) (*Result, error) {
	return RunBroadcast(alg, n, buffers, Lists(dest), schedule, nil)
}

// Lists is a (partial) permutation as RunBroadcast's destination lists.
func Lists(dest []int32) [][]int32 {
	dests := make([][]int32, len(dest))
	for p, d := range dest {
		if d >= 0 {
			dests[p] = dest[p : p+1 : p+1]
		}
	}
	return dests
}

// RunBroadcast routes a restricted broadcast: dests[p] is processor p's
// message's destinations (none: no message), all distinct (§1.3.4). With
// log, every step goes there as CSV (Machine.EventLog).
func RunBroadcast(alg string, n, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	return RunMesh(alg, n, n, buffers, dests, schedule, log)
}

// The machine's models (lockstep.model).
const (
	ModelDistributed = "distributed" // the thesis's: a processor sends on any of its links in a step (§1.3.3)
	ModelILLIAC      = "illiac"      // SIMD: all processors send in one direction a step (§1.4.1)
)

// Models lists the models.
var Models = []string{ModelDistributed, ModelILLIAC}

// Hardware is the machine a routing runs on: its model ("" is
// distributed) and whether rows and columns wrap around.
type Hardware struct {
	Model string
	Wrap  bool
}

// RunMesh is RunBroadcast on a rows×cols mesh (row-major processors).
func RunMesh(alg string, rows, cols, buffers int, dests [][]int32, schedule string, log io.Writer) (res *Result, err error) {
	return RunMeshOn(Hardware{}, alg, rows, cols, buffers, dests, schedule, log)
}

// RunMeshOn is RunMesh on the hardware hw.
func RunMeshOn(hw Hardware, alg string, rows, cols, buffers int, dests [][]int32, schedule string, log io.Writer) (res *Result, err error) {
	if err := Check(alg, rows, cols); err != nil {
		return nil, err
	}
	if hw.Model != "" && !slices.Contains(Models, hw.Model) {
		return nil, fmt.Errorf("model %q (allowed: %s)", hw.Model, strings.Join(Models, ", "))
	}
	if schedule != Static && schedule != Actual {
		return nil, fmt.Errorf("schedule %q (allowed: static, actual)", schedule)
	}
	r, err := newRouter(rows, cols, buffers, dests, schedule)
	if err != nil {
		return nil, err
	}
	m := r.m
	m.SIMD, m.Wrap = hw.Model == ModelILLIAC, hw.Wrap
	if log != nil {
		flush := m.EventLog(log)
		defer func() {
			if ferr := flush(); err == nil && ferr != nil {
				res, err = nil, ferr
			}
		}()
	}
	r.res = &Result{Algorithm: alg, Rows: rows, Cols: cols, Schedule: schedule, Buffers: buffers, Messages: len(r.dests),
		Bound: ThesisBound(alg, rows, cols), Model: hw.Model, Wrap: hw.Wrap}
	if m.SIMD {
		b := &r.res.Bound
		b.DataSteps, b.IntegerSteps, b.TotalSteps = 4*b.DataSteps, 4*b.IntegerSteps, 4*b.TotalSteps
		b.Source = "Han 1990 §5.2: on the ILLIAC model at most four times the distributed model's (" + b.Source + ")"
	}
	switch alg {
	case AlgQ:
		err = r.runQ(rows, cols)
	case AlgH:
		err = r.runHAny(rows, cols)
	default:
		err = r.runGreedy(cols, alg == AlgGreedyFF)
	}
	if err != nil {
		return r.res, err
	}
	return r.finish(cols)
}

// finish checks every message (and copy) ended at its destination and
// totals the result.
func (r *router) finish(cols int) (*Result, error) {
	m := r.m
	for id, ds := range r.dests {
		if got := m.Loc(int32(id)); len(ds) != 1 || got != ds[0] {
			return r.res, internalf("message %d ended at processor (%d,%d) carrying destinations %v", id, got/int32(cols), got%int32(cols), ds)
		}
	}
	r.res.Copies = len(r.dests) - r.res.Messages
	r.res.MaxBuffer = m.MaxHeld()
	r.res.TotalSteps = r.res.DataSteps + r.res.IntegerSteps
	return r.res, nil
}

// newRouter loads dests (see RunBroadcast) onto a rows×cols machine.
func newRouter(rows, cols, buffers int, dests [][]int32, schedule string) (*router, error) {
	N := rows * cols
	m := NewMachine(rows, cols, buffers)
	r := &router{m: m, cnt: make([]counted, N), sendE: make([]int32, N), sendW: make([]int32, N),
		bestN: make([]int32, N), bestS: make([]int32, N), bestStep: make([]int64, N), schedule: schedule,
		res: &Result{}, stage: &Stage{}}
	r.dests, m.loc, m.msgStep = make([][]int32, 0, N), make([]int32, 0, N), make([]uint32, 0, N) // (a message a processor, the copies on top)
	for p, ds := range dests {
		if len(ds) == 0 {
			continue
		}
		if _, err := m.Load(int32(p)); err != nil {
			return nil, err
		}
		r.dests = append(r.dests, ds)
	}
	return r, nil
}

// runQ is Algorithm Q: on regions of rs×cs (rs = cs on a square; rs =
// cs·rows/cols on a rectangle), cs = cols, cols/2, …, 2, move into
// quadrants ((rs + cs)/2 steps), then smooth every quadrant (4 buffers'
// worth). When the quadrants are single columns (of rows/cols processors)
// the messages go to their rows directly (§3.6.4).
func (r *router) runQ(rows, cols int) error {
	for cs := cols; cs >= 2; cs /= 2 {
		rs := cs * rows / cols
		r.res.Stages = append(r.res.Stages, Stage{Side: cs})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := r.move(rs, cs, rs/2, cs/2, int64(rs+cs)/2); err != nil {
			return err
		}
		var err error
		if cs/2 >= 2 {
			err = r.smooth(rs/2, cs/2, 4)
		} else {
			err = r.deliver(rs / 2)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// deliver moves every message along its column to its destination row,
// farthest first, in regions of one column and R rows (R − 1 steps at
// most; none when R = 1).
func (r *router) deliver(R int) error {
	if R <= 1 {
		return nil
	}
	m := r.m
	if len(r.target) < m.Messages() {
		r.target = make([]int32, m.Messages())
	}
	var active []int32
	copies := false
	for id, ds := range r.dests {
		r.target[id] = ds[0] / int32(m.Cols)
		if len(ds) > 1 || m.Loc(int32(id)) != ds[0] {
			active = append(active, int32(id))
		}
		copies = copies || len(ds) > 1
	}
	m.PhaseStart(r.stage.Side, "deliver")
	column := r.columnSteps
	if copies {
		column = func(active []int32, _ bool) (int64, error) { return r.columnCopies(active) }
	}
	steps, err := column(active, false)
	if err != nil {
		return err
	}
	return r.record(Phase{Phase: "deliver", Kind: "data", Region: fmt.Sprintf("%dx1", R), Static: int64(R - 1), Actual: steps, MaxBuffer: m.PhaseHeld()})
}

// record adds a phase to the stage and its length to the totals; in a
// static schedule a phase that outran its worst-case length is a bug.
func (r *router) record(ph Phase) error {
	if r.m.SIMD { // (machine steps: one a direction used)
		ph.Actual, ph.Static = r.m.PhaseSteps(), ph.Static*dirFactor(r.res.Algorithm, ph.Phase)
	}
	ph.Steps = ph.Static
	if r.schedule == Actual {
		ph.Steps = ph.Actual
	}
	r.stage.Phases = append(r.stage.Phases, ph)
	if ph.Kind == "integer" {
		r.res.IntegerSteps += ph.Steps
	} else {
		r.res.DataSteps += ph.Steps
	}
	if ph.Actual > ph.Static {
		return internalf("%s phase on %s regions (stage %d) took %d steps, past its worst case %d", ph.Phase, ph.Region, r.stage.Side, ph.Actual, ph.Static)
	}
	return nil
}

// smooth is the smooth step on every R×C region (b: the most messages a
// processor holds when it starts, for the static schedule's worst cases).
func (r *router) smooth(R, C, b int) error { return r.smoothGrid(r.tile(R, C), b) }

// smoothGrid is the smooth step on the grid's regions, all at once; each
// phase's static length is the largest region's worst case. Regions of
// at most two processors are not smoothed: the next move (or delivery)
// takes their messages, distinct destinations among two processors, as
// they are (digest §8 item 25).
func (r *router) smoothGrid(g grid, b int) error {
	cs, rs, cl := 0, int64(0), int64(0)
	for _, a := range g.rows {
		for _, c := range g.cols {
			cs, rs, cl = max(cs, countSteps(a.n, c.n)), max(rs, RowBound(b, c.n)), max(cl, ColBound(b, a.n))
		}
	}
	if widest(g.rows)*widest(g.cols) <= 2 {
		return nil
	}
	region := gridName(g)
	m := r.m
	m.PhaseStart(r.stage.Side, "count")
	if err := r.countRegions(g); err != nil {
		return err
	}
	if err := r.record(Phase{Phase: "count", Kind: "integer", Region: region, Static: int64(cs), Actual: int64(cs), MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	m.PhaseStart(r.stage.Side, "row")
	steps, err := r.rowMoveRegions(g)
	if err != nil {
		return err
	}
	if err := r.record(Phase{Phase: "row", Kind: "data", Region: region, Static: rs, Actual: steps, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	m.PhaseStart(r.stage.Side, "column")
	if steps, err = r.colMoveRegions(g); err != nil {
		return err
	}
	if err := r.record(Phase{Phase: "column", Kind: "data", Region: region, Static: cl, Actual: steps, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	if h := m.Held(); h > 1 {
		return internalf("after smoothing %s regions a processor holds %d messages", region, h)
	}
	return nil
}

// slicesDeleteDone drops the elements done says are finished, keeping order.
func slicesDeleteDone[T any](s []T, done func(i int) bool) []T {
	k := 0
	for i := range s {
		if !done(i) {
			s[k] = s[i]
			k++
		}
	}
	return s[:k]
}
