package gym

import "testing"

// BenchmarkRunEpisode measures whole scripted episodes (test, the fixing menu edit, test,
// submit), as a training loop would run them. The memo is
// on, so repeated episodes measure the gym's own overhead more than Python.
func BenchmarkRunEpisode(b *testing.B) {
	all := tasks(b)
	env := NewEnv(pool(b), Config{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		task := all[i%len(all)]
		ref, _ := FixEdit(task)
		env.Reset(task)
		for _, a := range []Action{{Tool: ToolTest}, {Tool: ToolEdit, Menu: &ref}, {Tool: ToolTest}, {Tool: ToolSubmit}} {
			if _, err := env.Step(a); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMenu measures building the edit menu and the token classes of a module, which every
// observation does.
func BenchmarkMenu(b *testing.B) {
	all := tasks(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src := all[i%len(all)].Buggy
		Menu(src)
		EncodeCode(src)
	}
}
