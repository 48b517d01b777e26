package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/flitsim/flitsim/network"
)

//go:embed chiang/*.yaml
var chiangFS embed.FS

// ChiangFiles lists the embedded experiment files of configs/chiang (the
// scenarios and simulations of Chiang 1995), e.g. "fig4_8.yaml".
func ChiangFiles() []string {
	ents, _ := fs.ReadDir(chiangFS, "chiang")
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// LoadChiang loads the embedded configs/chiang file name with the --set
// overrides, exactly as Load would load the file from the repository, so
// code that must not depend on the working directory (flitsim verify) runs
// the shipped experiments.
func LoadChiang(name string, sets []string) (network.Config, error) {
	data, err := chiangFS.ReadFile(path.Join("chiang", name))
	if err != nil {
		return network.Config{}, fmt.Errorf("configs/chiang/%s: no such embedded experiment", name)
	}
	return LoadBytes(data, path.Join("configs", "chiang", name), sets)
}
