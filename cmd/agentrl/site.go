package main

import "github.com/agenticrl/course/kernel/site"

func init() {
	register(command{name: "site", summary: "export the notebooks as a static web site (offline)", run: site.Main})
}
