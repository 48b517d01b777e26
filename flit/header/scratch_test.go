package header

import "testing"

func TestScratch(t *testing.T) {
	for _, s := range Table31Schemes {
		for p := 1; p <= 3; p++ {
			f, r, err := Table31(s, p)
			t.Logf("%s p%d: %d flits %d regions %v", s, p, f, r, err)
		}
	}
	o := Table31Options()
	o.MaskAnyRun = true
	for p := 0; p < 3; p++ {
		d, _ := ParseDests(Table31Patterns[p], 256)
		h, _ := Encode(RegionMask, d, o)
		t.Logf("anyrun p%d: %d %d %s", p+1, h.Len(), h.Regions(), h)
		h, _ = Encode(RegionMask, d, Table31Options())
		t.Logf("thesis p%d: %s", p+1, h)
		h, _ = Encode(RegionBitString, d, Table31Options())
		t.Logf("mrbs p%d: %s", p+1, h)
	}
}
