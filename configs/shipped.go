package configs

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Shipped lists the experiment files under dir, the repository's configs/
// folder: every *.yaml in it and its subfolders, testdata and hidden
// folders left out. The tests run each one, so a new example is tested
// without being listed anywhere.
func Shipped(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}
