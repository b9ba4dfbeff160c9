//go:build ignore

// genpng draws the logo of the default site, files/static/brisk.png: a
// lightning bolt on a blue gradient, 4x supersampled. Run it from this
// directory with `go run genpng.go` (see the go:generate line in site.go).
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
)

const (
	width, height = 240, 120
	samples       = 4 // per axis
)

// bolt is the lightning bolt, in pixel coordinates, clockwise.
var bolt = [][2]float64{
	{132, 8}, {84, 66}, {116, 66}, {100, 112}, {156, 48}, {122, 48}, {140, 8},
}

func main() {
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			img.Set(x, y, pixel(x, y))
		}
	}
	f, err := os.Create("files/static/brisk.png")
	if err != nil {
		log.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// pixel blends the bolt colour over the background by the share of the
// pixel's subsamples that fall inside the bolt.
func pixel(x, y int) color.NRGBA {
	inside := 0
	for sy := 0; sy < samples; sy++ {
		for sx := 0; sx < samples; sx++ {
			px := float64(x) + (float64(sx)+0.5)/samples
			py := float64(y) + (float64(sy)+0.5)/samples
			if contains(px, py) {
				inside++
			}
		}
	}
	a := float64(inside) / (samples * samples)
	t := float64(y) / height
	bg := [3]float64{20 + 20*t, 60 + 40*t, 140 + 60*t}
	fg := [3]float64{255, 200, 40}
	var c [3]uint8
	for i := range c {
		c[i] = uint8(bg[i]*(1-a) + fg[i]*a)
	}
	return color.NRGBA{c[0], c[1], c[2], 255}
}

// contains reports whether (x, y) is inside bolt (even-odd rule).
func contains(x, y float64) bool {
	in := false
	for i, j := 0, len(bolt)-1; i < len(bolt); j, i = i, i+1 {
		xi, yi := bolt[i][0], bolt[i][1]
		xj, yj := bolt[j][0], bolt[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}
