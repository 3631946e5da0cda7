package sources

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Entry is one source of the ledger.
type Entry struct {
	Key       string // short, lowercase: the link target's fragment
	Authors   string
	Title     string
	Venue     string
	Date      string // the source's own date: YYYY, YYYY-MM or YYYY-MM-DD
	Address   string // its canonical URL, or "-" for a work with none (a print-only paper)
	Inspected string // the date it was inspected (YYYY-MM-DD), or "not inspected: why"
	Checked   string // what was checked against it, or what the book takes from it
}

// Year is the entry's year, the four digits its citations must show.
func (e *Entry) Year() string { return e.Date[:4] }

// IsInspected reports whether the entry was checked against the source.
func (e *Entry) IsInspected() bool { return !strings.HasPrefix(e.Inspected, "not inspected") }

// Ledger is the parsed ledger file.
type Ledger struct {
	Path    string
	Entries []*Entry
	byKey   map[string]*Entry
}

// Header is the ledger's first line.
const Header = "key\tauthors\ttitle\tvenue\tdate\taddress\tinspected\tchecked"

var (
	keyPattern  = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	datePattern = regexp.MustCompile(`^\d{4}(-\d{2}(-\d{2})?)?$`)
	dayPattern  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// ReadLedger reads and validates the ledger at path: the header, eight fields per row, each
// filled in, a key of lowercase letters, digits and dashes used once, an ISO date, an address
// that is a URL (or "-"), and an inspection date or a reason for none. Errors name the line.
func ReadLedger(path string) (*Ledger, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if lines[0] != Header {
		return nil, fmt.Errorf("%s:1: the header must be %q", path, Header)
	}
	l := &Ledger{Path: path, byKey: map[string]*Entry{}}
	for i, line := range lines[1:] {
		at := fmt.Sprintf("%s:%d", path, i+2)
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("%s: %d fields, want 8 (tab-separated)", at, len(f))
		}
		for j, v := range f {
			if strings.TrimSpace(v) == "" || v != strings.TrimSpace(v) {
				return nil, fmt.Errorf("%s: field %q is empty or has spaces around it", at, strings.Split(Header, "\t")[j])
			}
		}
		e := &Entry{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]}
		switch {
		case !keyPattern.MatchString(e.Key):
			return nil, fmt.Errorf("%s: key %q: use lowercase letters, digits and dashes", at, e.Key)
		case l.byKey[e.Key] != nil:
			return nil, fmt.Errorf("%s: key %q is used twice", at, e.Key)
		case !datePattern.MatchString(e.Date):
			return nil, fmt.Errorf("%s: %s: date %q is not YYYY, YYYY-MM or YYYY-MM-DD", at, e.Key, e.Date)
		case e.Address != "-" && !strings.HasPrefix(e.Address, "https://") && !strings.HasPrefix(e.Address, "http://"):
			return nil, fmt.Errorf("%s: %s: address %q is not a URL", at, e.Key, e.Address)
		case !dayPattern.MatchString(e.Inspected) && !strings.HasPrefix(e.Inspected, "not inspected: "):
			return nil, fmt.Errorf("%s: %s: inspected %q is neither a date (YYYY-MM-DD) nor \"not inspected: why\"", at, e.Key, e.Inspected)
		}
		l.Entries = append(l.Entries, e)
		l.byKey[e.Key] = e
	}
	return l, nil
}

// Entry returns the entry of key, or nil.
func (l *Ledger) Entry(key string) *Entry { return l.byKey[key] }
