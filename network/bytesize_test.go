package network

import "testing"

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]ByteSize{
		"8GiB": 8 << 30, "512MB": 512e6, "19.2 GB": 19.2e9, "2000000000": 2e9, "1kb": 1000, "3 KiB": 3072, "0": 0, "1.5TiB": 3 << 39,
	} {
		if got, err := ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "8Gx", "GB", "1e400", "abc", "8 GiB B"} {
		if _, err := ParseByteSize(in); err == nil {
			t.Errorf("ParseByteSize(%q): no error", in)
		}
	}
	if s := ByteSize(8 << 30).String(); s != "8GiB" {
		t.Errorf("String: %s", s)
	}
	if h := ByteSize(32.1e9).Human(); h != "32.1 GB" {
		t.Errorf("Human: %s", h)
	}
}
