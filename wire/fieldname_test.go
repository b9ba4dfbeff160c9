package wire

import (
	"strings"
	"testing"
)

// TestCommonNames checks the whole-word recognition of common field names
// against the byte-at-a-time path (fieldName): every common name in lower,
// upper and canonical case, and with every byte value at each position of
// the name and of its colon, must give the same colon, id and error.
func TestCommonNames(t *testing.T) {
	for _, c := range commonNames {
		for _, name := range []string{c.name, strings.ToUpper(c.name), canonical(c.name)} {
			line := []byte(name + ": value-value-value-value\r\n")
			if colon, _, _, _, id, k := splitFieldLine(line); k != 0 || colon != len(name) || id != c.id {
				t.Errorf("%q: colon %d id %d kind %v", name, colon, id, k)
			}
			if id, ok := commonName(line, len(name)); !ok || id != c.id {
				t.Errorf("%q: not recognised whole (%d, %v)", name, id, ok)
			}
			for j := 0; j <= len(name); j++ {
				for v := 0; v < 256; v++ {
					mut := append([]byte(nil), line...)
					mut[j] = byte(v)
					wantColon, wantID, wantK := fieldName(mut)
					colon, _, _, stop, id, k := splitFieldLine(mut)
					if k == ErrFieldValue || k == ErrLineEnding && wantK == 0 {
						continue // the name is fine; the value is checked elsewhere
					}
					if k != wantK || k != 0 && stop != wantColon || k == 0 && (colon != wantColon || id != wantID) {
						t.Fatalf("%q: got colon %d stop %d id %d kind %v; want colon %d id %d kind %v",
							mut, colon, stop, id, k, wantColon, wantID, wantK)
					}
				}
			}
		}
	}
}

// canonical returns name with the first letter of each "-"-separated part
// in upper case.
func canonical(name string) string {
	b := []byte(name)
	for i := range b {
		if (i == 0 || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}
