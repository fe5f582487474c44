// Command icon draws the extension's icon, extension/icon.png (128×128):
// a plug on a blue rounded square, with a check mark cut out of its body.
//
//	go run ./scripts/icon > extension/icon.png
//
// TestIconUpToDate fails when the committed PNG differs from Draw's pixels.
package main

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

// Size is the icon's width and height in pixels (the marketplace asks for at least 128).
const Size = 128

// samples per pixel side: each pixel's coverage is the mean of samples² points.
const samples = 4

var (
	blueTop    = color.NRGBA{0x3b, 0x6f, 0xf0, 0xff}
	blueBottom = color.NRGBA{0x22, 0x4a, 0xc4, 0xff}
	white      = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// shape says whether the point (x, y), in icon pixels, is inside.
type shape func(x, y float64) bool

func roundRect(x0, y0, x1, y1, r float64) shape {
	return func(x, y float64) bool {
		dx := math.Max(math.Max(x0+r-x, x-(x1-r)), 0)
		dy := math.Max(math.Max(y0+r-y, y-(y1-r)), 0)
		return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx*dx+dy*dy <= r*r
	}
}

// capsule is the segment (ax, ay)–(bx, by) drawn with width w and round ends.
func capsule(ax, ay, bx, by, w float64) shape {
	return func(x, y float64) bool {
		vx, vy := bx-ax, by-ay
		t := math.Max(0, math.Min(1, ((x-ax)*vx+(y-ay)*vy)/(vx*vx+vy*vy)))
		dx, dy := x-(ax+t*vx), y-(ay+t*vy)
		return dx*dx+dy*dy <= w*w/4
	}
}

func union(ss ...shape) shape {
	return func(x, y float64) bool {
		for _, s := range ss {
			if s(x, y) {
				return true
			}
		}
		return false
	}
}

func minus(a, b shape) shape {
	return func(x, y float64) bool { return a(x, y) && !b(x, y) }
}

// Draw returns the icon.
func Draw() *image.NRGBA {
	background := roundRect(4, 4, 124, 124, 26)
	check := union(capsule(52, 65, 60, 73, 7), capsule(60, 73, 76, 56, 7))
	plug := union(
		minus(roundRect(38, 44, 90, 86, 11), check),
		roundRect(49, 22, 59, 46, 3),
		roundRect(69, 22, 79, 46, 3),
		capsule(64, 84, 64, 110, 11),
	)
	img := image.NewNRGBA(image.Rect(0, 0, Size, Size))
	for py := 0; py < Size; py++ {
		// A vertical gradient, lighter at the top.
		t := float64(py) / (Size - 1)
		bg := color.NRGBA{mix(blueTop.R, blueBottom.R, t), mix(blueTop.G, blueBottom.G, t), mix(blueTop.B, blueBottom.B, t), 0xff}
		for px := 0; px < Size; px++ {
			var inBG, inPlug int
			for sy := 0; sy < samples; sy++ {
				for sx := 0; sx < samples; sx++ {
					x := float64(px) + (float64(sx)+0.5)/samples
					y := float64(py) + (float64(sy)+0.5)/samples
					if background(x, y) {
						inBG++
						if plug(x, y) {
							inPlug++
						}
					}
				}
			}
			if inBG == 0 {
				continue
			}
			// The plug's share of the covered samples blends white over the blue;
			// the coverage of the rounded square is the pixel's alpha.
			f := float64(inPlug) / float64(inBG)
			img.SetNRGBA(px, py, color.NRGBA{
				R: mix(bg.R, white.R, f),
				G: mix(bg.G, white.G, f),
				B: mix(bg.B, white.B, f),
				A: uint8(math.Round(255 * float64(inBG) / (samples * samples))),
			})
		}
	}
	return img
}

func mix(a, b uint8, t float64) uint8 {
	return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t))
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	if err := png.Encode(w, Draw()); err != nil {
		fmt.Fprintln(os.Stderr, "icon:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "icon:", err)
		os.Exit(1)
	}
}
