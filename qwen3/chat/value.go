package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// decodeOrdered parses JSON into the values a template sees: objects become *exec.Dict (gonja's
// ordered dictionary), arrays list, integers int, other numbers float64, as Python's json.loads
// would give dict, list, int and float.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			d := exec.NewDict()
			index := map[string]int{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if i, dup := index[k]; dup { // Python keeps the first position and the last value
					d.Pairs[i].Value = exec.AsValue(v)
					continue
				}
				index[k] = len(d.Pairs)
				d.Pairs = append(d.Pairs, &exec.Pair{Key: exec.AsValue(k), Value: exec.AsValue(v)})
			}
			_, err := dec.Token()
			return d, err
		case '[':
			list := list{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.Atoi(s); err == nil {
				return i, nil
			}
		}
		return t.Float64()
	}
	return tok, nil // string, bool or nil
}

// jsonOptions are the keyword arguments of Python's json.dumps that templates pass to tojson.
type jsonOptions struct {
	indent       string // "" for none
	indented     bool
	itemSep      string
	keySep       string
	sortKeys     bool
	ensureASCII  bool
	currentDepth int
}

// filterToJSON is Hugging Face's tojson: json.dumps(x, ensure_ascii=False, indent=indent,
// separators=separators, sort_keys=sort_keys).
func filterToJSON(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	o := jsonOptions{itemSep: ", ", keySep: ": "}
	explicitSeparators := false
	if len(params.Args) > 0 {
		return exec.AsValue(errors.New("tojson takes keyword arguments only"))
	}
	for k, v := range params.KwArgs {
		switch k {
		case "indent":
			switch {
			case v.IsNil():
			case v.IsInteger():
				o.indent, o.indented = strings.Repeat(" ", max(v.Integer(), 0)), true
			case v.IsString():
				o.indent, o.indented = v.String(), true
			default:
				return exec.AsValue(fmt.Errorf("tojson: indent must be an integer or a string, not %s", v.String()))
			}
		case "separators":
			if v.IsNil() {
				continue
			}
			if !v.IsList() || v.Len() != 2 {
				return exec.AsValue(errors.New("tojson: separators must be a pair of strings"))
			}
			o.itemSep, o.keySep = v.Index(0).String(), v.Index(1).String()
			explicitSeparators = true
		case "sort_keys":
			o.sortKeys = v.IsTrue()
		case "ensure_ascii":
			o.ensureASCII = v.IsTrue()
		default:
			return exec.AsValue(fmt.Errorf("tojson: unexpected keyword argument %q", k))
		}
	}
	if o.indented && !explicitSeparators {
		o.itemSep = "," // json.dumps drops the space after commas when indenting
	}
	var b strings.Builder
	if err := writeJSON(&b, in, o); err != nil {
		return exec.AsValue(fmt.Errorf("tojson: %w", err))
	}
	return exec.AsSafeValue(b.String())
}

func writeJSON(b *strings.Builder, v *exec.Value, o jsonOptions) error {
	switch {
	case v.IsNil():
		b.WriteString("null")
	case v.IsBool():
		if v.Bool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case v.IsInteger():
		b.WriteString(strconv.Itoa(v.Integer()))
	case v.IsFloat():
		b.WriteString(pythonFloat(v.Float()))
	case v.IsString():
		writeJSONString(b, v.String(), o.ensureASCII)
	case v.IsList():
		n := v.Len()
		if n == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		inner := o
		inner.currentDepth++
		for i := range n {
			if i > 0 {
				b.WriteString(o.itemSep)
			}
			newline(b, inner)
			if err := writeJSON(b, v.Index(i), inner); err != nil {
				return err
			}
		}
		newline(b, o)
		b.WriteByte(']')
	case v.IsDict():
		keys, values := dictItems(v)
		if o.sortKeys {
			idx := make([]int, len(keys))
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(i, j int) bool { return keys[idx[i]] < keys[idx[j]] })
			k2, v2 := make([]string, len(keys)), make([]*exec.Value, len(keys))
			for i, j := range idx {
				k2[i], v2[i] = keys[j], values[j]
			}
			keys, values = k2, v2
		}
		if len(keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		inner := o
		inner.currentDepth++
		for i, k := range keys {
			if i > 0 {
				b.WriteString(o.itemSep)
			}
			newline(b, inner)
			writeJSONString(b, k, o.ensureASCII)
			b.WriteString(o.keySep)
			if err := writeJSON(b, values[i], inner); err != nil {
				return err
			}
		}
		newline(b, o)
		b.WriteByte('}')
	default:
		return fmt.Errorf("object of type %s is not JSON serializable", v.Val.Type())
	}
	return nil
}

func newline(b *strings.Builder, o jsonOptions) {
	if o.indented {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(o.indent, o.currentDepth))
	}
}

// dictItems lists a dictionary's keys (as Python's json.dumps converts them) and values in
// insertion order; a Go map, which has none, is listed in key order.
func dictItems(v *exec.Value) ([]string, []*exec.Value) {
	var keys []string
	var values []*exec.Value
	var d *exec.Dict
	switch x := v.Interface().(type) {
	case *exec.Dict:
		d = x
	case exec.Dict:
		d = &x
	}
	if d != nil {
		for _, p := range d.Pairs {
			keys = append(keys, jsonKey(p.Key))
			values = append(values, p.Value)
		}
		return keys, values
	}
	pairs := v.Keys()
	sort.Sort(pairs)
	for _, k := range pairs {
		item, _ := v.GetItem(k.Interface())
		keys = append(keys, jsonKey(k))
		values = append(values, item)
	}
	return keys, values
}

func jsonKey(k *exec.Value) string {
	switch {
	case k.IsNil():
		return "null"
	case k.IsBool():
		if k.Bool() {
			return "true"
		}
		return "false"
	case k.IsFloat():
		return pythonFloat(k.Float())
	}
	return k.String()
}

// writeJSONString escapes like json.dumps: quote, backslash and control characters; with
// ensureASCII also every non-ASCII character, as UTF-16 escapes.
func writeJSONString(b *strings.Builder, s string, ensureASCII bool) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || ensureASCII && r >= 0x7f:
				var units []uint16
				if r > 0xFFFF {
					r -= 0x10000
					units = []uint16{uint16(0xD800 + r>>10), uint16(0xDC00 + r&0x3FF)}
				} else {
					units = []uint16{uint16(r)}
				}
				for _, u := range units {
					b.WriteString(`\u`)
					b.WriteByte(hex[u>>12])
					b.WriteByte(hex[u>>8&0xF])
					b.WriteByte(hex[u>>4&0xF])
					b.WriteByte(hex[u&0xF])
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// pythonFloat formats f as Python's repr does: the shortest digits that round-trip, in fixed
// notation when the exponent is in [-4, 16) (always with a fraction: 1.0), otherwise in
// scientific notation with at least two exponent digits (1e-07, 1e+16).
func pythonFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	var out string
	if exp >= -4 && exp < 16 {
		if exp >= 0 {
			if len(digits) <= exp+1 {
				out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
			} else {
				out = digits[:exp+1] + "." + digits[exp+1:]
			}
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		out = fmt.Sprintf("%se%s%02d", m, sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// list is a template list with Python's indexing. gonja's own indexing misses x[-n] when x has
// exactly n elements (x[-1] of a one-element list is undefined there), and chat templates index
// with -1 all the time: content.split('<think>')[-1] on text without <think>, messages[-1].
type list []any

// GetItem implements exec.ItemGetter.
func (l list) GetItem(key any) (*exec.Value, bool) {
	i, ok := key.(int)
	if !ok {
		return exec.AsValue(nil), false
	}
	if i < 0 {
		i += len(l)
	}
	if i < 0 || i >= len(l) {
		return exec.AsValue(nil), false
	}
	return exec.ToValue(l[i]), true
}

// asList turns the string lists that string methods return (split, rsplit, splitlines,
// partition...) into a list, so that indexing them follows Python too.
func asList(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() != reflect.String {
		return v
	}
	out := make(list, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).String()
	}
	return out
}
