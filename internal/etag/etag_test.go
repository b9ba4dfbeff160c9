package etag

import "testing"

// TestNext: each list gives its elements in order, then ok false; a
// malformed element ends the list.
func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name, list string
		want       []string
	}{
		{"empty", "", nil},
		{"star", "*", []string{"*"}},
		{"strong", `"a"`, []string{`"a"`}},
		{"weak", `W/"a"`, []string{`W/"a"`}},
		{"empty_tag", `""`, []string{`""`}},
		{"list_ows", " \t\"a\" ,W/\"b\",, \"c\"\t", []string{`"a"`, `W/"b"`, `"c"`}},
		{"obs_text", "\"\x80\xff\"", []string{"\"\x80\xff\""}},
		{"space_inside", `"a", "b c", "d"`, []string{`"a"`}},
		{"tab_inside", "\"a\t\", \"d\"", nil},
		{"ctl_inside", "\"a\x01\"", nil},
		{"del_inside", "\"a\x7f\"", nil},
		{"unquoted", `abc, "d"`, nil},
		{"unterminated", `"a", "b`, []string{`"a"`}},
		{"weak_unquoted", `W/a`, nil},
		{"lowercase_weak", `w/"a"`, nil},
		{"lone_w", `W`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			v := []byte(tc.list)
			for {
				tag, rest, ok := Next(v)
				if !ok {
					break
				}
				got, v = append(got, string(tag)), rest
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%q gives %q, want %q", tc.list, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%q gives %q, want %q", tc.list, got, tc.want)
				}
			}
		})
	}
}

// TestSplit: the opaque-tag keeps its quotes; only an upper-case "W/"
// makes a tag weak.
func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		tag, opaque string
		weak        bool
	}{
		{`"a"`, `"a"`, false},
		{`W/"a"`, `"a"`, true},
		{`*`, `*`, false},
		{``, ``, false},
	} {
		if o, w := Split([]byte(tc.tag)); string(o) != tc.opaque || w != tc.weak {
			t.Errorf("Split(%q) = %q, %v; want %q, %v", tc.tag, o, w, tc.opaque, tc.weak)
		}
	}
}
