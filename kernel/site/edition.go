package site

import (
	"fmt"
	"regexp"
)

// edition is one language of the site: the words of its pages and how its chapters are labelled.
// The English edition is the site's root; the Chinese one, built from the translated notebooks,
// is the folder Dir beside it, and every page links to its twin in the other edition.
type edition struct {
	Lang string // the pages' lang attribute
	Dir  string // folder of the edition under the site root: "" or "zh/"
	// toOther is the other edition's folder, relative to this one's pages.
	toOther string
	// Name is the edition's name in its own language, the text of the link that switches to it.
	Name string
	UI   ui
	// label makes "Chapter 6" or "Appendix A"; sep joins a label and a title.
	chapterLabel, appendixLabel func(short string) string
	sep                         string
	// labelPrefix matches a title that starts with its own label: "Chapter 6: ", "第 6 章：".
	labelPrefix *regexp.Regexp
	index       string // the index page's template
	// title replaces DefaultTitle in this edition; "" keeps it.
	title string
}

// ui is what the templates and the page script print.
type ui struct {
	Previous, Next, Contents, OnThisPage, Chapters, Search, SearchLabel, NoMatch, Notebook, Saved, SavedTitle string
	Number, Chapter                                                                                           string // the chapter table's first two column heads
	NotebookLink                                                                                              string // "Notebook: "
}

var (
	english = &edition{
		Lang: "en", Name: "English", toOther: "zh/",
		UI: ui{Previous: "Previous", Next: "Next", Contents: "Contents", OnThisPage: "On this page", Chapters: "Chapters",
			Search: "Search the course", SearchLabel: "Search the course", NoMatch: "No match in the course.",
			Number: "No.", Chapter: "Chapter", Notebook: "Notebook", NotebookLink: "Notebook: ", Saved: "saved to agentrl", SavedTitle: "This cell is saved into the agentrl package"},
		chapterLabel:  func(s string) string { return "Chapter " + s },
		appendixLabel: func(s string) string { return "Appendix " + s },
		sep:           ": ",
		labelPrefix:   regexp.MustCompile(`^(?:Chapter|Appendix)\s+([0-9A-Z]+)\s*[:.\-–—]\s*`),
		index:         "templates/index.html",
	}
	chinese = &edition{
		Lang: "zh-CN", Dir: "zh/", Name: "中文", toOther: "../",
		UI: ui{Previous: "上一章", Next: "下一章", Contents: "目录", OnThisPage: "本页内容", Chapters: "章节",
			Search: "搜索课程", SearchLabel: "搜索课程", NoMatch: "课程中没有匹配的内容。",
			Number: "章", Chapter: "标题", Notebook: "笔记本", NotebookLink: "笔记本：", Saved: "已保存到 agentrl", SavedTitle: "此单元格会被收入 agentrl 包"},
		chapterLabel:  func(s string) string { return fmt.Sprintf("第 %s 章", s) },
		appendixLabel: func(s string) string { return "附录 " + s },
		sep:           "：",
		labelPrefix:   regexp.MustCompile(`^(?:第\s*([0-9]+)\s*章|附录\s*([A-Z]))\s*[:：.\-–—]?\s*`),
		index:         "templates/index.zh.html",
		title:         "智能体强化学习：从策略梯度到编程智能体",
	}
)

// ownLabel returns the length of the label a title starts with, when that label is short's;
// 0 when it has none.
func (e *edition) ownLabel(title, short string) int {
	m := e.labelPrefix.FindStringSubmatch(title)
	if m == nil || len(m[0]) >= len(title) {
		return 0
	}
	for _, g := range m[1:] {
		if g == short {
			return len(m[0])
		}
	}
	return 0
}
