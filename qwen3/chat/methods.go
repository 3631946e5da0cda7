package chat

import (
	"reflect"
	"strings"
	"unicode"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// methodNames lists the methods of one of gonja's method sets, which offers no way to list them.
func methodNames[I any](set *exec.MethodSet[I]) []string {
	var names []string
	for _, k := range reflect.ValueOf(set).Elem().FieldByName("methods").MapKeys() {
		names = append(names, k.String())
	}
	return names
}

// strMethods is gonja's set of Python string methods made to behave as Python's where chat
// templates notice: list results (split and the like) index like Python lists; strip, lstrip
// and rstrip without characters strip whitespace, and replace without a count replaces every
// occurrence, instead of failing; split and rsplit, which gonja gets wrong for maxsplit 1 and
// without a separator, are Python's.
func strMethods() *exec.MethodSet[string] {
	set := map[string]exec.Method[string]{}
	for _, name := range methodNames(builtins.Methods.Str) {
		m, _ := builtins.Methods.Str.Get(name)
		set[name] = func(self string, v *exec.Value, args *exec.VarArgs) (any, error) {
			if r, ok := whitespaceDefault(name, self, args); ok {
				return r, nil
			}
			if name == "replace" && len(args.Args) == 2 { // gonja insists on the optional count
				args.Args = append(args.Args, exec.AsValue(-1))
			}
			r, err := m(self, v, args)
			return asList(r), err
		}
	}
	return exec.NewMethodSet(set)
}

// pyIsSpace is Python's str.isspace for one character: Unicode White_Space plus U+001C..U+001F.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1C && r <= 0x1F }

// whitespaceDefault runs strip, lstrip and rstrip without characters (or None), and split and
// rsplit, as Python does; ok is false for every other call.
func whitespaceDefault(name, self string, args *exec.VarArgs) (any, bool) {
	noSep := len(args.Args) == 0 || args.Args[0].IsNil()
	switch name {
	case "strip", "lstrip", "rstrip":
		if !noSep || len(args.Args) > 1 || len(args.KwArgs) > 0 {
			return nil, false
		}
		if name != "rstrip" {
			self = strings.TrimLeftFunc(self, pyIsSpace)
		}
		if name != "lstrip" {
			self = strings.TrimRightFunc(self, pyIsSpace)
		}
		return self, true
	case "split", "rsplit":
		maxsplit := -1
		if len(args.Args) > 1 {
			maxsplit = args.Args[1].Integer()
		} else if v, ok := args.KwArgs["maxsplit"]; ok {
			maxsplit = v.Integer()
		}
		if noSep {
			if v, ok := args.KwArgs["sep"]; !ok || v.IsNil() {
				return splitWhitespace(self, maxsplit, name == "rsplit"), true
			}
			return nil, false
		}
		sep := args.Args[0].String()
		if sep == "" {
			return nil, false // gonja reports the error
		}
		return splitSep(self, sep, maxsplit, name == "rsplit"), true
	}
	return nil, false
}

// splitSep is Python's str.split(sep, maxsplit) and str.rsplit(sep, maxsplit).
func splitSep(s, sep string, maxsplit int, fromRight bool) list {
	var parts []string
	switch {
	case maxsplit < 0:
		parts = strings.Split(s, sep)
	case !fromRight:
		parts = strings.SplitN(s, sep, maxsplit+1)
	default:
		for len(parts) < maxsplit {
			i := strings.LastIndex(s, sep)
			if i < 0 {
				break
			}
			parts = append(parts, s[i+len(sep):])
			s = s[:i]
		}
		parts = append(parts, s)
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
	}
	out := make(list, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// splitWhitespace is Python's str.split() / str.rsplit() without a separator: runs of
// whitespace separate words, and after maxsplit splits the rest is one word (stripped only on
// the side the splitting came from).
func splitWhitespace(s string, maxsplit int, fromRight bool) list {
	out := list{}
	if fromRight {
		for {
			s = strings.TrimRightFunc(s, pyIsSpace)
			if s == "" {
				break
			}
			if maxsplit >= 0 && len(out) == maxsplit {
				out = append(out, s)
				break
			}
			i := strings.LastIndexFunc(s, pyIsSpace)
			out = append(out, s[i+1:])
			s = s[:i+1]
		}
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	}
	for {
		s = strings.TrimLeftFunc(s, pyIsSpace)
		if s == "" {
			return out
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			return append(out, s)
		}
		i := strings.IndexFunc(s, pyIsSpace)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
}

// dictMethods is gonja's set of dict methods with keys, values, items and get reading the
// ordered dictionary itself: gonja's versions see a copy converted to a Go map, so they return
// keys sorted, not in insertion order as Python does, and nested dicts lose their order too.
func dictMethods() *exec.MethodSet[map[string]any] {
	set := map[string]exec.Method[map[string]any]{}
	for _, name := range methodNames(builtins.Methods.Dict) {
		set[name], _ = builtins.Methods.Dict.Get(name)
	}
	ordered := func(name string, f func(d *exec.Dict, args *exec.VarArgs) (any, bool)) {
		orig := set[name]
		set[name] = func(self map[string]any, v *exec.Value, args *exec.VarArgs) (any, error) {
			if d, ok := v.Interface().(*exec.Dict); ok {
				if r, ok := f(d, args); ok {
					return r, nil
				}
			}
			return orig(self, v, args)
		}
	}
	ordered("keys", func(d *exec.Dict, args *exec.VarArgs) (any, bool) {
		out := make(list, len(d.Pairs))
		for i, p := range d.Pairs {
			out[i] = p.Key.Interface()
		}
		return out, len(args.Args) == 0
	})
	ordered("values", func(d *exec.Dict, args *exec.VarArgs) (any, bool) {
		out := make(list, len(d.Pairs))
		for i, p := range d.Pairs {
			out[i] = p.Value.Interface()
		}
		return out, len(args.Args) == 0
	})
	ordered("items", func(d *exec.Dict, args *exec.VarArgs) (any, bool) {
		out := make(list, len(d.Pairs))
		for i, p := range d.Pairs {
			out[i] = list{p.Key.Interface(), p.Value.Interface()}
		}
		return out, len(args.Args) == 0
	})
	ordered("get", func(d *exec.Dict, args *exec.VarArgs) (any, bool) {
		if len(args.Args) < 1 || len(args.Args) > 2 {
			return nil, false
		}
		for _, p := range d.Pairs {
			if p.Key.String() == args.Args[0].String() {
				return p.Value.Interface(), true
			}
		}
		if len(args.Args) == 2 {
			return args.Args[1].Interface(), true
		}
		return nil, true
	})
	return exec.NewMethodSet(set)
}
