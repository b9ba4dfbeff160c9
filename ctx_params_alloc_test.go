//go:build !race

package brisk

import "testing"

// TestCtxSetParamAllocs: setting and reading parameters that are parts
// of the path (SetParam, SetPathParams) does not allocate, nor do copies
// once the storage has grown.
func TestCtxSetParamAllocs(t *testing.T) {
	var c Ctx
	c.Request.SetTarget("/repos/brisk-http/brisk/git/commits/7d2f4d1")
	path := c.Request.Path()
	owner, repo, sha := path[7:17], path[18:23], path[36:]
	decoded := []byte("a/b")
	names, bounds := []string{"o", "r", "s"}, [][2]int{{7, 17}, {18, 23}, {36, len(path)}}
	run := func() {
		c.ResetRoute()
		c.SetParam("owner", owner)
		c.SetParam("repo", repo)
		c.SetParam("sha", sha)
		c.SetParam("decoded", decoded)
		c.SetPathParams(names, bounds)
		if len(c.Param("owner"))+len(c.Param("repo"))+len(c.Param("sha"))+len(c.Param("decoded")) != 25 ||
			string(c.Param("s")) != "7d2f4d1" {
			panic("wrong values")
		}
	}
	run()
	if a := testing.AllocsPerRun(200, run); a != 0 {
		t.Errorf("%v allocations per request, want 0", a)
	}
}
