package gym_test

import (
	"fmt"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

// An episode on one task: test, apply the fixing menu edit, test again, submit.
func Example() {
	tasks, err := gym.LoadTasks("../datasets/bugfix")
	if err != nil {
		panic(err)
	}
	var task *gym.Task
	for _, t := range tasks {
		if t.ID == "clamp-wrong_comparison-1" {
			task = t
		}
	}
	pool, err := sandbox.New(sandbox.Options{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer pool.Close()

	env := gym.NewEnv(pool, gym.Config{Reward: gym.Hidden})
	env.Reset(task)
	st, _ := env.Step(gym.Action{Tool: gym.ToolTest})
	fmt.Print(st.Obs.Text)
	fmt.Printf("summary: %d of %d pass, first failure %d (%s)\n", st.Obs.Struct.Tests.Passed,
		st.Obs.Struct.Tests.Total, st.Obs.Struct.Tests.FirstFail, st.Obs.Struct.Tests.Symptom)

	fix, _ := gym.FixEdit(task)
	edit := st.Obs.Struct.Menu[fix.Line-1][fix.Index]
	fmt.Printf("menu edit %d on line %d: %s\n", fix.Index, fix.Line, edit.Op)
	env.Step(gym.Action{Tool: gym.ToolEdit, Menu: &fix})

	st, _ = env.Step(gym.Action{Tool: gym.ToolTest})
	fmt.Printf("after: %d of %d visible tests pass\n", st.Obs.Struct.Tests.Passed, st.Obs.Struct.Tests.Total)
	st, _ = env.Step(gym.Action{Tool: gym.ToolSubmit})
	fmt.Printf("reward %.1f, hidden %d/%d\n", st.Reward, st.Outcome.HiddenPassed, st.Outcome.HiddenTotal)
	// Output:
	// test_visible.py: 2 of 3 passed
	// FAIL test_1: AssertionError: clamp(-7, -1, -1) returned -7, expected -1
	// PASS test_2
	// PASS test_3
	// summary: 2 of 3 pass, first failure 1 (wrong_value)
	// menu edit 1 on line 2: > -> <
	// after: 3 of 3 visible tests pass
	// reward 1.0, hidden 12/12
}
