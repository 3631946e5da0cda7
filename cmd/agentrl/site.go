package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agenticrl/course/kernel/site"
)

func init() {
	bookCommands["site"] = command{name: "site", summary: "export the notebooks as a static web site that works offline (--out DIR)", run: bookSite}
}

func bookSite(args []string) error {
	err := site.Main(args)
	if errors.Is(err, site.ErrUsage) {
		// Keep one "usage:" prefix: errUsage's.
		return fmt.Errorf("%w%s", errUsage, strings.TrimPrefix(err.Error(), site.ErrUsage.Error()))
	}
	return err
}
