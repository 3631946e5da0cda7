// Package jsonfile writes JSON files atomically: a reader, or a run stopped halfway, sees the old
// file or the new one, never a torn one.
package jsonfile

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Write writes v as JSON indented by indent ("" for one line) to path, through a temporary file
// in the same folder renamed into place; the file is mode 0644. The folder must exist.
func Write(path string, v any, indent string) error {
	var b []byte
	var err error
	if indent == "" {
		b, err = json.Marshal(v)
	} else {
		b, err = json.MarshalIndent(v, "", indent)
	}
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // CreateTemp makes it 0600
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
