package main

import (
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/kernel/chart"
	"github.com/agenticrl/course/kernel/execute"
	"github.com/agenticrl/course/kernel/notebook"
)

func init() {
	register(command{name: "course", summary: "open the course in Jupyter (--headless: execute and check the whole book)", run: courseMain})
}

// signScript marks notebooks as trusted in the user's Jupyter signature store (the files are not
// changed), so that classic Notebook runs the scripts of their recorded charts.
const signScript = `
import sys, nbformat
from nbformat.sign import NotebookNotary
notary = NotebookNotary()
for path in sys.argv[1:]:
    notary.sign(nbformat.read(path, as_version=4))
`

func courseMain(args []string) error {
	fs := flag.NewFlagSet("course", flag.ContinueOnError)
	headless := fs.Bool("headless", false, "execute the whole book without a browser and check every output, instead of opening Jupyter")
	ip := fs.String("ip", "127.0.0.1", "address Jupyter listens on (0.0.0.0 in the container)")
	port := fs.Int("port", 8888, "port Jupyter listens on")
	edition := fs.String("edition", "en", "which edition to open: en (notebooks/) or zh, the Chinese edition (notebooks/zh/)")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if *headless {
		return bookCheck(fs.Args())
	}
	if err := checkBounds(bound{flag: "--port", value: float64(*port), lo: 1, hi: 65535}); err != nil {
		return err
	}
	var sub string
	switch *edition {
	case "en":
	case "zh":
		sub = "zh"
	default:
		return fmt.Errorf("%w: --edition %q: want en or zh", errUsage, *edition)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	// Caught from here on, an interrupt during start-up stops the server once it answers.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	j, err := startJupyter(root, filepath.Join(root, "notebooks", sub), *ip, *port, filepath.Join(root, ".cache", "jupyter.log"))
	if err != nil {
		return err
	}
	fmt.Printf("The course is open at %s\n(log: %s; Ctrl-C stops it)\n", j.URL("tree"), j.log)
	select {
	case err := <-j.done:
		return fmt.Errorf("Jupyter stopped: %v (log: %s)", err, j.log)
	case <-sig:
		j.Stop()
		return nil
	}
}

// jupyter is a running classic Jupyter Notebook server for the course.
type jupyter struct {
	cmd   *exec.Cmd
	done  chan error // receives once, when the server exits
	base  string     // http://host:port/
	token string
	log   string
}

// URL returns the address of path on the server, with the login token.
func (j *jupyter) URL(path string) string {
	return j.base + path + "?token=" + j.token
}

// Stop asks the server to exit and waits up to 10 s before killing it.
func (j *jupyter) Stop() {
	j.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-j.done:
	case <-time.After(10 * time.Second):
		j.cmd.Process.Kill()
		<-j.done
	}
}

// startJupyter serves the notebooks in dir the way `make course` does: the charts' library
// written beside them, every notebook trusted (so classic Notebook runs chart scripts), a random
// token, the kernel pointed at the checkout in root, its output in logPath. env adds to the
// environment of Jupyter and of the signing. It returns once the server answers.
func startJupyter(root, dir, ip string, port int, logPath string, env ...string) (*jupyter, error) {
	paths, err := notebook.Find(dir)
	if err != nil {
		return nil, err
	}
	if _, err := chart.WriteLibrary(dir, chart.CheckoutECharts(root)); err != nil {
		return nil, err
	}
	sign := exec.Command(execute.Python, append([]string{"-c", signScript}, paths...)...)
	sign.Env = append(os.Environ(), env...)
	if out, err := sign.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("trusting the notebooks: %v\n%s", err, out)
	}
	if ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port))); err != nil {
		return nil, fmt.Errorf("port %d is taken (%v): pass --port", port, err)
	} else {
		ln.Close()
	}
	token := make([]byte, 16)
	if _, err := rand.Read(token); err != nil {
		return nil, err
	}
	j := &jupyter{token: hex.EncodeToString(token), done: make(chan error, 1), log: logPath}
	argv := []string{"notebook", "--no-browser", "--ip=" + ip, "--port=" + strconv.Itoa(port), "--port-retries=0",
		"--notebook-dir=" + dir, "--NotebookApp.token=" + j.token}
	if os.Geteuid() == 0 {
		argv = append(argv, "--allow-root")
	}
	j.cmd = exec.Command("/usr/bin/jupyter", argv...)
	j.cmd.Env = append(append(os.Environ(), "AGENTRL_ROOT="+root), env...)
	// Should this process die without stopping it, the server is asked to stop (and stops its kernels).
	j.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := os.MkdirAll(filepath.Dir(j.log), 0o755); err != nil {
		return nil, err
	}
	logf, err := os.Create(j.log)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the server holds its own copy of the descriptor
	j.cmd.Stdout, j.cmd.Stderr = logf, logf
	if err := j.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting Jupyter (run `make setup`): %w", err)
	}
	go func() { j.done <- j.cmd.Wait() }()

	host := ip
	if host == "0.0.0.0" {
		host = "127.0.0.1"
	}
	j.base = fmt.Sprintf("http://%s/", net.JoinHostPort(host, strconv.Itoa(port)))
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(j.URL("api/status"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return j, nil
			}
		}
		select {
		case err := <-j.done:
			return nil, fmt.Errorf("Jupyter stopped (%v); its log: %s", err, j.log)
		case <-time.After(300 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			j.cmd.Process.Kill()
			return nil, fmt.Errorf("Jupyter did not answer within a minute; its log: %s", j.log)
		}
	}
}
