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
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if *headless {
		return bookCheck(fs.Args())
	}
	root, err := courseRoot()
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "notebooks")
	paths, err := notebook.Find(dir)
	if err != nil {
		return err
	}
	if _, err := writeChartLibrary(); err != nil {
		return err
	}
	sign := exec.Command(execute.Python, append([]string{"-c", signScript}, paths...)...)
	if out, err := sign.CombinedOutput(); err != nil {
		return fmt.Errorf("trusting the notebooks: %v\n%s", err, out)
	}
	if ln, err := net.Listen("tcp", net.JoinHostPort(*ip, strconv.Itoa(*port))); err != nil {
		return fmt.Errorf("port %d is taken (%v): pass --port", *port, err)
	} else {
		ln.Close()
	}
	token := make([]byte, 16)
	if _, err := rand.Read(token); err != nil {
		return err
	}
	tok := hex.EncodeToString(token)
	argv := []string{"notebook", "--no-browser", "--ip=" + *ip, "--port=" + strconv.Itoa(*port), "--port-retries=0",
		"--notebook-dir=" + dir, "--NotebookApp.token=" + tok}
	if os.Geteuid() == 0 {
		argv = append(argv, "--allow-root")
	}
	cmd := exec.Command("/usr/bin/jupyter", argv...)
	cmd.Env = append(os.Environ(), "AGENTRL_ROOT="+root)
	logPath := filepath.Join(root, ".cache", "jupyter.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting Jupyter (run `make setup`): %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	host := *ip
	if host == "0.0.0.0" {
		host = "127.0.0.1"
	}
	base := fmt.Sprintf("http://%s/", net.JoinHostPort(host, strconv.Itoa(*port)))
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "api/status?token=" + tok)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-done:
			return fmt.Errorf("Jupyter stopped (%v); its log: %s", err, logPath)
		case <-time.After(300 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return fmt.Errorf("Jupyter did not answer within a minute; its log: %s", logPath)
		}
	}
	fmt.Printf("The course is open at %stree?token=%s\n(log: %s; Ctrl-C stops it)\n", base, tok, logPath)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case err := <-done:
		return fmt.Errorf("Jupyter stopped: %v (log: %s)", err, logPath)
	case <-sig:
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		return nil
	}
}
