package bench

import (
	"testing"

	"github.com/brisk-http/brisk/wire"
	"github.com/valyala/fasthttp"
)

// Placeholder so the module resolves its dependencies; real twins follow.
var _ = fasthttp.RequestHeader{}
var _ = wire.ErrNeedMore

func TestModule(t *testing.T) {}
