// Package checkout is where the course's files are: the checkout that holds the notebooks, the
// BugFix tasks, the npm packages and the caches set-up fills.
package checkout
