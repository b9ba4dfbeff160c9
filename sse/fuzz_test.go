package sse

import (
	"strings"
	"testing"
)

// parse is the event stream parser of WHATWG HTML §9.2.6, for one event:
// its id (and whether one was set), type and data.
func parse(stream string) (id string, idSet bool, typ, data string) {
	stream = strings.ReplaceAll(strings.ReplaceAll(stream, "\r\n", "\n"), "\r", "\n")
	var buf strings.Builder
	for line := range strings.SplitSeq(strings.TrimSuffix(stream, "\n\n"), "\n") {
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			if !strings.Contains(value, "\x00") {
				id, idSet = value, true
			}
		case "event":
			typ = value
		case "data":
			buf.WriteString(value)
			buf.WriteByte('\n')
		}
	}
	return id, idSet, typ, strings.TrimSuffix(buf.String(), "\n")
}

// FuzzAppendEvent: an event Send accepts is read back by an EventSource
// as it was sent (data with CR and CRLF line ends read as LF), as one
// event: no blank line inside it.
func FuzzAppendEvent(f *testing.F) {
	f.Add("7", "update", "line 1\r\nline 2\rline 3\n")
	f.Add("", "", " leading space")
	f.Fuzz(func(t *testing.T, id, typ, data string) {
		b, err := appendEvent(nil, Event{ID: id, Event: typ, Data: data})
		if err != nil {
			if !strings.ContainsAny(id, "\r\n\x00") && !strings.ContainsAny(typ, "\r\n") {
				t.Fatalf("refused %q %q: %v", id, typ, err)
			}
			return
		}
		s := string(b)
		if i := strings.Index(s, "\n\n"); i != len(s)-2 {
			t.Fatalf("blank line inside the event: %q", s)
		}
		gotID, idSet, gotType, gotData := parse(s)
		wantData := strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
		if gotID != id || idSet != (id != "") || gotType != typ || (data != "" || typ != "") && gotData != wantData {
			t.Fatalf("%q read back as id %q, type %q, data %q", s, gotID, gotType, gotData)
		}
	})
}
