package ide

import "testing"

// BenchmarkAddAllCapabilities: 20 missing hosts and a missing host method
// in one page, fixed by merging the fixes of one check (the lists exist:
// no check after the first) and, for comparison, one fix per check.
func BenchmarkAddAllCapabilities(b *testing.B) {
	caps := `,
  "capabilities": { "host": ["http.fetch"], "fetch": ["api.example.org"] }`
	dir := fixAllPlugin(b, 20, caps)
	b.Run("merged", func(b *testing.B) {
		for b.Loop() {
			ck := &fixChecker{dir: dir}
			vw := ck.check(b, nil)
			if n, _ := vw.AddAllCapabilities("code/get.ts", ck.recheck(b)); n != 21 {
				b.Fatalf("%d fixes", n)
			}
		}
	})
	b.Run("one-at-a-time", func(b *testing.B) {
		for b.Loop() {
			if n, _, _ := oneAtATime(b, dir, "code/get.ts"); n != 21 {
				b.Fatalf("%d fixes", n)
			}
		}
	})
}
