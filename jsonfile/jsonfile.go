// Package jsonfile writes JSON files atomically: a reader, or a run stopped halfway, sees the old
// file or the new one, never a torn one.
package jsonfile

import (
	"bytes"
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
	return writeFile(path, b)
}

// WriteData writes v as Write does, laid out for data: each object's keys one to a line, indented
// by one space, and every array that holds no object on a single line. Tables of numbers then take
// about the room of one-line JSON (indenting each number of a committed study put it past 5 MB),
// while a diff still shows which key changed.
func WriteData(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeFile(path, DataLayout(b))
}

// DataLayout lays out compact JSON (as json.Marshal or json.Compact make it) the way WriteData
// writes it. It changes only whitespace.
func DataLayout(compact []byte) []byte {
	var out bytes.Buffer
	depth := 0
	newline := func() {
		out.WriteByte('\n')
		for range depth {
			out.WriteByte(' ')
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			j := stringEnd(compact, i)
			out.Write(compact[i:j])
			i = j - 1
		case '[':
			if end, ok := arrayWithoutObject(compact, i); ok {
				out.Write(compact[i:end])
				i = end - 1
				continue
			}
			fallthrough
		case '{':
			out.WriteByte(c)
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				out.WriteByte(compact[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out.WriteByte(c)
		case ',':
			out.WriteByte(',')
			newline()
		case ':':
			out.WriteString(": ")
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// stringEnd returns the index just past the JSON string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// arrayWithoutObject reports whether the array that starts at b[i] holds no object, at any depth,
// and if so returns the index just past it.
func arrayWithoutObject(b []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			j = stringEnd(b, j) - 1
		case '{':
			return 0, false
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return 0, false
}

func writeFile(path string, b []byte) error {
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
