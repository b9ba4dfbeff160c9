package wire

import "testing"

func TestClassifyField(t *testing.T) {
	tests := map[string]FieldClass{
		"Host": FieldHost, "HOST": FieldHost, "Expect": FieldExpect,
		"connection": FieldConnection, "Content-Length": FieldContentLength,
		"transfer-ENCODING": FieldTransferEncoding, "Date": FieldDate, "SERVER": FieldServer,
		"X-Date": FieldOther, "Hosts": FieldOther, "Vary": FieldOther, "": FieldOther,
		"Content-Lengtx": FieldOther,
	}
	for name, want := range tests {
		if got := ClassifyField([]byte(name)); got != want {
			t.Errorf("ClassifyField(%q) = %d, want %d", name, got, want)
		}
	}
}

func fields(kv ...string) []Field {
	var fs []Field
	for i := 0; i < len(kv); i += 2 {
		fs = append(fs, Field{Name: []byte(kv[i]), Value: []byte(kv[i+1])})
	}
	return fs
}

func TestScanOutgoing(t *testing.T) {
	tests := []struct {
		name    string
		fields  []Field
		invalid string
		present ClassSet
		close   bool
		length  int64
	}{
		{name: "empty", length: -1},
		{name: "other", fields: fields("X-A", "1", "Vary", "b"), length: -1},
		{name: "length", fields: fields("Content-Length", "42"), present: Classes(FieldContentLength), length: 42},
		{name: "length_first_wins", fields: fields("Content-Length", "1", "content-length", "2"), present: Classes(FieldContentLength), length: 1},
		{name: "length_invalid", fields: fields("Content-Length", "4x"), present: Classes(FieldContentLength), length: -1},
		{name: "length_20_digits", fields: fields("Content-Length", "00000000000000000001"), present: Classes(FieldContentLength), length: -1},
		{name: "close_list", fields: fields("Connection", "keep-alive, Close"), present: Classes(FieldConnection), close: true, length: -1},
		{name: "close_not_substring", fields: fields("Connection", "closed"), present: Classes(FieldConnection), length: -1},
		{name: "server_date", fields: fields("Server", "x", "Date", "y"), present: Classes(FieldServer, FieldDate), length: -1},
		{name: "bad_name", fields: fields("X A", "1", "Bad:", "2"), invalid: "X A", length: -1},
		{name: "bad_value", fields: fields("X-A", "a\r\nb"), invalid: "X-A", length: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ScanOutgoing(tt.fields)
			if string(o.Invalid) != tt.invalid || o.Present != tt.present || o.Close != tt.close || o.ContentLength != tt.length {
				t.Fatalf("ScanOutgoing = %+v, want invalid %q present %b close %v length %d",
					o, tt.invalid, tt.present, tt.close, tt.length)
			}
		})
	}
}

func TestAppendFields(t *testing.T) {
	fs := fields("Host", "h", "X-A", "1", "Connection", "close", "Content-Length", "3", "Transfer-Encoding", "chunked")
	got := AppendFields(nil, fs, Classes(FieldHost, FieldContentLength, FieldTransferEncoding))
	if want := "X-A: 1\r\nConnection: close\r\n"; string(got) != want {
		t.Fatalf("AppendFields = %q, want %q", got, want)
	}
	if got := AppendFields(nil, fs[:2], 0); string(got) != "Host: h\r\nX-A: 1\r\n" {
		t.Fatalf("AppendFields with no drop = %q", got)
	}
}

func TestHasToken(t *testing.T) {
	cases := []struct {
		v, tok string
		want   bool
	}{
		{"close", "close", true}, {"Close", "close", true}, {"keep-alive, close", "close", true},
		{" close ,x", "close", true}, {"a,,close,", "close", true}, {"websocket", "WebSocket", true},
		{"closed", "close", false}, {"", "close", false}, {"clo se", "close", false},
	}
	for _, tc := range cases {
		if got := HasToken([]byte(tc.v), tc.tok); got != tc.want {
			t.Errorf("HasToken(%q, %q) = %v, want %v", tc.v, tc.tok, got, tc.want)
		}
	}
}
