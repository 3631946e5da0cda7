// Package agentrl is the library the course builds: every notebook cell whose first line is
// //@save is collected here by `agentrl book build-library`, one generated file per chapter
// (chNN_slug.go), in chapter order. Do not edit the generated files; edit the notebook and rebuild.
// Hand-written tests for the collected code live beside them as *_test.go.
package agentrl
