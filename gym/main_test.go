package gym

import (
	"os"
	"sync"
	"testing"

	"github.com/agenticrl/course/gym/sandbox"
)

const datasetDir = "../datasets/bugfix"

var (
	poolOnce sync.Once
	testPool *sandbox.Pool
	poolErr  error

	tasksOnce sync.Once
	allTasks  []*Task
	tasksErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if testPool != nil {
		testPool.Close()
	}
	os.Exit(code)
}

// pool returns the package's shared sandbox pool.
func pool(t testing.TB) *sandbox.Pool {
	t.Helper()
	poolOnce.Do(func() { testPool, poolErr = sandbox.New(sandbox.Options{}) })
	if poolErr != nil {
		t.Fatal(poolErr)
	}
	return testPool
}

func tasks(t testing.TB) []*Task {
	t.Helper()
	tasksOnce.Do(func() { allTasks, tasksErr = LoadTasks(datasetDir) })
	if tasksErr != nil {
		t.Fatal(tasksErr)
	}
	return allTasks
}

// sample returns the first task of every (split, kind) pair.
func sample(t testing.TB) []*Task {
	seen := map[string]bool{}
	var out []*Task
	for _, task := range tasks(t) {
		k := string(task.Split) + "/" + string(task.Kind)
		if !seen[k] {
			seen[k] = true
			out = append(out, task)
		}
	}
	return out
}
