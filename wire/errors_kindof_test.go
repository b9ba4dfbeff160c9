package wire

import (
	"fmt"
	"io"
	"testing"
)

func TestKindOf(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want Kind
	}{
		{"nil", nil, 0},
		{"bare", ErrNeedMore, ErrNeedMore},
		{"error", &Error{Kind: ErrFieldName, Offset: 3}, ErrFieldName},
		{"wrapped_error", fmt.Errorf("client: %w", &Error{Kind: ErrChunkSize}), ErrChunkSize},
		{"wrapped_kind", fmt.Errorf("client: %w", ErrStatusCode), ErrStatusCode},
		{"io", io.EOF, 0},
		{"wrapped_io", fmt.Errorf("x: %w", io.ErrUnexpectedEOF), 0},
	}
	for _, tc := range cases {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("%s: KindOf(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}
