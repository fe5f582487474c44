package main

import (
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestIconUpToDate: extension/icon.png is what Draw draws, pixel for pixel
// (compared decoded, so a different zlib in another Go release cannot fail it).
func TestIconUpToDate(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "extension", "icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	committed, err := png.Decode(f)
	if err != nil {
		t.Fatalf("extension/icon.png: %v", err)
	}
	if b := committed.Bounds(); b.Dx() != Size || b.Dy() != Size {
		t.Fatalf("extension/icon.png is %dx%d, want %dx%d", b.Dx(), b.Dy(), Size, Size)
	}
	got := image.NewNRGBA(committed.Bounds())
	draw.Draw(got, got.Bounds(), committed, committed.Bounds().Min, draw.Src)
	want := Draw()
	diff := 0
	for i := range want.Pix {
		if got.Pix[i] != want.Pix[i] {
			diff++
		}
	}
	if diff > 0 {
		t.Fatalf("extension/icon.png differs from Draw in %d bytes: go run ./scripts/icon > extension/icon.png", diff)
	}
}

// TestIconHasTheMark: the drawing is a white mark on an opaque blue square
// with transparent corners, so a Draw that paints nothing cannot pass.
func TestIconHasTheMark(t *testing.T) {
	img := Draw()
	if a := img.NRGBAAt(0, 0).A; a != 0 {
		t.Errorf("corner alpha %d, want 0", a)
	}
	if c := img.NRGBAAt(64, 100); c.R != 0xff || c.G != 0xff || c.B != 0xff || c.A != 0xff {
		t.Errorf("cord pixel %v, want opaque white", c)
	}
	if c := img.NRGBAAt(20, 64); c.A != 0xff || c.B <= c.R {
		t.Errorf("background pixel %v, want opaque blue", c)
	}
	if c := img.NRGBAAt(60, 72); c.R == 0xff {
		t.Errorf("check mark pixel %v, want the blue cut out of the plug", c)
	}
}
