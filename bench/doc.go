// Package bench holds side-by-side benchmarks of brisk, fasthttp and
// net/http on identical inputs. It is a separate module so that the core
// module does not depend on fasthttp.
package bench
